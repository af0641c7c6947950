"""Rule tables: each card, ability, wound, agenda ability and end condition, board before and
after, from a scenario built by `scenario.table`."""

import numpy as np
import pytest

from envs.menace import cards as c
from envs.menace import rules
from envs.menace.observe import observe
from envs.menace.spec import SPEC
from tests.menace.scenario import (
    act,
    card,
    decision,
    give_wound,
    legal,
    next_wound,
    picking,
    table,
)

BR, AR, RM = card("Basic Repair"), card("Advanced Repair"), card("Raise Morale")
CMD, REP, BS, BRAWL = card("Command"), card("Replicate"), card("Backstab"), card("Brawl")
PANIC, AB, RL, EXP = card("Panic!"), card("Airlock Breach"), card("Reactor Leak"), card("Explosion")


def round_of(cards_played, **kw):
    """Seat i plays cards_played[i]; everyone else passes by drawing; returns the record."""
    n = len(kw.get("agendas", (0, 3, 5, 6)))
    hands = {i: [cards_played[i]] for i in range(len(cards_played))}
    decks = {i: [RM] * 5 for i in range(n)}
    st = table(hands=hands, decks=decks, **kw)
    s = st[0]
    for i in range(n):
        act(s, f"play {c.CARD_NAMES[cards_played[i]]}" if i < len(cards_played) else "draw")
    return s


# --- Below Deck cards ---------------------------------------------------------------------------


def test_raise_morale_and_repairs_move_the_tracks():
    s = round_of([RM, BR, AR, RM], oxygen=5)
    assert (s["oxygen"], s["energy"]) == (5 + 1 - 1 - 1 + 1, 3)


def test_airlock_breach_costs_oxygen():
    s = round_of([AB, RM, RM, RM], oxygen=5)
    assert s["oxygen"] == 5 - 1 + 3


def test_explosion_costs_energy_not_below_zero():
    s = round_of([EXP, RM, RM, RM], energy=1)
    assert s["energy"] == 0


def test_command_makes_everyone_draw():
    s = round_of([CMD, RM, RM, RM], oxygen=6)
    assert s["oxygen"] == 6 - 1 + 3
    assert list(s["hand_n"][:4]) == [1, 1, 1, 1]
    assert list(s["deck_n"][:4]) == [4, 4, 4, 4]


def test_panic_discards_a_random_card_from_everyone():
    st = table(hands={0: [PANIC], 1: [RM, RM], 2: [RM, BR], 3: [RM]}, decks={0: [RM]})
    s = st[0]
    act(s, "play Panic!", "play Raise Morale", "play Raise Morale", "play Raise Morale")
    assert s["oxygen"] == 4 - 1 + 3
    assert list(s["hand_n"][:4]) == [0, 0, 0, 0]


def test_backstab_wounds_the_mission_leader_once():
    s = round_of([BS, BS, RM, RM], mission_leader=0)
    assert s["wound_n"][0] == 1 and s["wound_n"].sum() == 1


def test_brawl_lets_the_mission_leader_choose_once():
    st = table(hands={0: [BRAWL], 1: [BRAWL], 2: [RM], 3: [RM]}, decks={0: [RM], 1: [RM]})
    s = st[0]
    act(s, "play Brawl", "play Brawl", "play Raise Morale", "play Raise Morale")
    assert decision(s) == (rules.BRAWL_TARGET, 0)
    act(s, "seat +2")
    assert s["wound_n"][2] == 1 and s["wound_n"].sum() == 1
    assert decision(s)[0] == rules.CALL_VOTE


def test_reactor_leak_wounds_unwounded_players_of_cards():
    st = table(
        hands={0: [RL], 1: [RM], 2: [RM]}, decks={3: [RM]}, wounds={2: [c.FLESH_WOUND]}
    )
    s = st[0]
    act(s, "play Reactor Leak", "play Raise Morale", "play Raise Morale", "draw")
    assert list(s["wound_n"][:4]) == [1, 1, 1, 0]


def test_replicate_copies_the_next_card_costs_included():
    s = table(hands={0: [REP], 1: [AR]}, decks={2: [RM], 3: [RM]}, oxygen=6)[0]
    s["emma_n"] = 0  # no EmMA: two cards played, two needed
    act(s, "play Replicate", "play Advanced Repair", "draw", "draw")
    # whichever order: Replicate first copies Advanced Repair; last carries over
    if s["replicate_waiting"]:
        assert (s["oxygen"], s["energy"]) == (5, 2)
    else:
        assert (s["oxygen"], s["energy"]) == (4, 4)


def test_replicate_cannot_copy_backstab_and_is_spent():
    s = table(hands={}, oxygen=6)[0]
    s["replicate_waiting"] = True
    rules.reveal(s, BS)
    assert not s["replicate_waiting"] and s["wound_n"].sum() == 1


def test_replicate_then_replicate_waits_once():
    s = table(hands={}, oxygen=6)[0]
    rules.reveal(s, REP)
    rules.reveal(s, REP)
    rules.reveal(s, RM)
    assert s["oxygen"] == 8 and not s["replicate_waiting"]


def test_reactor_overload_caps_energy_but_not_oxygen():
    st = table(hands={0: [AR], 1: [AR], 2: [AR], 3: [AR]}, oxygen=8, energy=3)
    s = st[0]
    act(s, *["play Advanced Repair"] * 4)
    assert (s["energy"], s["oxygen"]) == (8, 4)


def test_emma_tops_up_to_half_the_table():
    st = table(hands={}, decks={i: [RM] for i in range(4)}, emma=[RM, RM, RM], oxygen=4)
    s = st[0]
    act(s, "draw", "draw", "draw", "draw")
    assert s["oxygen"] == 6 and s["emma_n"] == 1 and s["emma_discard_n"] == 2


