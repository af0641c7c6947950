"""Do the text prompts carry enough to play? The scripted text player against the heuristic.

``python -m evaluation.text_check GAME --games N`` plays deals ``0 .. N-1`` twice: every seat
played by ``agents.text.scripted.TextHeuristic`` (which reads only the prompt's words and
replies with a number, through the same protocol a language model meets), then every seat by
the batched heuristic. It prints the first side's win rate under each (a team game: the first
team; a free-for-all: seat 0), with Wilson intervals, their paired difference over deals with
its interval (``evaluation.stats.paired_difference``), and how many games went action for
action the same. The text player must be within the heuristic's interval; every game the same
means the words rebuilt the observation exactly.
"""

from __future__ import annotations

import argparse

import numpy as np

import envs

from .commands import _positive, game_param, games_count, seed
from .entrants import free_for_all, resolve
from .harness import Batch
from .runner import run_batches
from .stats import format_difference, paired_difference, wilson_interval

TEXT = "text@py:agents.text.scripted:TextHeuristic"


def check(game: str, games: int, seed: int = 0, workers: int | None = None,
          batch: int = 50, **params) -> dict:
    spec = envs.registry[game]
    params = spec.resolve(**params)
    sides = len(spec.teams) if not free_for_all(spec) else params["num_players"]
    logs = {}
    for text in (TEXT, "heuristic"):
        entrant = resolve(text, spec, params)
        batches = [Batch(game, params, (entrant,) * sides, seed, start, min(games, start + batch),
                         slots=batch) for start in range(0, games, batch)]
        logs[entrant.label] = run_batches(batches, workers, desc=entrant.label)
    text_logs, heuristic_logs = logs["text"], logs["heuristic"]
    won = {}
    for label, batch_logs in logs.items():
        won[label] = np.concatenate([log.winner == 0 for log in batch_logs]).astype(np.float64)
    same = sum(int(np.array_equal(a.game_actions(g), b.game_actions(g)))
               for a, b in zip(text_logs, heuristic_logs) for g in range(len(a)))
    return {
        "game": game, "params": params, "games": games, "seed": seed,
        "side": spec.teams[0] if not free_for_all(spec) else "seat 0",
        "text": (won["text"].mean(), *wilson_interval(int(won["text"].sum()), games)),
        "heuristic": (won["heuristic"].mean(),
                      *wilson_interval(int(won["heuristic"].sum()), games)),
        "difference": paired_difference(won["text"], won["heuristic"]),
        "same_games": same,
    }


def format_check(r: dict) -> str:
    rate = "{:.3f} [{:.3f}, {:.3f}]".format
    return (f"{r['game']} {r['games']} paired deals (seed {r['seed']}), win rate of "
            f"{r['side']}:\n  text player  {rate(*r['text'])}\n  heuristic    "
            f"{rate(*r['heuristic'])}\n  text - heuristic {format_difference(r['difference'])}"
            f"\n  games the same action for action: {r['same_games']}/{r['games']}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m evaluation.text_check", description=__doc__)
    p.add_argument("game", choices=list(envs.registry))
    p.add_argument("--games", type=games_count, default=2000)
    p.add_argument("--seed", type=seed, default=0)
    p.add_argument("--workers", type=_positive, default=None)
    p.add_argument("--param", type=game_param, action="append", default=[], metavar="NAME=VALUE")
    args = p.parse_args(argv)
    print(format_check(check(args.game, args.games, args.seed, args.workers,
                             **dict(args.param))))


if __name__ == "__main__":
    main()
