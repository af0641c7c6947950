"""``hiddendeck sweep RECIPE --seeds K``: a recipe trained on several seeds, each scored on
held-out deals against the reference population, aggregated across seeds.

    hiddendeck sweep menace5 --seeds 5 --workers 2 --out runs/sweep-menace5
    hiddendeck sweep tiny.toml --seeds 2 --ray local

Each seed ``s`` (1..K, or ``--seed-list``) trains into ``OUT/seed-s`` and is scored by
``evaluation.benchmark`` for every team it trained: against every member of the recipe's
population *it never met in training* (a member it imitated or had in its league is left out
and named: ``training.report.seen_in_training``), on the recipe's scoring seeds, paired with
the heuristic on the same deals. Its score is kept in ``OUT/seed-s/score.json``: a sweep run
again (after a crash, or with more seeds) trains and scores only what is missing, and a run
directory with checkpoints but no score resumes its training.

Across seeds, for each team: the interquartile mean (IQM) of the per-seed held-out mean and of
its gain over the heuristic, each with a 95% interval that counts both the seeds' spread and
the deal noise every seed shares (``evaluation.stats.seed_interval``: a t interval over seeds
plus the shared part, read from each seed's per-deal outcomes, which ``score.json`` keeps); a
sweep scored before those were kept shows the seeds' range instead and says it is not a 95%
interval. Beside it, how many seeds beat the heuristic; no probability of improvement, which at
3 to 5 seeds is 0 or 1 with no interval worth the name (the per-seed table says the same).
``OUT/results.md`` and ``OUT/results.png`` show every seed, failures included, and the
aggregate. A recipe scored at several table sizes (``[score] players``; a mixed-size recipe by
default at every size its game deals) gets all of this at each size, and a closing table a
team with one row a size, the sizes it trained at told from those it never met (``by_size``).
"""

from __future__ import annotations

import json
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np

import envs
from agents.checkpoint import new_file_mode
from evaluation.benchmark import benchmark
from evaluation.entrants import free_for_all
from evaluation.stats import bootstrap_mean, iqm, seed_interval
from evaluation.runner import ray_session
from training.recipes import Recipe, load
from training.run_checkpoint import seen_in_training


def _atomic_json(path: Path, data) -> None:
    """Written whole or not at all, with the mode any new file gets under the umask (``mkstemp``
    alone makes it 0600, unreadable to the others sharing a results directory)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            os.fchmod(f.fileno(), new_file_mode())
            json.dump(data, f, indent=1)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def score_run(recipe: Recipe, run_dir: Path, paths: dict, args: dict, workers: int = 1
              ) -> dict:
    """Every trained team of one seed against the population's held-out members, at each of
    the recipe's scoring sizes (``[score] players``). Scored at one size, ``teams`` is keyed
    by team, as it always was; at several, by ``TEAM@Np`` (each row says its ``team`` and
    ``players``), so every size is a row of its own through ``aggregate`` and the page."""
    spec = envs.registry[recipe.game]
    seen = seen_in_training(args)
    teams = (["player"] if free_for_all(spec)
             else [t for t in spec.teams if t not in args.get("fixed_teams", {})])
    sizes = recipe.score_sizes or (recipe.players,)
    out = {"seed": args["seed"], "run": str(run_dir), "recipe": recipe.label,
           "seen_in_training": sorted(seen), "players": list(sizes),
           "trained_at": list(recipe.trained_at), "teams": {}}
    for team in teams:
        path = paths["shared" if free_for_all(spec) else team]
        for n in sizes:
            key = team if len(sizes) == 1 else f"{team}@{n}p"
            out["teams"][key] = {"team": team, "players": n,
                                 **_score_team(recipe, team, path, n, seen, workers)}
    return out


def _score_team(recipe: Recipe, team: str, path: str, players: int, seen: set, workers: int
                ) -> dict:
    """One team's held-out score at one table size, over the recipe's scoring seeds."""
    reports = [benchmark(recipe.game, team, f"trained@{path}", recipe.population,
                         games=recipe.games, seed=s, workers=workers, exclude=tuple(seen),
                         per_deal_outcomes=True, greedy=recipe.play == "greedy",
                         **{**recipe.params, "num_players": players})
               for s in recipe.scoring_seeds]
    outcomes = [r.pop("per_deal") for r in reports]  # kept once, beside the reports
    per_deal = {key: [o[key] for o in outcomes] for key in ("mean", "reference")}
    gain = bootstrap_mean(np.concatenate([np.subtract(m, h) for m, h in
                                          zip(per_deal["mean"], per_deal["reference"])]))
    return {
        "lower_is_better": reports[0]["lower_is_better"],
        "mean": float(np.mean([r["mean"]["rate"] for r in reports])),
        "worst": float(np.mean([r["worst"]["rate"] for r in reports])),
        "reference_mean": float(np.mean([r["reference"]["mean"]["rate"] for r in reports])),
        "gain": float(np.mean([r["difference"]["mean"]["mean"] for r in reports])),
        "gain_interval": [gain[1], gain[2]],
        "excluded": reports[0]["excluded"],
        "benchmarks": reports,
        "per_deal": per_deal,
    }


def run_seed(recipe_path: str, seed: int, out: str, threads: int = 1,
             progress: bool = False, allow_code: bool = False) -> dict:
    """Train (or resume) and score one seed; its score is written beside its run. Runs in a
    worker process or a Ray task as well as here. A seed killed after its last checkpoint
    (while scoring, say) trains nothing more on the rerun: ``train`` returns the checkpoints
    of the budget's end, and those are scored."""
    from training.ppo import latest_checkpoint, train

    recipe = load(recipe_path, allow_code)
    run_dir = Path(out) / f"seed-{seed}"
    score_file = run_dir / "score.json"
    if score_file.is_file():
        return json.loads(score_file.read_text())
    resume = None
    if (run_dir / "checkpoints").is_dir():
        try:
            latest_checkpoint(run_dir)
            resume = str(run_dir)
        except (FileNotFoundError, ValueError):
            resume = None
    args = recipe.args(seed, run_dir, threads=threads, progress=progress, tensorboard=False,
                       resume=resume)
    paths = train(args)
    from dataclasses import asdict

    score = score_run(recipe, run_dir, {Path(p).stem: p for p in paths.values()}, asdict(args))
    _atomic_json(score_file, score)
    return score