# --- Above Deck Actions -------------------------------------------------------------------------


def test_laser_pistol_costs_energy_and_wounds():
    s = table(characters=(3, 5, 6, 7), hands={}, decks={0: [RM]}, energy=3)[0]
    act(s, "use ability 2", "seat +1")
    assert s["energy"] == 1 and s["wound_n"][1] == 1


def test_first_aid_removes_a_wound_for_two_oxygen():
    s = table(characters=(0, 5, 6, 7), wounds={2: [c.FLESH_WOUND]}, oxygen=5, decks={0: [RM]})[0]
    act(s, "use ability 2", "seat +2")
    assert s["oxygen"] == 3 and s["wound_n"][2] == 0


def test_infected_wound_cannot_be_removed():
    s = table(characters=(0, 5, 6, 7), wounds={2: [c.INFECTED_WOUND]}, oxygen=5, decks={0: [RM]})[0]
    assert "use ability 2" not in legal(s)


def test_crunch_draws_three_and_wounds():
    s = table(characters=(2, 5, 6, 7), decks={1: [RM] * 5}, oxygen=5)[0]
    next_wound(s, c.FLESH_WOUND)
    act(s, "use ability 1", "seat +1")
    assert s["hand_n"][1] == 3 and s["wound_n"][1] == 1 and s["oxygen"] == 4


def test_veto_cancels_the_card_it_is_used_on():
    st = table(characters=(3, 5, 6, 7), hands={0: [RM], 1: [AB], 2: [AB]}, decks={3: [RM]})
    s = st[0]
    s["emma_n"] = 0
    act(s, "use ability 1", "card Raise Morale", "play Airlock Breach", "play Airlock Breach", "draw")
    assert decision(s) == (rules.VETO_CHOICE, 0)
    act(s, "yes")
    assert s["oxygen"] == 3


def test_veto_must_cancel_the_last_card():
    st = table(characters=(3, 5, 6, 7), hands={0: [RM], 1: [AB]}, decks={2: [RM], 3: [RM]})
    s = st[0]
    s["emma_n"] = 0
    act(s, "use ability 1", "card Raise Morale", "play Airlock Breach", "draw", "draw")
    assert s["oxygen"] == 4 and decision(s)[0] == rules.CALL_VOTE


def test_delegate_makes_another_seat_act_now():
    s = table(characters=(1, 5, 6, 7), hands={2: [RM]}, decks={0: [RM]}, oxygen=4)[0]
    act(s, "use ability 1", "seat +2")
    assert decision(s) == (rules.DELEGATED, 2)
    assert "draw" not in legal(s)
    act(s, "play Raise Morale")
    assert decision(s) == (rules.TURN, 1) and s["played_n"][2] == 1


def test_rush_plays_two_cards():
    s = table(characters=(9, 5, 6, 7), hands={0: [RM, BR]}, energy=2, decks={1: [RM]})[0]
    act(s, "use ability 1", "play Raise Morale", "play Basic Repair")
    assert s["played_n"][0] == 2 and s["energy"] == 1 and decision(s) == (rules.TURN, 1)


def test_course_correction_moves_the_mission_leader():
    s = table(characters=(9, 5, 6, 7), decks={0: [RM]})[0]
    act(s, "use ability 2", "seat +3")
    assert s["mission_leader"] == 3 and s["round_leader"] == 0


def test_overclock_and_jury_rig_raise_energy():
    s = table(characters=(4, 5, 6, 7), hands={0: [RM]}, oxygen=5, decks={0: [RM]})[0]
    act(s, "use ability 1", "card Raise Morale")
    assert (s["energy"], s["oxygen"], s["hand_n"][0]) == (2, 4, 0)


def test_analyze_shows_a_hand_to_its_user_only():
    s = table(characters=(7, 5, 6, 4), hands={2: [AB, AB]}, energy=1, decks={0: [RM]})[0]
    act(s, "use ability 1", "seat +2")
    assert s["seen_hand"][0, 2, AB] == 2 and s["seen_hand"][1, 2, AB] == -1


def test_calibrate_can_bottom_the_emma_card():
    s = table(characters=(7, 5, 6, 4), emma=[RM, AB], decks={0: [RM]})[0]
    act(s, "use ability 2")
    assert s["seen_emma"][0] == AB
    act(s, "yes")
    assert list(s["emma"][:2]) == [AB, RM]


def test_shield_prevents_the_next_wound():
    s = table(characters=(15, 3, 6, 7), energy=3, oxygen=5, decks={0: [RM], 1: [RM]})[0]
    act(s, "use ability 1", "seat +0", "use ability 2", "seat +3")
    assert s["wound_n"][0] == 0 and not s["shielded"][0]


def test_hide_keeps_others_abilities_off_you():
    s = table(characters=(12, 3, 6, 7), hands={0: [RM]}, energy=3, decks={1: [RM]})[0]
    act(s, "use ability 1", "card Raise Morale")
    act(s, "use ability 2")
    assert "seat +3" not in legal(s)  # seat 0 is +3 from seat 1


# --- wounds -------------------------------------------------------------------------------------


def test_broken_hand_lowers_the_hand_limit():
    s = table(hands={0: [RM] * 4}, decks={0: [RM]}, wounds={0: [c.BROKEN_HAND]})[0]
    assert decision(s) == (rules.HAND_LIMIT, 0)
    act(s, "card Raise Morale")
    assert s["hand_n"][0] == 3 and decision(s) == (rules.TURN, 0)


def test_broken_leg_forbids_above_deck_actions():
    s = table(characters=(4, 5, 6, 7), hands={0: [RM]}, decks={0: [RM]}, wounds={0: [c.BROKEN_LEG]})[0]
    assert legal(s) == ["draw", "play Raise Morale"]


