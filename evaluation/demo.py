"""The main job on defaults: train crew and menace of The Menace Among Us by self-play with the
default recipe (``training.ppo.Args``), then score them on deals never used in training.

After training (its held-out curves in ``OUT/curves.png``), each team is scored against the
reference population's members on the other side (``agents.populations``, the default
population at 5 players: random, the heuristic, the audits' scripts and the zoo's trained
policy), beside the zoo's policy for that team (``agents.zoo``: a published seed of the
``menace5`` recipe, 23M decisions) and the heuristic, on the same deals, with the mean over
members and each trained policy's paired difference from the heuristic. One row plays the
fresh crew against the fresh menace. Neither fresh side trained against any member: the
heuristic was imitated as a warm start (so its rows are marked seen; a quarter of the warm
start's moves are played at random, still labelled with the heuristic's choice, and the actors
read the agent-side deduction ``menace-suspicion``: docs/training.md, The demo), then each
side played the other's learner and a league of its snapshots. The zoo's policies met more
(``zoo.met``: what their sweep imitated, and their own run's other side); each policy's cells
of the members it met read ``seen`` and stay out of its mean.

The budget is counted in decisions, not seconds, and torch runs on one thread: the same command
trains the same networks on an idle machine or a loaded one (a loaded one only takes longer).
Sized so that ``make demo`` on a fresh clone (venv, numba's first compilation, training and the
final games) takes under 6 minutes on 2 idle cores (docs/training.md, The demo).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

import envs
from agents import zoo
from agents.neural import load_policy
from agents.populations import DEFAULT as POPULATION
from agents.populations import population

from .benchmark import benchmark
from .entrants import resolve
from .match import play_match
from .stats import format_difference

GAME = "menace"
NUM_PLAYERS = 5
STEPS = 1_000_000
"""PPO agent-steps after the warm start (every seat's decisions)"""
GAMES = 400
"""paired deals per population member: each policy's mean over members rests on several
thousand games"""
RECIPE = {
    "hidden": (256, 256),  # a 64-64 clone of the v3 heuristic crew wins 25% (sampled) where the
                           # heuristic crew wins 42%; 256-256 on the same data, 38%
    "imitation_steps": 1_000_000,  # the default, pinned: it is part of the demo's budget
    "imitation_noise": 0.25,       # and the deduction: the crew clone alone won 0.098 of its
    "deduction": "menace-suspicion",  # held-out games, 0.216 with both (docs/training.md)
    "threads": 1,                  # the default, pinned: the same networks on any machine load
}
"""``training.ppo.Args`` fields the demo sets; the rest is the default recipe (docs/training.md)"""


def demo_seed(seed: int) -> int:
    """The final table's deals: a stream apart from training's and the curves' seeds."""
    return int(np.random.SeedSequence([seed, 0xDE30]).generate_state(1)[0] >> 1)


def format_population(team: str, reports: list[dict], reference: dict[str, float]) -> str:
    """One team's table: a row per population member (``reference``: the heuristic's rate
    against each, in the population's order), a column per policy (the heuristic last), and
    below it each policy's mean over the members it did not meet beside the heuristic's mean
    over those same members, with their paired difference. A member a policy met in training
    (its report left it out) reads ``seen``. There is no row of means across the columns:
    each policy's mean is over a different set of members, so a row of them would compare
    unlike with unlike."""
    first = reports[0]
    members = list(reference)
    rates = [{m["name"]: m["rate"] for m in r["members"]} for r in reports]
    names = [r["label"] for r in reports] + ["heuristic"]
    w = max(12, *(len(name) for name in members))
    cw = max(14, *(len(name) for name in names))
    head = (f"{team} win rate against population {first['population']} "
            f"({first['members_play']} side), {first['games']} paired deals per member; "
            f"seen: met in training, left out of that policy's mean")

    def cell(x):
        return f"{x:>{cw}.3f}" if x is not None else f"{'seen':>{cw}}"

    lines = [head, f"  {'member':<{w}} " + " ".join(f"{name:>{cw}}" for name in names)]
    for name in members:
        cells = [r.get(name) for r in rates] + [reference.get(name)]
        lines.append(f"  {name:<{w}} " + " ".join(cell(x) for x in cells))
    for r in reports:
        d = r["difference"]["mean"]
        difference = format_difference((d["mean"], *d["interval"]))
        lines.append(f"  {r['label']}: {r['mean']['rate']:.3f} against the {len(r['members'])} "
                     f"members it did not meet, the heuristic {r['reference']['mean']['rate']:.3f}"
                     f" against the same; difference {difference} (paired 95%)")
    return "\n".join(lines)


SEEN = ("heuristic",)
"""the members the fresh policies met in training: the heuristic, imitated as a warm start"""


def run_demo(steps: int = STEPS, seconds: float | None = None, games: int = GAMES,
             out: str = "runs/demo", seed: int = 0):
    """``seconds`` also stops training after that much wall time (start-up included); then the
    result depends on the machine's load. ``games``: paired deals per population member."""
    from training.cli import train_teams

    spec = envs.registry[GAME]
    params = spec.resolve(num_players=NUM_PLAYERS)
    crew, menace = spec.teams
    limit = "" if seconds is None else f" (or {seconds:.0f} s, start-up included)"
    print(f"The Menace Among Us, {NUM_PLAYERS} players: an imitation warm start of "
          f"{RECIPE['imitation_steps']:,} decisions (a {RECIPE['imitation_noise']:.0%} share "
          f"played at random; the actors read the agent-side deduction "
          f"{RECIPE['deduction']}), then {steps:,} agent-steps{limit} of "
          f"self-play (league of snapshots; no scripted opponent), then {games:,} paired deals "
          f"per member of population {POPULATION} for the fresh policies, the zoo's and the "
          f"heuristic.", flush=True)
    start, cpu = time.perf_counter(), time.process_time()
    paths = train_teams(GAME, NUM_PLAYERS, Path(out), steps=steps, seconds=seconds, seed=seed,
                        **RECIPE)
    tables = []
    for team in spec.teams:
        policies = {f"fresh@{paths[team]}": SEEN}
        policies.update({f"zoo:{name}": zoo.met(name) for name in zoo.names(GAME, team)
                         if zoo.entry(name)["players"] == NUM_PLAYERS})
        reports = [benchmark(GAME, team, p, games=games, seed=demo_seed(seed), workers=1,
                             exclude=met, num_players=NUM_PLAYERS) for p, met in policies.items()]
        other = next(t for t in spec.teams if t != team)
        members = [resolve(m, spec, params).label
                   for m in population(GAME, other, POPULATION, NUM_PLAYERS)]
        reference = {m["name"]: m["reference_rate"] for r in reports for m in r["members"]}
        if set(members) - set(reference):  # a member every policy met: the heuristic alone
            alone = benchmark(GAME, team, "heuristic", games=games, seed=demo_seed(seed),
                              workers=1, exclude=tuple(reference), num_players=NUM_PLAYERS)
            reference.update({m["name"]: m["reference_rate"] for m in alone["members"]})
        tables.append(format_population(team, reports, {m: reference[m] for m in members}))
    fresh = play_match(GAME, {team: load_policy(paths[team], game=GAME, team=team, seed=seed,
                                                **params) for team in spec.teams},
                       games, seed=demo_seed(seed), **params).as_dict()
    lo, hi = fresh["interval95"][crew]
    print("\n\n".join(tables))
    print(f"fresh crew against fresh menace: the crew wins {fresh['win_rate'][crew]:.1%} "
          f"[{lo:.1%}, {hi:.1%}] of {fresh['games']:,} games")
    print(f"learning curves against held-out opponents: {Path(out) / 'curves.png'}")
    print(f"checkpoints: {', '.join(str(paths[t]) for t in spec.teams)}")
    print(f"({time.perf_counter() - start:.0f} s in all, {time.process_time() - cpu:.0f} s of "
          f"CPU; load average {os.getloadavg()[0]:.2f})")
