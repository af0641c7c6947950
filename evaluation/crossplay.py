"""The cross-play matrix: every policy of one team against every policy of the other.

Every cell plays the same numbered deals (``evaluation.harness``), so the cells of a row differ
by the column's policy only. Each cell reports games, wins by team, draws, the first team's
win rate with its Wilson 95% interval, and the mean game length; ``write`` puts the matrix in
Markdown, CSV, JSON and a heatmap PNG, and every game (with its actions, for ``hiddendeck
replay``) in ``games.jsonl.gz``.
"""

from __future__ import annotations

import csv
import gzip
import io
import itertools
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import envs
from agents.checkpoint import new_file_mode

from .entrants import Entrant, free_for_all, resolve_all
from .harness import Batch, GameLog
from .match import wilson_interval
from .runner import run_batches
from .stats import DRAWS, format_difference, paired_difference

BATCH_GAMES = 1024  # games per batch: part of what fixes a match's games, so recorded with them
SLOTS = 512  # games in flight per batch


def batches_for(game, params, sides, seed, games, batch_games=BATCH_GAMES, slots=SLOTS,
                tag=None) -> list[Batch]:
    """Games ``0 .. games-1`` in batches of ``batch_games`` (the last one shorter)."""
    return [Batch(game, params, tuple(sides), seed, start, min(games, start + batch_games), slots,
                  tag)
            for start in range(0, games, batch_games)]


@dataclass
class Outcomes:
    """What the matrix needs of a cell's games and no more: who won each deal and how long it
    ran (13 bytes a game), for a match played without keeping its replays, so that a million
    games do not grow this process by a hundred megabytes of actions it never writes."""

    index: np.ndarray  # [G] int64 game number (the deal)
    winner: np.ndarray  # [G] int8 team index, -1 for none
    length: np.ndarray  # [G] int32 decisions

    def __len__(self) -> int:
        return self.index.shape[0]

    @staticmethod
    def of(log: GameLog) -> Outcomes:
        return Outcomes(log.index, log.winner.astype(np.int8), log.length.astype(np.int32))

    @staticmethod
    def concat(parts: list[Outcomes]) -> Outcomes:
        return Outcomes(*(np.concatenate([getattr(p, f) for p in parts])
                          for f in ("index", "winner", "length")))


@dataclass
class Cell:
    sides: tuple[str, ...]  # the label playing each team, in team order
    log: GameLog | Outcomes  # Outcomes: played with replays=False

    def summary(self, teams: tuple[str, ...]) -> dict:
        games = len(self.log)
        wins = {t: int((self.log.winner == k).sum()) for k, t in enumerate(teams)}
        return {
            "policies": dict(zip(teams, self.sides)),
            "games": games,
            "wins": wins,
            "draws": games - sum(wins.values()),
            "win_rate": {t: wins[t] / games for t in teams},
            "interval95": {t: list(wilson_interval(wins[t], games)) for t in teams},
            "mean_length": float(self.log.length.mean()),
        }


