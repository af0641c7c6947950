"""VecEnv and AEC env misuse: coercions, calls before reset, threads, pickling, returned arrays
(audit M2, M3, LM1, L4-L8)."""

import multiprocessing as mp
import pickle
import threading

import numpy as np
import pytest

import envs
from envs import amongus_v6, menace_v5
from envs.core.engine import VecEnv
from envs.core.limits import check_records


@pytest.mark.parametrize("seed", [1.5, "3", True, np.float64(2.0), -1, 2**63, None])
def test_reset_seed_that_is_not_an_integer_is_refused(seed):
    env = amongus_v6.env()
    if seed is None:
        env.reset(seed=seed)  # None: a fresh random game, as PettingZoo expects
        return
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=seed)


@pytest.mark.parametrize("seed", [1.5, "7", None, True, -1])
def test_make_vec_seed_that_is_not_an_integer_is_refused(seed):
    with pytest.raises(ValueError, match="seed"):
        envs.make_vec("amongus", 2, seed=seed)


@pytest.mark.parametrize("num_envs", [True, 0, 2.0, "2"])
def test_num_envs_true_or_not_an_integer_is_refused(num_envs):
    with pytest.raises(ValueError, match="num_envs"):
        envs.make_vec("amongus", num_envs)


def test_first_index_too_large_names_the_argument():
    with pytest.raises(ValueError, match="first_index"):
        envs.make_vec("amongus", 2, first_index=2**64)


@pytest.mark.parametrize("value", [1.0, "1", 0.0, 2])
def test_bool_param_given_1_0_is_refused(value):
    with pytest.raises(ValueError, match="advanced.*must be a bool"):
        menace_v5.env(advanced=value)
    assert menace_v5.env(advanced=True) and menace_v5.env(advanced=np.int64(1))


@pytest.mark.parametrize("seats", [1.7, "1", None, 2**70, -1, 6, np.arange(3), np.zeros(8)])
def test_observe_seat_that_is_not_a_seat_is_refused(seats):
    vec = envs.make_vec("amongus", 8, num_players=6)
    with pytest.raises(ValueError, match="seats"):
        vec.observe(seats)
    assert vec.observe(np.int64(2)).shape == vec.observe(np.full(8, 2)).shape


@pytest.mark.parametrize("call", ["observe", "state", "step", "last", "agent_iter", "render"])
def test_raw_env_misuse_before_reset_raises(call):
    raw = menace_v5.raw_env(render_mode="ansi")
    args = {"observe": ("player_0",), "step": (0,)}.get(call, ())
    with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
        getattr(raw, call)(*args)


def test_raw_env_step_after_the_game_ended_raises():
    raw = amongus_v6.raw_env()
    raw.reset(seed=0)
    while raw.agents:
        agent = raw.agent_selection
        if raw.terminations[agent] or raw.truncations[agent]:
            raw.step(None)
        else:
            raw.step(int(np.flatnonzero(raw.observe(agent)["action_mask"])[0]))
    with pytest.raises(RuntimeError, match="game is over"):
        raw.step(0)


@pytest.mark.parametrize("seat", [6, -1, 99, "player_0", 1.0])
def test_raw_env_render_of_a_seat_not_at_the_table_is_refused(seat):
    raw = menace_v5.raw_env(render_mode="ansi", num_players=6)
    raw.reset(seed=0)
    with pytest.raises(ValueError, match="seat"):
        raw.render(seat)


def test_failed_first_reset_leaves_the_wrapped_env_refusing_calls():
    env = amongus_v6.env()
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(AttributeError, match="before reset"):
        env.agent_selection
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))


def test_zero_d_integer_array_is_accepted_as_an_action():
    env = amongus_v6.env()
    env.reset(seed=0)
    action = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]
    env.step(np.array(action))  # what SB3's predict returns for one observation
    with pytest.raises(ValueError, match="must be an integer"):
        env.step(np.array(1.0))


