"""The scripted Among Us players on set boards: the immediate vote chain, the heuristic
impostor's use of sabotage windows and its counting, and the heuristic crew's count of who the
impostor is.

Seat i holds colour i (red, blue, green, pink, orange).
"""

import pytest

import envs
from agents import make_policy, scripted
from agents.amongus_chain import AmongUsChain
from envs.amongus import rules

from .board import ONE_DEAL_FITS, SEAT_3_SHOWED_THE_OTHERS, SEATS_1_AND_3_ALIKE, Table, shown


def plays(t: Table, name: str) -> str:
    policy = make_policy(name, t.vec.spec, t.vec.params)
    return t.vec.spec.action_names[int(policy.act(t.vec.observation, t.vec.action_mask)[0])]


def test_chain_votes_at_once_for_the_next_seat_not_yet_revealed():
    t = Table(num_players=5, impostor=3).edit(first_player=1).turn(1)
    assert plays(t, "chain") == "no trade"
    t.act("no trade")
    assert plays(t, "chain") == "vote +1"  # seat 2
    t.act("vote +1")
    t.let_the_window_pass()
    assert int(t.s["current_seat"]) == 2  # face up now, its vote still to use
    t.act(plays(t, "chain"))
    assert plays(t, "chain") == "vote +1"  # seat 3, the next face-down seat
    rewards, terminated, _ = t.act("vote +1")
    assert terminated and rewards.tolist()[:5] == [1.0, 1.0, 1.0, -1.0, 1.0]


def test_chain_names_a_seat_that_took_its_turn_without_voting():
    t = Table(num_players=5, impostor=1).edit(first_player=1).turn(1, rules.END_OF_TURN)
    t.act("end turn")  # only the impostor cannot vote
    t.act(plays(t, "chain"))  # seat 2's trade
    assert plays(t, "chain") == "vote +4"  # seat 1, not seat 3


def test_chain_crew_declines_every_window_and_plays_the_heuristic_impostor():
    t = Table(num_players=4, impostor=3).edit(first_player=0).turn(0, rules.END_OF_TURN)
    t.act("vote +2")  # seats 0 and 2 up: the impostor knows every colour but seat 1's, red
    assert int(t.s["current_seat"]) == 1 and plays(t, "chain") == "no sabotage"
    t.act("no sabotage")
    assert plays(t, "chain") == plays(t, "heuristic") == "sabotage"


def test_chain_is_a_policy_of_among_us_only():
    spec = envs.registry["menace"]
    with pytest.raises(ValueError, match=r"'chain' plays \['amongus'\], not 'menace'"):
        make_policy("chain", spec, spec.resolve())
    spec = envs.registry["amongus"]
    with pytest.raises(ValueError, match=r"unknown.*'chian'.*\['random', 'chain', 'heuristic'\]"):
        make_policy("chian", spec, spec.resolve())


def exploit_plays(t: Table) -> str:
    policy = scripted(AmongUsChain.exploit, t.vec.spec, t.vec.params)
    return t.vec.spec.action_names[int(policy.act(t.vec.observation, t.vec.action_mask)[0])]


def test_chain_exploit_sabotages_in_the_window_before_the_seat_that_will_name_it():
    """Seat 0 names seat 1, seat 1 will name seat 2, seat 2 will name seat 3, the impostor."""
    t = Table(num_players=6, impostor=3).edit(first_player=0).turn(0)
    t.act("no trade")
    t.act("vote +1")  # seats 0 and 1 face up; seat 2 is still to vote
    while int(t.s["current_seat"]) != 3:
        t.act("no sabotage")
    assert exploit_plays(t) == plays(t, "heuristic") == "no sabotage"  # not named next
    t.let_the_window_pass()
    t.act("no trade")
    t.act("vote +1")  # seat 1 names seat 2: seat 2 names seat 3 on its turn, which comes next
    while int(t.s["current_seat"]) != 3:
        t.act("no sabotage")
    assert plays(t, "heuristic") == "no sabotage"  # seats 4 and 5 are still a coin toss
    assert exploit_plays(t) == "sabotage"


def test_chain_exploit_sabotages_at_its_show_when_the_seat_before_it_opens_the_round():
    t = Table(num_players=6, impostor=2)  # seat 1 opens round 1 and names seat 2 on its turn
    assert int(t.s["current_seat"]) == 1 and int(t.s["phase"]) == rules.INVESTIGATION
    t.act(plays(t, "chain"))
    assert int(t.s["current_seat"]) == 2
    assert plays(t, "heuristic").startswith("show") and exploit_plays(t) == "sabotage"


