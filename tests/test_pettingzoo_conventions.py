"""What outside trainers read from the AEC env: roles in ``infos``, ``teams()``, and PettingZoo's
``illegal_action="lose"`` convention for mask-unaware checkers."""

import numpy as np
import pytest

from envs import amongus_v6, maniacal_v2, menace_v5
from envs.menace.cards import AGENDA_NAMES

MODULES = {"menace": menace_v5, "amongus": amongus_v6, "maniacal": maniacal_v2}
INFO_KEYS = {"team", "role", "winner"}


def _random_game(env, seed, on_step):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        on_step(env)
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    on_step(env)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_infos_carry_team_role_and_winner_with_the_same_keys_at_every_step(name):
    env = MODULES[name].env()
    seen = []

    def check(env):
        teams = env.teams()
        for agent in env.possible_agents:
            info = env.infos.get(agent)
            if info is None:  # removed after the game ended
                continue
            assert set(info) == INFO_KEYS
            assert all(type(v) is int for v in info.values())
            assert env.unwrapped.spec.teams[info["team"]] == teams[agent]
            seen.append(info["winner"])

    _random_game(env, 3, check)
    assert seen[0] == -1  # set from reset on


def test_a_menace_role_is_the_agenda_card_dealt():
    env = menace_v5.env(num_players=6)
    env.reset(seed=5)
    for i, agent in enumerate(env.possible_agents):
        role = env.unwrapped.role_names[env.infos[agent]["role"]]
        assert role == AGENDA_NAMES[int(env.unwrapped._records[0]["agenda"][i])]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_each_seats_observation_already_tells_it_its_own_role(name):
    """``infos`` adds nothing a seat does not know about itself: its own role is in its view."""
    for seed in range(4):
        env = MODULES[name].env()
        env.reset(seed=seed)
        pieces = env.unwrapped.observation_layout
        for agent in env.possible_agents:
            own = pieces.split(env.observe(agent)["observation"])
            info = env.infos[agent]
            team = env.unwrapped.spec.teams[info["team"]]
            if name == "menace":
                assert int(own["own_agenda"].argmax()) == info["role"]
            elif name == "amongus":
                assert bool(own["is_impostor"][0]) == (team == "impostor")
            else:  # free-for-all: every seat is its own side
                assert team == agent


@pytest.mark.parametrize("name", sorted(MODULES))
def test_illegal_action_lose_ends_the_game_and_the_offenders_team_loses(name):
    env = MODULES[name].env(illegal_action="lose")
    env.reset(seed=1)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    teams = env.teams()
    env.step(illegal)
    assert all(env.terminations.values())
    for other in env.possible_agents:
        assert env.rewards[other] == (-1.0 if teams[other] == teams[agent] else 1.0)
    teams_of_game = env.unwrapped.spec.teams
    winner = env.infos[agent]["winner"]
    assert winner == (-1 if name == "maniacal" else next(
        i for i, t in enumerate(teams_of_game) if t != teams[agent]))


def test_illegal_action_raise_is_the_default():
    env = menace_v5.env()
    env.reset(seed=1)
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is illegal"):
        env.step(illegal)


def test_illegal_action_must_be_raise_or_lose():
    with pytest.raises(ValueError, match="illegal_action must be"):
        menace_v5.env(illegal_action="penalty")


def test_sb3_check_env_passes_on_the_aec_env_with_illegal_action_lose():
    """SB3's checker steps unmasked random actions; with "lose" a game simply ends."""
    from stable_baselines3.common.env_checker import check_env

    import envs
    from agents import make_policy
    from training.sb3 import TeamEnv

    vec = envs.make_vec("amongus", 1, num_players=5)
    heuristic = make_policy("heuristic", vec.spec, vec.params)
    check_env(TeamEnv("amongus", "crew", heuristic, num_players=5, illegal_action="lose"))
