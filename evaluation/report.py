"""``hiddendeck report PATH``: one Markdown page from whatever evaluation results PATH holds.

PATH may be an ``eval --out`` directory (its cross-play matrix and heatmap), a results
database (every current context's leaderboard and pairings, with a ratings plot), or a
directory holding any of these, ``beliefs --out`` results (scores and calibration plot) and a
training run's held-out curves (``curves.png``) and TensorBoard self-play scalars. A database is
only ever opened read-only. Plots are PNG files written next to the page and linked from it.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _matrix_section(directory: Path, base: Path) -> list[str]:
    from .crossplay import MATRIX_FORMAT

    try:
        data = json.loads((directory / "matrix.json").read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{directory / 'matrix.json'}: unreadable ({e})") from None
    if data.get("format") != MATRIX_FORMAT:
        raise ValueError(f"{directory / 'matrix.json'}: not a {MATRIX_FORMAT} file (written by "
                         f"an older hiddendeck eval? run it again)")
    teams = data["teams"]
    first, second = teams[0], teams[1]
    by = {(c["policies"][first], c["policies"][second]): c for c in data["cells"]}
    lines = [f"## Cross-play: {data['game']} v{data['version']} ({directory})", "",
             f"{data['games_per_pairing']} paired deals per cell, seed {data['seed']}; "
             + " ".join(f"{k}={v}" for k, v in data["params"].items())
             + f". Cell: {first} win rate, Wilson 95% interval, {first} wins / {second} wins / "
             "draws, mean length in decisions.", "",
             f"| {first} \\ {second} | " + " | ".join(data["policies"][second]) + " |",
             "|---|" + "---|" * len(data["policies"][second])]
    for r in data["policies"][first]:
        cells = []
        for c in data["policies"][second]:
            s = by[(r, c)]
            lo, hi = s["interval95"][first]
            cells.append(f"{s['win_rate'][first]:.3f} [{lo:.3f}, {hi:.3f}] "
                         f"{s['wins'][first]}/{s['wins'][second]}/{s['draws']}, "
                         f"{s['mean_length']:.0f}")
        lines.append(f"| {r} | " + " | ".join(cells) + " |")
    named = [f"{team} `{label}` = `{source}`" for team, by_label in data["sources"].items()
             for label, source in by_label.items() if label != source]
    if named:
        lines += ["", "Policies: " + ", ".join(named)]
    if (directory / "matrix.png").is_file():
        lines += ["", f"![cross-play heatmap]({os.path.relpath(directory / 'matrix.png', base)})"]
    return lines + [""]


def _beliefs_section(directory: Path, base: Path) -> list[str]:
    r = json.loads((directory / "beliefs.json").read_text())
    lines = [f"## Beliefs: {r['game']} v{r['version']}, {r['policy']} as "
             f"{'/'.join(r.get('teams', []))} against {r['against']} ({directory})", "",
             f"{r['decisions_scored']:,} decisions of the held-out half of {r['games']:,} games"
             + ("" if r["has_beliefs"] else f"; {r['policy']} has no beliefs(), so only the "
                "base rate and the probe") + ".", "",
             "| observer | predictor | log-loss | Brier | ECE | top-1 | ruled out |",
             "|---|---|---|---|---|---|---|"]
    for who, table in [("all", r["overall"])] + list(r.get("by_team", {}).items()):
        for name, s in table.items():
            lines.append(f"| {who} | {name} | {s['log_loss']:.4f} | {s['brier']:.4f} | "
                         f"{s['ece']:.4f} | {s['top1']:.3f} | "
                         + ("-" if s.get("ruled_out") is None else f"{s['ruled_out']:.3f}")
                         + " |")
    if r.get("share_of_probe") is not None:
        lines += ["", f"Share of the probe's log-loss gain: {r['share_of_probe']:.2f}"]
    if (directory / "calibration.png").is_file():
        lines += ["", f"![calibration]({os.path.relpath(directory / 'calibration.png', base)})"]
    return lines + [""]


def _ratings_plot(table, path: Path) -> None:
    plt = _plt()
    standings = table.standings[::-1]
    labels = [s.label for s in standings]
    rating = np.array([s.rating for s in standings])
    lo = np.array([s.interval[0] for s in standings])
    hi = np.array([s.interval[1] for s in standings])
    fig, ax = plt.subplots(figsize=(6, 1 + 0.4 * len(labels)))
    ax.errorbar(rating, range(len(labels)), xerr=[rating - lo, hi - rating], fmt="o", capsize=3)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("rating (bars: bootstrap 95% over deals)")
    ax.set_title(f"{table.game} v{table.version}: overall ratings", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120, format="png")
    plt.close(fig)


def _database_section(db: Path, base: Path, plots: list) -> list[str]:
    """The database's leaderboards; each plot is named after the database, the game, its
    version and its players, so several databases in one folder never share a figure."""
    from .tournament import open_table

    lines = []
    for table in open_table(db):
        lines += [f"## Tournament: {table.game} v{table.version} ({db})", "", table.markdown()]
        players = table.params.get("num_players", "")
        plot = base / f"ratings_{db.stem}_{table.game}_v{table.version}_{players}p.png"
        k = 1
        while any(p == plot for p, _ in plots):
            k += 1
            plot = plot.with_name(f"{plot.stem.rsplit('#', 1)[0]}#{k}.png")
        plots.append((plot, lambda p, t=table: _ratings_plot(t, p)))
        lines += [f"![ratings]({plot.name})", ""]
    return lines


def _curves(run: Path):
    """{tag: [(step, value)]} of the run's TensorBoard scalars (charts/*)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    curves: dict[str, list] = {}
    for events in sorted((run / "tb").rglob("events.out.tfevents.*")):
        acc = EventAccumulator(str(events), size_guidance={"scalars": 0})
        acc.Reload()
        for tag in acc.Tags().get("scalars", []):
            if tag.startswith("charts/") and tag != "charts/steps_per_second":
                curves.setdefault(tag, []).extend((e.step, e.value) for e in acc.Scalars(tag))
    return {tag: sorted(points) for tag, points in curves.items()}


