"""Random inputs to each public entry point, in a process of their own (``python -m
tests.reliability.fuzz ENTRY N SEED``): every input must end in a result or a clear error
(``ValueError``, which ``CheckpointError`` is, or ``RuntimeError`` for calls out of order);
anything else, or a crash of the process, fails. Prints ``ENTRY: N inputs, R results, E clean
errors``."""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path

import numpy as np

import envs
from envs.core.limits import game_limits

CLEAN = (ValueError, RuntimeError)


def wild_value(rng, dtype: np.dtype):
    """A value anywhere in the dtype, or a near-boundary one, as a raw element."""
    if dtype.kind == "f":
        return rng.choice([np.nan, np.inf, -np.inf, 1e30, -2.0, 2.0, rng.normal()])
    if dtype.kind == "b":
        return rng.integers(0, 256)
    info = np.iinfo(dtype)
    return rng.choice([info.min, info.max, info.min + 1, 100 % info.max,
                       rng.integers(info.min, info.max, dtype=dtype, endpoint=True)])


def fuzz_set_records(rng, n: int) -> tuple[int, int]:
    """Random bytes, and one wild element of one field in a live snapshot. A record accepted
    must then step without harm (the process would die otherwise)."""
    results = errors = 0
    vecs = {g: envs.make_vec(g, 4, seed=1) for g in envs.registry}
    for i in range(n):
        game = list(vecs)[i % len(vecs)]
        vec = vecs[game]
        records = vec.records.copy()
        if i % 4 == 0:  # random bytes
            raw = rng.integers(0, 256, records.nbytes, dtype=np.uint8)
            records = np.frombuffer(raw.tobytes(), records.dtype).copy()
        else:
            field = rng.choice(records.dtype.names)
            view = records[field]
            if view.dtype.kind == "b":
                view = view.view(np.uint8)
            flat = view.reshape(len(records), -1)
            b, k = rng.integers(len(records)), rng.integers(flat.shape[1])
            with np.errstate(over="ignore", invalid="ignore"):
                flat[b, k] = wild_value(rng, view.dtype)
            view[...] = flat.reshape(view.shape)
        try:
            vec.set_records(records)
        except CLEAN:
            errors += 1
            continue
        policy = np.random.default_rng(i)
        for _ in range(50):
            legal = vec.action_mask
            if not legal.any(1).all():
                break
            actions = np.array([policy.choice(np.flatnonzero(row)) for row in legal])
            vec.step(actions)
        vec.reset(seed=1)
        results += 1
    return results, errors


def _action(rng, num_actions: int, legal: np.ndarray):
    kind = rng.integers(10)
    if kind < 4:
        return int(rng.choice(legal)) if legal.size else 0
    return [
        lambda: int(rng.integers(-5, num_actions + 5)), lambda: float(rng.normal()),
        lambda: "1", lambda: None, lambda: True, lambda: np.array(rng.integers(num_actions)),
        lambda: 2**70, lambda: np.float32(1.0), lambda: [1, 2],
    ][kind - 4 if kind - 4 < 6 else int(rng.integers(9))]()


def fuzz_vecenv(rng, n: int) -> tuple[int, int]:
    """Random actions arrays (dtype, shape, values), seeds, seats and constructor arguments."""
    results = errors = 0
    for i in range(n):
        game = list(envs.registry)[i % len(envs.registry)]
        try:
            what = rng.integers(6)
            if what == 0:
                envs.make_vec(game, rng.choice([0, -1, True, 1.5, "2", 2, None]),
                              seed=rng.choice([0, -1, 1.5, "3", None, 2**64, np.int64(4)]),
                              first_index=rng.choice([0, -2, 2**64, 1.0, 3]))
            else:
                vec = envs.make_vec(game, 3, seed=int(rng.integers(1000)))
                if what == 1:
                    vec.observe(rng.choice([0, 1, -1, 99, 1.7, "1", None, 2**70,
                                            np.arange(3), np.arange(2), np.zeros(3)]))
                elif what == 2:
                    vec.reset(seed=rng.choice([None, 0, -1, 1.5, "3", True, 2**63]))
                else:
                    shape = rng.choice([3, 2, 4])
                    kind = rng.choice(["legal", "int", "float", "bool", "obj", "uint"])
                    if kind == "legal":
                        actions = np.array([rng.choice(np.flatnonzero(r)) for r in vec.action_mask])
                    elif kind == "int":
                        actions = rng.integers(-3, vec.num_actions + 3, shape)
                    elif kind == "float":
                        actions = rng.normal(size=shape)
                    elif kind == "bool":
                        actions = rng.integers(0, 2, shape).astype(bool)
                    elif kind == "uint":
                        actions = rng.integers(0, 2**63, shape).astype(np.uint64) * 2
                    else:
                        actions = np.array([None] * shape)
                    vec.step(actions)
            results += 1
        except CLEAN:
            errors += 1
    return results, errors


