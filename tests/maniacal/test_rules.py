"""The ten rules most likely to go wrong (spec §6, T1-T10), board before and after, with the
dice and deck orders injected."""

import numpy as np
import pytest

from envs.maniacal import cards as c
from envs.maniacal import rules
from envs.maniacal.observe import observe
from envs.maniacal.render import render
from envs.maniacal.spec import SPEC

from .scenario import (
    CONTINENT, POWER, ROOM, SCHEME, act, contract_phase, decision, dice, give, henchman, lackey_of,
    legal, scheme_on_top, strip_henchmen, table,
)

DESPAIR = 0  # Doctor Despair: weeks 3/4/4/5/4/5 to the six continents
NO_ICONS_TEAM_1 = 2  # Easy, team 1, Target 2, no icons on either result
HARD_TEAM_2_TARGET_6 = 40  # Hard, team 2, Target 6, failure: Captured
POWER_ON_SUCCESS = 9  # Easy, team 2, Target 4, success: Power


def view(s, seat):
    """``seat``'s observation as named pieces."""
    n = int(s["num_players"])
    layout = SPEC.observation_layout(SPEC.resolve(num_players=n))
    out = np.zeros(layout.size, np.float32)
    observe(s, seat, out, layout.offsets, n)
    return layout.split(out)


def test_t1_the_active_player_is_the_least_spent_token_on_top_of_its_stack():
    states = table(3, villains=(DESPAIR, 1, 2))
    s = states[0]
    strip_henchmen(s)
    a_hench = henchman("Rhino Brute")
    give(s, 0, a_hench)
    give(s, 2, lackey_of(s, 2), injuries=1)
    scheme_on_top(s, "Double Cross")  # its positive half waits for a roll
    contract_phase(
        states, order=(0, 1, 2), map_={"South America": NO_ICONS_TEAM_1},
        money={2: 0}, bases={1: ["Vault"], 2: ["Vault"]},  # C earns $2 at the Vault
    )
    assert int(s["current_seat"]) == 0 and decision(s) == "turn"
    dice(s, 2, 2, 2)
    act(s, "contract South America")  # the only team member is applied at once (P-44)
    assert s["spent"][0] == 4
    assert int(s["current_seat"]) == 1  # B sits under A's old place, now the leftmost on top
    act(s, "visit The Underground")  # B draws Double Cross, which waits for a roll
    assert s["spent"][1] == 2 and decision(s) == "after action" and legal(s) == ["pass"]
    act(s, "pass")  # version 2 opens the window for any seat holding a Scheme
    assert int(s["current_seat"]) == 2
    act(s, "room Vault")
    act(s, "supervillain")
    assert s["spent"][2] == 1 and int(s["current_seat"]) == 2  # still leftmost: active again
    act(s, "visit Hoodlum Hospital")
    act(s, f"henchman {lackey_of(s, 2)} ")
    assert s["spent"][2] == 3 and s["money"][2] == 0
    assert int(s["current_seat"]) == 1  # B at 2 is now leftmost
    act(s, "room Vault")  # the Supervillain, B's only worker, works it
    assert s["spent"][1] == 3 and s["spent"][2] == 3
    assert int(s["current_seat"]) == 1  # B arrived last: on top of C
    act(s, "pass")
    assert list(s["next_order"][:1]) == [1]
    assert int(s["current_seat"]) == 2
    act(s, "pass")
    assert int(s["current_seat"]) == 0
    act(s, "pass")
    assert list(s["order"][:3]) == [1, 2, 0]  # the next round's Player Order: B, C, A


