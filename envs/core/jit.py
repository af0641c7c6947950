"""One place that decides how rule code is compiled.

Rules are plain scalar Python over one record; numba turns them into machine code. With
``NUMBA_DISABLE_JIT=1`` the very same functions run as Python, which is the debugging path.

Compiled code is cached on disk, because compiling a whole game takes up to a minute and every
new process (a test subprocess, the CLI, a training worker) would pay it again. numba only
notices edits to the file that holds a cached function, not to the functions it calls from
other files, and keys its cache by neither ``NUMBA_BOUNDSCHECK`` nor our sources. So the cache
lives in a directory named by a hash of every source file that compiled code can read (all of
``envs``, and the scripted players of ``agents``: ``compiled_sources``) and of the compile
switches: any edit or switch gives a fresh directory, and a stale build is never
loaded.
``NUMBA_CACHE_DIR`` set by the user is respected as it is.
"""

import ctypes
import functools
import hashlib
import os
import sys
import threading
import warnings
from pathlib import Path

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic


def compiled_sources() -> list[Path]:
    """The files whose edits can change compiled code: every file of ``envs`` (rules, and the
    card data their kernels read as constants), and the scripted players in ``agents`` that
    hold kernels (they call each other's: the Among Us chain crew plays the heuristic
    impostor). The rest of ``agents`` (networks, text players, the zoo) is plain Python, and
    an edit there must not recompile every game. Compiled code reads only what its own file
    imports, so ``tests/test_jit.py`` checks that a file of ``agents`` holding kernels imports
    from ``agents`` only files that are keyed too."""
    envs_root = Path(__file__).resolve().parents[1]
    agents_root = envs_root.parent / "agents"
    return sorted(envs_root.rglob("*.py")) + sorted(
        p for p in agents_root.rglob("*.py") if _compiles(p.read_text(encoding="utf-8")))


def _compiles(source: str) -> bool:
    """Whether a file holds compiled code: it compiles through this module, or numba itself."""
    return "envs.core.jit" in source or "numba" in source


def _cache_dir() -> str:
    digest = hashlib.sha256()
    repository = Path(__file__).resolve().parents[2]
    for path in compiled_sources():
        digest.update(str(path.relative_to(repository)).encode())
        digest.update(path.read_bytes())
    switches = (numba.__version__, os.environ.get("NUMBA_BOUNDSCHECK", ""),
                os.environ.get("NUMBA_OPT", ""))
    digest.update(repr(switches).encode())
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return str(base / "hiddendeck" / "numba" / digest.hexdigest()[:16])


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()


_ANNOUNCED: set[str] = set()


def announce_first_compile(game: str) -> None:
    """One line on stderr when ``game``'s rules have no compiled build in the cache yet: the
    first run after an install or an edit compiles for up to a minute, and would otherwise look
    hung. Said once per game by the main process only (workers compile the same kernels at the
    same time; ``evaluation.runner`` says it for them), where progress is shown: on a terminal
    or with ``HIDDENDECK_PROGRESS=1`` (``evaluation.progress``)."""
    import multiprocessing

    shown = os.environ.get("HIDDENDECK_PROGRESS") == "1" or sys.stderr.isatty()
    if (not shown or numba.config.DISABLE_JIT or multiprocessing.parent_process() is not None
            or game in _ANNOUNCED):
        return
    _ANNOUNCED.add(game)
    if not any(Path(numba.config.CACHE_DIR).glob(f"{game}_*/*.nbi")):
        print(f"hiddendeck: compiling {game}'s rules for this checkout, once (up to a minute; "
              "cached for later runs)", file=sys.stderr, flush=True)


def _heal_cache() -> None:
    """A corrupt cache entry (a file cut short by a full disk or a killed process, a flipped
    byte) makes numba's loader raise an unpickling error in every later process, with no hint
    that the cache is to blame. Under our cache directory such an entry is deleted with a
    one-line warning and the function compiled afresh; other libraries' caches are left to
    numba."""
    from numba.core.caching import Cache

    load = Cache._load_overload
    if getattr(load, "heals", False):
        return

    def load_or_heal(self, sig, target_context):
        try:
            return load(self, sig, target_context)
        except Exception as e:
            cache_file = self._cache_file
            index = Path(cache_file._index_path)
            root = Path(numba.config.CACHE_DIR).resolve()
            if root not in index.resolve().parents:
                raise
            base = index.name[: -len(".nbi")]
            for path in [index, *index.parent.glob(f"{base}.*.nbc")]:
                path.unlink(missing_ok=True)
            warnings.warn(
                f"hiddendeck: discarded a corrupt numba cache entry {index} "
                f"({type(e).__name__}: {e}); compiling it again",
                RuntimeWarning,
                stacklevel=2,
            )
            return None

    load_or_heal.heals = True
    Cache._load_overload = load_or_heal

    save = Cache.save_overload

    def save_or_warn(self, sig, data):
        """A cache that cannot be written (a full disk, a file size limit, a read-only home)
        costs a compile in later runs, not this run: numba writes each file under a temporary
        name and removes it on failure, so nothing half-written is left to load."""
        try:
            return save(self, sig, data)
        except OSError as e:
            root = Path(numba.config.CACHE_DIR).resolve()
            if root not in Path(self._cache_file._index_path).resolve().parents:
                raise
            warnings.warn(f"hiddendeck: could not write the numba cache under {root} ({e}); "
                          f"running uncached", RuntimeWarning, stacklevel=2)

    Cache.save_overload = save_or_warn


_heal_cache()


