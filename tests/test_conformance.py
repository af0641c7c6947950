"""What every registered game must do, whatever its rules (STYLE.md, tier 2)."""

import importlib
import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import envs
from envs.core.aec import RawEnv, make_env
from envs.core.registry import game as game_def

from .tools import digest, pick, record_bytes, run_games

ROOT = Path(__file__).resolve().parents[1]
GAMES = list(envs.registry)
# Every game at its smallest and largest table.
PRESETS = [
    (g, {"num_players": n})
    for g in GAMES
    for n in (envs.registry[g].min_players, envs.registry[g].max_players)
]
IDS = [f"{g}-{p['num_players']}p" for g, p in PRESETS]


@pytest.mark.parametrize("name,params", PRESETS, ids=IDS)
def test_pettingzoo_api(name, params):
    api_test(make_env(game_def(name), **params), num_cycles=1000)


@pytest.mark.parametrize("name,params", PRESETS, ids=IDS)
def test_pettingzoo_seed(name, params):
    seed_test(lambda: make_env(game_def(name), **params), num_cycles=500)


@pytest.mark.parametrize("name", GAMES)
def test_spec_is_consistent(name):
    spec = envs.registry[name]
    assert spec.num_actions == len(set(spec.action_names))
    assert 2 <= spec.min_players <= spec.max_players
    defaults = spec.resolve()
    vec = envs.make_vec(name, 2, **defaults)
    assert vec.observation.shape == (2, spec.observation_layout(defaults).size)
    assert vec.state().shape == (2, spec.state_layout(defaults).size)
    assert len({p.name for p in spec.observation_layout(defaults).pieces}) == len(
        spec.observation_layout(defaults).pieces
    )


@pytest.mark.parametrize("name", GAMES)
def test_bad_parameters_name_the_valid_range(name):
    spec = envs.registry[name]
    with pytest.raises(ValueError, match=rf"num_players.*\[{spec.min_players}, {spec.max_players}\]"):
        envs.make_vec(name, 1, num_players=spec.min_players - 1)
    with pytest.raises(ValueError, match="unknown parameter"):
        envs.make_vec(name, 1, no_such_option=1)
    with pytest.raises(ValueError, match="integer"):
        envs.make_vec(name, 1, num_players=4.5)
    with pytest.raises(ValueError, match="num_envs"):
        envs.make_vec(name, 0)


@pytest.mark.parametrize("name", GAMES)
def test_illegal_action_raises_naming_it(name):
    vec = envs.make_vec(name, 3, seed=1)
    actions = pick(vec.observation, vec.action_mask, 0)
    before = vec.records.copy()
    illegal = int(np.flatnonzero(~vec.action_mask[1])[0])
    actions[1] = illegal
    with pytest.raises(ValueError, match=rf"game 1.*action {illegal} \("):
        vec.step(actions)
    assert record_bytes(vec.records) == record_bytes(before)  # nothing applied, not even to game 0
    actions[1] = vec.num_actions
    with pytest.raises(ValueError, match="out of range"):
        vec.step(actions)
    with pytest.raises(ValueError, match="shape"):
        vec.step(actions[:2])
    env = RawEnv(game_def(name))
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=rf"action {bad} \(.*\) is illegal"):
        env.step(bad)


@pytest.mark.parametrize("name,params", PRESETS, ids=IDS)
def test_aec_and_batched_paths_play_the_same_games(name, params):
    """200 seeds: the AEC env reset with a seed is game 0 of make_vec with that seed; and each
    following reset() is that game's next deal, as the batched engine's auto-reset is."""
    env = RawEnv(game_def(name), **params)
    for seed in range(200):
        vec = envs.make_vec(name, 1, seed=seed, **params)
        env.reset(seed=seed)
        for episode in range(5 if seed % 50 == 0 else 1):
            if episode:
                env.reset()
            for step in range(10_000):
                agent = env.agent_selection
                assert agent == f"player_{vec.current_seat[0]}"
                obs = env.observe(agent)
                assert np.array_equal(obs["observation"], vec.observation[0])
                assert np.array_equal(obs["action_mask"].astype(bool), vec.action_mask[0])
                action = pick(vec.observation, vec.action_mask, step)
                rewards, terminated, truncated = vec.step(action)
                env.step(int(action[0]))
                assert [env.rewards[a] for a in env.possible_agents] == rewards[0].tolist()
                if terminated[0] or truncated[0]:
                    assert all(env.terminations.values()) == bool(terminated[0])
                    assert all(env.truncations.values()) == bool(truncated[0])
                    break