def test_t2_recruitment_by_attraction_ties_by_player_order_and_the_cost_floor():
    states = table(3)
    s = states[0]
    s["round"] = 2
    s["order"][:3] = (2, 0, 1)
    beasts = [henchman("Rhino Brute"), henchman("Bat Lurker")]  # Cost 5, then 4
    # Criminals costing 4, 6, 3
    criminals = [henchman("Getaway Driver"), henchman("Assassin"), henchman("Pickpocket")]
    for kind, first in ((0, beasts), (1, criminals)):
        rest = [int(h) for h in s["henchman_deck"][kind] if h not in first]
        s["henchman_deck"][kind] = first + rest
        s["henchman_top"][kind] = 0
        for h in s["henchman_deck"][kind]:
            s["where"][h] = rules.FACE_DOWN
        s["where"][first[0]] = rules.FACE_UP
    s["attraction"][:3, :] = 0
    s["attraction"][:3, 0] = (6, 9, 6)
    s["attraction"][:3, 1] = (7, 5, 0)
    money = s["money"].copy()
    rules.recruit_henchmen(s)
    assert s["owner"][beasts[0]] == 1 and s["owner"][beasts[1]] == 2  # C wins the tie on order
    assert list(s["attraction"][:3, 0]) == [6, 4, 2]
    assert s["owner"][criminals[0]] == 0 and s["attraction"][0, 1] == 3
    assert s["owner"][criminals[1]] == -1 and s["where"][criminals[1]] == rules.FACE_UP
    assert s["where"][criminals[2]] == rules.FACE_DOWN  # Criminal recruiting ended (P-03)
    assert list(s["money"]) == list(money)  # Cost is paid in Attraction


def test_t3_the_draft_is_hidden_simultaneous_and_passes_counter_clockwise_in_round_2():
    states = table(3)
    s = states[0]
    s["round"] = 2
    x, y = ROOM["Alchemy Lab"], ROOM["Intrinsic Field Chamber"]  # costs 4 and 2
    hands = {
        0: [x, y, ROOM["Vault"], ROOM["Vault"], ROOM["Armory"]],
        1: [ROOM["Ley Line Arena"], ROOM["Beast Pens"], ROOM["Beast Pens"], ROOM["Infirmary"],
            ROOM["War Room"]],
        2: [ROOM["Thieves' Den"]] * 3 + [ROOM["Briefing Room"]] * 2,
    }
    s["hand"][:, :] = 0
    for seat, cards in hands.items():
        for k in cards:
            s["hand"][seat, k] += 1
    s["money"][:3] = (3, 10, 10)
    s["pick"] = 0
    rules.ask(s, 0, rules.DRAFT, 0)
    assert f"build {c.ROOMS[x].name}" not in legal(s)
    act(s, f"sell {c.ROOMS[y].name}")
    assert int(s["current_seat"]) == 1
    seen = view(s, 1)
    assert seen["money"][2] == pytest.approx(3 / 30)  # seat 0 is seat 1's +2
    assert not seen["revealed_pick"].any()
    remaining = s["hand"][0].copy()
    act(s, "sell Beast Pens")
    act(s, "sell Thieves' Den")
    assert s["money"][0] == 5
    assert list(s["hand"][2]) == list(remaining)  # seat 0's 4 cards went to seat 2
    assert s["hand"][0, ROOM["Ley Line Arena"]] == 1  # seat 1's cards came to seat 0
    assert "build Ley Line Arena" in legal(s)  # $4 affordable with the sale money
    act(s, "build Ley Line Arena")
    for _ in range(5):  # the rest sell
        act(s, legal(s)[-1])
    assert s["phase"] == rules.CONTRACT_PHASE  # 3 picks each, then the rest discarded
    assert not s["hand"].any()
    assert s["base"][0].sum() == 1


def test_t4_the_lackey_rolls_one_trait_and_rerolls_once():
    states = table(3, villains=(DESPAIR, 1, 2))
    s = states[0]
    strip_henchmen(s)
    lackey = lackey_of(s, 0)
    k = henchman("Bear-Man")  # Brawn 4
    give(s, 0, lackey, powers=["Berserker Strength"])
    give(s, 0, k)
    contract_phase(
        states, map_={"North America": HARD_TEAM_2_TARGET_6},
        schemes={0: ["Double Cross"]},  # playable after the roll, so that window is asked
    )
    act(s, "contract North America")
    assert s["on_team"][lackey] and s["on_team"][k]
    assert decision(s) == "choose trait"
    dice(s, 2, 1, 1, 0, 0, 0, 0, 2, 1, 0, 0)
    act(s, "trait Brawn")
    assert decision(s) == "before the roll" and legal(s) == ["pass"]  # Double Cross waits
    act(s, "pass")  # the dice roll
    assert list(s["pool"]) == [7, 0, 0, 0]
    assert list(s["faces"]) == [4, 2, 1]
    act(s, "reroll")
    act(s, "count 0")  # the 4 blanks roll again: 2, 1, 0, 0
    assert rules.successes(s) == 7
    assert "reroll" not in legal(s)
    infamy = int(s["infamy"][0])
    act(s, "pass")
    assert s["infamy"][0] == infamy + c.CONTRACTS[HARD_TEAM_2_TARGET_6].win_infamy


