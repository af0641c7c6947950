"""The Menace's scripted players: the ability-drain exploit does what the audit described, the
heuristic Crew reads evidence from past rounds, and no simple script crushes the heuristic Crew.

Boards are scripted with the scenario builder (or, for the Crew's reading of past rounds, an
observation written piece by piece); each test shows what the policy chose and what it did.
"""

import numpy as np
import pytest

import envs
from agents import make_policy
from agents.menace_drain import CHARACTER_DRAIN, MenaceDrain, MenaceSaboteur, MenaceWounder
from agents.menace_heuristic import MenaceHeuristic, suspicion
from envs.menace import cards as c
from envs.menace import rules
from envs.menace.actions import ACTION_NAMES, PASS, YES
from envs.menace.spec import SPEC
from evaluation.match import play_match
from tests.menace.scenario import legal, picking, table

MARA_TULL = c.CHARACTER_NAMES.index("Mara Tull")  # Requisition (1 Oxygen), Share Rations
HAL_QUIST = c.CHARACTER_NAMES.index("Hal Quist")  # Analyze (1 Energy), Calibrate (free)
ROTTI = c.CHARACTER_NAMES.index("Rotti Vestine")  # Bloodwork (1 Oxygen), First Aid (2 Oxygen)
CREW_AGENDAS = (c.THE_VENGEANT, c.THE_RESOLUTE, c.THE_WITNESS, c.THE_IDEALIST)


def choice(policy_class, states):
    """What the policy chooses at the record's pending decision, by name."""
    params = {p.name: int(states[0][p.name]) for p in SPEC.params}  # the table's, as dealt
    vec = envs.make_vec("menace", 1, **params)
    vec.set_records(states)
    policy = policy_class(vec.spec, vec.params)
    return ACTION_NAMES[int(policy.act(vec.observation, vec.action_mask)[0])]


def step(states, name):
    rules.step(states[0], ACTION_NAMES.index(name))


# --- the drain Menace ---------------------------------------------------------------------


def test_drain_is_made_by_name_and_other_games_say_they_lack_it():
    params = SPEC.resolve(num_players=5)
    assert isinstance(make_policy("drain", SPEC, params), MenaceDrain)
    amongus = envs.registry["amongus"]
    with pytest.raises(ValueError, match=r"policy 'drain' plays \['menace'\], not 'amongus'"):
        make_policy("drain", amongus, amongus.resolve())
    with pytest.raises(ValueError, match="unknown policy 'drian'.*'drain'"):
        make_policy("drian", SPEC, params)


def test_drain_picks_the_character_whose_abilities_cost_most_oxygen():
    states = picking(5)
    s = states[0]
    menace_agenda = s["agenda"][np.flatnonzero(np.isin(s["agenda"][:5], c.MENACE_AGENDAS))[0]]
    s["agenda"][0] = menace_agenda  # seat 0 picks first, as a Menace
    s["offer"][0, :] = 0
    s["offer"][0, [HAL_QUIST, MARA_TULL, ROTTI]] = 1
    assert CHARACTER_DRAIN[ROTTI] == 3 and CHARACTER_DRAIN[MARA_TULL] == 1
    assert choice(MenaceHeuristic, states) != "pick Rotti Vestine"
    assert choice(MenaceDrain, states) == "pick Rotti Vestine"
    step(states, "pick Rotti Vestine")
    assert s["character"][0] == ROTTI


def test_drain_spends_oxygen_on_an_ability_rather_than_play_or_draw():
    states = table(
        characters=(MARA_TULL, 5, 6, HAL_QUIST),
        hands={0: [c.AIRLOCK_BREACH, c.BASIC_REPAIR, c.RAISE_MORALE]},
        oxygen=6,
    )
    s = states[0]
    assert s["decision"] == rules.TURN and s["current_seat"] == 0
    assert choice(MenaceHeuristic, states) == "draw"  # first to act: no cover yet
    assert choice(MenaceDrain, states) == "use ability 1"  # Requisition: 1 Oxygen, draw 2
    step(states, "use ability 1")
    assert s["oxygen"] == 5 and s["used"][0, 0]
    assert s["hand_n"][0] == 5 and s["decision"] == rules.HAND_LIMIT  # drew 2, over the limit


def test_drain_plays_a_bad_card_at_once_without_an_oxygen_ability():
    states = table(
        characters=(HAL_QUIST, 5, 6, MARA_TULL),
        hands={0: [c.AIRLOCK_BREACH, c.BASIC_REPAIR, c.RAISE_MORALE]},
        oxygen=6,
    )
    s = states[0]
    assert "use ability 2" in legal(s)  # Calibrate is free: the drain has no use for it
    assert choice(MenaceHeuristic, states) == "draw"
    assert choice(MenaceDrain, states) == "play Airlock Breach"
    step(states, "play Airlock Breach")
    assert s["played_n"][0] == 1 and s["hand"][0, c.AIRLOCK_BREACH] == 0


