"""Human play: what a person at the table sees of another seat's action (render.public_action)."""

import numpy as np
import pytest

import envs
from agents.policy import RandomPolicy
from envs.menace import actions as A
from envs.menace import rules as R
from envs.menace.render import public_action
from envs.menace.spec import DECISION_NAMES

from tests.menace.hidden import hidden_from

# Decisions whose choice lies face down: every legal choice must read alike to another seat.
HIDDEN_CHOICES = {R.PICK_CHARACTER, R.PAY_DISCARD, R.TINKER_DISCARD, R.HAND_LIMIT, R.VOTE,
                  R.AGENDA_TARGET}


@pytest.mark.parametrize("num_players", [5, 7])
def test_another_seat_reads_the_same_whatever_was_chosen_face_down(num_players):
    """Face-down plays, discards, picks, ballots and agenda targets read alike to every other
    seat whichever was chosen, and nothing another seat reads changes when what it cannot know
    is re-dealt."""
    vec = envs.make_vec("menace", 32, seed=num_players, num_players=num_players)
    policy, rng = RandomPolicy(3), np.random.default_rng(num_players)
    checked = 0
    for _ in range(150):
        for b in range(vec.num_envs):
            s, seat = vec.records[b], int(vec.current_seat[b])
            legal = np.flatnonzero(vec.action_mask[b])
            viewer = (seat + 1 + int(rng.integers(num_players - 1))) % num_players
            seen = {public_action(s, seat, int(a), viewer) for a in legal}
            decision = int(s["decision"])
            plays = [a for a in legal if A.PLAY <= a < A.USE]
            if decision in HIDDEN_CHOICES:
                assert len(seen) == 1, (DECISION_NAMES[decision], seen)
            elif len(plays) > 1:
                assert len({public_action(s, seat, int(a), viewer) for a in plays}) == 1
            t, _ = hidden_from(s, viewer, rng)
            for a in legal:
                assert public_action(t, seat, int(a), viewer) == public_action(
                    s, seat, int(a), viewer)
            checked += 1
        vec.step(policy.act(vec.observation, vec.action_mask))
    assert checked > 2500


def test_public_actions_name_what_the_table_sees():
    vec = envs.make_vec("menace", 1, seed=0, num_players=5)
    s = vec.records[0]
    assert public_action(s, 0, A.DRAW, 1) == "draws a card"
    assert public_action(s, 0, A.PLAY + 3, 1) == "plays a card face down"
    assert public_action(s, 0, A.PICK + 2, 1) == "picks a character face down"
    assert public_action(s, 0, A.CLAIM + 2, 1) == "claims Bad"
