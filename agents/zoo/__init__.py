"""The zoo: trained policies shipped with hiddendeck, loadable wherever a policy is named as
``zoo:NAME`` (``hiddendeck eval``, ``benchmark``, ``tournament``, ``exploit --against``, the
populations of ``agents.populations``).

Each is one published seed of a recipe's sweep (``docs/results/``), kept small (the weights
alone, no optimiser state) beside ``index.json``, which records for every policy its file, the
file's SHA-256, the game, table size and team, the recipe (``NAME@sha256:`` of its file), the
training seed and steps, what it trained against, and its scores from the sweep. A file whose
digest differs from the index is refused: a zoo policy is a fixed yardstick, never a moving one.

Each policy has a model card, ``NAME.md`` beside its weights: what it is for, how it was
trained, its held-out scores, exploitability and limits, every figure quoted from the results
page it comes from. ``python -m agents.zoo show NAME`` prints it after what the index and the
checkpoint record.

``python -m agents.zoo add CHECKPOINT --name NAME --score SCORE_JSON`` puts a trained
checkpoint into the zoo (the sweep's ``seed-K/score.json`` gives the scores; write its card
by hand); ``python -m agents.zoo`` lists what is there, each policy's held-out score against
the heuristic's in its game's direction, with its interval.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
INDEX = HERE / "index.json"
PREFIX = "zoo:"


def is_zoo(source: str) -> bool:
    return isinstance(source, str) and source.startswith(PREFIX)


_READ: dict = {}  # the index as last read, and the (mtime, size) it was read at


# What every entry of the index records, and what ``path`` and ``names`` read from it.
REQUIRED = ("file", "sha256", "game", "players", "team")


def _read_index() -> dict:
    """The index as ``{name: entry}``; a damaged one is refused on one line naming the file
    and, for an entry, the key it lacks (a policy without a digest cannot be checked)."""
    try:
        index = json.loads(INDEX.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{INDEX}: unreadable zoo index ({e}); reinstall hiddendeck") from None
    if not isinstance(index, dict):
        raise ValueError(f"{INDEX}: not a zoo index (a JSON object of policies by name)")
    for name, record in index.items():
        missing = [key for key in REQUIRED if not isinstance(record, dict) or key not in record]
        if missing:
            raise ValueError(f"{INDEX}: zoo policy {name!r} has no {', '.join(missing)}; "
                             f"reinstall hiddendeck")
    return index


def _index() -> dict:
    """The index, read again only when the file has changed (``add`` rewrites it)."""
    try:
        stat = INDEX.stat()
    except FileNotFoundError:
        return {}
    if _READ.get("at") != (stat.st_mtime_ns, stat.st_size):
        _READ.update(at=(stat.st_mtime_ns, stat.st_size), index=_read_index())
    return _READ["index"]


def names(game: str | None = None, team: str | None = None) -> list[str]:
    """The zoo's policies (of ``game``, playing ``team``), as ``zoo:NAME`` texts take them."""
    return sorted(name for name, entry in _index().items()
                  if (game is None or entry["game"] == game)
                  and (team is None or entry["team"] == team))


def entry(name: str) -> dict:
    """What the index records of one policy."""
    index = _index()
    if name not in index:
        raise ValueError(f"no zoo policy {name!r}; the zoo has {sorted(index)}")
    return dict(index[name])


def met(name: str) -> tuple[str, ...]:
    """The population labels the policy met in training, so that no score of it against them
    passes for a held-out one: the members its sweep left out as seen (imitated or played), and
    the zoo's policies of the same run on the other side, the learner it trained against."""
    name = name[len(PREFIX):] if is_zoo(name) else name
    record = entry(name)
    same_run = [PREFIX + other for other, e in _index().items()
                if other != name and e["game"] == record["game"] and e["team"] != record["team"]
                and (e["recipe"], e["seed"]) == (record["recipe"], record["seed"])]
    return tuple(sorted(set(record.get("score", {}).get("seen_in_training", [])) | set(same_run)))


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return "sha256:" + h.hexdigest()


def path(source: str) -> Path:
    """The checkpoint file ``zoo:NAME`` names, checked against the index's digest."""
    name = source[len(PREFIX):] if is_zoo(source) else source
    record = entry(name)
    file = HERE / record["file"]
    if not file.resolve().is_relative_to(HERE.resolve()):  # the index names zoo files only
        raise ValueError(f"zoo:{name}: its file {record['file']!r} lies outside {HERE}; "
                         f"reinstall hiddendeck")
    if not file.is_file():
        raise ValueError(f"zoo:{name}: its file {record['file']} is missing from {HERE}")
    found = digest(file)
    if found != record["sha256"]:
        raise ValueError(f"zoo:{name}: {file} does not match the zoo's index ({found} != "
                         f"{record['sha256']}); reinstall hiddendeck or restore the file")
    return file


