"""One test per card effect (every room effect and both halves of every Scheme effect), and the
Special Locations, board before and after, with dice and deck orders injected."""

import pytest

from envs.maniacal import cards as c
from envs.maniacal import rules
from envs.maniacal.tables import CONTRACT_RESULT

from .scenario import (
    POWER, ROOM, SCHEME, act, contract_phase, decision, dice, give, henchman, lackey_of, legal,
    scheme_on_top, strip_henchmen, table,
)

DESPAIR = 0  # weeks 3 to North America
EASY = 2  # Easy, team 1, Target 2, recommended Brawn; success 3 Infamy and $1, no icons
HARD = 40  # Hard, team 2, Target 6, recommended Brawn; success 6 Infamy, failure: Captured
RHINO, BEAR, NECRO = henchman("Rhino Brute"), henchman("Bear-Man"), henchman("Necromancer")


def board(
    members=(RHINO,), contract=EASY, rooms=(), schemes=(), others=None, money=5, injuries=None
):
    """Seat 0 active at 0 weeks (the others at 5) with these henchmen, rooms and Schemes;
    North America holds ``contract``."""
    states = table(3, villains=(DESPAIR, 1, 2))
    s = states[0]
    strip_henchmen(s)
    for h in members:
        give(s, 0, h, injuries=(injuries or {}).get(h, 0))
    contract_phase(
        states, map_={"North America": contract}, bases={0: list(rooms)},
        schemes={0: list(schemes), **(others or {})}, money={0: money}, spent={1: 5, 2: 5},
    )
    return s


# --- Action rooms ------------------------------------------------------------------------------


def test_vault_gains_two_dollars_for_a_week_and_a_worker():
    s = board(rooms=["Vault"])
    act(s, "room Vault")
    act(s, f"henchman {RHINO} ")
    assert s["money"][0] == 7 and s["spent"][0] == 1 and s["exhausted"][RHINO]
    assert s["used"][0, ROOM["Vault"]] == 1 and "room Vault" not in legal(s)


def test_counting_house_pays_the_workers_best_trait_and_the_supervillain_cannot_work_it():
    s = board(members=(BEAR,), rooms=["Counting House"])
    act(s, "room Counting House")  # Bear-Man is the only worker with a trait: applied at once
    assert s["money"][0] == 5 + 4 and s["exhausted"][BEAR] and not s["villain_exhausted"][0]


def test_briefing_room_draws_a_scheme():
    s = board(rooms=["Briefing Room"])
    scheme_on_top(s, "Framed!")
    act(s, "room Briefing Room")
    act(s, "supervillain")
    assert s["schemes"][0, SCHEME["Framed!"]] == 1 and s["scheme_count"][0] == 1


def test_mutation_chamber_grants_a_power_to_a_henchman_chosen_first():
    s = board(members=(RHINO, BEAR), rooms=["Mutation Chamber"])
    act(s, "room Mutation Chamber")
    act(s, "supervillain")
    assert decision(s) == "choose henchman" and s["spent"][0] == 2
    top = int(s["power_deck"][s["power_deck_n"] - 1])
    act(s, f"henchman {BEAR} ")
    assert s["power_holder"][top] == BEAR and s["powers"][BEAR] == 1
    assert list(s["bonus"][BEAR]) == list(c.POWERS[top].bonus)


def test_infirmary_heals_up_to_two_tokens_of_one_henchman():
    s = board(members=(RHINO, BEAR), rooms=["Infirmary"], injuries={RHINO: 3})
    act(s, "room Infirmary")
    act(s, "supervillain")  # Rhino Brute is the only injured henchman: chosen at once
    assert s["injuries"][RHINO] == 1


@pytest.mark.parametrize(
    "room,track", [("Breeding Pits", 0), ("Robotics Lab", 2), ("Seance Parlour", 3)]
)
def test_attraction_rooms_add_to_their_track(room, track):
    s = board(rooms=[room])
    before = s["attraction"][0].copy()
    act(s, f"room {room}")
    act(s, "supervillain")
    after = before.copy()
    after[track] += 3
    assert list(s["attraction"][0]) == list(after)