def _per_deal(rows: list[dict], key: str) -> np.ndarray | None:
    """[seeds, scoring seeds, deals] of one per-deal series, or None if any seed lacks it."""
    if not all("per_deal" in r for r in rows):
        return None
    return np.array([r["per_deal"][key] for r in rows], dtype=np.float64)


def aggregate(scores: list[dict], seed: int = 0) -> dict:
    """Per team: IQM over seeds of the held-out mean and of the gain over the heuristic, each
    with its interval (``seed_interval``) and what kind of interval that is."""
    out = {}
    for team in scores[0]["teams"]:
        rows = [s["teams"][team] for s in scores]
        means = np.array([r["mean"] for r in rows])
        gains = np.array([r["gain"] for r in rows])
        policy, reference = _per_deal(rows, "mean"), _per_deal(rows, "reference")
        mean_interval, kind = seed_interval(means, policy, seed)
        gain_interval, _ = seed_interval(
            gains, None if policy is None else policy - reference, seed)
        out[team] = {
            "seeds": len(rows), "lower_is_better": rows[0]["lower_is_better"],
            "iqm_mean": iqm(means), "iqm_mean_interval": mean_interval,
            "iqm_gain": iqm(gains), "iqm_gain_interval": gain_interval,
            "interval": kind,
            "seeds_better": int(np.sum((-1.0 if rows[0]["lower_is_better"] else 1.0) * gains
                                       > 0)),
            "reference_mean": float(np.mean([r["reference_mean"] for r in rows])),
        }
        if "players" in rows[0]:  # scored at several sizes: which team, which table
            out[team].update(team=rows[0]["team"], players=rows[0]["players"])
    return out


def meets_pass_rule(agg: dict) -> bool | None:
    """The sweep's pass rule for one aggregate row: the IQM gain over the heuristic on paired
    deals better than 0 in the game's direction with its whole 95% interval (so the held-out
    mean is at least the heuristic's). None where the interval is not a 95% one (a sweep
    scored before per-deal outcomes were kept shows the seeds' range)."""
    interval = agg["iqm_gain_interval"]
    if interval is None or not agg["interval"].startswith("95%"):
        return None
    return interval[1] < 0 if agg["lower_is_better"] else interval[0] > 0