def test_punctured_lung_costs_oxygen_on_receipt():
    s = table(hands={}, oxygen=5)[0]
    next_wound(s, c.PUNCTURED_LUNG)
    rules.wound(s, 1)
    assert s["oxygen"] == 4


def test_adrenaline_surge_draws_two():
    s = table(hands={}, decks={1: [RM] * 3})[0]
    next_wound(s, c.ADRENALINE_SURGE)
    rules.wound(s, 1)
    assert s["hand_n"][1] == 2


def test_radiation_burns_cost_energy():
    s = table(hands={}, energy=4)[0]
    next_wound(s, c.RADIATION_BURNS)
    rules.wound(s, 1)
    assert s["energy"] == 3


def test_burned_hands_forbid_repairs():
    s = table(hands={0: [BR, AR, RM]}, wounds={0: [c.BURNED_HANDS]})[0]
    assert "play Basic Repair" not in legal(s) and "play Raise Morale" in legal(s)


def test_tremors_forbid_drawing_with_two_cards():
    s = table(hands={0: [RM, RM]}, decks={0: [RM]}, wounds={0: [c.TREMORS]})[0]
    assert "draw" not in legal(s)


def test_dislocated_shoulder_is_passed_over_by_the_token():
    s = table(hands={}, wounds={1: [c.DISLOCATED_SHOULDER]})[0]
    rules.pass_mission_leader(s)
    assert s["mission_leader"] == 2


# --- accusation, exile, deaths ------------------------------------------------------------------


def vote_round(s, ballots):
    """Everyone draws, nobody plays; seat 0 calls; `ballots` by seat ('pass' or 'seat +k')."""
    for _ in range(4):
        act(s, "draw")
    act(s, "yes")
    for b in ballots:
        act(s, b)


def test_exile_needs_a_strict_plurality_over_abstentions():
    s = table(decks={i: [RM] * 3 for i in range(4)}, emma=[RM] * 20, oxygen=8)[0]
    vote_round(s, ["seat +1", "pass", "seat +3", "pass"])  # 2 votes for seat 1 vs 2 abstain
    assert not s["exiled"].any()


def test_exiling_the_menace_gains_oxygen_and_reveals():
    s = table(decks={i: [RM] * 3 for i in range(4)}, emma=[RM] * 20, oxygen=6)[0]
    # seat 0 is The Contagion; seats 1..3 vote it
    vote_round(s, ["pass", "seat +3", "seat +2", "seat +1"])
    assert s["exiled"][0] and s["revealed"][0] and s["alive"][0]
    assert s["oxygen"] == 6 + 2 + 2  # two EmMA Raise Morale, +2 for the exile


def test_paranoia_forbids_abstaining_and_crushed_throat_voting():
    s = table(
        decks={i: [RM] * 3 for i in range(4)},
        emma=[RM] * 20,
        oxygen=6,
        wounds={1: [c.PARANOIA], 2: [c.CRUSHED_THROAT]},
    )[0]
    for _ in range(4):
        act(s, "draw")
    act(s, "yes", "pass")
    assert decision(s) == (rules.VOTE, 1) and "pass" not in legal(s)
    act(s, "seat +1")
    assert decision(s) == (rules.VOTE, 3)


def test_two_wounds_kill_at_the_end_of_the_round_and_vengeant_strikes_back():
    s = table(
        decks={i: [RM] * 3 for i in range(4)},
        emma=[RM] * 20,
        oxygen=8,
        wounds={1: [c.FLESH_WOUND, c.BROKEN_HAND]},
    )[0]
    for _ in range(4):
        act(s, "draw")
    act(s, "pass", "pass", "pass", "pass")
    assert not s["alive"][1] and s["revealed"][1]
    assert decision(s) == (rules.AGENDA_TARGET, 1)
    act(s, "seat +2")
    assert s["wound_n"][3] == 1
    assert s["oxygen"] == 8 + 2 - 2


def test_the_resolute_survives_two_wounds():
    s = table(
        decks={i: [RM] * 3 for i in range(4)},
        emma=[RM] * 20,
        wounds={2: [c.FLESH_WOUND, c.BROKEN_HAND]},
    )[0]
    for _ in range(4):
        act(s, "draw")
    act(s, "pass", "pass", "pass", "pass")
    assert s["alive"][2]


def test_no_cards_at_all_kills_at_the_start_of_the_turn():
    s = table(hands={1: []}, decks={1: []}, oxygen=6)[0]
    act(s, "draw")
    assert not s["alive"][1]


def test_contagion_empties_a_hand_when_killed():
    s = table(hands={2: [RM, RM]}, decks={1: [RM]})[0]
    s["agenda_due"][0] = True
    s["alive"][0] = False
    rules.advance(s)
    act(s, "seat +2")
    assert s["hand_n"][2] == 0


# --- end of the game ----------------------------------------------------------------------------


def test_oxygen_zero_is_a_menace_win():
    s = round_of([AB, AB, AB, AB], oxygen=1)
    assert s["terminated"] and s["winner"] == rules.MENACE_TEAM
    assert list(s["rewards"][:4]) == [1.0, -1.0, -1.0, -1.0]


def test_energy_twenty_at_the_end_of_the_round_is_a_crew_win():
    s = table(decks={i: [RM] * 3 for i in range(4)}, hands={0: [AR]}, energy=18, oxygen=8)[0]
    act(s, "play Advanced Repair", "draw", "draw", "draw", "pass", "pass", "pass", "pass")
    assert s["terminated"] and s["winner"] == rules.CREW_TEAM


def test_safety_threshold_wins_at_once_with_no_menace_alive():
    s = table(hands={}, energy=13)[0]
    s["alive"][0] = False
    rules.gain_energy(s, 1)
    assert s["terminated"] and s["winner"] == rules.CREW_TEAM