@pytest.mark.parametrize("room", ["Breeding Pits", "Robotics Lab", "Seance Parlour"])
def test_attraction_rooms_are_not_offered_in_round_3(room):
    """P-33: a room is offered only where it would do something, and Attraction serves only a
    Henchmen Phase, which round 3 does not have."""
    s = board(rooms=[room])
    assert f"room {room}" in legal(s)
    s["round"] = 3
    assert f"room {room}" not in legal(s)


def test_propaganda_studio_buys_infamy_and_needs_the_price():
    s = board(rooms=["Propaganda Studio"], money=c.BUY_INFAMY_PRICE - 1)
    assert "room Propaganda Studio" not in legal(s)
    s["money"][0] = 3
    act(s, "room Propaganda Studio")
    act(s, "supervillain")
    assert s["money"][0] == 3 - c.BUY_INFAMY_PRICE and s["infamy"][0] == 2


# --- Contract rooms ----------------------------------------------------------------------------


def test_cloaking_lab_adds_stealth_dice_before_the_roll():
    s = board(members=(RHINO,), rooms=["Cloaking Lab"], schemes=["Double Cross"])
    act(s, "contract North America")
    dice(s, *([0] * 5))
    act(s, "room Cloaking Lab")  # the Supervillain is the only worker off the team
    assert list(s["pool"]) == [3, 2, 0, 0] and s["villain_exhausted"][0]


def test_supercomputer_adds_dice_of_the_recommended_trait():
    s = board(members=(RHINO,), rooms=["Supercomputer"], schemes=["Double Cross"])
    act(s, "contract North America")
    dice(s, *([0] * 6))
    act(s, "room Supercomputer")
    assert list(s["pool"]) == [3 + 3, 0, 0, 0]  # the contract recommends Brawn


def test_occult_library_adds_the_workers_trait_in_dice_and_never_the_supervillains():
    s = board(members=(RHINO, NECRO), rooms=["Occult Library"], schemes=["Double Cross"])
    act(s, "contract North America")
    act(s, f"henchman {RHINO} ")
    dice(s, *([0] * 6))
    act(s, "room Occult Library")  # Necromancer is the only eligible worker
    assert s["exhausted"][NECRO] and not s["villain_exhausted"][0]
    assert list(s["pool"]) == [3, 0, 0, 3]


def test_war_room_adds_a_success_after_the_roll():
    s = board(members=(RHINO,), rooms=["War Room"])
    dice(s, 0, 0, 1)
    act(s, "contract North America")  # nothing to do before the roll: 1 success, Target 2
    infamy = int(s["infamy"][0])
    act(s, "room War Room")  # then accepted: 2 successes
    assert s["infamy"][0] == infamy + c.CONTRACTS[EASY].win_infamy


def test_probability_engine_rerolls_every_blank():
    s = board(members=(RHINO,), rooms=["Probability Engine"], schemes=["Double Cross"])
    dice(s, 0, 0, 1, 2, 2)
    act(s, "contract North America")
    act(s, "pass")  # the before-the-roll window, asked of a seat holding Schemes (version 2)
    act(s, "room Probability Engine")
    assert list(s["faces"]) == [0, 1, 2]


def test_escape_tunnel_cancels_the_capture():
    s = board(members=(RHINO, BEAR), contract=HARD, rooms=["Escape Tunnel"])
    dice(s, *([0] * 7))
    act(s, "contract North America")
    act(s, "room Escape Tunnel")  # then the failure resolves without Captured
    assert s["owner"][RHINO] == 0 and s["owner"][BEAR] == 0
    assert s["exhausted"][RHINO] and s["exhausted"][BEAR]


def test_money_laundry_adds_money_on_success_only():
    for faces, gain in (([2, 2, 2], c.CONTRACTS[EASY].win_money + 3), ([0, 0, 0], 0)):
        s = board(members=(RHINO,), rooms=["Money Laundry"])
        dice(s, *faces)
        act(s, "contract North America")
        act(s, "room Money Laundry")
        assert s["money"][0] == 5 + gain


# --- negative Schemes --------------------------------------------------------------------------


def test_double_cross_raises_the_target():
    s = board(members=(RHINO,), schemes=["Framed!"], others={1: ["Double Cross"]})
    act(s, "contract North America")
    dice(s, 2, 2, 2)
    act(s, "scheme Double Cross")
    assert s["target"] == c.CONTRACTS[EASY].target + 2