def test_drain_on_a_crew_seat_plays_as_the_heuristic_crew():
    states = table(
        agendas=(c.THE_VENGEANT, c.THE_CONTAGION, c.THE_RESOLUTE, c.THE_WITNESS),
        characters=(MARA_TULL, 5, 6, HAL_QUIST),
        hands={0: [c.AIRLOCK_BREACH, c.BASIC_REPAIR, c.RAISE_MORALE]},
        oxygen=6,
    )
    assert choice(MenaceDrain, states) == choice(MenaceHeuristic, states) != "use ability 1"


def test_heuristic_menace_drains_the_last_oxygen():
    states = table(characters=(MARA_TULL, 5, 6, HAL_QUIST), hands={0: [c.BASIC_REPAIR]}, oxygen=1)
    assert choice(MenaceHeuristic, states) == "use ability 1"
    step(states, "use ability 1")
    assert states[0]["terminated"] and states[0]["winner"] == rules.MENACE_TEAM


# --- the heuristic Crew reads the past rounds ----------------------------------------------


def crew_view(n=5, **pieces):
    """A Crew seat's observation at "call a vote?", every seat alive, seat 2 Mara Tull and the
    others without Oxygen-cost abilities; `pieces` set further entries: {name: [(index, value)]}."""
    params = SPEC.resolve(num_players=n)
    layout = SPEC.observation_layout(params)
    obs = np.zeros(layout.size, np.float32)
    view = layout.split(obs)
    view["own_agenda"][c.THE_VENGEANT] = 1
    view["decision"][rules.CALL_VOTE] = 1
    view["mission_leader"][0] = 1
    view["oxygen"][0] = 5 / 20
    view["alive"][:] = 1
    for r in range(n):
        view["character"][r, MARA_TULL if r == 2 else HAL_QUIST + r] = 1
    for name, entries in pieces.items():
        for index, value in entries:
            view[name][index] = value
    return obs, layout.offsets


def crew_suspicion(obs, off, n=5):
    out = np.empty(n, np.float64)
    suspicion(obs, off, n, True, out)
    return out


def calls_vote(obs, n=5):
    mask = np.zeros((1, len(ACTION_NAMES)), np.bool_)
    mask[0, [PASS, YES]] = True
    policy = MenaceHeuristic(SPEC, SPEC.resolve(num_players=n))
    return int(policy.act(obs[None], mask)[0]) == YES


def test_crew_suspects_who_spent_oxygen_on_an_ability_last_round():
    used = {"past_round": [(0, 1)], "past_abilities_used": [((0, 2, 0), 1)]}
    quiet, off = crew_view(past_round=[(0, 1)])
    drained, _ = crew_view(**used)
    assert crew_suspicion(drained, off).argmax() == 2
    assert crew_suspicion(drained, off)[2] > crew_suspicion(quiet, off)[2] + 0.5
    assert not calls_vote(quiet) and calls_vote(drained)


def test_crew_suspects_who_spent_energy_on_an_ability_it_never_uses_itself():
    # Last round seat 3 used Laser Pistol (2 Energy): the Crew spends no Energy but on
    # Self-Repair, so Energy drained by an ability is as telling as Oxygen.
    osric, captain, k7 = (c.CHARACTER_NAMES.index(name)
                          for name in ("Osric Vale", "Malumil Einum", "K-7"))
    for character, slot, suspect in ((captain, 1, True), (k7, 0, False)):  # Self-Repair: no
        obs, off = crew_view(past_round=[(0, 1)], past_abilities_used=[((0, 3, slot), 1)],
                             character=[((3, osric), 0), ((3, character), 1)])
        assert (crew_suspicion(obs, off)[3] > 1.5) == suspect
        assert calls_vote(obs) == suspect


