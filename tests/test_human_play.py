"""Human play shows a person only what a player at their seat would see."""

import io
from contextlib import redirect_stdout

import numpy as np
import pytest

import envs
from envs.core.aec import game_hook
from evaluation.play import play

GAMES = {"menace": {"num_players": 5}, "amongus": {"num_players": 5},
         "maniacal": {"num_players": 3}}


def _transcript(game, seat, seed, params):
    out = io.StringIO()
    with redirect_stdout(out):
        play(game, seat=seat, opponents="heuristic", seed=seed, read=lambda _: "0", **params)
    return out.getvalue()


def _bot_moves(game, seat, seed, params):
    """Replays the same game on a VecEnv: each other seat's action and the table before it."""
    from agents.policy import choose
    from evaluation.play import opponent_policies

    vec = envs.make_vec(game, 1, seed=seed, **params)
    others = opponent_policies("heuristic", vec.spec, vec.params, seed)
    moves = []
    while True:
        deciding = int(vec.current_seat[0])
        mask = vec.action_mask
        if deciding == seat:
            action = np.array([np.flatnonzero(mask[0])[0]])
        else:
            policy = others[vec.spec.teams[vec.teams()[0, deciding]]]
            action = choose(policy, vec.observation, mask, np.array([[0, deciding]]))
            moves.append((vec.records[0].copy(), deciding, int(action[0])))
        _, term, trunc = vec.step(action)
        if term[0] or trunc[0]:
            return moves, vec.spec


@pytest.mark.parametrize("game", sorted(GAMES))
def test_human_play_prints_no_hidden_action_of_another_seat(game):
    """Every line about another seat is what a person at the table sees of that action
    (``render.public_action``, or only who acted where a game has none): the bots' cards played
    face down and their ballots are never printed by name."""
    params = GAMES[game]
    for seed in range(2):
        text = _transcript(game, 0, seed, params)
        moves, spec = _bot_moves(game, 0, seed, params)
        lines = [line for line in text.splitlines() if line.startswith("player_") and ":" in line
                 and not line.startswith("player_0")]
        public = game_hook(game, "render", "public_action")
        assert len(lines) == len(moves)
        for line, (record, who, action) in zip(lines, moves):
            shown = public(record, who, action, 0) if public else "acts"
            assert line == f"player_{who}: {shown}"
            if public is None:
                assert spec.action_names[action] not in line


@pytest.mark.parametrize("mode", ["human", "ansi"])
def test_render_hides_other_hands_unless_god_view(mode):
    from envs import menace_v5

    hidden = menace_v5.env(num_players=5, render_mode=mode)
    hidden.reset(seed=2)
    god = menace_v5.env(num_players=5, render_mode=mode, god_view=True)
    god.reset(seed=2)
    for env, lines in ((hidden, []), (god, [])):
        out = io.StringIO()
        with redirect_stdout(out):
            text = env.render()
        lines.extend((text or out.getvalue()).splitlines())
        seat = int(env.agent_selection.split("_")[1])
        others = [line for line in lines if line.strip().startswith("player_")
                  and not line.strip().startswith(f"player_{seat}:")]
        if env is hidden:
            assert all(" cards]" in line for line in others)  # a count, not the cards
        else:
            assert not any(" cards]" in line for line in others)