def test_sabotage_removes_dice_of_the_recommended_trait():
    s = board(members=(RHINO,), schemes=["Framed!"], others={1: ["Sabotage"]})
    act(s, "contract North America")
    dice(s, 2)
    act(s, "scheme Sabotage")
    assert list(s["pool"]) == [1, 0, 0, 0]


def test_jammed_signals_blocks_the_lackey_reroll():
    s = board(members=(RHINO,), contract=HARD, schemes=["Framed!"], others={1: ["Jammed Signals"]})
    give(s, 0, lackey_of(s, 0))
    act(s, "contract North America")
    dice(s, *([0] * 4))
    act(s, "scheme Jammed Signals")
    act(s, "trait Brawn")
    act(s, "pass")  # the before-the-roll window, asked of a seat holding Schemes (version 2)
    assert decision(s) == "after the roll" and "reroll" not in legal(s)


def test_lockdown_closes_the_contract_rooms():
    s = board(members=(RHINO,), rooms=["Armory"], schemes=["Framed!"], others={1: ["Lockdown"]})
    act(s, "contract North America")
    dice(s, 0, 0, 0)
    act(s, "scheme Lockdown")
    assert legal(s) == ["pass"]  # Lockdown shut the Armory; Framed! waits for the roll
    act(s, "pass")
    assert decision(s) == "after the roll" and list(s["pool"]) == [3, 0, 0, 0]
    assert s["used"][0, ROOM["Armory"]] == 0


def test_ambush_injures_on_failure():
    s = board(members=(RHINO,), others={1: ["Ambush"]})
    act(s, "contract North America")
    dice(s, 0, 0, 0)
    act(s, "scheme Ambush")
    assert s["injuries"][RHINO] == 1


def test_ambush_injures_a_second_time_where_the_failure_injures_anyway():
    """Version 2: Ambush adds an Injury; on a contract whose failure Injures anyway (60 of 97
    contracts, where version 1's Ambush did nothing) that is a second one."""
    injures = 0  # Easy, team 1, Target 1, recommended Brawn; failure: Injured
    assert CONTRACT_RESULT[injures, 1, 2] & c.INJURED
    s = board(members=(RHINO,), contract=injures, others={1: ["Ambush"]})
    act(s, "contract North America")
    dice(s, 0, 0, 0)
    act(s, "scheme Ambush")
    assert s["injuries"][RHINO] == 2 and not s["injure_again"]


def test_tax_audit_cuts_the_success_money_to_no_less_than_zero():
    s = board(members=(RHINO,), others={1: ["Tax Audit"]})
    act(s, "contract North America")
    dice(s, 2, 2, 2)
    act(s, "scheme Tax Audit")
    assert s["money"][0] == 5 + max(0, c.CONTRACTS[EASY].win_money - 2)
    assert s["infamy"][0] == c.CONTRACTS[EASY].win_infamy


# --- positive Schemes --------------------------------------------------------------------------


def test_double_cross_adds_a_success_after_the_roll():
    s = board(members=(RHINO,), schemes=["Double Cross"])
    dice(s, 0, 0, 1)
    act(s, "contract North America")
    act(s, "pass")  # the before-the-roll window, asked of a seat holding Schemes (version 2)
    act(s, "scheme Double Cross")  # 1 + 1 = Target 2
    assert s["infamy"][0] == c.CONTRACTS[EASY].win_infamy
    assert s["scheme_discarded"][SCHEME["Double Cross"]] == 1


def test_sabotage_adds_dice_of_the_recommended_trait_before_the_roll():
    s = board(members=(RHINO,), schemes=["Sabotage", "Double Cross"])
    act(s, "contract North America")
    dice(s, *([0] * 5))
    act(s, "scheme Sabotage")
    assert legal(s) == ["pass"]  # Double Cross waits for the roll
    act(s, "pass")
    assert list(s["pool"]) == [5, 0, 0, 0] and list(s["faces"]) == [5, 0, 0]


