"""Among Us observation pieces that are derived from what a seat already knows.

Seat i holds colour i (red, blue, green, pink); seat 1 (blue) is the impostor.
"""

import numpy as np

from envs.amongus import rules

from .board import Table


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