def test_all_crew_killed_is_a_menace_win():
    s = table(hands={}, oxygen=8)[0]
    for seat in (1, 2, 3):
        rules.kill(s, seat)
    assert s["terminated"] and s["winner"] == rules.MENACE_TEAM


def test_the_coward_switches_with_the_menace_and_wins_by_surviving():
    agendas = (c.THE_CONTAGION, c.THE_BUTCHER, c.THE_SAINT, c.THE_COWARD, 3, 5, 6)
    s = table(agendas=agendas, characters=(4, 5, 6, 7, 8, 10, 11), hands={}, oxygen=9)[0]
    rules.kill(s, 0)
    assert rules.team_of(s, 3) == rules.MENACE_TEAM
    rules.kill(s, 1)
    assert rules.team_of(s, 3) == rules.CREW_TEAM
    rules.change_oxygen(s, -20)
    assert s["rewards"][3] == 1.0


def test_truncation_is_a_draw():
    s = table(decks={i: [RM] * 3 for i in range(4)}, emma=[RM] * 20, max_rounds=1, oxygen=5)[0]
    act(s, "draw", "draw", "draw", "draw", "pass", "pass", "pass", "pass")
    assert s["truncated"] and not s["terminated"] and not s["rewards"].any()


# --- more Above Deck Actions --------------------------------------------------------------------
# Characters by index: 0 Rotti (Bloodwork, First Aid), 1 Andrew (Delegate, Commandeer),
# 2 Martella (Crunch, Moxie), 5 Sela (Surveillance, Lockdown), 6 Ines (Relay, Intercept),
# 8 Mara (Requisition, Share Rations), 10 Osric (Sermon, Vigil), 11 Pip (Scrap, Tinker),
# 12 Vex (Hide, Pilfer), 13 K-7 (Self-Repair, Emergency Protocol), 14 Juno (Photosynthesis,
# Prune), 15 Brack (Shield, Suppress).


def no_emma(s):
    """An empty EmMA deck and discard pile: only the seats' own cards resolve."""
    s["emma_n"] = 0
    s["emma_discard_n"] = 0


def test_bloodwork_makes_the_target_reveal_a_card_of_its_choice():
    s = table(characters=(0, 5, 6, 7), hands={2: [AB, RM]}, decks={0: [RM]}, oxygen=5)[0]
    act(s, "use ability 1", "seat +2")
    assert decision(s) == (rules.BLOODWORK_REVEAL, 2)
    assert legal(s) == ["card Raise Morale", "card Airlock Breach"]
    act(s, "card Airlock Breach")
    assert s["oxygen"] == 4 and s["bloodwork"][2] == AB
    assert s["wound_n"][0] == 1 and s["wound_n"][2] == 0  # the user pays the Wound
    assert s["hand_n"][2] == 2 and s["hand"][2, AB] == 1  # revealed, not discarded
    assert decision(s) == (rules.TURN, 1)


def test_commandeer_takes_the_top_of_a_deck():
    s = table(characters=(1, 5, 6, 7), decks={0: [RM], 2: [RM, AB]}, energy=2)[0]
    act(s, "use ability 2", "seat +2")
    assert s["hand"][0, AB] == 1 and s["deck_n"][2] == 1 and s["energy"] == 1


def test_moxie_gains_two_oxygen_when_someone_was_wounded():
    s = table(characters=(2, 5, 6, 7), hands={1: [BS], 2: [BS]}, oxygen=6)[0]
    no_emma(s)
    next_wound(s, c.FLESH_WOUND)
    act(s, "use ability 2", "play Backstab", "play Backstab", "draw")
    assert s["oxygen"] == 5 and s["wound_n"][0] == 1  # the Mission Leader was stabbed
    act(s, "pass", "pass", "pass", "pass")
    assert s["oxygen"] == 7 and s["round"] == 2


def test_moxie_gains_nothing_without_a_wound():
    s = table(characters=(2, 5, 6, 7), hands={1: [RM], 2: [RM]}, oxygen=6)[0]
    no_emma(s)
    act(s, "use ability 2", "play Raise Morale", "play Raise Morale", "draw")
    act(s, "pass", "pass", "pass", "pass")
    assert s["oxygen"] == 6 - 1 + 2 and s["round"] == 2


def test_surveillance_shows_the_played_cards_to_its_user_only():
    decks = {2: [RM], 3: [RM]}
    s = table(characters=(5, 4, 6, 7), hands={1: [AB]}, decks=decks, mission_leader=1)[0]
    act(s, "play Airlock Breach", "draw", "draw")
    assert decision(s) == (rules.TURN, 0)
    act(s, "use ability 1")
    assert legal(s) == ["seat +1"]  # only seat 1 has a card face down
    act(s, "seat +1")
    assert s["seen_played"][0, 1, AB] == 1 and s["seen_played"][2, 1].sum() == 0


def test_lockdown_keeps_a_seat_from_calling_a_vote_but_not_from_voting():
    """v3: before, the locked-down seat lost its ballot too, so two Menaces with Lockdown at 5
    players could block every exile (audit F6)."""
    s = table(characters=(5, 4, 6, 7), emma=[RM] * 20, oxygen=6)[0]
    act(s, "use ability 2", "seat +1", "draw", "draw", "draw")
    assert s["oxygen"] == 6 - 1 + 2 and s["locked_down"][1]  # two EmMA Raise Morale
    assert decision(s) == (rules.CALL_VOTE, 0)
    act(s, "pass")
    assert decision(s) == (rules.CALL_VOTE, 2)  # seat 1 is not asked
    act(s, "yes")
    voters = []
    while decision(s)[0] == rules.VOTE:
        voters.append(decision(s)[1])
        act(s, "pass")
    assert voters == [0, 1, 2, 3]  # v2: [0, 2, 3]


