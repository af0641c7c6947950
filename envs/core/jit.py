"""One place that decides how rule code is compiled.

Rules are plain scalar Python over one record; numba turns them into machine code. With
``NUMBA_DISABLE_JIT=1`` the very same functions run as Python, which is the debugging path.
"""

import numba

njit = numba.njit(cache=False, nogil=True, fastmath=False, error_model="numpy")
prange = numba.prange


def kernel(fn):
    """Compile a scalar rule function (inlined into the batch loops by LLVM where it pays)."""
    return njit(fn)


def parallel_kernel(fn):
    """Compile a batch loop whose ``prange`` is spread over threads."""
    return numba.njit(parallel=True, nogil=True, error_model="numpy")(fn)