def test_t4_a_lackey_working_a_room_gives_no_reroll():
    states = table(3, villains=(DESPAIR, 1, 2))
    s = states[0]
    strip_henchmen(s)
    lackey = lackey_of(s, 0)
    give(s, 0, lackey)
    give(s, 0, henchman("Bear-Man"))
    give(s, 0, henchman("Rhino Brute"))
    contract_phase(
        states, map_={"North America": HARD_TEAM_2_TARGET_6}, bases={0: ["Armory"]},
        schemes={0: ["Double Cross"]},  # playable after the roll, so that window is asked
    )
    s["villain_exhausted"][0] = True
    act(s, "contract North America")
    act(s, f"henchman {henchman('Rhino Brute')} ")
    act(s, f"henchman {henchman('Bear-Man')} ")
    dice(s, *([0] * 11))
    act(s, "room Armory")  # the Lackey is the only worker left: it works the room
    act(s, "pass")  # then nothing is left to do before the roll
    assert s["exhausted"][lackey] and s["rolled"]
    assert decision(s) == "after the roll"
    assert "reroll" not in legal(s)


def test_t5_the_negative_scheme_window():
    states = table(4, villains=(DESPAIR, 1, 2, 3))
    s = states[0]
    contract_phase(
        states, map_={"North America": NO_ICONS_TEAM_1},
        schemes={0: ["Framed!"], 2: ["Double Cross"], 3: ["Sabotage", "Ambush"]}, spent={2: 8},
    )
    s["finished"][2] = True
    s["next_order"][0] = 2
    s["next_order_n"] = 1
    rules.next_turn(s)
    give(s, 0, henchman("Rhino Brute"))
    assert int(s["current_seat"]) == 0
    act(s, "contract North America")
    act(s, f"henchman {henchman('Rhino Brute')} ")
    assert decision(s) == "negative scheme" and int(s["current_seat"]) == 2  # B skipped
    assert s["spent"][0] == 0
    assert view(s, 0)["target"][0] == 0 and not view(s, 0)["flipped"][0]
    dice(s, *([2] * 8))
    act(s, "scheme Double Cross")
    assert s["scheme_count"][2] == 0 and s["scheme_discarded"][SCHEME["Double Cross"]] == 1
    assert s["spent"][0] == 3
    assert s["target"] == c.CONTRACTS[NO_ICONS_TEAM_1].target + 2
    assert s["scheme_count"][3] == 2  # D was not asked


def test_t5_a_decline_passes_the_window_on_and_the_active_player_is_never_asked():
    states = table(4, villains=(DESPAIR, 1, 2, 3))
    s = states[0]
    give(s, 0, henchman("Rhino Brute"))
    contract_phase(
        states, map_={"North America": NO_ICONS_TEAM_1},
        schemes={0: ["Sabotage"], 2: ["Double Cross"], 3: ["Sabotage", "Ambush"]},
    )
    act(s, "contract North America")
    act(s, f"henchman {henchman('Rhino Brute')} ")
    assert int(s["current_seat"]) == 2
    act(s, "pass")
    assert int(s["current_seat"]) == 3 and s["declined"][2]
    act(s, "pass")
    assert s["flipped"] and int(s["current_seat"]) == 0
    assert s["declined"][3] and not s["declined"][0]