def test_relay_gives_a_card_of_the_users_choice():
    s = table(characters=(6, 4, 5, 7), hands={0: [AB, RM]}, decks={0: [RM]})[0]
    act(s, "use ability 1", "seat +1")
    assert decision(s) == (rules.RELAY_GIFT, 0)
    act(s, "card Airlock Breach")
    assert list(s["hand"][0]) == [1] + [0] * 10 and s["hand"][1, AB] == 1
    assert decision(s) == (rules.TURN, 1)


def test_intercept_shows_the_top_of_a_deck_to_its_user_only():
    s = table(characters=(6, 4, 5, 7), decks={0: [RM], 2: [RM, AB]}, energy=1)[0]
    act(s, "use ability 2", "seat +2")
    assert s["energy"] == 0 and s["deck_n"][2] == 2
    assert s["seen_top"][0, 2] == AB and s["seen_top"][1, 2] == -1


def test_requisition_draws_two_for_one_oxygen():
    s = table(characters=(8, 4, 5, 7), decks={0: [RM, AB, BR]}, oxygen=5)[0]
    act(s, "use ability 1")
    assert s["oxygen"] == 4 and s["hand"][0, BR] == 1 and s["hand"][0, AB] == 1
    assert s["deck_n"][0] == 1


def test_share_rations_draws_for_user_and_target():
    s = table(characters=(8, 4, 5, 7), decks={0: [RM, AB], 3: [BR]})[0]
    act(s, "use ability 2", "seat +3")
    assert s["hand"][0, AB] == 1 and s["hand"][3, BR] == 1
    assert s["hand_n"][1] == 0 and s["hand_n"][2] == 0


def test_sermon_removes_a_wound_for_a_discard():
    s = table(characters=(10, 4, 5, 7), hands={0: [RM]}, wounds={2: [c.FLESH_WOUND]})[0]
    act(s, "use ability 1", "card Raise Morale")
    assert legal(s) == ["seat +2"]  # the only removable Wound
    act(s, "seat +2")
    assert s["wound_n"][2] == 0 and s["hand_n"][0] == 0
    assert s["wound_deck"][0] == c.FLESH_WOUND  # under the wound deck


def test_vigil_costs_a_discard_and_gains_oxygen_when_no_one_was_killed():
    """v3: Vigil was free, a free +1 Oxygen a round, strictly stronger than the printed Moxie
    it was modelled on (audit F5); now it costs a card, as Raise Morale does."""
    s = table(characters=(10, 4, 5, 7), hands={0: [AB]}, energy=0, oxygen=5)[0]
    no_emma(s)
    assert "use ability 2" in legal(s)  # no Energy needed
    act(s, "use ability 2", "card Airlock Breach")
    assert s["hand_n"][0] == 0 and s["oxygen"] == 5
    act(s, "draw", "draw", "draw", "pass", "pass", "pass", "pass")
    assert s["energy"] == 0 and s["oxygen"] == 6 and s["round"] == 2


def test_vigil_needs_a_card_to_discard():
    s = table(characters=(10, 4, 5, 7), energy=0, oxygen=5)[0]
    assert "use ability 2" not in legal(s)


def test_vigil_gains_nothing_when_someone_was_killed():
    wounds = {1: [c.FLESH_WOUND, c.BROKEN_HAND]}
    s = table(characters=(10, 4, 5, 7), hands={0: [RM]}, energy=1, oxygen=5, wounds=wounds)[0]
    no_emma(s)
    act(s, "use ability 2", "card Raise Morale", "draw", "draw", "draw")
    act(s, "pass", "pass", "pass", "pass")
    assert not s["alive"][1]
    act(s, "pass")  # The Vengeant declines its ability
    assert s["oxygen"] == 5 - 2 and s["energy"] == 1 and s["round"] == 2  # killed Crew -2


def test_scrap_turns_two_discards_into_energy():
    s = table(characters=(11, 4, 5, 7), hands={0: [RM, AB]}, energy=3)[0]
    act(s, "use ability 1", "card Raise Morale", "card Airlock Breach")
    assert s["energy"] == 4 and s["hand_n"][0] == 0 and decision(s) == (rules.TURN, 1)


def test_tinker_draws_then_discards_before_the_hand_limit():
    s = table(characters=(11, 4, 5, 7), hands={0: [RM] * 4}, decks={0: [AB]})[0]
    act(s, "use ability 2")
    assert decision(s) == (rules.TINKER_DISCARD, 0) and s["hand_n"][0] == 5
    act(s, "card Raise Morale")
    assert s["hand_n"][0] == 4 and s["hand"][0, AB] == 1
    assert decision(s) == (rules.TURN, 1)  # no hand-limit discard


def test_pilfer_takes_a_random_card_from_a_hand():
    s = table(characters=(12, 4, 5, 7), hands={2: [AB, AB]}, decks={0: [RM]}, oxygen=5)[0]
    act(s, "use ability 2", "seat +2")
    assert s["oxygen"] == 4 and s["hand"][0, AB] == 1 and s["hand_n"][2] == 1


def test_self_repair_removes_the_users_own_wound():
    s = table(characters=(13, 4, 5, 7), wounds={0: [c.FLESH_WOUND]}, energy=2)[0]
    act(s, "use ability 1")
    assert s["wound_n"][0] == 0 and s["energy"] == 0


def test_emergency_protocol_adds_the_emma_top_card_to_the_round():
    s = table(characters=(13, 4, 5, 7), emma=[AB, RM], energy=1)[0]
    act(s, "use ability 2")
    assert s["energy"] == 0 and s["pool_n"] == 1 and s["pool"][0] == RM
    assert s["pool_seat"][0] == rules.NOBODY and s["emma_n"] == 1


