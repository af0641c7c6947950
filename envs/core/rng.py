"""Counter-based randomness that lives inside each game record.

Every record carries ``rng_key`` and ``rng_counter``. The n-th draw of a game is
``splitmix64(key + n * golden)``, a pure function of (key, n), so a game's course never
depends on the batch it runs in, the thread that runs it or the games beside it. The key is
derived from (seed, game index): game ``i`` of ``make_vec(..., seed=s)`` and an AEC env reset
with ``seed=s`` (``i == 0``) play the same game.
"""

import warnings

import numpy as np

from .jit import kernel

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_ONE = np.uint64(1)

# Unsigned wrap-around is the point of the mixer; on the pure-Python path numpy warns about it.
warnings.filterwarnings("ignore", message="overflow encountered in scalar", category=RuntimeWarning)


@kernel
def splitmix64(z):
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


def game_key(seed: int, index: int) -> np.uint64:
    """The key of game ``index`` under ``seed``; distinct (seed, index) give unrelated streams."""
    if not 0 <= int(seed) < 2**63:
        raise ValueError(f"seed must be an integer in [0, 2**63), got {seed!r}")
    with np.errstate(over="ignore"):
        base = splitmix64(np.uint64(int(seed)) * _GOLDEN + _GOLDEN)
        return splitmix64(base ^ (np.uint64(int(index)) * _MIX1 + _ONE))


@kernel
def next_u64(s):
    """The next 64 random bits of record ``s``."""
    s["rng_counter"] += _ONE
    return splitmix64(s["rng_key"] + s["rng_counter"] * _GOLDEN)


@kernel
def below(s, n):
    """A uniform integer in [0, n) (53-bit float scaling: bias < 2**-40 for n < 2**13)."""
    u = next_u64(s) >> _S11
    return np.int64(np.float64(u) * (1.0 / 9007199254740992.0) * n)


@kernel
def shuffle(s, arr, n):
    """Fisher-Yates over the first ``n`` entries of ``arr``, in place."""
    for i in range(n - 1, 0, -1):
        j = below(s, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
