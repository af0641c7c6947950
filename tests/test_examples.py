"""The outside-library examples run, at tiny sizes. RLlib, TorchRL and Tianshou come with the
``integrations`` extra (its own venv: ``make test-integrations``); without it those tests skip.
SB3 is a core dependency, so its two routes always run."""

import math

import pytest

AMONGUS = {"num_players": 5}


def test_sb3_through_the_aec_env_trains_one_role_seated_from_infos():
    from examples import sb3_aec

    assert math.isfinite(sb3_aec.main(steps=256))


def test_sb3_check_env_passes_on_the_aec_route_with_illegal_action_lose():
    from stable_baselines3.common.env_checker import check_env

    from examples.sb3_aec import OneRole

    check_env(OneRole("impostor", **AMONGUS))


def test_sb3_through_training_sb3_trains_each_role():
    from examples import sb3_team

    scores = sb3_team.main(steps=128)
    assert set(scores) == {"crew", "impostor"}


@pytest.mark.parametrize("module", ["menace_v5", "amongus_v6", "maniacal_v2"])
def test_rllib_env_precheck_passes_with_illegal_action_lose(module):
    pytest.importorskip("ray.rllib")
    import importlib

    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    game = importlib.import_module(f"envs.{module}")
    for _ in range(3):  # a random unmasked action is illegal most of the time
        check_multiagent_environments(PettingZooEnv(game.env(illegal_action="lose")))


def test_rllib_ppo_with_action_masking_trains_one_policy_per_role():
    pytest.importorskip("ray.rllib")
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    from examples import rllib_ppo

    check_multiagent_environments(rllib_ppo.RoleNamedEnv(AMONGUS))
    returns = rllib_ppo.main(iterations=1, batch=256)
    assert set(returns) == {"crew", "impostor"}


def test_torchrl_masked_ppo_runs_with_roles_from_infos():
    pytest.importorskip("torchrl")
    from examples import torchrl_ppo

    assert len(torchrl_ppo.main(iterations=1, frames=64)) == 1


def test_tianshou_pettingzoo_path_trains_a_policy_per_role_without_a_wrapper():
    pytest.importorskip("tianshou")
    from examples import tianshou_roles

    result = tianshou_roles.main(iterations=2, episodes=4)
    assert set(result["decisions"]) == {"crew", "impostor"}
    assert all(len(r) == 2 for r in result["returns"].values())  # each role updated twice


def test_an_sb3_policy_enters_eval_benchmark_and_tournament(tmp_path, monkeypatch):
    pytest.importorskip("sb3_contrib")
    from examples import sb3_policy

    monkeypatch.setenv("SB3_CREW_MODEL", str(tmp_path / "crew.zip"))
    out = sb3_policy.main(steps=256, games=16)
    assert {c.sides[0] for c in out["matrix"].cells} == {"sb3", "heuristic"}
    from agents.populations import population

    assert out["benchmark"]["label"] == "sb3"
    assert len(out["benchmark"]["members"]) == len(population("amongus", "impostor"))
    sb3 = next(s for s in out["tournament"].standings if s.label == "sb3")
    assert set(sb3.by_role) == {"crew"}  # it declares the crew side only