def add(checkpoint: str | Path, name: str, score: str | Path | None = None,
        trained_against: str = "") -> dict:
    """Copy ``checkpoint``'s weights and metadata (not its optimiser state) into the zoo as
    ``NAME.pt`` and record it in the index, with the scores of its team from the sweep's
    ``score.json`` when given. The file and the index are written whole or not at all."""
    from agents.checkpoint import atomic_save, load_checkpoint, new_file_mode

    if not name or not all(ch.isalnum() or ch in "-_." for ch in name):
        raise ValueError(f"zoo name {name!r}: letters, digits, '-', '_' and '.' only")
    checkpoint = load_checkpoint(checkpoint)
    metadata = checkpoint["metadata"]
    args = dict(metadata.get("args") or {})
    if isinstance(args.get("out"), str) and Path(args["out"]).is_absolute():
        try:  # the run directory as the project names it, not this machine's path to it
            args["out"] = str(Path(args["out"]).relative_to(Path.cwd()))
        except ValueError:
            args["out"] = Path(args["out"]).name
        metadata = {**metadata, "args": args}
    record = {
        "file": f"{name}.pt",
        "game": metadata["game"],
        "version": metadata["version"],
        "players": metadata["params"]["num_players"],
        "team": metadata["team"],
        "recipe": metadata.get("args", {}).get("recipe") or "",
        "seed": metadata["seed"],
        "steps": metadata["steps"],
        "table_sizes": list(metadata.get("table_sizes") or [metadata["params"]["num_players"]]),
        "trained_against": trained_against,
    }
    if score is not None:
        scored = json.loads(Path(score).read_text())
        teams = scored.get("teams") or {}
        # a shared policy (free-for-all) is scored as "player"
        side = "player" if metadata["team"] == "shared" else metadata["team"]
        # scored at several table sizes (``TEAM@Np`` rows): its score at each
        rows = {row["players"]: row for key, row in teams.items()
                if key == side or row.get("team") == side}
        if not rows:
            raise ValueError(f"{score}: no scores for team {metadata['team']!r} (it has "
                             f"{sorted(teams)}); is it this run's score.json?")
        keep = ("mean", "worst", "reference_mean", "gain", "gain_interval", "excluded",
                "lower_is_better")
        if len(rows) > 1:
            record["score_by_size"] = {str(n): {key: row[key] for key in keep}
                                       for n, row in sorted(rows.items())}
        team = rows.get(record["players"]) or next(iter(rows.values()))
        record["score"] = {key: team[key] for key in keep}
        record["score"]["population"] = team["benchmarks"][0]["population"]
        record["score"]["seen_in_training"] = scored["seen_in_training"]
    target = HERE / record["file"]
    atomic_save({"format": checkpoint["format"], "metadata": metadata,
                 "model": checkpoint["model"]}, target)
    record["sha256"] = digest(target)
    index = dict(_index())
    index[name] = record
    fd, tmp = tempfile.mkstemp(prefix=".index.", suffix=".tmp", dir=HERE)
    os.fchmod(fd, new_file_mode())
    with os.fdopen(fd, "w") as f:
        json.dump(index, f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(tmp, INDEX)
    return record


def against_heuristic(score: dict) -> str:
    """The held-out mean against the heuristic's on the same deals, said in the game's own
    direction: MANIACAL scores a mean place, where a positive difference is a *worse* place,
    so the sign of ``gain`` alone misleads. The paired 95% interval goes with it."""
    places = score["lower_is_better"]
    what = "mean place" if places else "win rate"
    sign = -1 if places else 1  # better by sign * gain
    better = sign * score["gain"]
    low, high = sorted(sign * end for end in score["gain_interval"])
    unit = " places" if places else ""
    if low > 0:
        verdict = f"{better:.3f}{unit} better than the heuristic [{low:.3f}, {high:.3f}]"
    elif high < 0:
        verdict = f"{-better:.3f}{unit} worse than the heuristic [{-high:.3f}, {-low:.3f}]"
    else:
        verdict = (f"no clear difference from the heuristic ({better:+.3f}{unit} better "
                   f"[{low:+.3f}, {high:+.3f}])")
    return (f"held-out {what} {score['mean']:.3f} against the heuristic's "
            f"{score['reference_mean']:.3f}{' (lower is better)' if places else ''}: "
            f"{verdict}, paired 95%")


def plays(game: str, players: int, metadata: dict) -> str:
    """The table sizes a checkpoint plays, and those it met in training (a mixed-size run's
    several, ``metadata["table_sizes"]``; checkpoints from before it: its own table)."""
    trained_at = metadata.get("table_sizes") or [players]
    if metadata.get("model", {}).get("kind") != "seats":
        return f"{players} players only (other table sizes are refused)"
    from envs import registry

    spec = registry[game]
    return (f"every table size, {spec.min_players} to {spec.max_players} players (trained at "
            f"{', '.join(map(str, trained_at))})")


def trained_at(players: int, metadata: dict) -> str:
    """The table sizes a checkpoint trained at and those it plays, in words, for the line of
    its card that says what it trained against (the same opponents at every size it met)."""
    sizes = metadata.get("table_sizes") or [players]
    said = f"at {', '.join(map(str, sizes))} players"
    if metadata.get("model", {}).get("kind") != "seats":
        return f"{said}; plays {players} players only"
    from envs import registry

    spec = registry[metadata["game"]]
    return f"{said}; plays {spec.min_players} to {spec.max_players} players"


def card(name: str) -> str:
    """The model card of ``zoo:NAME``: what the index and the checkpoint record (recipe,
    seed, training, what it met, held-out scores, the size it plays), then ``NAME.md``."""
    from agents.checkpoint import load_checkpoint

    record = entry(name)
    file = path(name)
    written = HERE / f"{name}.md"
    if not written.is_file():
        raise ValueError(f"zoo:{name}: no model card {written.name} in {HERE}; "
                         f"reinstall hiddendeck")
    metadata = load_checkpoint(file)["metadata"]
    args = metadata.get("args") or {}
    imitated = [args["imitate"]] if args.get("imitate") else []
    imitated += list(args.get("imitate_also") or [])
    score = record.get("score")
    model = metadata.get("model", {})
    lines = [
        f"zoo:{name}: {record['game']} version {record['version']}, {record['team']} "
        f"(one policy for every seat)" if record["team"] == "shared" else
        f"zoo:{name}: {record['game']} version {record['version']}, team {record['team']}",
        f"  plays: {plays(record['game'], record['players'], metadata)}",
        f"  recipe: {record['recipe'] or '-'}",
        f"  seed: {record['seed']}; {record['steps']:,} agent decisions of training",
        f"  network: {model.get('kind', '?')} {model.get('hidden', '')}",
        f"  trained against: {record['trained_against']} "
        f"({trained_at(record['players'], metadata)})",
        f"  imitated: {', '.join(imitated) or 'nothing'}"
        + (f" ({args['imitation_steps']:,} decisions)" if imitated else ""),
        f"  scripted opponents in training: "
        f"{', '.join(args.get('scripted_opponents') or []) or 'none'}",
        f"  met in training (left out of its held-out scores): {', '.join(met(name)) or 'nothing'}",
        f"  file: {record['file']} {record['sha256']}",
    ]
    if score:
        lines.append(f"  population {score['population']}, {against_heuristic(score)}; "
                     f"worst member {score['worst']:.3f}"
                     + (f" (at {record['players']} players)" if "score_by_size" in record
                        else ""))
    for n, by_size in record.get("score_by_size", {}).items():
        lines.append(f"    at {n} players: {against_heuristic(by_size)}")
    return "\n".join(lines) + "\n\n" + written.read_text()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m agents.zoo",
                                     description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    put = sub.add_parser("add", help="put a trained checkpoint into the zoo")
    put.add_argument("checkpoint")
    put.add_argument("--name", required=True)
    put.add_argument("--score", help="the sweep's seed-K/score.json")
    put.add_argument("--trained-against", default="", help="what it trained against, in words")
    show = sub.add_parser("show", help="print a zoo policy's model card")
    show.add_argument("name", help="a zoo policy, NAME or zoo:NAME")
    args = parser.parse_args(argv)
    if args.command == "add":
        try:
            record = add(args.checkpoint, args.name, args.score, args.trained_against)
        except (OSError, ValueError) as e:  # CheckpointError is a ValueError
            raise SystemExit(f"python -m agents.zoo: {e}") from None
        print(f"zoo:{args.name}: {record['file']} {record['sha256']}")
        return
    if args.command == "show":
        name = args.name[len(PREFIX):] if is_zoo(args.name) else args.name
        try:
            print(card(name), end="")
        except (OSError, ValueError) as e:
            raise SystemExit(f"python -m agents.zoo: {e}") from None
        return
    for name in names():
        record = entry(name)
        score = record.get("score")
        print(f"zoo:{name}: {record['game']} {record['players']}p {record['team']}, "
              f"recipe {(record['recipe'] or '-').split('@')[0]} seed {record['seed']}, "
              f"{record['steps']:,} steps")
        if score:
            print(f"  {against_heuristic(score)}")
    print("python -m agents.zoo show NAME: a policy's model card")
