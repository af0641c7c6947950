"""The compile helpers of envs/core/jit.py."""

import os
import subprocess
import sys
from importlib import metadata

import numba
import numpy as np
import pytest

from envs.core.jit import borrowed, njit


@njit
def _add_one_through_borrowed_views(a, b):
    a, b = borrowed((a, b))
    for i in range(a.shape[0]):
        a[i] += 1
        b[i, 0] = a[i]


def test_borrowed_views_write_the_callers_arrays():
    a, b = np.zeros(3, np.int64), np.zeros((3, 2), np.float32)
    _add_one_through_borrowed_views(a, b)
    _add_one_through_borrowed_views(a, b)
    assert a.tolist() == [2, 2, 2] and b[:, 0].tolist() == [2, 2, 2] and not b[:, 1].any()


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="a typing error needs the compiler")
def test_borrowed_takes_only_a_tuple_of_arrays():
    @njit
    def bad(a):
        return borrowed(a)

    with pytest.raises(Exception, match="tuple of arrays"):
        bad(np.zeros(2))


_TWO_THREADS = """
import threading
import numpy as np
import envs
from agents.policy import RandomPolicy

from envs.core.engine import PARALLEL_THRESHOLD

def play(seed, out):
    vec = envs.make_vec("amongus", PARALLEL_THRESHOLD, seed=seed)
    policy = RandomPolicy(seed)
    for _ in range(30):
        vec.step(policy.act(vec.observation, vec.action_mask))
    out[seed] = vec.observation.copy()

alone, together = {}, {}
for seed in (0, 1):
    play(seed, alone)
threads = [threading.Thread(target=play, args=(seed, together)) for seed in (0, 1)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert all(np.array_equal(alone[s], together[s]) for s in (0, 1))
"""


def test_two_python_threads_may_step_large_batches_at_once():
    """numba's workqueue pool (where TBB does not load) aborts the process when two threads
    launch parallel loops at once; the engine must make the second wait. Run in a child so an
    abort fails this test."""
    done = subprocess.run([sys.executable, "-c", _TWO_THREADS], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


_FORKED = """
import multiprocessing
import numba
import numpy as np
import envs
from agents.policy import RandomPolicy
from envs.core.engine import PARALLEL_THRESHOLD

def play(steps):
    vec = envs.make_vec("amongus", PARALLEL_THRESHOLD, seed=3)
    policy = RandomPolicy(3)
    for _ in range(steps):
        vec.step(policy.act(vec.observation, vec.action_mask))
    return vec.observation.sum()

here = play(20)
with multiprocessing.get_context("fork").Pool(2) as pool:
    there = pool.map(play, [20, 20])
assert there == [here, here], (here, there)
print(numba.threading_layer())
"""


@pytest.mark.skipif(numba.config.DISABLE_JIT or sys.platform != "linux", reason="fork, threads")
def test_forked_children_may_step_large_batches_after_the_parent_did():
    """Workers forked from a process that ran the batch loops (multiprocessing's default on
    Linux) must run them too: under GNU OpenMP such a child hangs or dies, so the engine avoids
    it. Where the `tbb` wheel is installed, the loops run on TBB."""
    done = subprocess.run(
        [sys.executable, "-c", _FORKED], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    try:
        metadata.version("tbb")
    except metadata.PackageNotFoundError:
        return  # numba's own pool runs them
    if "NUMBA_THREADING_LAYER" not in os.environ:
        assert done.stdout.strip() == "tbb"


def test_the_cache_is_keyed_on_every_file_compiled_code_can_read():
    """The cache's key leaves out the plain-Python files of ``agents`` (an edit there must not
    recompile every game), so a file that holds kernels may import, at module level (where a
    kernel can read what it imports), only files that are keyed."""
    import ast
    from pathlib import Path

    from envs.core.jit import compiled_sources

    keyed = set(compiled_sources())
    agents_root = Path(__file__).resolve().parents[1] / "agents"
    assert {p.name for p in keyed if p.is_relative_to(agents_root)} >= {
        "policy.py", "menace_heuristic.py", "amongus_chain.py", "maniacal_styles.py"}
    assert agents_root / "neural.py" not in keyed
    for path in keyed:
        if not path.is_relative_to(agents_root):
            continue
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(
                    "agents")):
                base = agents_root if not node.level else path.parents[node.level - 1]
                name = (node.module or "").removeprefix("agents").lstrip(".")
                target = base.joinpath(*name.split(".")) if name else base
                files = [target.with_suffix(".py"), target / "__init__.py"]
                assert any(f in keyed for f in files if f.exists()), (path.name, node.module)


def test_a_cache_that_cannot_be_written_costs_a_warning_not_the_run(tmp_path):
    """A file size limit (as a full disk) under a cold cache: the compiled code still runs,
    with one warning that the cache was not written, and no half-written cache file is left."""
    (tmp_path / "tiny_kernel.py").write_text(
        "from envs.core.jit import njit\n\n\n@njit\ndef add_one(x):\n    return x + 1\n")
    cache = tmp_path / "cache"
    script = ("import resource, sys\n"
              f"sys.path.insert(0, {str(tmp_path)!r})\n"
              "import envs.core.jit\n"
              "resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))\n"
              "import tiny_kernel\n"
              "print(tiny_kernel.add_one(41))\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})
    assert done.returncode == 0 and done.stdout.strip() == "42", done.stderr[-2000:]
    assert "could not write the numba cache" in done.stderr
    assert not list(cache.rglob("*.tmp.*"))