def test_t6_legality_of_an_attempt_and_the_emptied_continent():
    states = table(3, villains=(DESPAIR, 1, 2))
    s = states[0]
    strip_henchmen(s)
    lackey = lackey_of(s, 0)
    h1, h2, h3 = henchman("Weasel-Man"), henchman("Gorilla Bruiser"), henchman("Rhino Brute")
    give(s, 0, lackey)
    give(s, 0, h1, injuries=1)
    give(s, 0, h2, exhausted=True)
    give(s, 0, h3)
    contract_phase(
        states, map_={"North America": 1, "Africa": NO_ICONS_TEAM_1}, spent={0: 5, 1: 6, 2: 6},
    )
    assert int(s["current_seat"]) == 0
    options = legal(s)
    assert "contract North America" in options  # 3 weeks, team of 2: L and H3
    assert "contract Africa" not in options  # 5 weeks > 3 left
    act(s, "contract North America")
    assert s["on_team"][h3] and s["on_team"][lackey] and not s["on_team"][h1]
    dice(s, *([2] * 8))
    act(s, "trait Brawn")
    assert s["spent"][0] == 8 and s["finished"][0]
    assert s["map"][CONTINENT["North America"]] == -1
    assert (s["map"] >= 0).sum() == 1
    assert s["exhausted"][lackey] and s["exhausted"][h3]


def test_t7_action_rooms_and_contract_rooms():
    states = table(3, villains=(DESPAIR, 1, 2))
    s = states[0]
    strip_henchmen(s)
    h1, h2, h3 = henchman("Weasel-Man"), henchman("Gorilla Bruiser"), henchman("Rhino Brute")
    give(s, 0, h1, injuries=1)
    give(s, 0, h2)
    give(s, 0, h3)
    contract_phase(
        states, map_={"South America": NO_ICONS_TEAM_1}, bases={0: ["Vault", "Armory"]},
        spent={0: 2, 1: 5, 2: 5}, money={0: 0}, schemes={0: ["Double Cross"]},
    )
    act(s, "room Vault")
    act(s, f"henchman {h1} ")  # injured henchmen may work rooms
    assert s["spent"][0] == 3 and s["money"][0] == 2 and s["exhausted"][h1]
    assert "room Vault" not in legal(s)
    act(s, "contract South America")
    act(s, f"henchman {h2} ")
    assert decision(s) == "before the roll"
    act(s, "room Armory")
    options = legal(s)
    assert "supervillain" in options and f"henchman {h3} Rhino Brute" in options
    assert f"henchman {h2} Gorilla Bruiser" not in options
    dice(s, *([2] * 4))
    act(s, "supervillain")
    act(s, "pass")  # then nothing is left to do before the roll
    assert list(s["pool"]) == [2 + 2, 0, 0, 0] and list(s["faces"]) == [0, 0, 4]
    assert s["spent"][0] == 3 + 4
    assert not s["exhausted"][h2] and s["villain_exhausted"][0]  # the team tires at the end
    assert s["used"][0, ROOM["Armory"]] == 1
    act(s, "pass")
    assert s["exhausted"][h2] and not s["on_team"].any()


def test_t8_captured_leaves_the_game_and_injured_skips_the_captured():
    states = table(3, villains=(DESPAIR, 1, 2))
    s = states[0]
    strip_henchmen(s)
    m, h = henchman("Ex-Commando"), henchman("Rhino Brute")
    s["mercenary_deck"][: s["mercenary_deck_n"] - 1] = [
        x for x in s["mercenary_deck"][: s["mercenary_deck_n"]] if x != m
    ]
    s["mercenary_deck_n"] -= 1
    give(s, 0, m, powers=["Titan Serum"])
    give(s, 0, h)
    contract_phase(
        states, map_={"North America": HARD_TEAM_2_TARGET_6}, schemes={1: ["Ambush"]},
    )
    act(s, "contract North America")
    dice(s, *([0] * 12))
    act(s, "scheme Ambush")  # a failure now Injures too; the dice roll and fail
    assert decision(s) == "choose henchman"
    merc_deck = int(s["mercenary_deck_n"])
    act(s, f"henchman {m} ")
    assert s["where"][m] == rules.REMOVED and s["owner"][m] == -1
    assert s["mercenary_deck_n"] == merc_deck
    assert s["power_holder"][POWER["Titan Serum"]] == -1
    assert POWER["Titan Serum"] in s["power_discard"][: s["power_discard_n"]]
    assert s["injuries"][h] == 1 and s["exhausted"][h]  # the only one left: applied at once