def test_jammed_signals_rerolls_blanks_and_chosen_ones():
    s = board(members=(RHINO,), contract=HARD, schemes=["Jammed Signals", "Double Cross"])
    give(s, 0, BEAR)
    dice(s, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2)
    act(s, "contract North America")  # 7 dice: 2 blanks, 3 ones, 2 twos
    act(s, "pass")  # the before-the-roll window, asked of a seat holding Schemes (version 2)
    act(s, "scheme Jammed Signals")
    assert decision(s) == "re-roll count"
    act(s, "count 2")  # 2 blanks and 2 ones roll again: all twos
    assert list(s["faces"]) == [0, 1, 6]


def test_lockdown_gains_money_for_free_while_active():
    s = board(schemes=["Lockdown", "Lockdown"])
    act(s, "scheme Lockdown")
    assert s["money"][0] == 7 and s["spent"][0] == 0 and decision(s) == "turn"


def test_ambush_heals_a_token_for_free_while_active():
    s = board(members=(RHINO,), schemes=["Ambush"], injuries={RHINO: 2})
    act(s, "scheme Ambush")
    assert s["injuries"][RHINO] == 1 and s["spent"][0] == 0


# --- Special Locations, decks and windows ------------------------------------------------------


def test_the_lounge_hires_the_top_mercenary_ready_to_work():
    s = board(rooms=["Vault"])
    top = int(s["mercenary_deck"][0])
    act(s, "visit Lucifer's Lounge")
    assert s["owner"][top] == 0 and s["where"][top] == rules.OWNED and not s["exhausted"][top]
    assert s["spent"][0] == 2 and s["mercenary_deck_n"] == 7
    act(s, "room Vault")
    assert f"henchman {top} " in " ".join(legal(s)) + " "


def test_the_underground_reshuffles_the_discard_pile_and_is_closed_when_both_are_empty():
    s = board()
    s["scheme_discard"][:3] = [SCHEME["Lockdown"]] * 3
    s["scheme_discard_n"] = 3
    s["scheme_discarded"][SCHEME["Lockdown"]] = 3
    s["scheme_deck_n"] = 0
    act(s, "visit The Underground")
    assert s["schemes"][0, SCHEME["Lockdown"]] == 1 and s["scheme_deck_n"] == 2
    assert s["scheme_discard_n"] == 0 and not s["scheme_discarded"].any()
    s2 = board()
    s2["scheme_deck_n"] = 0
    s2["scheme_discard_n"] = 0
    assert "visit The Underground" not in legal(s2)


def test_an_empty_power_deck_is_refilled_from_the_discard_pile():
    s = board(members=(RHINO,), rooms=["Mutation Chamber"])
    s["power_discard"][:1] = [POWER["Demon Blood"]]
    s["power_discard_n"] = 1
    s["power_deck_n"] = 0
    act(s, "room Mutation Chamber")
    act(s, "supervillain")
    assert s["power_holder"][POWER["Demon Blood"]] == RHINO and s["power_discard_n"] == 0


def test_a_seat_no_longer_active_gets_an_after_action_window_for_its_schemes():
    s = board(rooms=["Vault"], schemes=["Lockdown"])
    s["spent"][1] = 0  # under seat 0's token, which is 1st on the Player Order track
    s["spent"][2] = 0
    act(s, "room Vault")
    act(s, "supervillain")  # now at 1 under the others: not active next
    assert decision(s) == "after action" and int(s["current_seat"]) == 0
    act(s, "scheme Lockdown")
    assert s["money"][0] == 5 + 2 + 2
    assert int(s["current_seat"]) != 0 and decision(s) == "turn"


def test_build_pays_the_cost_and_adds_attraction_at_the_reveal_and_sell_earns_the_cost():
    states = table(2)
    s = states[0]
    s["hand"][:, :] = 0
    s["hand"][0, ROOM["Alchemy Lab"]] = 5
    s["hand"][1, ROOM["Vault"]] = 5
    s["money"][:2] = (10, 10)
    act(s, "build Alchemy Lab")
    assert s["money"][0] == 10 and not s["base"][0].any()  # hidden until both chose
    act(s, "sell Vault")
    assert s["money"][0] == 6 and s["base"][0, ROOM["Alchemy Lab"]] == 1
    assert list(s["attraction"][0]) == list(c.ROOMS[ROOM["Alchemy Lab"]].attraction)
    assert s["money"][1] == 12