def test_crew_suspects_who_played_in_past_rounds_that_revealed_bad_cards():
    # Last round: 2 Airlock Breach and the observer's own Basic Repair revealed; seat 3 played
    # two cards, the observer one. The round before: seat 1 played when a Panic! came up.
    obs, off = crew_view(
        past_round=[(0, 1), (1, 1)],
        past_revealed=[((0, c.AIRLOCK_BREACH), 2 / 8), ((0, c.BASIC_REPAIR), 1 / 8),
                       ((1, c.PANIC), 1 / 8), ((1, c.RAISE_MORALE), 1 / 8)],
        past_played=[((0, 0), 1 / 3), ((0, 3), 2 / 3), ((1, 1), 1 / 3), ((1, 4), 1 / 3)],
        past_own_played=[((0, c.BASIC_REPAIR), 1 / 3)],
    )
    scores = crew_suspicion(obs, off)
    assert scores.argmax() == 3
    assert scores[3] > scores[1] > scores[2] == pytest.approx(-2e-3)  # tie-break only
    assert scores[1] == pytest.approx(scores[4], abs=1e-2)  # one card each that round


def test_crew_suspects_who_voted_out_a_seat_since_shown_to_be_crew():
    # Two rounds ago seats 1 and 3 voted for seat 4, exiled and shown to be The Witness.
    ballots = [((1, 1, 4), 1), ((1, 3, 4), 1), ((1, 2, 1), 1)]
    obs, off = crew_view(
        past_round=[(0, 1), (1, 1)],
        past_ballots=ballots,
        past_exiled=[((1, 4), 1)],
        exiled=[(4, 1)],
        agenda_revealed=[((4, c.THE_WITNESS), 1)],
    )
    scores = crew_suspicion(obs, off)
    assert scores[1] > 0.1 and scores[3] > 0.1 and scores[2] < 0.01


def test_crew_holds_oxygen_spent_against_a_seat_across_the_whole_window():
    # Seat 2 used Requisition three rounds ago (the oldest row of the window): a fact that does
    # not fade, unlike a share of Bad cards.
    rounds = [(k, 1) for k in range(3)]
    obs, off = crew_view(past_round=rounds, past_abilities_used=[((2, 2, 0), 1)])
    assert crew_suspicion(obs, off)[2] == pytest.approx(1.0, abs=1e-2)
    assert calls_vote(obs)


def heuristic_choice(obs, actions, n=5):
    mask = np.zeros((1, len(ACTION_NAMES)), np.bool_)
    mask[0, [ACTION_NAMES.index(a) for a in actions]] = True
    policy = MenaceHeuristic(SPEC, SPEC.resolve(num_players=n))
    return ACTION_NAMES[int(policy.act(obs[None], mask)[0])]


def test_crew_brawl_finishes_the_wounded_one_of_two_shown_menaces():
    # Seats 1 and 2 are exiled and shown; seat 1 is more suspect (it spent Oxygen), seat 2
    # holds a Wound: a second Wound on seat 2 kills it, a first on seat 1 kills no one.
    shown = {"exiled": [(1, 1), (2, 1)], "past_round": [(0, 1)],
             "agenda_revealed": [((1, c.THE_CONTAGION), 1), ((2, c.THE_BUTCHER), 1)],
             "past_abilities_used": [((0, 2, 0), 1)],
             "decision": [(rules.CALL_VOTE, 0), (rules.BRAWL_TARGET, 1)]}
    seats = [f"seat +{r}" for r in range(1, 5)]
    unhurt, off = crew_view(**shown)
    assert crew_suspicion(unhurt, off).argmax() == 2
    hurt, _ = crew_view(wounds=[((1, c.FLESH_WOUND), 1)], **shown)
    assert heuristic_choice(unhurt, seats) == "seat +2"
    assert heuristic_choice(hurt, seats) == "seat +1"


def test_crew_picks_a_character_with_strike_cards_over_a_plainer_one():
    # Brack Hollis (2 Brawl, 2 Backstab, 2 Raise Morale, 1 Basic Repair) against Malumil Einum
    # (3 Basic Repair, 2 Command, 2 Raise Morale): the strike cards are how the Crew kills a
    # Menace that keeps playing once exiled.
    marine, captain = c.CHARACTER_NAMES.index("Brack Hollis"), c.CHARACTER_NAMES.index(
        "Malumil Einum")
    obs, _ = crew_view(decision=[(rules.CALL_VOTE, 0), (rules.PICK_CHARACTER, 1)],
                       character_offer=[(marine, 1), (captain, 1)])
    picks = [f"pick {c.CHARACTER_NAMES[ch]}" for ch in (marine, captain)]
    assert heuristic_choice(obs, picks) == "pick Brack Hollis"


def test_crew_keeps_strike_cards_over_a_basic_repair_at_the_hand_limit():
    obs, _ = crew_view(decision=[(rules.CALL_VOTE, 0), (rules.HAND_LIMIT, 1)])
    held = ["card Basic Repair", "card Backstab", "card Brawl", "card Raise Morale"]
    assert heuristic_choice(obs, held) == "card Basic Repair"


