"""Compile each game's engine and scripted players into numba's on-disk cache before the suite's
pytest-xdist workers start (``make test`` runs ``python -m tests.warm`` first).

A cold cache is compiled by whichever process first needs a function, and the workers, each
on its own share of the files, start on the same games at once: each would compile the same
engine again, a minute or so of a core apiece. Here one process a game compiles it, the games
side by side on the cores, and the workers then load what they find (``envs.core.jit``: the
cache is keyed by the sources and the compile switches, ``NUMBA_BOUNDSCHECK`` among them, so
the warm-up must run under the same environment as the suite; ``make test`` passes it on)."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def warm(game: str) -> None:
    """A few batched steps of the game under its heuristic and a random player, at its default
    table: the kernels the suite's every file meets (the size is a runtime argument, so one
    table compiles them all)."""
    import envs
    from agents import make_policy

    spec = envs.registry[game]
    env = envs.make_vec(game, 8, seed=0)
    players = [make_policy(name, spec, env.params) for name in ("heuristic", "random")]
    for step in range(64):
        env.step(players[step % 2].act(env.observation, env.action_mask))


def main() -> int:
    if sys.argv[1:]:
        for game in sys.argv[1:]:
            warm(game)
        return 0
    import envs

    def compile_alone(game: str) -> int:
        return subprocess.run([sys.executable, "-m", "tests.warm", game]).returncode

    names = sorted(envs.registry)
    with ThreadPoolExecutor(max(1, min(len(names), os.cpu_count() or 1))) as pool:
        failed = [name for name, code in zip(names, pool.map(compile_alone, names)) if code]
    if failed:
        print(f"tests.warm: compiling {failed} failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
