"""What the trainer measures about itself: where the time goes, a progress line, and how well
each critic predicts its returns.

The performance history behind these measurements is in ``docs/training.md`` (Speed).
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager

import numpy as np


class Clock:
    """Splits wall time into network work (forward passes, the masked distribution and
    sampling, backward, optimiser) and everything else (engine, masks, bookkeeping: gathering
    the network's input rows, storing its outputs, scripted players' decisions), the figure the
    performance target is about.

    ``restart()`` after the first update drops numba's and torch's one-off compilation and
    warm-up from the rates. Process CPU time is kept too: on a shared machine, steps per
    CPU-second says what the code costs when wall time says how busy the neighbours are.
    """

    def __init__(self):
        self.restart()

    def restart(self) -> None:
        self.start = time.perf_counter()
        self.cpu_start = time.process_time()
        self.network = 0.0

    @contextmanager
    def net(self):
        t = time.perf_counter()
        try:
            yield
        finally:
            self.network += time.perf_counter() - t

    @contextmanager
    def paused(self):
        """Leave this stretch (held-out evaluation) out of the rates."""
        t, c = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.start += time.perf_counter() - t
            self.cpu_start += time.process_time() - c

    @property
    def wall(self) -> float:
        return time.perf_counter() - self.start

    @property
    def cpu(self) -> float:
        return time.process_time() - self.cpu_start

    @property
    def outside_share(self) -> float:
        return 1.0 - self.network / max(self.wall, 1e-9)


class Progress:
    """One status line: rewritten in place on a terminal, a plain line every 10 s otherwise."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.last_print = 0.0

    def show(self, text: str, final: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if self.tty:
            sys.stderr.write("\r" + text.ljust(120)[:160] + ("\n" if final else ""))
            sys.stderr.flush()
        elif final or now - self.last_print >= 10.0:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()
            self.last_print = now


def explained_variance(values: np.ndarray, returns: np.ndarray) -> float:
    """``1 - Var(returns - values) / Var(returns)``, as CleanRL logs it: 1 is a perfect critic,
    0 no better than a constant, below 0 worse; NaN when the returns do not vary."""
    var = float(np.var(returns))
    return float("nan") if var == 0 else 1.0 - float(np.var(returns - values)) / var


def log_update(writer, step: int, teams, update_stats: dict, explained: dict, stats: dict,
               charts: dict, credited_share: float, clock: Clock, held_out: dict) -> None:
    """One update's TensorBoard scalars, named as in CleanRL (``losses/``, ``charts/``), plus
    the reward bookkeeping (``credit/``), the clock (``perf/``) and held-out rates (``eval/``)."""
    for name, losses in update_stats.items():
        for key, value in losses.items():
            writer.add_scalar(f"losses/{key}/{name}", value, step)
        writer.add_scalar(f"losses/explained_variance/{name}", explained[name], step)
    wins = stats["wins"]
    games = max(int(wins.sum()), 1)
    for k, team in enumerate(teams):
        writer.add_scalar(f"charts/selfplay_win_rate/{team}", wins[k] / games, step)
    writer.add_scalar("charts/draw_rate", wins[-1] / games, step)
    if stats["lengths"]:
        writer.add_scalar("charts/game_length", np.mean(stats["lengths"]), step)
    for key, value in charts.items():
        writer.add_scalar(f"charts/{key}", value, step)
    writer.add_scalar("credit/rewards_credited_share", credited_share, step)
    writer.add_scalar("credit/carried_transitions", stats["carried"], step)
    writer.add_scalar("credit/chains_cut", stats["cut"], step)
    writer.add_scalar("perf/outside_network_share", clock.outside_share, step)
    for team, refs in held_out.items():
        for ref, (rate, _, _) in refs.items():
            writer.add_scalar(f"eval/{team}_vs_{ref}", rate, step)