def sweep(recipe_name: str, seeds: list[int], out: str | Path, workers: int = 1,
          ray_address: str | None = None, threads: int | None = None,
          allow_code: bool = False) -> dict:
    """``allow_code``: the recipe may name ``py:MODULE:ATTR`` policies (``--allow-code``)."""
    recipe = load(recipe_name, allow_code)
    if len(set(seeds)) != len(seeds) or any(s < 0 for s in seeds):
        raise ValueError(f"seeds must be distinct non-negative integers, got {seeds}")
    clash = sorted(set(seeds) & set(recipe.scoring_seeds))
    if clash:
        raise ValueError(f"training seed(s) {clash} are scoring seeds of {recipe.name}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out}: not a directory")
    out.mkdir(parents=True, exist_ok=True)
    path = str(recipe.path.resolve())
    threads = threads or max(1, (os.cpu_count() or 1) // max(1, workers))
    if ray_address is not None:
        scores = _on_ray(path, seeds, str(out.resolve()), ray_address, allow_code)
    elif workers == 1:  # one seed at a time: its trainer's progress line shows
        from evaluation.progress import enabled

        scores = [run_seed(path, s, str(out), threads, enabled(), allow_code) for s in seeds]
    else:
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
            scores = list(pool.map(run_seed, [path] * len(seeds), seeds, [str(out)] * len(seeds),
                                   [threads] * len(seeds), [False] * len(seeds),
                                   [allow_code] * len(seeds)))
    result = {"recipe": recipe.label, "game": recipe.game, "players": recipe.players,
              "trained_at": list(recipe.trained_at), "score_sizes": list(recipe.score_sizes),
              "steps": recipe.steps, "population": recipe.population,
              "scoring_seeds": list(recipe.scoring_seeds), "games": recipe.games,
              "play": recipe.play,
              "seeds": scores, "aggregate": aggregate(scores)}
    _atomic_json(out / "results.json", result)
    (out / "results.md").write_text(page(recipe, result))
    plot(result, out / "results.png")
    return result


def _on_ray(recipe_path: str, seeds: list[int], out: str, address: str,
            allow_code: bool) -> list[dict]:
    with ray_session(address) as ray:
        remote = ray.remote(num_cpus=1)(run_seed)
        return ray.get([remote.remote(recipe_path, s, out, 1, False, allow_code)
                        for s in seeds])


def page(recipe: Recipe, result: dict) -> str:
    lines = [f"# Sweep: {recipe.name}", "",
             f"Recipe `{recipe.path.name}` ({recipe.label})"
             + (f": {recipe.description}" if recipe.description else "."),
             f"{recipe.game} at {'/'.join(map(str, recipe.trained_at))} players, "
             f"{recipe.steps:,} agent decisions "
             f"per seed; scored against population {recipe.population} on "
             f"{recipe.games} paired deals per member, {recipe.play} play (scoring seeds "
             f"{', '.join(map(str, recipe.scoring_seeds))}), members seen in training left "
             f"out and named. Every seed is shown.", ""]
    for team, agg in result["aggregate"].items():
        lib = agg["lower_is_better"]
        measure = "mean position (lower is better)" if lib else "win rate"
        lines += [f"## {team} ({measure})", "",
                  "| seed | held-out mean | worst member | heuristic's mean "
                  "| gain [95%, over deals] "
                  "| left out (seen in training) |", "|---|---|---|---|---|---|"]
        for s in result["seeds"]:
            r = s["teams"][team]
            lo, hi = r["gain_interval"]
            lines.append(f"| {s['seed']} | {r['mean']:.3f} | {r['worst']:.3f} | "
                         f"{r['reference_mean']:.3f} | {r['gain']:+.3f} [{lo:+.3f}, {hi:+.3f}] "
                         f"| {', '.join(r['excluded']) or '-'} |")
        m, g = agg["iqm_mean_interval"], agg["iqm_gain_interval"]
        if g is None:
            spans = f"held-out mean {agg['iqm_mean']:.3f}, gain {agg['iqm_gain']:+.3f}"
        else:
            spans = (f"held-out mean {agg['iqm_mean']:.3f} [{m[0]:.3f}, {m[1]:.3f}], gain over "
                     f"the heuristic {agg['iqm_gain']:+.3f} [{g[0]:+.3f}, {g[1]:+.3f}]")
        lines += ["", f"IQM over {agg['seeds']} seeds: {spans} ({agg['interval']}); "
                  f"{agg['seeds_better']} of {agg['seeds']} seeds "
                  f"{'place better than' if lib else 'win more than'} the heuristic.", ""]
    if len(recipe.score_sizes) > 1:
        lines += by_size(recipe, result["aggregate"])
    return "\n".join(lines)


def by_size(recipe: Recipe, aggregate_rows: dict) -> list[str]:
    """The page's closing tables for a recipe scored at several sizes: per team, one row a
    table size (the IQM over seeds of the held-out mean, the heuristic's mean on the same
    deals, the IQM gain with its interval, the pass rule there), each size marked as one the
    recipe trained at or never met."""
    never = [n for n in recipe.score_sizes if n not in recipe.trained_at]
    lines = ["## By table size", "",
             f"Trained at {', '.join(map(str, recipe.trained_at))} players; scored at "
             f"{', '.join(map(str, recipe.score_sizes))}"
             + (f" (never met in training: {', '.join(map(str, never))})." if never else "."),
             "Pass rule at each size, as for the whole sweep: the IQM gain's 95% interval past 0 "
             "toward the better (above for a win rate, below for a mean place).", ""]
    for team in dict.fromkeys(row["team"] for row in aggregate_rows.values()):
        rows = [row for row in aggregate_rows.values() if row["team"] == team]
        lines += [f"**{team}**", "",
                  "| players | in training | held-out mean (IQM) | heuristic's mean "
                  "| gain (IQM) [95%] | seeds better | pass rule |",
                  "|---|---|---|---|---|---|---|"]
        for row in rows:
            g = row["iqm_gain_interval"]
            gain = (f"{row['iqm_gain']:+.3f}" if g is None else
                    f"{row['iqm_gain']:+.3f} [{g[0]:+.3f}, {g[1]:+.3f}]")
            verdict = {True: "met", False: "not met", None: "no 95% interval"}[
                meets_pass_rule(row)]
            lines.append(f"| {row['players']} | "
                         f"{'trained at' if row['players'] in recipe.trained_at else 'never met'}"
                         f" | {row['iqm_mean']:.3f} | {row['reference_mean']:.3f} | {gain} | "
                         f"{row['seeds_better']} of {row['seeds']} | {verdict} |")
        lines.append("")
    return lines


def plot(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    teams = list(result["aggregate"])
    fig, axes = plt.subplots(1, len(teams), figsize=(4 * len(teams), 3.2), squeeze=False)
    for ax, team in zip(axes[0], teams):
        rows = [s["teams"][team] for s in result["seeds"]]
        gains = [r["gain"] for r in rows]
        err = np.array([[r["gain"] - r["gain_interval"][0], r["gain_interval"][1] - r["gain"]]
                        for r in rows]).T
        x = np.arange(len(rows))
        ax.errorbar(x, gains, yerr=err, fmt="o", capsize=3)
        agg = result["aggregate"][team]
        ax.axhline(agg["iqm_gain"], color="C1", label="IQM")
        if agg["iqm_gain_interval"] is not None:
            ax.axhspan(*agg["iqm_gain_interval"], color="C1", alpha=0.2)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(x, [str(s["seed"]) for s in result["seeds"]])
        ax.set_xlabel("training seed")
        ax.set_title(f"{team}: gain over the heuristic", fontsize=9)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def register(subparsers) -> None:
    """Add ``sweep`` to ``hiddendeck``."""
    p = subparsers.add_parser(
        "sweep", help="train a recipe on several seeds, score each against the population, "
        "aggregate", description=__doc__.split("\n\n")[2])
    p.add_argument("recipe", help="recipes/NAME.toml by NAME, or a .toml path")
    seeds = p.add_mutually_exclusive_group(required=True)
    seeds.add_argument("--seeds", type=int, help="train seeds 1..K")
    seeds.add_argument("--seed-list", type=lambda t: [int(x) for x in t.split(",")],
                       metavar="S,S,...", help="train exactly these seeds")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=1, help="local worker processes")
    where.add_argument("--ray", metavar="ADDRESS", default=None,
                       help="run the seeds as Ray tasks ('local' starts Ray here)")
    p.add_argument("--threads", type=int, default=None,
                   help="CPU threads per seed (default: the CPUs shared among the workers)")
    p.add_argument("--out", default=None, help="sweep directory (default runs/sweep-RECIPE)")
    p.add_argument("--allow-code", action="store_true",
                   help="let the recipe name py:MODULE:ATTR policies, code it imports and runs")
    p.set_defaults(run=_cmd)


def _cmd(ns) -> int:
    if ns.seeds is not None and ns.seeds < 1:
        raise ValueError(f"--seeds must be at least 1, got {ns.seeds}")
    if ns.workers < 1:
        raise ValueError(f"--workers must be at least 1, got {ns.workers}")
    seeds = ns.seed_list if ns.seed_list is not None else list(range(1, ns.seeds + 1))
    out = ns.out or f"runs/sweep-{Path(ns.recipe).stem}"
    result = sweep(ns.recipe, seeds, out, workers=ns.workers, ray_address=ns.ray,
                   threads=ns.threads, allow_code=ns.allow_code)
    print((Path(out) / "results.md").read_text())
    return 0 if result else 1