def _load_tbb() -> bool:
    """Whether numba's TBB layer can load. Loads the `tbb` wheel's library first: pip puts it in
    the environment's ``lib``, where the system's loader does not look, and numba's layer asks
    for it by name, whether we choose that layer or the user does."""
    path = Path(sys.prefix) / "lib" / "libtbb.so.12"
    if path.exists():
        try:
            ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
        except OSError:
            return False  # numba then falls back to its own pool
    try:
        from numba.np.ufunc import tbbpool  # noqa: F401
    except ImportError:
        return False
    return True


# The batch loops run on TBB where it loads, else on numba's own `workqueue` pool; never on
# OpenMP. Every step is a parallel region or two, so what counts is how fast a pool starts one:
# `workqueue` wakes sleeping threads (tens of us on virtual CPUs) while the calling thread
# only waits; TBB's calling thread takes a share of the work and its workers steal from each
# other. Alternated processes, Among Us, B=4096, 2 CPUs: TBB 3.39-3.68M agent-steps/s against
# 2.89-3.23M idle, and 0.94-1.01M against 0.82-1.02M beside three busy processes. OpenMP's
# threads spin before they sleep and crawl beside busy processes (0.13-0.17M at load 7); under
# GNU OpenMP a forked child that runs a parallel loop hangs or dies. TBB and `workqueue` are
# fork-safe.
# NUMBA_THREADING_LAYER set by the user is respected as it is.
_TBB_LOADS = _load_tbb()
if not os.environ.get("NUMBA_THREADING_LAYER"):
    numba.config.THREADING_LAYER = "default"
    numba.config.THREADING_LAYER_PRIORITY = ["tbb", "workqueue", "omp"]  # workqueue always loads

# Whether the batch loops will run on TBB. numba picks its pool at the first parallel loop, but
# the engine decides before that which batches are worth threads (``PARALLEL_THRESHOLD``).
ON_TBB = _TBB_LOADS and numba.config.THREADING_LAYER in (
    "default", "tbb", "safe", "threadsafe", "forksafe"
)

# The workqueue pool runs one parallel loop at a time: a loop launched from a second Python
# thread meanwhile aborts the whole process. Under this lock the second one waits instead;
# it is taken unless the chosen layer rules that pool out.
_ONE_LOOP_AT_A_TIME = (
    None
    if numba.config.THREADING_LAYER in ("tbb", "omp", "safe", "threadsafe")
    else threading.Lock()
)

_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")
njit = numba.njit(**_OPTIONS)
prange = numba.prange


def kernel(fn):
    """Compile a scalar rule function (inlined into the batch loops by LLVM where it pays)."""
    return njit(fn)


# numba calls one compiled function from another through a call LLVM will not inline once the
# callee is large; the per-game glue of the batch loops is merged into them before that.
# Measured in one process, 1 thread, B=4096, Among Us: 12% fewer ns per agent-step.
inline = numba.njit(inline="always", **_OPTIONS)


def parallel_kernel(fn):
    """Compile a batch loop whose ``prange`` is spread over threads (called from Python only)."""
    compiled = numba.njit(parallel=True, **_OPTIONS)(fn)
    if _ONE_LOOP_AT_A_TIME is None:
        return compiled

    @functools.wraps(fn)
    def run(*args):
        with _ONE_LOOP_AT_A_TIME:
            return compiled(*args)

    return run


@intrinsic
def _borrowed(typingctx, arrays):
    """The same arrays (a tuple of them) without a reference count.

    numba counts references to an array's memory atomically each time a view of it goes into
    another compiled function: in a batch loop that is dozens of atomic operations per game
    and step, on counters that every thread shares. A loop that borrows its arguments once
    pays none of them; the caller holds the arrays for as long as the loop runs.
    """

    def codegen(context, builder, sig, args):
        out = []
        for i, typ in enumerate(sig.args[0]):
            src = context.make_array(typ)(context, builder, builder.extract_value(args[0], i))
            view = context.make_array(typ)(context, builder)
            context.populate_array(
                view, data=src.data, shape=src.shape, strides=src.strides,
                itemsize=src.itemsize, meminfo=None,
            )
            out.append(view._getvalue())
        return context.make_tuple(builder, sig.return_type, out)

    if not isinstance(arrays, types.BaseTuple) or not all(
        isinstance(t, types.Array) for t in arrays
    ):
        raise TypeError(f"borrowed takes a tuple of arrays, got {arrays}")
    return arrays(arrays), codegen


def _same(arrays):
    return arrays


@intrinsic
def _eight_bytes(typingctx, arr, start):
    """Bytes ``start`` to ``start + 8`` of a contiguous 1-d byte array as one little-endian
    integer, read at any alignment: eight booleans of a mask row in one load."""

    def codegen(context, builder, sig, args):
        data = context.make_array(sig.args[0])(context, builder, args[0]).data
        at = builder.gep(data, [args[1]])
        return builder.load(builder.bitcast(at, ir.IntType(64).as_pointer()), align=1)

    if not (isinstance(arr, types.Array) and arr.ndim == 1 and arr.layout == "C"
            and arr.dtype in (types.boolean, types.int8, types.uint8)):
        raise TypeError(f"eight_bytes reads a contiguous 1-d array of bytes, got {arr}")
    return types.uint64(arr, types.intp), codegen


def _eight_bytes_python(arr, start):
    return np.uint64(int.from_bytes(arr[start : start + 8].tobytes(), "little"))


# With NUMBA_DISABLE_JIT the loops run as Python, whose arrays have nothing to borrow.
borrowed = _same if numba.config.DISABLE_JIT else _borrowed
eight_bytes = _eight_bytes_python if numba.config.DISABLE_JIT else _eight_bytes
