"""What the trainer measures about itself and reports: where the time goes, how well each critic
predicts its returns, TensorBoard scalars, the progress line and the run's ``summary.json``.

The performance history behind these measurements is in ``docs/results/training-history.md`` (Speed).
"""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

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


def merged_stats(tables: list[dict]) -> dict:
    """One rollout's statistics over every table size of a mixed-size run (``Collector.collect``'s,
    one per size): counts added, game lengths pooled, each group's lowest league score the
    lowest at any size. A single table's are returned as they are."""
    if len(tables) == 1:
        return tables[0]
    merged = {key: sum(t[key] for t in tables)
              for key in ("carried", "credited", "lost", "undecided", "cut", "wins")}
    merged["lengths"] = [n for t in tables for n in t["lengths"]]
    merged["league"] = {g: min(t["league"][g] for t in tables if g in t["league"])
                        for g in {g for t in tables for g in t["league"]}}
    return merged


def log_tables(writer, step: int, teams, by_table: dict[int, dict]) -> None:
    """A mixed-size run's self-play scalars at each table size, under ``tables/Np/``."""
    for n, stats in by_table.items():
        wins = stats["wins"]
        games = max(int(wins.sum()), 1)
        for k, team in enumerate(teams):
            writer.add_scalar(f"tables/{n}p/selfplay_win_rate/{team}", wins[k] / games, step)
        writer.add_scalar(f"tables/{n}p/draw_rate", wins[-1] / games, step)
        if stats["lengths"]:
            writer.add_scalar(f"tables/{n}p/game_length", np.mean(stats["lengths"]), step)
        for group, score in stats.get("league", {}).items():
            writer.add_scalar(f"tables/{n}p/league_lowest_score/{group}", score, step)


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
    for group, score in stats.get("league", {}).items():  # what a pfsp league draws toward
        writer.add_scalar(f"league/lowest_score/{group}", score, step)
    writer.add_scalar("credit/rewards_credited_share", credited_share, step)
    writer.add_scalar("credit/carried_transitions", stats["carried"], step)
    writer.add_scalar("credit/chains_cut", stats["cut"], step)
    writer.add_scalar("perf/outside_network_share", clock.outside_share, step)
    for team, refs in held_out.items():
        for ref, (rate, _, _) in refs.items():
            writer.add_scalar(f"eval/{team}_vs_{ref}", rate, step)


class TrainingLog:
    """What a run reports as it goes and at its end: TensorBoard scalars, the progress line
    (held-out win rates against the heuristic, not self-play rates), the share of rewards
    credited, the speed after the first update, and ``summary.json``."""

    def __init__(self, args, out: Path, teams, clock: Clock, counters: dict, run_start: float,
                 held_out):
        self.args, self.out, self.teams, self.clock = args, out, teams, clock
        self.run_start, self.held_out = run_start, held_out
        self.start_step = self.measured_from = counters["global_step"]
        self.start_updates = counters["updates"]
        self.progress = Progress(args.progress)
        self.writer = None
        if args.tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(out / "tb"))
            self.writer.add_text("args", json.dumps(asdict(args), default=str))
        self.credit = {"credited": 0.0, "lost": 0.0}
        self.sps, self.credited_share = 0.0, 1.0
        self.last: dict = {}

    def after_update(self, step: int, updates: int, budget_done: bool) -> None:
        """The first update paid for compilation: measure the speed from the next one on."""
        if updates == self.start_updates + 1 and not budget_done:
            self.clock.restart()
            self.measured_from = step

    def update(self, step: int, stats: dict, losses: dict, explained: dict, charts: dict,
               held_out: dict, evaluated: bool, final: bool,
               by_table: dict[int, dict] | None = None) -> None:
        """One update's scalars and progress line; ``by_table``: a mixed-size run's statistics
        per table size (``stats`` are their sum), also logged per size."""
        args, clock = self.args, self.clock
        for key in self.credit:
            self.credit[key] += stats[key]
        self.sps = (step - self.measured_from) / clock.wall if step > self.measured_from else 0.0
        paid = self.credit["credited"] + self.credit["lost"]
        self.credited_share = self.credit["credited"] / paid if paid else 1.0
        self.last = {"stats": stats, "explained": explained, "held_out": held_out}
        if self.writer is not None:
            log_update(self.writer, step, self.teams, losses, explained, stats,
                       {**charts, "steps_per_second": self.sps}, self.credited_share, clock,
                       held_out if evaluated else {})
            if by_table:
                log_tables(self.writer, step, self.teams, by_table)
        held = " ".join(f"{team} {refs['heuristic'][0]:.2f}" for team, refs in held_out.items()
                        if "heuristic" in refs)
        if held and self.held_out.free_for_all:
            held += " (mean position)"
        self.progress.show(
            f"[{args.game}] {step:,}{'' if args.total_steps is None else f'/{args.total_steps:,}'}"
            f" steps  {time.perf_counter() - self.run_start:,.0f} s  {self.sps:,.0f} steps/s  "
            + (f"vs heuristic: {held}  " if held else "")
            + f"EV {' '.join(f'{v:.2f}' for v in explained.values())}  "
            f"credited {self.credited_share:.1%}  outside-net {clock.outside_share:.0%}",
            final=final,
        )

    def close(self, step: int, checkpoints: dict) -> dict:
        """Write ``summary.json`` (and say the speed on stderr); returns the summary."""
        if self.writer is not None:
            self.writer.close()
        clock, wins = self.clock, self.last["stats"]["wins"]
        games = max(int(wins.sum()), 1)
        measured = step - self.measured_from
        summary = {
            "steps": step - self.start_step,
            "wall_seconds": time.perf_counter() - self.run_start,
            "measured_steps": measured,
            "steps_per_second": self.sps,
            "steps_per_cpu_second": measured / max(clock.cpu, 1e-9),
            "network_seconds": clock.network,
            "outside_network_share": clock.outside_share,
            "rewards_credited_share": self.credited_share,
            "explained_variance": self.last["explained"],
            "selfplay_win_rates_last_rollout": {t: float(wins[k] / games)
                                                for k, t in enumerate(self.teams)},
            "held_out_last": self.last["held_out"],
            "curves": str(self.out / "curves.png") if self.held_out is not None else None,
            "checkpoints": {k: str(v) for k, v in checkpoints.items()},
        }
        (self.out / "summary.json").write_text(json.dumps(summary, indent=2))
        if self.args.progress:
            print(
                f"trained {summary['steps']:,} agent-steps in {summary['wall_seconds']:.1f} s; "
                + ("after the first update: " if self.measured_from > self.start_step
                   else "a single update, so start-up included: ")
                + f"{self.sps:,.0f} steps/s "
                f"({summary['steps_per_cpu_second']:,.0f} per CPU-second), "
                f"time outside the network {clock.outside_share:.1%}",
                file=sys.stderr,
            )
        return summary
