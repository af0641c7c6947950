"""Among Us observation pieces that are derived from what a seat already knows.

Seat i holds colour i (red, blue, green, pink); seat 1 (blue) is the impostor.
"""

import numpy as np

from envs.amongus import rules

from .board import ONE_DEAL_FITS, SEAT_3_SHOWED_THE_OTHERS, SEATS_1_AND_3_ALIKE, Table
from .counted_by_hand import colour_odds, impostor_odds, sabotage_chance


def _looked(pairs):
    looked = np.zeros((10, 10), np.uint8)
    for seat, target in pairs:
        looked[seat, target] = 1
    return looked


def test_sabotage_target_colour_is_shown_only_to_seats_that_know_it():
    t = Table(num_players=4, impostor=1).edit(looked=_looked([(0, 2)])).turn(1, rules.END_OF_TURN)
    t.act("sabotage")  # seat 2 (green) is guessed first
    colour = {seat: t.observation(seat)["sabotage_target_colour"] for seat in range(4)}
    assert not colour[1].any()  # the impostor must guess it
    assert colour[0].argmax() == 2 and colour[0].sum() == 1  # seat 0 looked at seat 2
    assert colour[2].argmax() == 2 and colour[2].sum() == 1  # seat 2's own colour
    assert not colour[3].any()
    assert t.observation(1)["sabotage_target"].argmax() == 1  # seat 2, one clockwise of seat 1
    t.act("guess green")  # right: seat 2's card turns face up, seat 3 (pink) is next
    assert not t.observation(1)["sabotage_target_colour"].any()
    assert t.observation(3)["sabotage_target_colour"].argmax() == 3


def test_sabotage_target_colour_is_zero_outside_sabotage():
    t = Table(num_players=4, impostor=1).edit(looked=_looked([(0, 2)])).turn(0, rules.END_OF_TURN)
    for seat in range(4):
        assert not t.observation(seat)["sabotage_target_colour"].any()


def test_colours_known_counts_the_other_seats_whose_colour_is_known():
    t = Table(num_players=4, impostor=1).edit(looked=_looked([(0, 2)])).turn(1, rules.END_OF_TURN)
    known = [t.observation(seat)["colours_known"][0] for seat in range(4)]
    assert np.allclose(known, [1 / 3, 0, 0, 0])
    t.act("sabotage")  # the impostor's card turns face up
    known = [t.observation(seat)["colours_known"][0] for seat in range(4)]
    assert np.allclose(known, [2 / 3, 0, 1 / 3, 1 / 3])


def _evidence(n=4):
    """Seat 2 (green) has shown red twice and pink once; it gave seat 1 one red in a trade it
    started, and gave seat 3 one pink."""
    shown_total = np.zeros((10, 10), np.int16)
    shown_total[2, 0], shown_total[2, 3] = 2, 1
    given = np.zeros((10, 10, 10), np.int16)
    trades = np.zeros((10, 10), np.int16)
    given[2, 1, 0], trades[2, 1] = 1, 1
    given[2, 3, 3], trades[2, 3] = 1, 1
    return dict(shown_total=shown_total, given=given, trades=trades)


def test_sabotage_target_evidence_repeats_the_targets_rows_during_a_sabotage():
    t = Table(num_players=4, impostor=1).turn(1, rules.END_OF_TURN)
    t.edit(**{k: v.astype(t.s[k].dtype) for k, v in _evidence().items()})
    per_round = 1 / t.s["max_rounds"]
    before = t.observation(1)
    assert not before["sabotage_target_shown"].any() and not before["sabotage_target_gave"].any()
    t.act("sabotage")  # seat 2 (green) is guessed first
    seen = t.observation(1)
    assert np.allclose(seen["sabotage_target_shown"], np.array([2, 0, 0, 1]) * per_round)
    assert np.allclose(seen["sabotage_target_shown"], seen["shown_total"].reshape(4, 4)[1])
    assert np.allclose(seen["sabotage_target_gave"], np.array([1, 0, 0, 0]) * per_round)
    assert np.allclose(seen["sabotage_target_gave"], seen["received_from"].reshape(4, 4)[1])
    # seat 0 never traded with seat 2: the same public row, nothing received
    assert np.allclose(t.observation(0)["sabotage_target_shown"], seen["sabotage_target_shown"])
    assert not t.observation(0)["sabotage_target_gave"].any()
    # seat 3 received pink from seat 2
    assert np.allclose(t.observation(3)["sabotage_target_gave"], np.array([0, 0, 0, 1]) * per_round)


