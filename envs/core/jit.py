"""One place that decides how rule code is compiled.

Rules are plain scalar Python over one record; numba turns them into machine code. With
``NUMBA_DISABLE_JIT=1`` the very same functions run as Python, which is the debugging path.

Compiled code is cached on disk, because compiling a whole game takes up to a minute and every
new process (a test subprocess, the CLI, a training worker) would pay it again. numba only
notices edits to the file that holds a cached function, not to the functions it calls from
other files, and keys its cache by neither ``NUMBA_BOUNDSCHECK`` nor our sources. So the cache
lives in a directory named by a hash of every source file of ``envs`` and of the compile
switches: any edit or switch gives a fresh directory, and a stale build is never loaded.
``NUMBA_CACHE_DIR`` set by the user is respected as it is.
"""

import hashlib
import os
from pathlib import Path

import numba


def _cache_dir() -> str:
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[1]
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    switches = (numba.__version__, os.environ.get("NUMBA_BOUNDSCHECK", ""),
                os.environ.get("NUMBA_OPT", ""))
    digest.update(repr(switches).encode())
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return str(base / "hiddendeck" / "numba" / digest.hexdigest()[:16])


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()

_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")
njit = numba.njit(**_OPTIONS)
prange = numba.prange


def kernel(fn):
    """Compile a scalar rule function (inlined into the batch loops by LLVM where it pays)."""
    return njit(fn)


def parallel_kernel(fn):
    """Compile a batch loop whose ``prange`` is spread over threads."""
    return numba.njit(parallel=True, **_OPTIONS)(fn)