def test_menace_keeps_backstab_out_of_its_cover_at_five_players():
    # First to act, no Bad card to hide, not the Mission Leader: at 7 players Backstab is cover
    # (it wounds the Mission Leader, another seat); at 5 the Menace draws instead.
    for n, expected in ((5, "draw"), (7, "play Backstab")):
        obs, _ = crew_view(n=n, own_agenda=[(c.THE_VENGEANT, 0), (c.THE_CONTAGION, 1)],
                           mission_leader=[(0, 0), (1, 1)],
                           decision=[(rules.CALL_VOTE, 0), (rules.TURN, 1)])
        assert heuristic_choice(obs, ["draw", "play Backstab"], n=n) == expected


def test_menace_waits_for_two_cards_of_cover_at_five_players():
    # One other seat has a card face down: cover enough at 6 players, not at 5.
    for n, expected in ((5, "draw"), (6, "play Airlock Breach")):
        obs, _ = crew_view(n=n, own_agenda=[(c.THE_VENGEANT, 0), (c.THE_CONTAGION, 1)],
                           played=[(2, 1 / 3)], oxygen=[(0, 8 / 20)],
                           decision=[(rules.CALL_VOTE, 0), (rules.TURN, 1)])
        assert heuristic_choice(obs, ["draw", "play Airlock Breach"], n=n) == expected


def test_menace_plays_a_bad_card_without_cover_once_no_other_seat_has_called_a_vote():
    # Two rounds over, four Bad cards revealed this game, and no other seat has called a vote:
    # this table does not exile, so cover buys nothing and the Menace plays its Bad card at once
    # (at 5 players it would wait for two cards of cover). Once another seat has called a vote,
    # with fewer Bad cards revealed, or in round 2, it waits again.
    def view(bad=4, calls=0.0, rounds=((0, 1), (1, 1))):
        obs, _ = crew_view(own_agenda=[(c.THE_VENGEANT, 0), (c.THE_CONTAGION, 1)],
                           decision=[(rules.CALL_VOTE, 0), (rules.TURN, 1)],
                           oxygen=[(0, 8 / 20)], past_round=list(rounds),
                           game_revealed=[(c.AIRLOCK_BREACH, bad / 20)],
                           game_vote_calls=[(3, calls / 20)])
        return heuristic_choice(obs, ["draw", "play Airlock Breach"])

    assert view() == "play Airlock Breach"
    assert view(calls=1) == "draw"
    assert view(bad=3) == "draw"
    assert view(rounds=[(0, 1)]) == "draw"


def test_menace_abstains_without_a_clear_suspect():
    # Seat 3 played both cards of last round's two Airlock Breaches: a clear suspect, and the
    # Menace votes for it as the Crew would; with no evidence it abstains rather than cast a
    # telling ballot.
    menace = [(c.THE_VENGEANT, 0), (c.THE_CONTAGION, 1)]
    vote = [(rules.CALL_VOTE, 0), (rules.VOTE, 1)]
    quiet, _ = crew_view(own_agenda=menace, decision=vote)
    seen, _ = crew_view(own_agenda=menace, decision=vote, past_round=[(0, 1)],
                        past_revealed=[((0, c.AIRLOCK_BREACH), 2 / 8)],
                        past_played=[((0, 3), 2 / 3)])
    ballots = ["pass", "seat +1", "seat +2", "seat +3", "seat +4"]
    assert heuristic_choice(quiet, ballots) == "pass"
    assert heuristic_choice(seen, ballots) == "seat +3"


def test_crew_reads_backstab_as_bad_until_a_menace_is_shown():
    # Last round seat 3 alone played cards, and two Backstabs came up: no Crew strikes while no
    # Menace is shown, so they were a Menace's. Once seat 4 is shown to be the Menace, a
    # Backstab is the Crew's strike and says little.
    last = {"past_round": [(0, 1)], "past_revealed": [((0, c.BACKSTAB), 2 / 8)],
            "past_played": [((0, 3), 2 / 3)]}
    hidden, off = crew_view(**last)
    shown, _ = crew_view(agenda_revealed=[((4, c.THE_CONTAGION), 1)], exiled=[(4, 1)], **last)
    assert crew_suspicion(hidden, off)[3] > 1.0
    assert crew_suspicion(shown, off)[3] < 0.5


def test_menace_mission_leader_never_gives_its_brawl_wound_to_itself():
    # The Menace holds the token as the first Brawl is revealed: the mask allows its own seat
    # (the card says "a crewmember"), and it gives the Wound to another (issue 46: it took the
    # lowest score, its own, and wounded itself).
    seats = [f"seat +{r}" for r in range(5)]
    obs, _ = crew_view(own_agenda=[(c.THE_VENGEANT, 0), (c.THE_CONTAGION, 1)],
                       decision=[(rules.CALL_VOTE, 0), (rules.BRAWL_TARGET, 1)])
    assert heuristic_choice(obs, seats) != "seat +0"