def test_chain_exploit_opening_the_round_sabotages_at_its_own_end_of_turn():
    t = Table(num_players=6, impostor=1).turn(1, rules.END_OF_TURN)  # seat 2 names it next
    assert plays(t, "heuristic") == "end turn" and exploit_plays(t) == "sabotage"
    t = Table(num_players=6, impostor=1).turn(1, rules.END_OF_TURN).edit(voted=[0, 0, 1] + [0] * 7)
    assert exploit_plays(t) == "end turn"  # seat 2 has used its vote


def test_heuristic_impostor_sabotages_in_a_window_once_it_knows_every_colour():
    t = Table(num_players=5, impostor=4).edit(first_player=0, revealed=[0, 0, 0, 1] + [0] * 6)
    t.turn(0, rules.END_OF_TURN).act("vote +1")  # seats 0, 1 and 3 up: seat 2 must be green
    assert int(t.s["current_seat"]) == 2 and plays(t, "heuristic") == "no sabotage"
    t.act("no sabotage")
    assert int(t.s["current_seat"]) == 4 and plays(t, "heuristic") == "sabotage"


def test_heuristic_impostor_guesses_at_once_when_the_crew_can_name_it():
    """Seats 0 and 2 are face up and seat 4 publicly cleared: seat 1, the one other suspect,
    knows the impostor is seat 3. Guessing blue and orange beats being named."""
    cornered = dict(revealed=[1, 0, 1, 0, 0] + [0] * 5, voted=[1] + [0] * 9)
    t = Table(num_players=5, impostor=3).edit(not_impostor=[0, 0, 0, 0, 1] + [0] * 5, **cornered)
    assert plays(t.turn(3, rules.END_OF_TURN), "heuristic") == "sabotage"
    t = Table(num_players=5, impostor=3).edit(**cornered)  # seat 4 still a suspect too
    assert plays(t.turn(3, rules.END_OF_TURN), "heuristic") == "end turn"


def test_balance_table_pits_three_crews_against_the_heuristic_impostor():
    from evaluation.balance import format_balance, run_balance

    result = run_balance("amongus", games=40, players=(4, 6))
    assert [(r["num_players"], r["pairing"]) for r in result["rows"]] == [
        (n, p) for n in (4, 6) for p in ("heuristic", "chain vs heuristic", "random vs heuristic")
    ]
    assert all(r["policies"]["impostor"] == "heuristic" for r in result["rows"])
    assert format_balance(result).count("\n") == 7


def test_heuristic_impostor_guesses_the_colour_no_other_seat_can_hold():
    t = Table(num_players=4, impostor=1).edit(shown_total=ONE_DEAL_FITS)
    t.turn(1, rules.END_OF_TURN).act("sabotage")  # guesses run clockwise: seat 2 first
    assert plays(t, "heuristic") == "guess green"  # not red, the first colour left
    t.act("guess green")
    assert plays(t, "heuristic") == "guess pink"


def test_heuristic_impostor_sabotages_once_its_guesses_would_be_right_nine_times_in_ten():
    """Showing a colour is strong evidence, not proof: a crewmate with nothing else to show
    shows its own. Once seat 3 has also shown red and seat 2 pink, every guess is right 95
    times in 100."""
    t = Table(num_players=4, impostor=1).edit(shown_total=ONE_DEAL_FITS)
    assert plays(t.turn(1, rules.END_OF_TURN), "heuristic") == "end turn"  # 83 in 100
    surer = shown(seat0=["pink", "green"], seat3=["green", "red"], seat2=["pink"])
    t = Table(num_players=4, impostor=1).edit(shown_total=surer)
    assert plays(t.turn(1, rules.END_OF_TURN), "heuristic") == "sabotage"


def test_heuristic_crew_looks_at_the_seat_most_likely_to_be_the_impostor():
    t = Table(num_players=4, impostor=3).edit(shown_total=SEAT_3_SHOWED_THE_OTHERS)
    t.hands({"red": 5}, {"blue": 5}, {"green": 5}, {"pink": 5}).turn(0, rules.END_OF_TURN)
    assert plays(t, "heuristic") == "clear, look at +3"  # none showed pink: it counts


def test_heuristic_crew_votes_once_the_impostor_is_seven_times_in_ten():
    def crewmate_plays(board, **fields):
        t = Table(num_players=4, impostor=3).edit(shown_total=board, **fields)
        t.hands({"red": 4, "blue": 1}, {"blue": 4}, {"green": 5}, {"pink": 5, "red": 1})
        return plays(t.turn(0, rules.END_OF_TURN), "heuristic")

    assert crewmate_plays(SEAT_3_SHOWED_THE_OTHERS) == "vote +3"
    assert crewmate_plays(SEATS_1_AND_3_ALIKE) == "end turn"
    last_round = crewmate_plays(SEATS_1_AND_3_ALIKE, round=30)
    assert last_round == "vote +1"  # a tie goes to the first clockwise