def fuzz_aec(rng, n: int) -> tuple[int, int]:
    """Random calls on wrapped and raw AEC envs, in any order, with random arguments."""
    from pettingzoo.utils.env_logger import EnvLogger

    EnvLogger.suppress_output()
    modules = aec_modules()
    results = errors = 0
    env = None
    for i in range(n):
        if env is None or rng.integers(30) == 0:
            module = modules[int(rng.integers(len(modules)))]
            make = module.env if rng.integers(2) else module.raw_env
            env = make(render_mode="ansi")
        try:
            call = rng.integers(8)
            if call == 0:
                env.reset(seed=rng.choice([None, 0, 5, -1, 1.5, "3", True]))
            elif call == 1:
                env.observe(rng.choice(["player_0", "player_3", "nobody", 0]))
            elif call == 2:
                env.state()
            elif call == 3:
                env.render()
            elif call == 4:
                env.last()
            else:
                try:
                    agent = env.agent_selection
                except AttributeError:  # before reset(): the step itself must say so
                    agent = "player_0"
                try:
                    mask = np.flatnonzero(env.observe(agent)["action_mask"])
                except CLEAN:
                    mask = np.zeros(0, np.int64)
                env.step(_action(rng, 200, mask))
            results += 1
        except CLEAN:
            errors += 1
        except (AssertionError, AttributeError, KeyError) as e:
            # PettingZoo's own guard raises these before reset; anything from our code is a bug
            if not _pettingzoo_guard(e):
                raise
            errors += 1
    return results, errors


def aec_modules() -> list:
    """The PettingZoo module of every registered game (``envs/<game>_vN.py``)."""
    import importlib
    import pkgutil

    names = [m.name for m in pkgutil.iter_modules(envs.__path__)]
    return [
        importlib.import_module(f"envs.{name}")
        for name in sorted(names)
        if name.rpartition("_v")[0] in envs.registry
    ]


def _pettingzoo_guard(e: Exception) -> bool:
    tb = e.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return "pettingzoo" in tb.tb_frame.f_code.co_filename


def fuzz_checkpoints(rng, n: int) -> tuple[int, int]:
    """Random bytes, truncations and flipped bytes of a good checkpoint, loaded as a policy."""
    from agents.neural import load_policy
    from tests.reliability.helpers import make_checkpoint

    results = errors = 0
    with tempfile.TemporaryDirectory() as tmp:
        good = make_checkpoint(Path(tmp) / "good.pt").read_bytes()
        path = Path(tmp) / "fuzzed.pt"
        vec = envs.make_vec("amongus", 2)
        for i in range(n):
            data = bytearray(good)
            kind = i % 5
            if kind == 4:  # the good file: it must load and play
                pass
            elif kind == 0:
                data = bytearray(rng.integers(0, 256, int(rng.integers(0, 4096)), np.uint8))
            elif kind == 1:
                data = data[: int(rng.integers(len(data)))]
            else:
                for _ in range(int(rng.integers(1, 9))):
                    data[int(rng.integers(len(data)))] ^= int(rng.integers(1, 256))
            path.write_bytes(bytes(data))
            try:
                policy = load_policy(path, game="amongus", team="crew")
                vec.step(policy.act(vec.observation, vec.action_mask))
                results += 1
            except CLEAN:
                errors += 1
    return results, errors


TOKENS = ["bench", "play", "train", "demo", "amongus", "menace", "nosuchgame", "--players",
          "--seat", "--seed", "--param", "--seconds", "--games", "--opponents", "--repeat", "-1",
          "0", "3", "nan", "1e999", "x=1", "max_rounds=2", "num_players=99", "foo", "random",
          "heuristic", "crew=random", "nosuch.pt", "--help", "--version", "--json", ""]


def fuzz_cli(rng, n: int) -> tuple[int, int]:
    """Random argument lists. ``play`` runs for real (stdin is empty, so it ends at the first
    prompt); ``bench``, ``demo`` and ``train`` stop where their work would begin, once their
    arguments have been parsed and checked, so no fuzz input starts a long run."""
    import training.cli
    from evaluation import cli

    cli.cmd_bench = cli.cmd_demo = training.cli.run = _refuse_long_run
    results = errors = 0
    for _ in range(n):
        argv = [str(t) for t in rng.choice(TOKENS, int(rng.integers(0, 7)))]
        if rng.integers(2):
            argv = ["play", str(rng.choice(["amongus", "menace"]))] + argv
        out, err = io.StringIO(), io.StringIO()
        stdin, sys.stdin = sys.stdin, io.StringIO("")
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc = cli.main(argv)
        except SystemExit as e:
            rc = e.code
        except _LongRun:
            rc = 0
        finally:
            sys.stdin = stdin
        if rc not in (0, 2, None):
            raise AssertionError(f"{argv}: exit status {rc}; stderr {err.getvalue()!r}")
        lines = err.getvalue().strip().splitlines()
        if rc == 2 and (len(lines) != 1 or not lines[0].startswith("hiddendeck: ")):
            raise AssertionError(f"{argv}: an error must be one 'hiddendeck: ' line, got {lines}")
        if rc in (0, None):
            results += 1
        else:
            errors += 1
    return results, errors


class _LongRun(Exception):
    pass


def _refuse_long_run(args):
    raise _LongRun


ENTRIES = {
    "set_records": fuzz_set_records,
    "vecenv": fuzz_vecenv,
    "aec": fuzz_aec,
    "checkpoints": fuzz_checkpoints,
    "cli": fuzz_cli,
}


if __name__ == "__main__":
    entry, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    results, errors = ENTRIES[entry](np.random.default_rng(seed), n)
    print(f"{entry}: {n} inputs, {results} results, {errors} clean errors")
