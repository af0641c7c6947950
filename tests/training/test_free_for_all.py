"""Self-play on a free-for-all game (MANIACAL): one shared policy for every seat, scored by
final position against held-out references."""

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import torch

import envs
from agents.neural import ActorCritic, NeuralPolicy, load_policy
from evaluation.ffa import ffa_match
from evaluation.play import opponent_policies
from evaluation.tournament import run_tournament
from training.crossplay import crossplay
from training.instrument import Clock
from training.pool import OpponentPool
from training.ppo import Args, group_names, train
from training.report import ffa_report, report
from training.report import main as report_main
from training.rollout import Collector

FFA = dict(game="maniacal", num_players=4, num_envs=32, num_steps=16, total_steps=32 * 16 * 4,
           tensorboard=False, progress=False, snapshot_every=1, checkpoint_every=2,
           imitation_steps=32 * 16, critic_warmup=1, eval_every=2, eval_games=12,
           hidden=(16,))


@pytest.fixture(scope="module")
def ffa_run(tmp_path_factory):
    """Four updates of a tiny MANIACAL run, imitation, teacher labels and curves included."""
    out = tmp_path_factory.mktemp("ffa_run")
    torch.set_num_threads(1)
    return out, train(Args(out=str(out), **FFA))


def test_one_shared_policy_plays_every_seat_without_asking():
    spec = envs.registry["maniacal"]
    assert group_names(spec, shared=False) == ["shared"]
    assert group_names(envs.registry["menace"], shared=False) == ["crew", "menace"]


def test_a_free_for_all_run_writes_one_shared_checkpoint_that_plays_any_seat(ffa_run, tmp_path):
    out, paths = ffa_run
    assert list(paths) == ["shared"]
    policy = load_policy(paths["shared"], "maniacal", num_players=4)
    assert policy.team == "shared"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rewards_credited_share"] == 1.0
    assert summary["steps"] == FFA["total_steps"]
    result = ffa_match("maniacal", str(paths["shared"]), "heuristic", deals=2, workers=1,
                       num_players=4)
    assert result.games == 12
    table = run_tournament("maniacal", [str(paths["shared"]), "heuristic"], 2,
                           db=tmp_path / "t.sqlite", workers=1, num_players=4)
    assert len(table.standings) == 2


def test_the_curves_score_the_shared_policy_by_mean_position(ffa_run):
    out, _ = ffa_run
    curves = json.loads((out / "curves.json").read_text())
    assert curves["measure"] == "mean position"
    assert curves["baseline_heuristic"]["shared"]["heuristic"] == [2.5, 2.5, 2.5]
    assert len(curves["history"]) == 2
    for point in curves["history"]:
        assert set(point["rates"]) == {"shared"}
        assert set(point["rates"]["shared"]) == {"random", "heuristic"}
        for mean, low, high in point["rates"]["shared"].values():
            assert 1.0 <= low <= mean <= high <= 4.0
    assert (out / "curves.png").is_file()


def test_every_seat_is_played_by_the_one_learner_or_its_league():
    env = envs.make_vec("maniacal", 16, seed=3, num_players=4)
    config = {"kind": "mlp", "observation_size": env.observation_size,
              "num_actions": env.num_actions, "critic_input_size": env.observation_size,
              "hidden": [8]}
    torch.manual_seed(0)
    model = ActorCritic(config)
    pool = OpponentPool(["shared"], 2, np.random.default_rng(0), {"shared": config})
    pool.add("shared", ActorCritic(config))
    collector = Collector(env, [model], np.zeros(len(env.spec.teams), np.int64), True, pool, {},
                          0.3, np.random.default_rng(0), torch.Generator().manual_seed(0), 64,
                          False, Clock(), ThreadPoolExecutor(1))
    collector.collect()
    buf = collector.buf
    rows = buf.valid
    assert (buf.group[rows] == 0).all()
    assert set(buf.seat[rows & buf.learn].tolist()) == {0, 1, 2, 3}
    assert (~buf.learn[rows]).any(), "the league never took a seat"
    assert (collector.opponent >= 0).sum(1).max() < 4, "a game with no learner seat"


def test_a_seat_cannot_be_fixed_in_a_free_for_all(tmp_path):
    with pytest.raises(ValueError, match="free-for-all: one shared policy plays every seat"):
        Args(out=str(tmp_path), fixed_teams={"player_1": "heuristic"}, **FFA).check()


def test_the_report_scores_the_shared_policy_against_the_heuristic_by_place(ffa_run, capsys):
    out, _ = ffa_run
    result = ffa_report(str(out), 2, seed=424242, workers=1)
    assert [s.label for s in result.sides] == ["trained", "heuristic"]
    assert [s.seats for s in result.sides] == [2, 2] and result.games == 12
    with pytest.raises(ValueError, match="free-for-all; use ffa_report"):
        report(str(out), 2, seed=1)
    report_main([str(out), "--games", "2", "--workers", "1"])
    assert "trained" in capsys.readouterr().out
    report_main([str(out), "--games", "2", "--workers", "1", "--greedy"])
    assert "trained" in capsys.readouterr().out


def test_checkpoints_cross_play_by_mean_position(ffa_run):
    out, _ = ffa_run
    names, table, caption = crossplay(out, snapshots=2, games=2, seed=424242)
    assert len(names) == 2 and "mean position" in caption
    for row in table:
        for mean, low, high in row:
            assert 1.0 <= mean <= 4.0 and low <= mean <= high


def test_a_shared_checkpoint_plays_every_seat_at_the_terminal(ffa_run):
    _, paths = ffa_run
    spec = envs.registry["maniacal"]
    params = spec.resolve(num_players=4)
    everyone = opponent_policies(str(paths["shared"]), spec, params)
    assert set(everyone) == set(spec.teams)
    assert all(p.team == "shared" for p in everyone.values())
    one = opponent_policies([f"player_2={paths['shared']}", "random"], spec, params)
    assert isinstance(one["player_2"], NeuralPolicy) and one["player_2"].team == "shared"
    assert not isinstance(one["player_1"], NeuralPolicy)
