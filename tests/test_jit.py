"""The compile helpers of envs/core/jit.py."""

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