def test_t8_the_power_target_is_chosen_before_the_draw():
    states = table(3, villains=(DESPAIR, 1, 2))
    s = states[0]
    strip_henchmen(s)
    h1, h2 = henchman("Rhino Brute"), henchman("Bear-Man")
    give(s, 0, h1)
    give(s, 0, h2)
    contract_phase(states, map_={"North America": POWER_ON_SUCCESS})
    dice(s, *([2] * 8))
    act(s, "contract North America")
    assert decision(s) == "choose henchman"
    deck = int(s["power_deck_n"])
    top = int(s["power_deck"][deck - 1])
    assert s["power_holder"][top] == -1
    act(s, f"henchman {h2} ")
    assert s["power_deck_n"] == deck - 1 and s["power_holder"][top] == h2
    expected = np.array([4, 0, 0, 0]) + np.array(c.POWERS[top].bonus)
    for seat in range(3):
        traits = view(s, seat)["henchman_traits"][h2]
        assert traits == pytest.approx(np.minimum(expected / 7, 2))


def test_t9_clean_up_pays_mercenaries_first_and_the_unpaid_leave():
    states = table(3, villains=(DESPAIR, 1, 2))
    s = states[0]
    strip_henchmen(s)
    m, lackey = henchman("Ex-Commando"), lackey_of(s, 0)
    h1, h2 = henchman("Rhino Brute"), henchman("Bear-Man")
    s["mercenary_deck"][: s["mercenary_deck_n"] - 1] = [
        x for x in s["mercenary_deck"][: s["mercenary_deck_n"]] if x != m
    ]
    s["mercenary_deck_n"] -= 1
    give(s, 0, m, injuries=1, powers=["Titan Serum"])
    give(s, 0, lackey)
    give(s, 0, h1, injuries=1, powers=["Shadow Cloak"])
    give(s, 0, h2, exhausted=True)
    s["round"] = 2
    s["money"][:3] = (2, 0, 0)
    s["next_order"][:3] = (0, 1, 2)
    rules.start_clean_up(s)
    rules.settle(s)
    assert s["money"][0] == 1
    assert s["mercenary_deck"][s["mercenary_deck_n"] - 1] == m and s["injuries"][m] == 0
    assert s["powers"][m] == 0 and s["power_holder"][POWER["Titan Serum"]] == -1
    assert decision(s) == "unpaid"
    act(s, f"henchman {h1} ")
    act(s, f"henchman {h2} ")
    assert s["where"][h1] == rules.REMOVED and s["power_holder"][POWER["Shadow Cloak"]] == -1
    assert s["money"][0] == 0 and s["owner"][lackey] == 0
    assert decision(s) == "fire"
    act(s, "pass")
    assert s["round"] == 3 and not s["exhausted"].any()
    difficulties = sorted(c.CONTRACTS[int(k)].difficulty for k in s["map"])
    assert difficulties == [1, 1, 1, 2, 2, 2]


def test_t9_salaries_are_paid_in_round_3_before_the_money_bonus():
    states = table(2)
    s = states[0]
    strip_henchmen(s)
    give(s, 0, henchman("Rhino Brute"))
    s["round"] = 3
    s["money"][:2] = (5, 5)
    s["infamy"][:2] = (10, 10)
    s["next_order"][:2] = (0, 1)
    rules.start_clean_up(s)
    rules.settle(s)
    act(s, "pass")  # no firing
    assert s["terminated"]
    assert s["money"][0] == 4 and s["infamy"][0] == 10 + 4  # 2nd in money after the salary
    assert s["infamy"][1] == 10 + 6


