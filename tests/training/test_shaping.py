"""Potential-based shaping: the terms telescope along each seat's own decisions, the potentials
read the seat's own view, and the shaped reward reaches the advantages only, never the rewards
credited, logged or evaluated."""

import json

import numpy as np
import pytest
import torch

import envs
from training import ppo
from training.ppo import Args, train
from training.shaping import potential, shaping_terms

GAMMA = 0.9


def test_discounted_shaping_over_a_seat_s_game_is_minus_its_first_potential():
    # One game (B = 1), two seats taking turns 0, 1, 0, 1, 0, 0, 1; seat 0 decides four times.
    seat = np.array([0, 1, 0, 1, 0, 0, 1])[:, None]
    phi = np.array([0.3, -0.2, 0.5, 0.1, 0.8, 0.4, -0.7], np.float32)[:, None]
    done = np.zeros_like(seat, bool)
    done[5:] = True  # the game ends after each seat's last decision
    valid = np.ones_like(done)
    terms = shaping_terms(phi, done, seat, valid, 2, GAMMA)[:, 0]
    for s in (0, 1):
        own = np.flatnonzero(seat[:, 0] == s)
        discounted = sum(GAMMA**k * terms[row] for k, row in enumerate(own))
        assert discounted == pytest.approx(-phi[own[0], 0], abs=1e-6)
    # each term is gamma * (the seat's next potential) - this one's; 0 after the last
    assert terms[0] == pytest.approx(GAMMA * 0.5 - 0.3)
    assert terms[4] == pytest.approx(GAMMA * 0.4 - 0.8)
    assert terms[5] == pytest.approx(-0.4)
    assert terms[1] == pytest.approx(GAMMA * 0.1 + 0.2)


def test_a_pending_decision_gets_its_term_once_its_successor_is_known():
    seat = np.array([0, 1, 0])[:, None]
    phi = np.array([0.2, 0.6, 0.5], np.float32)[:, None]
    done = np.zeros((3, 1), bool)  # the game goes on: both seats' latest rows are pending
    terms = shaping_terms(phi, done, seat, np.ones_like(done), 2, GAMMA)[:, 0]
    assert terms[0] == pytest.approx(GAMMA * 0.5 - 0.2)
    assert terms[1] == 0.0 and terms[2] == 0.0  # their successors come in the next rollout


def test_a_chain_cut_by_a_team_change_ends_at_potential_zero():
    seat = np.array([0, 1, 0])[:, None]
    phi = np.array([0.2, 0.6, 0.5], np.float32)[:, None]
    done = np.array([True, True, True])[:, None]  # seat 0's first chain cut (it changed sides)
    terms = shaping_terms(phi, done, seat, np.ones_like(done), 2, GAMMA)[:, 0]
    np.testing.assert_allclose(terms, -phi[:, 0])


def _random_positions(game, num_players, steps):
    env = envs.make_vec(game, 64, seed=4, num_players=num_players)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        legal = env.action_mask
        env.step(np.array([rng.choice(np.flatnonzero(m)) for m in legal]))
    return env


def test_menace_potential_is_the_crew_s_tracks_with_each_seat_s_own_sign():
    env = _random_positions("menace", 7, 40)  # 7 players: a Coward is dealt
    phi = potential("menace", env.params)(env.observation)
    s, rows = env.records, np.arange(env.num_envs)
    tracks = (s["oxygen"] + s["energy"]) / 40.0
    menace = env.teams()[rows, env.current_seat] == envs.registry["menace"].teams.index("menace")
    np.testing.assert_allclose(phi, np.where(menace, -tracks, tracks), atol=1e-6)
    assert menace.any() and (~menace).any()


def test_amongus_potential_is_the_share_of_own_colour_tasks_held():
    env = _random_positions("amongus", 6, 30)
    phi = potential("amongus", env.params)(env.observation)
    s, rows, seat = env.records, np.arange(env.num_envs), env.current_seat
    own = s["hand"][rows, seat, s["colour"][rows, seat]] / 5.0
    np.testing.assert_allclose(phi, own, atol=1e-6)
    assert (phi > 0).any()


def test_shaping_is_refused_where_the_game_has_no_potential():
    with pytest.raises(ValueError, match="maniacal has no shaping potential"):
        Args(game="maniacal", num_players=4, shaping_coef=0.5).check()
    with pytest.raises(ValueError, match="shaping_coef must be >= 0"):
        Args(game="menace", num_players=5, shaping_coef=-0.1).check()


ONE_UPDATE = dict(game="amongus", num_players=4, num_envs=64, num_steps=64, total_steps=64 * 64,
                  tensorboard=False, progress=False, imitate=None, eval_every=0, seed=2)


def _run(tmp_path, monkeypatch, coef):
    """One update; returns the summary, the weights, and (game rewards, what GAE was given)."""
    seen = {}
    real_gae = ppo.per_seat_gae

    class Watched(ppo.Collector):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            seen["buf"] = self.buf

    def gae(rewards, *a, **kw):
        seen["gae_rewards"] = rewards
        return real_gae(rewards, *a, **kw)

    monkeypatch.setattr(ppo, "Collector", Watched)
    monkeypatch.setattr(ppo, "per_seat_gae", gae)
    out = tmp_path / f"coef{coef}"
    paths = train(Args(out=str(out), shaping_coef=coef, **ONE_UPDATE))
    weights = {team: torch.load(p, weights_only=False)["model"] for team, p in paths.items()}
    summary = (out / "summary.json").read_text()
    return summary, weights, seen["buf"].rewards, seen["gae_rewards"]


def test_off_the_advantages_read_the_game_s_rewards_themselves(tmp_path, monkeypatch):
    _, _, game_rewards, gae_rewards = _run(tmp_path, monkeypatch, 0.0)
    assert gae_rewards is game_rewards


def test_shaping_changes_the_update_but_not_the_rewards_credited_or_logged(tmp_path, monkeypatch):
    off, off_weights, _, _ = _run(tmp_path, monkeypatch, 0.0)
    on, on_weights, game_rewards, gae_rewards = _run(tmp_path, monkeypatch, 0.5)
    assert set(np.unique(game_rewards)) <= {-1.0, 0.0, 1.0}  # the game's own payoffs only
    assert not np.array_equal(gae_rewards, game_rewards)
    assert any(not torch.equal(on_weights["crew"][k], off_weights["crew"][k])
               for k in off_weights["crew"])
    # the same first rollout: what is credited and logged from it is the same, shaped or not
    logged = ("rewards_credited_share", "selfplay_win_rates_last_rollout", "steps")
    off, on = json.loads(off), json.loads(on)
    assert {k: on[k] for k in logged} == {k: off[k] for k in logged}
    assert on["rewards_credited_share"] == 1.0


def test_the_cli_passes_the_coefficient_and_refuses_it_for_maniacal(tmp_path, capsys):
    import argparse

    from training.cli import args_from_namespace, main, register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    ns = parser.parse_args(["train", "menace", "--shaping-coef", "0.5"])
    assert args_from_namespace(ns).shaping_coef == 0.5
    assert args_from_namespace(parser.parse_args(["train", "menace"])).shaping_coef == 0.0
    assert main(["train", "maniacal", "--players", "4", "--shaping-coef", "1",
                 "--out", str(tmp_path / "run")]) == 2
    assert "maniacal has no shaping potential" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