def test_unclaimed_colours_are_those_neither_the_impostors_nor_of_a_known_seat():
    t = Table(num_players=4, impostor=1).edit(looked=_looked([(0, 2)])).turn(1, rules.END_OF_TURN)
    unclaimed = {seat: t.observation(seat)["unclaimed_colours"] for seat in range(4)}
    assert np.array_equal(unclaimed[0], [0, 0, 0, 1])  # own red, blue the impostor's, looked green
    assert np.array_equal(unclaimed[1], [1, 0, 1, 1])  # blue is its own and the impostor's
    assert np.array_equal(unclaimed[3], [1, 0, 1, 0])
    t.act("sabotage")
    t.act("guess green")  # right: green turns face up, and everyone knows it
    assert np.array_equal(t.observation(1)["unclaimed_colours"], [1, 0, 0, 1])
    assert np.array_equal(t.observation(3)["unclaimed_colours"], [1, 0, 0, 0])


def test_sabotage_target_odds_count_that_every_seat_holds_one_colour():
    """Judged alone, seat 2 could be red, green or pink; counted with the others it is green."""
    t = Table(num_players=4, impostor=1, assist=1).edit(shown_total=ONE_DEAL_FITS)
    t.turn(1, rules.END_OF_TURN)
    assert not t.observation(1)["sabotage_target_odds"].any()  # no sabotage yet
    t.act("sabotage")  # seat 2 is guessed first
    seen = t.observation(1)
    odds = seen["sabotage_target_odds"]
    assert np.allclose(odds, colour_odds(seen, 4)[1])  # seat 2 is one clockwise of seat 1
    assert odds.argmax() == 2 and odds[2] > 0.85 and np.isclose(odds.sum(), 1)
    assert all(not t.observation(seat)["sabotage_target_odds"].any() for seat in (0, 2, 3))
    t.act("guess green")  # right: seat 2 turns face up; seat 3 is next, and must be pink
    seen = t.observation(1)
    assert np.allclose(seen["sabotage_target_odds"], colour_odds(seen, 4)[2])
    assert seen["sabotage_target_odds"].argmax() == 3


def test_sabotage_target_odds_are_one_hot_for_a_seat_already_face_up():
    t = Table(num_players=4, impostor=1, assist=1).edit(revealed=[0, 0, 1, 0] + [0] * 6)
    t.turn(1, rules.END_OF_TURN).act("sabotage")  # seat 2, green, is face up
    assert np.array_equal(t.observation(1)["sabotage_target_odds"], [0, 0, 1, 0])


def test_sabotage_chance_is_the_impostors_count_of_every_guess_right():
    t = Table(num_players=4, impostor=1, assist=1).edit(shown_total=ONE_DEAL_FITS)
    t.turn(1, rules.END_OF_TURN)
    seen = t.observation(1)
    assert np.isclose(seen["sabotage_chance"][0], sabotage_chance(seen, 4))
    assert 0.8 < seen["sabotage_chance"][0] < 0.9
    assert all(t.observation(seat)["sabotage_chance"][0] == 0 for seat in (0, 2, 3))


def test_impostor_odds_are_a_crewmates_count_at_its_end_of_turn():
    """Seat 3 showed every colour left but pink, the impostor's: it is the impostor 905 times
    in 1000. Only the crewmate deciding its end of turn counts; a look clears a seat of it."""
    t = Table(num_players=4, impostor=3, assist=1).edit(shown_total=SEAT_3_SHOWED_THE_OTHERS)
    t.turn(0, rules.TRADE)
    assert not t.observation(0)["impostor_odds"].any()  # not yet its end of turn
    t.act("no trade")
    seen = t.observation(0)
    assert np.allclose(seen["impostor_odds"], impostor_odds(seen, 4))
    assert np.allclose(seen["impostor_odds"], [0, 0.048, 0.047, 0.905], atol=1e-3)
    assert all(not t.observation(seat)["impostor_odds"].any() for seat in (1, 2, 3))
    t = Table(num_players=4, impostor=3, assist=1).edit(shown_total=SEATS_1_AND_3_ALIKE)
    t.edit(not_impostor=[0, 1] + [0] * 8).turn(0, rules.END_OF_TURN)  # someone looked at seat 1
    seen = t.observation(0)
    assert np.allclose(seen["impostor_odds"], impostor_odds(seen, 4))
    assert seen["impostor_odds"][1] == 0 and seen["impostor_odds"][3] > 0.9