def test_t10_end_scoring_and_tie_breaks():
    states = table(4)
    s = states[0]
    strip_henchmen(s)
    counts = (3, 5, 4, 3)
    ids = iter(range(40))
    for seat, k in enumerate(counts):
        for _ in range(k):
            give(s, seat, next(ids))
    s["money"][:4] = (0, 7, 7, 3)
    s["infamy"][:4] = (30, 24, 26, 28)
    s["order"][:4] = (0, 1, 2, 3)
    rules.final_scoring(s)
    assert list(s["infamy"][:4]) == [31, 30, 32, 30]
    assert s["rewards"][:4] == pytest.approx([1 / 3, -1 / 3, 1, -1])
    assert s["winner"] == 2 and s["terminated"]


def test_t10_seats_tied_on_infamy_and_henchmen_share_their_positions():
    states = table(4)
    s = states[0]
    strip_henchmen(s)
    s["money"][:4] = (0, 0, 0, 0)  # everyone 1st in money: +6 each
    s["infamy"][:4] = (10, 10, 5, 1)
    rules.final_scoring(s)
    assert s["rewards"][:4] == pytest.approx([2 / 3, 2 / 3, -1 / 3, -1])


def test_t10_win_mode_rewards_the_top_group():
    states = table(3, reward_mode=1)
    s = states[0]
    strip_henchmen(s)
    s["money"][:3] = (0, 0, 0)
    s["infamy"][:3] = (10, 10, 5)
    rules.final_scoring(s)
    assert list(s["rewards"][:3]) == [1, 1, 0]


def test_setup_money_follows_player_order_and_each_seat_draws_a_scheme():
    s = table(5)[0]
    assert sorted(s["money"][s["order"][:5]]) == [8, 9, 10, 11, 12]
    assert [int(s["money"][seat]) for seat in s["order"][:5]] == [8, 9, 10, 11, 12]
    assert list(s["scheme_count"][:5]) == [1] * 5
    assert s["attraction"].sum() == 0 and s["infamy"].sum() == 0
    assert sorted(c.CONTRACTS[int(k)].difficulty for k in s["map"]) == [0, 0, 0, 0, 1, 1]
    assert len(set(s["villain"][:5])) == 5
    assert s["hand"][:5].sum(axis=1).tolist() == [5] * 5


def test_the_dice_average_two_thirds_of_a_success():
    s = table(2)[0]
    s["faces"][:] = 0
    rules.roll(s, 20_000)
    mean = (s["faces"][1] + 2 * s["faces"][2]) / 20_000
    assert mean == pytest.approx(2 / 3, abs=0.02)
    assert s["faces"][0] / 20_000 == pytest.approx(0.5, abs=0.02)


def test_a_pass_spends_all_time_and_the_token_leaves_at_once():
    states = table(2, villains=(DESPAIR, 1))
    s = states[0]
    contract_phase(states, spent={0: 3, 1: 5})
    assert int(s["current_seat"]) == 0
    act(s, "pass")
    assert s["spent"][0] == 8 and s["finished"][0] and s["next_order"][0] == 0
    assert int(s["current_seat"]) == 1


def test_the_hospital_heals_two_dollars_a_token():
    states = table(2, villains=(DESPAIR, 1))
    s = states[0]
    strip_henchmen(s)
    h = henchman("Rhino Brute")
    give(s, 0, h, injuries=3)
    contract_phase(states, money={0: 5}, spent={1: 5})
    act(s, "visit Hoodlum Hospital")
    act(s, f"henchman {h} ")
    act(s, f"henchman {h} ")
    assert s["injuries"][h] == 1 and s["money"][0] == 1 and s["spent"][0] == 2
    assert decision(s) == "turn"  # $1 cannot pay for more: the visit ended on its own


def test_render_shows_a_seat_only_its_own_hands_and_no_contract_front():
    s = table(3)[0]
    whole = render(s, None)
    mine = render(s, 0)
    front = c.CONTRACTS[int(s["map"][0])].name
    assert front in whole and front not in mine
    assert mine.count("    hand:") == 1 and whole.count("    hand:") == 3
    assert mine.count("    schemes:") == 1
