"""The one interface through which training, evaluation and play choose actions.

A policy is batched: it gets the observations and legal-action masks of many pending decisions
(possibly of different seats in different games) and returns one action per row. It may read the
game's spec and parameters (given at construction) to decode named observation pieces.
"""

from __future__ import annotations

import numpy as np

from envs.core.engine import threaded
from envs.core.jit import borrowed, eight_bytes, kernel, njit, parallel_kernel, prange
from envs.core.rng import game_key, next_u64
from envs.core.spec import GameSpec


class Policy:
    """Base class: ``act(observation [N, D] float32, action_mask [N, A] bool) -> [N] int64``.

    A policy that remembers each seat's game (``remembers = True``, e.g. a GRU) cannot tell
    from a row alone whose memory it belongs to, so it is also given ``who [N, 2] int64``, each
    row's (game slot, seat), and is told ``game_over(slots)`` when the games in those slots end:
    a new game dealt into a slot starts from a blank memory. Callers go through ``choose``, which
    passes ``who`` only to such policies, so a memoryless ``act(observation, action_mask)`` works
    unchanged.
    """

    name = "policy"
    remembers = False

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, who: np.ndarray | None = None
    ) -> np.ndarray:
        raise NotImplementedError

    def game_over(self, slots: np.ndarray) -> None:  # [K] int game slots
        """The games in these slots have ended; a memoryless policy has nothing to forget."""

    def __repr__(self) -> str:
        return self.name


def choose(
    policy: Policy, observation: np.ndarray, action_mask: np.ndarray, who: np.ndarray
) -> np.ndarray:  # [N, D], [N, A], [N, 2] (game slot, seat) -> [N] int64
    """``policy.act`` on these rows, telling a policy that remembers who decides each one.

    Its answer must be ``[N]`` integers: a float action (3.9) would otherwise be truncated
    silently on its way into the engine's int64 buffer."""
    if policy.remembers:
        actions = policy.act(observation, action_mask, who)
    else:
        actions = policy.act(observation, action_mask)
    actions = np.asarray(actions)
    n = np.shape(action_mask)[0]
    if actions.dtype.kind not in "iu" or actions.shape != (n,):
        raise ValueError(
            f"policy {policy!r} must return {n} integer actions, got {actions.dtype} "
            f"{actions.shape}"
        )
    return actions


_RNG_DTYPE = np.dtype([("rng_key", np.uint64), ("rng_counter", np.uint64)])


_ONES = np.uint64(0x0101010101010101)
_TOP_BYTE = np.uint64(56)


@kernel
def legal_in(eight):
    """How many of eight mask bytes (each 0 or 1) are set: the multiply sums them into the top
    byte. A row is counted and walked eight actions at a time, which made sampling 1.5x faster
    (112 to 74 ns a row, B=4096, one process)."""
    return np.int64((eight * _ONES) >> _TOP_BYTE)


@kernel
def sample_legal(rng, mask_row):
    """A uniform legal action, or -1 if none is legal."""
    words = mask_row.shape[0] // 8
    count = 0
    for w in range(words):
        count += legal_in(eight_bytes(mask_row, 8 * w))
    for a in range(8 * words, mask_row.shape[0]):
        count += mask_row[a]
    if count == 0:
        return -1
    k = np.int64((next_u64(rng) >> np.uint64(11)) % np.uint64(count))
    start = 0
    for w in range(words):
        here = legal_in(eight_bytes(mask_row, 8 * w))
        if k < here:
            break
        k -= here
        start += 8
    for a in range(start, mask_row.shape[0]):
        if mask_row[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@kernel
def _sample_rows(rng, k, mask, out):
    """Stream k draws for block k of the rows, so results do not depend on the thread count."""
    per = (mask.shape[0] + rng.shape[0] - 1) // rng.shape[0]
    for b in range(k * per, min((k + 1) * per, mask.shape[0])):
        out[b] = sample_legal(rng[k], mask[b])


@njit
def _sample_serial(rng, mask, out):
    rng, mask, out = borrowed((rng, mask, out))
    for k in range(rng.shape[0]):
        _sample_rows(rng, k, mask, out)


@parallel_kernel
def _sample_parallel(rng, mask, out):
    rng, mask, out = borrowed((rng, mask, out))
    for k in prange(rng.shape[0]):
        _sample_rows(rng, k, mask, out)


class RandomPolicy(Policy):
    """Uniform over the legal actions; seeded, and fast enough to drive the engine benchmark."""

    name = "random"

    STREAMS = 16

    def __init__(self, seed: int = 0):
        self._rng = np.zeros(self.STREAMS, _RNG_DTYPE)
        self._rng["rng_key"] = [game_key(seed, 2**31 + k) for k in range(self.STREAMS)]

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        action_mask = np.ascontiguousarray(action_mask, dtype=np.bool_)
        out = np.empty(action_mask.shape[0], np.int64)
        run = _sample_parallel if threaded(action_mask.shape[0]) else _sample_serial
        run(self._rng, action_mask, out)
        if (out < 0).any():
            raise ValueError(f"row {int(np.argmax(out < 0))} of the action mask has no legal action")
        return out


class ScriptedPolicy(Policy):
    """A hand-written player of one game: a compiled ``decide_batch(obs, mask, offsets, n, out)``
    that reads the observation through its named pieces' offsets, for whichever side it is on."""

    name = "heuristic"
    game: str = ""
    decide_batch = None  # set by each game's scripted player
    strategy_for: tuple[str, ...] | None = None
    """the teams it has a strategy of its own for (None: every team); on the others it plays as
    the game's heuristic does, so a report need not score anyone against it there"""
    exploit: str | None = None
    """``module:Class`` of a scripted player written to beat this one by reading its script: a
    report plays it beside this player's reference, as the most a bar against this player can
    ask of a policy that never saw its script"""

    def __init__(self, spec: GameSpec, params: dict):
        if spec.name != self.game:
            raise ValueError(f"{type(self).__name__} plays {self.game}, not {spec.name!r}")
        params = spec.resolve(**params)
        self._off = spec.observation_layout(params).offsets
        self._n = params["num_players"]

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        out = np.empty(observation.shape[0], np.int64)
        type(self).decide_batch(observation, action_mask, self._off, self._n, out)
        return out