def test_photosynthesis_turns_a_discard_into_oxygen():
    s = table(characters=(14, 4, 5, 7), hands={0: [BR, AB]}, energy=3, oxygen=5)[0]
    act(s, "use ability 1")
    assert decision(s) == (rules.PAY_DISCARD, 0)
    act(s, "card Airlock Breach")
    assert (s["energy"], s["oxygen"]) == (3, 6)  # no Energy paid
    assert s["hand"][0, BR] == 1 and s["hand_n"][0] == 1
    assert decision(s) == (rules.TURN, 1)


def test_photosynthesis_needs_a_card_to_discard():
    s = table(characters=(14, 4, 5, 7), energy=3, oxygen=5)[0]
    assert "use ability 1" not in legal(s)


def test_prune_discards_a_random_card_from_a_hand():
    s = table(characters=(14, 4, 5, 7), hands={0: [RM], 1: [AB]})[0]
    act(s, "use ability 2", "card Raise Morale")
    assert legal(s) == ["seat +1"]  # the only other hand with a card
    act(s, "seat +1")
    assert s["hand_n"][0] == 0 and s["hand_n"][1] == 0


def test_suppress_takes_away_a_seats_above_deck_actions():
    s = table(characters=(15, 4, 5, 7), hands={1: [RM]}, energy=2)[0]
    act(s, "use ability 2", "seat +1")
    assert s["suppressed"][1] and s["energy"] == 1
    assert decision(s) == (rules.TURN, 1)
    assert legal(s) == ["draw", "play Raise Morale"]


# --- more wounds --------------------------------------------------------------------------------


def test_flesh_wound_changes_nothing_but_counts_toward_death():
    plain = table(hands={0: [RM], 1: [BS]})[0]
    hurt = table(hands={0: [RM], 1: [BS]}, wounds={0: [c.FLESH_WOUND]})[0]
    assert legal(plain) == legal(hurt)
    assert rules.hand_limit(hurt, 0) == rules.hand_limit(plain, 0)
    no_emma(hurt)
    next_wound(hurt, c.BROKEN_HAND)
    act(hurt, "draw", "play Backstab", "draw", "draw")  # Backstab wounds the Mission Leader
    assert hurt["alive"][0] and hurt["wound_n"][0] == 2
    act(hurt, "pass", "pass", "pass", "pass")
    assert not hurt["alive"][0]


def test_concussion_forbids_calling_a_vote_but_not_voting():
    s = table(emma=[RM] * 20, oxygen=6, wounds={0: [c.CONCUSSION]})[0]
    act(s, "draw", "draw", "draw", "draw")
    assert decision(s) == (rules.CALL_VOTE, 1)  # seat 0 is not asked
    act(s, "yes")
    assert decision(s) == (rules.VOTE, 0)


def test_severe_burns_discard_a_random_card_at_the_end_of_the_round():
    s = table(emma=[RM] * 20, oxygen=6, wounds={1: [c.SEVERE_BURNS]})[0]
    act(s, "draw", "draw", "draw", "draw", "pass", "pass", "pass", "pass")
    assert list(s["hand_n"][:4]) == [1, 0, 1, 1] and s["round"] == 2


def test_panic_attack_discards_two_on_panic():
    s = table(hands={1: [RM] * 3, 2: [RM] * 3}, oxygen=6, wounds={2: [c.PANIC_ATTACK]})[0]
    rules.resolve_panic(s)
    assert s["oxygen"] == 5 and list(s["hand_n"][1:3]) == [2, 1]


# --- agenda abilities ---------------------------------------------------------------------------


def exile_by_vote(s, seat):
    """Everyone draws; seat 0 calls; every other voter votes for `seat`, `seat` abstains."""
    for _ in range(4):
        act(s, "draw")
    act(s, "yes")
    while decision(s)[0] == rules.VOTE:
        voter = decision(s)[1]
        act(s, "pass" if voter == seat else f"seat +{(seat - voter) % 4}")


def test_the_butcher_wounds_a_crewmember_when_exiled():
    agendas = (c.THE_BUTCHER, c.THE_VENGEANT, c.THE_RESOLUTE, c.THE_WITNESS)
    s = table(agendas=agendas, emma=[RM] * 20, oxygen=6)[0]
    exile_by_vote(s, 0)
    assert s["exiled"][0] and s["oxygen"] == 6 + 2 + 2  # two EmMA Raise Morale, +2 exile
    assert decision(s) == (rules.AGENDA_TARGET, 0)
    act(s, "seat +2")
    assert s["wound_n"][2] == 1


def test_the_saint_removes_a_wound_when_killed():
    agendas = (c.THE_CONTAGION, c.THE_SAINT, c.THE_RESOLUTE, c.THE_WITNESS)
    s = table(agendas=agendas, emma=[RM] * 20, oxygen=8)[0]
    give_wound(s, 1, c.FLESH_WOUND)
    give_wound(s, 1, c.BROKEN_HAND)
    give_wound(s, 3, c.TREMORS)
    act(s, "draw", "draw", "draw", "draw", "pass", "pass", "pass", "pass")
    assert not s["alive"][1] and decision(s) == (rules.AGENDA_TARGET, 1)
    assert legal(s) == ["seat +2", "pass"]  # seat 3, the only other wounded seat
    act(s, "seat +2")
    assert s["wound_n"][3] == 0 and s["oxygen"] == 8 + 2 - 2


def test_the_witness_reveals_an_agenda_once():
    s = table(emma=[RM] * 20, oxygen=6)[0]  # seat 3 is The Witness
    exile_by_vote(s, 3)
    assert s["exiled"][3] and s["oxygen"] == 6 + 2 - 3
    assert decision(s) == (rules.AGENDA_TARGET, 3)
    act(s, "seat +1")
    assert s["revealed"][0]
    rules.kill(s, 3)  # already exiled: the ability does not fire again
    assert not s["agenda_due"][3]