@pytest.mark.parametrize("name", GAMES)
def test_a_game_does_not_depend_on_its_batch_or_threads(name):
    big, big_out = run_games(name, seed=5, num_envs=4096, steps=60)
    for i in (0, 1, 777, 4095):
        one, one_out = run_games(name, seed=5, num_envs=1, steps=60, first_index=i)
        assert record_bytes(one) == record_bytes(big[i : i + 1]), f"game {i}"
        assert np.array_equal(one_out[0], big_out[i])
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        single, _ = run_games(name, seed=5, num_envs=4096, steps=60)
    finally:
        numba.set_num_threads(threads)
    assert record_bytes(single) == record_bytes(big)


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_games_across_processes_and_without_jit(name):
    here = digest(name, seed=11)
    code = f"from tests.tools import digest; print(digest({name!r}, seed=11))"
    for extra in ({}, {"NUMBA_DISABLE_JIT": "1"}):
        env = {**os.environ, **extra}
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == here, f"differs with {extra}"
    assert digest(name, seed=12) != here


@pytest.mark.parametrize("name", GAMES)
def test_observe_of_the_deciding_seat_is_the_observation(name):
    """At every table size. Games with ``constant_layouts`` write the step's observation with a
    copy of their observe compiled for that size; ``observe()`` runs the general code."""
    from agents.policy import RandomPolicy

    spec = envs.registry[name]
    for n in range(spec.min_players, spec.max_players + 1):
        vec = envs.make_vec(name, 64, seed=n, num_players=n)
        policy = RandomPolicy(n)
        for _ in range(300):
            assert np.array_equal(vec.observe(vec.current_seat), vec.observation), n
            vec.step(policy.act(vec.observation, vec.action_mask))


@pytest.mark.parametrize("name,params", PRESETS, ids=IDS)
def test_random_games_keep_the_engine_contract(name, params):
    """2,000+ random games: live decisions always have a legal action, observations stay in
    their bounds, rewards come only at the end and lie in the reward range."""
    spec = envs.registry[name]
    vec = envs.make_vec(name, 256, seed=2, **params)
    from agents.policy import RandomPolicy

    policy = RandomPolicy(3)
    finished = 0
    lo, hi = spec.reward_range
    while finished < 2000:
        assert vec.action_mask.any(axis=1).all()
        assert ((vec.current_seat >= 0) & (vec.current_seat < vec.num_players)).all()
        assert vec.observation.min() >= 0.0 and vec.observation.max() <= 2.0
        rewards, terminated, truncated = vec.step(policy.act(vec.observation, vec.action_mask))
        done = terminated | truncated
        assert (rewards[~done] == 0).all()
        assert ((rewards >= lo) & (rewards <= hi)).all()
        assert (vec.winner[terminated] >= 0).all() and (vec.winner[truncated] == -1).all()
        finished += int(done.sum())


# Where each game's tests re-deal what one seat cannot know: ``hidden_from(record, seat, rng)``
# returns a copy of the record changed only there, and whether anything but the decks' order
# and the random stream changed.
REDEALS = {
    "menace": "tests.menace.hidden",
    "amongus": "tests.amongus.test_properties",
    "maniacal": "tests.maniacal.test_properties",
}
TABLES = [(g, n) for g in GAMES for n in range(envs.registry[g].min_players,
                                               envs.registry[g].max_players + 1)]


def test_every_game_says_what_its_seats_cannot_know():
    assert sorted(REDEALS) == sorted(GAMES)


@pytest.mark.parametrize("name,num_players", TABLES, ids=[f"{g}-{n}p" for g, n in TABLES])
def test_observation_and_mask_depend_only_on_what_the_seat_may_know(name, num_players):
    """Re-deal everything a seat cannot know (other hands, deck orders, hidden agendas or roles,
    face-down identities, the random stream): its observation stays bit-identical, and so does
    its mask when the decision is its own. Random legal play, so setup, every phase and the
    past-round window all come up; the deals are checked every third step."""
    hidden_from = importlib.import_module(REDEALS[name]).hidden_from
    vec = envs.make_vec(name, 16, seed=100 + num_players, num_players=num_players)
    probe = envs.make_vec(name, 1, num_players=num_players)
    rng = np.random.default_rng(num_players)
    checked = 0
    for step in range(240):
        if step % 3 == 0:
            for b in range(0, vec.num_envs, 2):
                s = vec.records[b]
                for seat in range(num_players):
                    t, changed = hidden_from(s, seat, rng)
                    probe.set_records(vec.records[b : b + 1])
                    before, mask = probe.observe(seat), probe.action_mask.copy()
                    probe.set_records(np.array([t], dtype=vec.records.dtype))
                    where = f"step {step}, game {b}, seat {seat}"
                    assert np.array_equal(probe.observe(seat), before), where
                    if int(s["current_seat"]) == seat:
                        assert np.array_equal(probe.action_mask, mask), where
                    checked += changed
        legal = [np.flatnonzero(m) for m in vec.action_mask]
        vec.step(np.array([rng.choice(a) for a in legal]))
    assert checked > 500