def test_step_returns_arrays_the_caller_may_keep():
    from agents.policy import RandomPolicy

    vec, policy, kept = envs.make_vec("amongus", 8, seed=0), RandomPolicy(0), []
    for _ in range(300):
        kept.append(vec.step(policy.act(vec.observation, vec.action_mask)))
    rewards = np.stack([r for r, _, _ in kept])
    assert len({id(r) for r, _, _ in kept}) == len(kept)
    assert (rewards != 0).any() and not (rewards == rewards[-1]).all()


def test_one_vecenv_stepped_from_two_threads_keeps_every_game_live():
    from agents.policy import RandomPolicy

    vec = envs.make_vec("menace", 256, seed=1)
    refused = []

    def play(k):
        policy = RandomPolicy(k)
        for _ in range(150):
            try:  # another thread may step between this thread's look and its step
                vec.step(policy.act(vec.observation, vec.action_mask))
            except ValueError as e:
                refused.append(str(e))

    threads = [threading.Thread(target=play, args=(k,)) for k in range(3)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert vec.action_mask.any(1).all()
    assert vec.observation.min() >= 0 and vec.observation.max() <= 2
    check_records(vec.spec, vec.records, vec.params)
    assert all("legal" in e or "out of range" in e for e in refused), refused[:3]


def _continue(env):
    """In a spawn worker: unpickle, play on, return what happened."""
    from agents.policy import RandomPolicy

    policy = RandomPolicy(5)
    if isinstance(env, VecEnv):
        total = 0.0
        for _ in range(50):
            total += float(env.step(policy.act(env.observation, env.action_mask))[0].sum())
        return total, env.records.tobytes()
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    return env.agent_selection, env.state().tobytes()


def test_vecenv_and_aec_env_unpickle_in_a_spawn_pool():
    vec = envs.make_vec("amongus", 4, seed=0)
    aec = menace_v5.env()
    aec.reset(seed=3)
    expected = [_continue(pickle.loads(pickle.dumps(x))) for x in (vec, aec)]
    with mp.get_context("spawn").Pool(1) as pool:
        got = [pool.apply_async(_continue, (x,)).get(timeout=240) for x in (vec, aec)]
    assert got == expected


@pytest.mark.parametrize("game, players", [("amongus", 6), ("menace", 5)])
def test_vary_gives_each_slot_its_own_round_limit_through_restarts_deals_and_resets(
    game, players
):
    env = envs.make_vec(game, 12, seed=4, num_players=players)
    limits = np.arange(12) % 3 + 1
    env.vary("max_rounds", limits)
    rng = np.random.default_rng(0)
    highest, ended = np.zeros(12, np.int64), 0
    for _ in range(1500):
        highest = np.maximum(highest, env.records["round"])
        _, terminated, truncated = env.step(
            np.array([rng.choice(np.flatnonzero(m)) for m in env.action_mask])
        )
        ended += int((terminated | truncated).sum())
    assert ended > 24 and (highest <= limits).all() and (highest == limits).any()
    env.deal([0, 5], [100, 101])
    env.reset(seed=9)
    assert (env.records["max_rounds"] == limits).all()
    assert env.params["max_rounds"] == envs.make_vec(game, 1).params["max_rounds"]


def test_vary_refuses_what_cannot_vary_naming_the_problem():
    env = envs.make_vec("amongus", 4, num_players=6, max_rounds=20)
    with pytest.raises(ValueError, match="unknown parameter 'rounds'"):
        env.vary("rounds", [5, 5, 5, 5])
    with pytest.raises(ValueError, match="'num_players' is the same for every game"):
        env.vary("num_players", [4, 5, 6, 7])
    with pytest.raises(ValueError, match="4 integers, one per slot"):
        env.vary("max_rounds", [5, 6])
    with pytest.raises(ValueError, match="4 integers"):
        env.vary("max_rounds", [5.0, 6.0, 7.0, 8.0])
    with pytest.raises(ValueError, match=r"slot 2: max_rounds 21 is outside \[1, 20\]"):
        env.vary("max_rounds", [5, 20, 21, 3])
    with pytest.raises(ValueError, match=r"slot 0: max_rounds 0"):
        env.vary("max_rounds", [0, 20, 20, 3])
    assert (env.records["max_rounds"] == 20).all()  # a refused call changes nothing