def test_the_devoted_raises_energy_when_killed_unexiled():
    agendas = (c.THE_CONTAGION, c.THE_DEVOTED, c.THE_RESOLUTE, c.THE_DEVOTED)
    s = table(agendas=agendas, energy=5, oxygen=8)[0]
    rules.kill(s, 1)
    assert (s["energy"], s["oxygen"]) == (7, 6)
    rules.exile(s, 3)
    rules.kill(s, 3)
    assert (s["energy"], s["oxygen"]) == (7, 6 - 3 - 2)


def test_the_idealist_costs_one_oxygen_when_exiled():
    agendas = (c.THE_CONTAGION, c.THE_IDEALIST, c.THE_RESOLUTE, c.THE_WITNESS)
    s = table(agendas=agendas, oxygen=8)[0]
    rules.exile(s, 1)
    assert s["oxygen"] == 7
    rules.exile(s, 2)
    assert s["oxygen"] == 4


def test_the_steward_keeps_its_above_deck_actions_when_exiled():
    agendas = (c.THE_CONTAGION, c.THE_STEWARD, c.THE_RESOLUTE, c.THE_WITNESS)
    hands = {1: [RM], 2: [RM]}
    s = table(agendas=agendas, characters=(5, 14, 14, 14), hands=hands, energy=4, oxygen=8)[0]
    rules.exile(s, 1)
    rules.exile(s, 2)
    act(s, "draw")
    assert decision(s) == (rules.TURN, 1) and "use ability 1" in legal(s)
    act(s, "use ability 1", "card Raise Morale")
    assert decision(s) == (rules.TURN, 2) and "use ability 1" not in legal(s)


# --- Advanced game ------------------------------------------------------------------------------

def advanced_table(agenda):
    """Seat 1 holds `agenda`; a Menace, a Coward and a Saint sit with it."""
    agendas = (c.THE_CONTAGION, agenda, c.THE_COWARD, c.THE_SAINT)
    return table(agendas=agendas, advanced=1, oxygen=8)[0]


def field_set(name, value, index=None):
    def apply(s):
        if index is None:
            s[name] = value
        else:
            s[name][index] = value

    return apply


def untouched(s):
    pass


def seat_1_wounded(s):
    give_wound(s, 1, c.FLESH_WOUND)


# agenda: (a board where its goal is met, one where it is missed)
GOALS = {
    c.THE_VENGEANT: (field_set("alive", False, 2), untouched),
    c.THE_SAINT: (untouched, field_set("crew_exiled", True)),
    c.THE_RESOLUTE: (seat_1_wounded, untouched),
    c.THE_WITNESS: (field_set("menace_exiled", True), untouched),
    c.THE_DEVOTED: (field_set("repairs_played", 4, 1), field_set("repairs_played", 3, 1)),
    c.THE_IDEALIST: (untouched, field_set("voted_for_crew", True, 1)),
    c.THE_STEWARD: (field_set("oxygen", 4), field_set("oxygen", 3)),
}


@pytest.mark.parametrize("agenda", list(GOALS), ids=lambda a: c.AGENDA_NAMES[a])
def test_advanced_game_needs_each_crew_seats_individual_goal(agenda):
    met, missed = GOALS[agenda]
    for board, reward in ((met, 1.0), (missed, -1.0)):
        s = advanced_table(agenda)
        board(s)
        rules.win(s, rules.CREW_TEAM)
        assert s["rewards"][1] == reward
        basic = table(agendas=(c.THE_CONTAGION, agenda, c.THE_COWARD, c.THE_SAINT), oxygen=8)[0]
        board(basic)
        rules.win(basic, rules.CREW_TEAM)
        assert basic["rewards"][1] == 1.0  # the basic game ignores the goal


def test_advanced_game_coward_must_never_be_exiled_and_menace_needs_no_goal():
    s = advanced_table(c.THE_WITNESS)
    rules.win(s, rules.MENACE_TEAM)
    assert list(s["rewards"][:4]) == [1.0, -1.0, 1.0, -1.0]  # the Coward lives
    s = advanced_table(c.THE_WITNESS)
    s["exiled"][2] = True
    rules.win(s, rules.MENACE_TEAM)
    assert s["rewards"][2] == -1.0


# --- table talk ---------------------------------------------------------------------------------


def test_table_talk_claims_and_accusations_are_public_before_the_vote():
    from envs.menace.observe import observe
    from envs.menace.spec import SPEC

    s = table(emma=[RM] * 20, oxygen=6, table_talk=1)[0]
    act(s, "draw", "draw", "draw", "draw", "yes")
    assert decision(s) == (rules.TALK_CLAIM, 0)
    assert legal(s) == ["pass", "claim Good", "claim Neutral", "claim Bad"]
    act(s, "claim Bad")
    assert decision(s) == (rules.TALK_ACCUSE_SEAT, 0)
    act(s, "seat +2")
    assert decision(s) == (rules.TALK_ACCUSE_CARD, 0)
    act(s, "card Airlock Breach")
    act(s, "pass", "pass")  # seat 1: no claim, no accusation
    act(s, "claim Good", "pass", "claim Neutral", "pass")
    assert decision(s) == (rules.VOTE, 0)
    assert list(s["claim"][:4]) == [c.BAD, 3, c.GOOD, c.NEUTRAL]
    assert s["accused"][0] == 2 and s["accused_card"][0] == AB
    layout = SPEC.observation_layout(SPEC.resolve(num_players=4, table_talk=1))
    out = np.zeros(layout.size, np.float32)
    observe(s, 1, out, layout.offsets, 4)  # seat 1 sees seat 0 (its +3) accuse seat 2 (its +1)
    view = layout.split(out)
    assert view["claims"][3, c.BAD] == 1 and view["claims"][1, c.GOOD] == 1
    assert view["accused"][3, 1] == 1 and view["accused_card"][3, AB] == 1