@dataclass
class CrossPlay:
    game: str
    version: int
    params: dict
    seed: int
    games: int
    teams: tuple[str, ...]
    lineups: dict[str, list[str]]  # team -> labels
    sources: dict[str, dict[str, str]]  # team -> label -> source (a label may differ by team)
    cells: list[Cell]
    batch_games: int = BATCH_GAMES
    slots: int = SLOTS

    def as_dict(self) -> dict:
        return {
            "format": MATRIX_FORMAT,
            "game": self.game, "version": self.version, "params": self.params,
            "seed": self.seed, "games_per_pairing": self.games, "teams": list(self.teams),
            "policies": self.lineups, "sources": self.sources,
            "batch_games": self.batch_games, "slots": self.slots,
            "cells": [c.summary(self.teams) for c in self.cells],
            "paired_differences": self.paired_differences(),
        }

    def paired_differences(self) -> list[dict]:
        """Within each team's lineup, each policy's win rate minus the lineup's first policy's
        against the same opponents, with a paired bootstrap 95% interval over deals (two cells
        of a column played the same deals)."""
        first, second = self.teams[0], self.teams[1]
        won = {}
        for c in self.cells:
            order = np.argsort(c.log.index)
            won[c.sides[0], c.sides[1]] = c.log.winner[order]
        out = []
        for k, (team, other) in enumerate(((first, second), (second, first))):
            lineup = self.lineups[team]
            for policy in lineup[1:]:
                for against in self.lineups[other]:
                    mine = (policy, against) if k == 0 else (against, policy)
                    base = (lineup[0], against) if k == 0 else (against, lineup[0])
                    mean, lo, hi = paired_difference(won[mine] == k, won[base] == k)
                    out.append({"team": team, "policy": policy, "baseline": lineup[0],
                                "against": against, "difference": mean, "interval95": [lo, hi]})
        return out

    # -- the table, in three formats ------------------------------------------------------

    def _grid(self):
        """(row labels, column labels, {(row, col): summary}) for the first two teams."""
        first, second = self.teams[0], self.teams[1]
        by = {(c.sides[0], c.sides[1]): c.summary(self.teams) for c in self.cells}
        return self.lineups[first], self.lineups[second], by

    def format_table(self) -> str:
        first, second = self.teams[0], self.teams[1]
        rows, cols, by = self._grid()
        text = {}
        for r in rows:
            for c in cols:
                s = by[(r, c)]
                lo, hi = s["interval95"][first]
                text[r, c] = f"{s['win_rate'][first]:.3f} [{lo:.3f},{hi:.3f}] ({s['games']})"
        corner = f"{first} \\ {second}"
        w = max(len(corner), *(len(r) for r in rows)) + 2
        cw = max(*(len(c) for c in cols), *(len(t) for t in text.values())) + 2
        lines = [
            f"{self.game} v{self.version} {_params_text(self.params)}",
            f"{first} win rate [Wilson 95%] (games; {DRAWS}); {self.games} paired deals per "
            f"cell, seed {self.seed}",
            f"{corner:<{w}}" + "".join(f"{c:>{cw}}" for c in cols),
        ]
        lines += [f"{r:<{w}}" + "".join(f"{text[r, c]:>{cw}}" for c in cols) for r in rows]
        for d in self.paired_differences():
            lines.append(f"{d['team']} {d['policy']} - {d['baseline']} against {d['against']}: "
                         f"{format_difference((d['difference'], *d['interval95']))} "
                         f"(paired over deals)")
        draws = sum(by[k]["draws"] for k in by)
        if draws:
            lines.append(f"draws: {draws} in all (counted as neither team's win)")
        return "\n".join(lines)

    def markdown(self) -> str:
        first, second = self.teams[0], self.teams[1]
        rows, cols, by = self._grid()
        out = [
            f"**{self.game}** v{self.version}, {_params_text(self.params)}; {self.games} paired "
            f"deals per cell (seed {self.seed}). Cell: {first} win rate, Wilson 95% interval, "
            f"{first} wins / {second} wins / draws.",
            "",
            f"| {first} \\ {second} | " + " | ".join(cols) + " |",
            "|---|" + "---|" * len(cols),
        ]
        for r in rows:
            cells = []
            for c in cols:
                s = by[(r, c)]
                lo, hi = s["interval95"][first]
                cells.append(
                    f"{s['win_rate'][first]:.3f} [{lo:.3f}, {hi:.3f}] "
                    f"{s['wins'][first]}/{s['wins'][second]}/{s['draws']}"
                )
            out.append(f"| {r} | " + " | ".join(cells) + " |")
        return "\n".join(out) + "\n"

    def csv_text(self) -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow([*self.teams, "games", *(f"{t}_wins" for t in self.teams), "draws",
                    *(f"{t}_{k}" for t in self.teams for k in ("rate", "low95", "high95")),
                    "mean_length"])
        for c in self.cells:
            s = c.summary(self.teams)
            w.writerow([*c.sides, s["games"], *(s["wins"][t] for t in self.teams), s["draws"],
                        *(f"{v:.6f}" for t in self.teams
                          for v in (s["win_rate"][t], *s["interval95"][t])),
                        f"{s['mean_length']:.2f}"])
        return buf.getvalue()

    def heatmap(self, path: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        first, second = self.teams[0], self.teams[1]
        rows, cols, by = self._grid()
        rate = np.array([[by[(r, c)]["win_rate"][first] for c in cols] for r in rows])
        fig, ax = plt.subplots(figsize=(1.6 + 1.5 * len(cols), 1.2 + 0.8 * len(rows)))
        im = ax.imshow(rate, vmin=0, vmax=1, cmap="RdBu")
        for i, r in enumerate(rows):
            for j, c in enumerate(cols):
                lo, hi = by[(r, c)]["interval95"][first]
                ax.text(j, i, f"{rate[i, j]:.2f}\n[{lo:.2f}, {hi:.2f}]", ha="center",
                        va="center", fontsize=8,
                        color="white" if abs(rate[i, j] - 0.5) > 0.3 else "black")
        ax.set_xticks(range(len(cols)), cols, rotation=30, ha="right")
        ax.set_yticks(range(len(rows)), rows)
        ax.set_xlabel(second)
        ax.set_ylabel(first)
        ax.set_title(f"{self.game}: {first} win rate ({self.games} games per cell)", fontsize=9)
        fig.colorbar(im, ax=ax, fraction=0.046)
        fig.tight_layout()
        fig.savefig(path, dpi=120, format="png")
        plt.close(fig)

    def write(self, out: str | Path) -> list[Path]:
        """Every file to a temporary name first, then renamed into ``out``: a failure midway
        leaves the directory as it was."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        staged: list[tuple[Path, Path]] = []
        try:
            for name, writer in (
                ("matrix.md", lambda p: p.write_text(self.markdown())),
                ("matrix.csv", lambda p: p.write_text(self.csv_text())),
                ("matrix.json", lambda p: p.write_text(json.dumps(self.as_dict(), indent=1))),
                ("matrix.png", self.heatmap),
                ("games.jsonl.gz", self.write_games),
            ):
                fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=out)
                os.close(fd)
                os.chmod(tmp, new_file_mode())
                staged.append((Path(tmp), out / name))
                writer(Path(tmp))
        except BaseException:
            for tmp, _ in staged:
                tmp.unlink(missing_ok=True)
            raise
        for tmp, final in staged:
            os.replace(tmp, final)
        return [final for _, final in staged]

    def write_games(self, path: Path) -> None:
        if not all(isinstance(c.log, GameLog) for c in self.cells):
            raise ValueError("this match was played without keeping its games (replays=False): "
                             "there are none to write")
        header = {"format": GAMES_FORMAT, "game": self.game, "version": self.version,
                  "params": self.params, "seed": self.seed, "teams": list(self.teams)}
        with gzip.open(path, "wt") as f:
            f.write(json.dumps(header) + "\n")
            for cell in self.cells:
                for line in game_lines(cell.log, dict(zip(self.teams, cell.sides))):
                    f.write(line + "\n")


GAMES_FORMAT = "hiddendeck-games/1"
MATRIX_FORMAT = "hiddendeck-matrix/1"


def game_lines(log: GameLog, policies: dict):
    """One JSON line per game: the deal, the policies, the result and (if kept) the actions."""
    for g in range(len(log)):
        row = {
            "index": int(log.index[g]), "policies": policies,
            "winner": int(log.winner[g]), "truncated": bool(log.truncated[g]),
            "length": int(log.length[g]), "rewards": log.rewards[g].tolist(),
            "deal": log.deal[g].tolist(),
        }
        row["actions"] = log.game_actions(g).tolist()
        yield json.dumps(row)


def _params_text(params: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


def cross_play(
    game: str,
    lineups: dict[str, list[str]],
    games: int,
    seed: int = 0,
    workers: int | None = None,
    ray_address: str | None = None,
    batch_games: int = BATCH_GAMES,
    slots: int = SLOTS,
    replays: bool = True,
    **params,
) -> CrossPlay:
    """Every combination of one policy per team, ``games`` paired deals each.

    Every name is resolved and every checkpoint checked before the first game. With
    ``replays=False`` each cell keeps only its ``Outcomes`` (all the tables need), not every
    game's actions: nothing to ``write``, and memory that does not grow with the games.
    """
    spec = envs.registry[game]
    if free_for_all(spec):
        raise ValueError(f"{game} has no teams to cross; use `hiddendeck ffa {game}` or "
                         f"`hiddendeck tournament {game}`")
    params = spec.resolve(**params)
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    for name, value in (("batch_games", batch_games), ("slots", slots)):
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    unknown = sorted(set(lineups) - set(spec.teams))
    if unknown:
        raise ValueError(f"{game} has no team(s) {unknown}; its teams are {list(spec.teams)}")
    missing = [t for t in spec.teams if not lineups.get(t)]
    if missing:
        raise ValueError(f"no policy for team(s) {missing} of {game}")
    resolved: dict[str, list[Entrant]] = {}
    sources: dict[str, dict[str, str]] = {}
    for team in spec.teams:
        resolved[team] = resolve_all(lineups[team], spec, params)
        for e in resolved[team]:
            if team not in e.roles:
                raise ValueError(f"{e.label} ({e.source}) plays {list(e.roles)}, not {team}")
        sources[team] = {e.label: e.source for e in resolved[team]}
    pairings = list(itertools.product(*(resolved[t] for t in spec.teams)))
    batches = []
    for k, sides in enumerate(pairings):
        batches += batches_for(game, params, sides, seed, games, batch_games, slots, tag=k)
    kept = GameLog if replays else Outcomes
    logs = run_batches(batches, workers=workers, ray_address=ray_address,
                       keep=(lambda log: log) if replays else Outcomes.of)
    by_pairing: dict[int, list] = {}
    for batch, log in zip(batches, logs):
        by_pairing.setdefault(batch.tag, []).append(log)
    cells = [Cell(tuple(e.label for e in sides), kept.concat(by_pairing[k]))
             for k, sides in enumerate(pairings)]
    return CrossPlay(
        game=game, version=spec.version, params=params, seed=seed, games=games,
        teams=tuple(spec.teams), lineups={t: [e.label for e in resolved[t]] for t in spec.teams},
        sources=sources, cells=cells, batch_games=batch_games, slots=slots,
    )