def _curves_plot(curves: dict, path: Path, title: str) -> None:
    plt = _plt()
    tags = sorted(curves)
    fig, axes = plt.subplots(len(tags), 1, figsize=(6, 2 * len(tags)), squeeze=False)
    for ax, tag in zip(axes[:, 0], tags):
        steps, values = zip(*curves[tag])
        ax.plot(steps, values)
        ax.set_title(tag, fontsize=8)
        ax.tick_params(labelsize=7)
    axes[-1, 0].set_xlabel("agent decisions")
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)


def build_report(path: str | Path, out: str | Path | None = None) -> tuple[Path, str, list]:
    """(page path, Markdown text, [(plot path, writer)]) for whatever PATH holds."""
    path = Path(path)
    if not path.exists():
        raise ValueError(f"{path}: no such file or directory")
    if path.is_file():
        if path.suffix != ".sqlite":
            raise ValueError(f"{path}: expected a results database (.sqlite) or a directory")
        page = Path(out) if out else path.with_name(path.stem + "_report.md")
    else:
        page = Path(out) if out else path / "report.md"
    base = page.parent
    lines = [f"# hiddendeck report: {path}", ""]
    plots: list = []
    found = False
    if path.is_file():
        lines += _database_section(path, base, plots)
        found = True
    else:
        if (path / "curves.png").is_file():  # a training run: its held-out learning curves
            lines += ["## Held-out learning curves", "",
                      "Each trained team against fixed references it never trained against, on "
                      "the same deals at every point, beside the heuristic's rate on those deals "
                      "(``training.evaluate``).", "",
                      f"![held-out curves]({os.path.relpath(path / 'curves.png', base)})", ""]
            found = True
        if (path / "tb").is_dir():
            curves = _curves(path)
            if curves:
                plot = base / "learning_curves.png"
                plots.append((plot, lambda p: _curves_plot(curves, p, str(path))))
                lines += ["## Self-play curves", "",
                          "Win rates, draw rate and game length during training, as the trainer "
                          "logged them (its own games, against its own opponents: not an "
                          "evaluation).", "", f"![learning curves]({plot.name})", ""]
                found = True
        for matrix in sorted(path.rglob("matrix.json")):
            lines += _matrix_section(matrix.parent, base)
            found = True
        for beliefs in sorted(path.rglob("beliefs.json")):
            lines += _beliefs_section(beliefs.parent, base)
            found = True
        for db in sorted(path.rglob("*.sqlite")):
            lines += _database_section(db, base, plots)
            found = True
    if not found:
        raise ValueError(f"{path}: no eval results (matrix.json), results database (.sqlite), "
                         f"belief scores (beliefs.json) or training logs (tb/) to report on")
    return page, "\n".join(lines), plots


def write_report(path: str | Path, out: str | Path | None = None) -> Path:
    try:
        page, text, plots = build_report(path, out)
    except (KeyError, TypeError, AttributeError, IndexError) as e:  # a damaged input file
        raise ValueError(f"{path}: malformed results ({type(e).__name__}: {e})") from None
    page.parent.mkdir(parents=True, exist_ok=True)
    for plot, writer in plots:
        writer(plot)
    fd, tmp = tempfile.mkstemp(prefix=f".{page.name}.", suffix=".tmp", dir=page.parent)
    with os.fdopen(fd, "w") as f:
        f.write(text + "\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, page)
    return page