def test_without_table_talk_the_vote_follows_the_call():
    s = table(emma=[RM] * 20, oxygen=6)[0]
    act(s, "draw", "draw", "draw", "draw", "yes")
    assert decision(s) == (rules.VOTE, 0)


# --- version 3: the faults an outside audit found (issue 10) ------------------------------------


def test_mission_leader_killed_at_the_end_of_the_round_passes_the_token_once():
    """Rulebook: the token passes "to the next clockwise player". v2 passed it on the death and
    again at the end of the round, so seat 1 never led (audit F2)."""
    agendas = (c.THE_IDEALIST, c.THE_CONTAGION, c.THE_RESOLUTE, c.THE_STEWARD)
    s = table(agendas=agendas, hands={1: [BS]}, wounds={0: [c.FLESH_WOUND]}, emma=[RM] * 4,
              oxygen=8)[0]
    next_wound(s, c.BROKEN_HAND)
    assert s["mission_leader"] == 0 and s["wound_n"][0] == 1  # before
    act(s, "draw", "play Backstab", "draw", "draw")  # the Backstab wounds the Mission Leader
    assert s["wound_n"][0] == 2
    act(s, "pass", "pass", "pass", "pass")
    assert not s["alive"][0] and s["round"] == 2  # after: killed at the end of round 1
    assert s["mission_leader"] == 1 and decision(s) == (rules.TURN, 1)  # v2: seat 2


def test_mission_leader_killed_at_the_start_of_its_turn_leads_no_more_but_the_next_seat_does():
    """The token moves on at once (a living Mission Leader is needed for Backstab and Brawl)
    and, having moved this round, stays with seat 1 for the next round (audit F8)."""
    agendas = (c.THE_IDEALIST, c.THE_CONTAGION, c.THE_RESOLUTE, c.THE_STEWARD)
    s = table(agendas=agendas, decks={0: []}, emma=[RM] * 4, oxygen=8)[0]
    assert not s["alive"][0] and s["mission_leader"] == 1 and s["round_leader"] == 0
    act(s, "draw", "draw", "draw", "pass", "pass", "pass")
    assert s["round"] == 2 and s["mission_leader"] == 1  # v2: seat 2
    assert decision(s) == (rules.TURN, 1)


@pytest.mark.parametrize("held", ["Basic Repair", "Raise Morale"])
def test_delegate_target_mask_does_not_read_the_targets_hidden_hand(held):
    """Seat 1 has Burned Hands (no Repairs) and a Broken Leg (no Above Deck Actions). Whether
    its two cards are Repairs is secret, so Delegate may name it either way (v2: only if they
    were not, audit F4); a delegated seat with nothing it can do does nothing."""
    x = card(held)
    wounds = {1: [c.BURNED_HANDS, c.BROKEN_LEG]}
    s = table(characters=(1, 5, 6, 7), hands={1: [x, x]}, wounds=wounds, decks={0: [RM]})[0]
    act(s, "use ability 1")
    assert decision(s) == (rules.ABILITY_TARGET_CHOICE, 0)
    # the same for both hands; seat 2 (Ines Varro, empty hand, no Energy) has nothing to do
    assert legal(s) == ["seat +1", "seat +3"]
    act(s, "seat +1")
    if held == "Basic Repair":
        assert decision(s) == (rules.TURN, 1) and s["played_n"][1] == 0  # nothing it could do
    else:
        assert decision(s) == (rules.DELEGATED, 1)
        act(s, "play Raise Morale")
        assert decision(s) == (rules.TURN, 1) and s["played_n"][1] == 1


def character_views(s):
    """Each seat's `character` piece, seats relative to the viewer."""
    n = int(s["num_players"])
    params = {p.name: int(s[p.name]) for p in SPEC.params}
    layout = SPEC.observation_layout(params)
    views = []
    for seat in range(n):
        out = np.zeros(layout.size, np.float32)
        observe(s, seat, out, layout.offsets, n)
        views.append(layout.split(out)["character"])
    return views


def pick_first(s):
    act(s, next(name for name in legal(s) if name.startswith("pick ")))


@pytest.mark.parametrize("num_players", [4, 5])
def test_characters_are_chosen_together_and_shown_once_all_have_chosen(num_players):
    """4-5 players: "choose one ... place this Character card in front of them, face up" -
    together. v2 showed each pick at once to the seats still choosing (audit F10)."""
    s = picking(num_players)[0]
    for seat in range(num_players - 1):
        assert decision(s) == (rules.PICK_CHARACTER, seat)
        pick_first(s)
        views = character_views(s)
        for other in range(num_players):  # each sees its own pick only, if it has made it
            assert views[other].sum() == (1 if other <= seat else 0)
            assert views[other][1:].sum() == 0
    pick_first(s)
    assert s["round"] == 1  # all have chosen: the game begins, every pick face up
    for seat, view in enumerate(character_views(s)):
        assert view.sum() == num_players
        for r in range(num_players):
            assert view[r, s["character"][(seat + r) % num_players]] == 1


def test_at_six_players_the_first_five_picks_show_before_the_sixth_chooses():
    s = picking(6)[0]
    for _ in range(4):
        pick_first(s)
        assert character_views(s)[5].sum() == 0
    pick_first(s)  # the fifth pick: the first five are face up, the rest are dealt
    assert decision(s) == (rules.PICK_CHARACTER, 5)
    assert character_views(s)[5].sum() == 5
    pick_first(s)
    assert all(view.sum() == 6 for view in character_views(s))