def test_saint_heals_another_seat_than_itself():
    seats = [f"seat +{r}" for r in range(5)]
    obs, _ = crew_view(own_agenda=[(c.THE_VENGEANT, 0), (c.THE_SAINT, 1)],
                       decision=[(rules.CALL_VOTE, 0), (rules.AGENDA_TARGET, 1)])
    assert heuristic_choice(obs, seats) != "seat +0"


def test_crew_suspects_the_mission_leader_who_gave_a_brawl_wound_to_the_crew():
    # This round seat 2, the Mission Leader, gave the Brawl's Wound to the observer; in an
    # earlier round seat 3 gave one to seat 4, since shown to be The Witness, and seat 1 one to
    # seat 2, not shown either way (a Crew Mission Leader wounds its top suspect: no evidence).
    shown = {"agenda_revealed": [((4, c.THE_WITNESS), 1)], "exiled": [(4, 1)]}
    obs, off = crew_view(brawl=[((0, 2), 1), ((1, 0), 1)],
                         game_brawls=[((3, 4), 1 / 20), ((1, 2), 1 / 20)], **shown)
    quiet, _ = crew_view(**shown)
    gained = crew_suspicion(obs, off) - crew_suspicion(quiet, off)
    assert gained[2] == pytest.approx(2.0) and gained[3] == pytest.approx(2.0)
    assert gained[1] == pytest.approx(0.0)
    assert calls_vote(obs) and not calls_vote(quiet)


def test_crew_trusts_the_mission_leader_who_gave_a_brawl_wound_to_a_shown_menace():
    shown = {"agenda_revealed": [((4, c.THE_CONTAGION), 1)], "exiled": [(4, 1)]}
    obs, off = crew_view(brawl=[((0, 2), 1), ((1, 4), 1)], **shown)
    quiet, _ = crew_view(**shown)
    assert crew_suspicion(obs, off)[2] == pytest.approx(crew_suspicion(quiet, off)[2] - 2.0)


def test_crew_suspects_who_used_veto_or_prune():
    # Veto and Prune cost a discard, not Oxygen; the Crew never uses them, so using one is as
    # telling as a point of Oxygen spent (audit turn 4, V1: free harm).
    osric, captain, juno = (c.CHARACTER_NAMES.index(name)
                            for name in ("Osric Vale", "Malumil Einum", "Juno Saar"))
    for character, slot in ((captain, 0), (juno, 1)):  # Veto; Prune
        obs, off = crew_view(past_round=[(0, 1)], past_abilities_used=[((0, 3, slot), 1)],
                             character=[((3, osric), 0), ((3, character), 1)])
        assert crew_suspicion(obs, off)[3] == pytest.approx(1.0, abs=1e-2)


# --- no simple script crushes the heuristic Crew ---------------------------------------------


def test_balance_table_has_a_row_per_table_size_and_pairing():
    from evaluation.balance import format_balance, run_balance

    result = run_balance("menace", games=40, players=(4, 5))
    assert [(r["num_players"], r["pairing"]) for r in result["rows"]] == [
        (4, "random"), (4, "heuristic"), (4, "heuristic vs drain"),
        (5, "random"), (5, "heuristic"), (5, "heuristic vs drain"),
    ]
    assert result["rows"][2]["policies"] == {"crew": "heuristic", "menace": "drain"}
    for r in result["rows"]:
        assert r["games"] == 40 and r["interval95"][0] <= r["win_rate"] <= r["interval95"][1]
    table_text = format_balance(result)
    assert table_text.count("\n") == 7 and "| 5 | heuristic vs drain | 40 |" in table_text


@pytest.mark.parametrize("menace", [MenaceHeuristic, MenaceDrain, MenaceSaboteur, MenaceWounder])
def test_heuristic_crew_holds_against_scripted_menaces(menace):
    """A short version of the balance table (300 games at 5 and 7 players, loose bounds); the
    10,000-game figures are in docs/rules/menace.md."""
    for n in (5, 7):
        params = SPEC.resolve(num_players=n)
        policies = {"crew": MenaceHeuristic(SPEC, params), "menace": menace(SPEC, params)}
        rate = play_match("menace", policies, 300, seed=n, **params).rate("crew")
        assert 0.15 <= rate <= 0.85, (menace.__name__, n, rate)
