"""set_records: foreign, wild or random records are refused with the field named (audit H1, M1)."""

import numpy as np
import pytest

import envs
from envs.core.limits import undeclared
from envs.core.registry import game

from .helpers import SLOW, run_python


def test_every_field_of_every_registered_game_has_a_declared_range():
    for name in envs.registry:
        assert undeclared(envs.registry[name], game(name).dtype) == [], name


def test_set_records_refuses_records_of_another_table_size():
    small = envs.make_vec("amongus", 4, seed=1, num_players=4)
    big = envs.make_vec("amongus", 4, seed=1, num_players=8)
    for src, dst, a, b in ((big, small, 8, 4), (small, big, 4, 8)):
        with pytest.raises(ValueError, match=f"num_players is {a} in the records but {b}"):
            dst.set_records(src.records.copy())


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("num_players", 100, "num_players is 100 in the records but 6"),
        ("current_seat", 100, r"current_seat is 100, outside its range \[0, 5\]"),
        ("current_seat", -7, r"current_seat is -7, outside its range \[0, 5\]"),
        ("terminated", True, r"terminated is 1, outside its range \[0, 0\]"),
        ("hand_n", 120, r"hand_n\[0\] is 120, outside its range \[0, 32\]"),
        ("stage", 9, r"stage is 9, outside its range \[0, 6\]"),
    ],
)
def test_set_records_refuses_a_wild_field(field, value, message):
    vec = envs.make_vec("menace", 4, seed=1)
    before = vec.observation.copy(), vec.records
    records = vec.records.copy()
    if records[field].ndim > 1:
        records[field][2, 0] = value
    else:
        records[field][2] = value
    with pytest.raises(ValueError, match=message):
        vec.set_records(records)
    assert (vec.observation == before[0]).all() and vec.records is before[1]


def test_set_records_refuses_a_bool_byte_that_is_neither_0_nor_1():
    vec = envs.make_vec("menace", 2, seed=1)
    records = vec.records.copy()
    records["veto_armed"].view(np.uint8)[1] = 7
    with pytest.raises(ValueError, match="veto_armed holds byte 7, not a bool"):
        vec.set_records(records)


def test_set_records_refuses_piles_that_do_not_add_up():
    vec = envs.make_vec("menace", 2, seed=1)
    records = vec.records.copy()
    records["hand"][1, 0, 3] += 1
    with pytest.raises(ValueError, match="record 1: hand_n differs"):
        vec.set_records(records)


@pytest.mark.parametrize("records", [None, [1, 2], "records", np.zeros(4)])
def test_set_records_refuses_what_is_not_records(records):
    vec = envs.make_vec("amongus", 4)
    with pytest.raises(ValueError, match="records"):
        vec.set_records(records)


def test_snapshots_taken_in_play_always_load_back():
    from agents.policy import RandomPolicy

    for name in envs.registry:
        vec, policy = envs.make_vec(name, 32, seed=3), RandomPolicy(0)
        for _ in range(200):
            vec.step(policy.act(vec.observation, vec.action_mask))
            vec.set_records(vec.records.copy())


def test_a_record_with_no_legal_action_is_named_at_the_step():
    vec = envs.make_vec("amongus", 2, seed=1, num_players=4)
    records = vec.records.copy()
    records["hand"][0] = 0  # investigation, but nothing to show
    records["phase"][0] = 0
    vec.set_records(records)
    with pytest.raises(ValueError, match="game 0, seat .* has no legal action"):
        vec.step(np.zeros(2, np.int64))


def test_a_record_at_the_end_of_its_games_count_plays_on_and_loads_back():
    """Audit L5: ``episode`` at its declared maximum was accepted, and the snapshot one
    finished game later refused. The count is any int64, wrapping like numpy's own."""
    vec = envs.make_vec("amongus", 1, seed=1, num_players=4)
    records = vec.records.copy()
    records["episode"] = np.iinfo(np.int64).max
    vec.set_records(records)
    while vec.records["episode"][0] == np.iinfo(np.int64).max:
        vec.step(np.array([int(np.flatnonzero(vec.action_mask[0])[0])]))
    assert vec.records["episode"][0] == np.iinfo(np.int64).min
    vec.set_records(vec.records.copy())


@pytest.mark.slow  # 1,000 inputs each in CI, 10,000 with HIDDENDECK_SLOW=1
def test_set_records_fuzz_random_bytes_and_wild_fields_never_crash():
    """In a process of its own: a crash there fails this test instead of killing pytest."""
    n = 10_000 if SLOW else 1_000
    result = run_python(["-m", "tests.reliability.fuzz", "set_records", str(n), "0"], 900)
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"set_records: {n} inputs" in result.stdout


def test_set_records_holds_varied_slots_to_their_own_values():
    env = envs.make_vec("amongus", 4, seed=1, num_players=6)
    env.vary("max_rounds", np.array([10, 20, 30, 10]))
    env.set_records(env.records.copy())
    swapped = env.records.copy()
    swapped["max_rounds"][1] = 30
    with pytest.raises(ValueError, match="record 1: parameter max_rounds is 30 in the records "
                                         "but 20"):
        env.set_records(swapped)


def test_records_read_back_with_np_load_take_the_engines_own_dtype(tmp_path):
    """np.load gives a dtype equal to the engine's but not an aligned struct: kept as it was,
    numba would compile a second copy of every kernel for it."""
    import numpy as np

    import envs

    vec = envs.make_vec("amongus", 2, seed=0)
    np.save(tmp_path / "r.npy", vec.records)
    loaded = np.load(tmp_path / "r.npy")
    assert not loaded.dtype.isalignedstruct
    vec.set_records(loaded)
    assert vec.records.dtype.isalignedstruct and vec.records.dtype == loaded.dtype
