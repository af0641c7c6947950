"""Replays: a recorded game played again from its seed, number and actions.

The engine is deterministic, so ``(seed, game number)`` deals the game again and the recorded
actions take it to the same end; ``replay`` checks the deal and the result against the record
and refuses a record of another game version. Games come from ``eval --out``'s
``games.jsonl.gz`` (game K is the K-th game line) or a tournament's results database (game K is
the K-th stored game, in storage order).

Seen from a seat (``--seat S``), the table is rendered as that seat sees it, and other seats'
decisions are shown as "decides" only: an action's name can be a secret (the card played face
down), and the renderer cannot tell which are.
"""

from __future__ import annotations

import gzip
import json
import sqlite3
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import envs

from .crossplay import GAMES_FORMAT


@dataclass
class Record:
    game: str
    version: int
    params: dict
    seed: int
    index: int
    policies: dict
    winner: int
    truncated: bool
    length: int
    rewards: list
    deal: list
    actions: list


MAX_LINE = 1 << 22  # bytes: a game's line is tens of kB; a longer one is damage, not a game


def _line(f, path: Path) -> str:
    """One line, read no further than ``MAX_LINE`` (a decompression bomb's single huge line
    would otherwise be read whole before it could be refused)."""
    line = f.readline(MAX_LINE)
    if len(line) >= MAX_LINE and not line.endswith("\n"):
        raise ValueError(f"{path}: a line longer than {MAX_LINE:,} characters: not a games file")
    return line


def records(path: str | Path) -> Iterator[Record]:
    """Every recorded game of a games file or a results database, in order; a damaged or
    hostile file is a ``ValueError`` naming it."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    if path.suffix == ".sqlite":
        yield from _from_database(path)
        return
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt") as f:
            header = json.loads(_line(f, path))
            if not isinstance(header, dict) or header.get("format") != GAMES_FORMAT:
                raise ValueError(f"{path}: not a {GAMES_FORMAT} file")
            while line := _line(f, path):
                row = json.loads(line)
                if not isinstance(row, dict) or "actions" not in row:
                    raise ValueError(f"{path}: games recorded without their actions")
                yield checked(Record(
                    header["game"], header["version"], header["params"], header["seed"],
                    row["index"], row["policies"], row["winner"], row["truncated"],
                    row["length"], row["rewards"], row["deal"], row["actions"]), path)
    except (OSError, EOFError, zlib.error, json.JSONDecodeError, UnicodeDecodeError, KeyError,
            TypeError) as e:
        raise ValueError(f"{path}: unreadable games file ({type(e).__name__}: {e})") from None


def _integer(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def checked(record: Record, path: Path) -> Record:
    """The record if every field has the shape a replay needs; else a ``ValueError``."""
    def bad(what: str) -> ValueError:
        return ValueError(f"{path}: game {record.index!r}: {what}")

    if record.game not in envs.registry:
        raise bad(f"game {record.game!r} is not registered here")
    if not isinstance(record.params, dict) or not all(
            isinstance(k, str) and _integer(v) for k, v in record.params.items()):
        raise bad(f"parameters {record.params!r} are not NAME: integer")
    for name in ("version", "seed", "index", "winner", "length"):
        if not _integer(getattr(record, name)):
            raise bad(f"{name} {getattr(record, name)!r} is not an integer")
    if not 0 <= record.seed < 2**63 or record.index < 0:
        raise bad("seed or game number out of range")
    actions = record.actions
    num_actions = envs.registry[record.game].num_actions
    if not isinstance(actions, list) or not all(_integer(a) and 0 <= a < num_actions
                                                for a in actions):
        raise bad(f"actions must be a list of integers in [0, {num_actions})")
    for name in ("rewards", "deal"):
        if not isinstance(getattr(record, name), list):
            raise bad(f"{name} is not a list")
    return record


def _from_database(path: Path) -> Iterator[Record]:
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise ValueError(f"{path}: not a hiddendeck results database ({e})") from None
    try:
        rows = con.execute(
            "SELECT c.game, c.version, c.params, p.seed, g.idx, p.sides, g.winner, g.truncated, "
            "g.length, g.rewards, g.deal, g.actions FROM games g JOIN pairings p ON "
            "g.pairing = p.id JOIN contexts c ON p.context = c.id ORDER BY g.rowid")
        for (game, version, params, seed, idx, sides, winner, trunc, length, rewards, deal,
             actions) in rows:
            if not isinstance(actions, bytes) or len(actions) % 2:
                raise ValueError(f"{path}: game {idx}: its actions are damaged")
            yield checked(Record(game, version, json.loads(params), seed, idx,
                                 {"sides": json.loads(sides)}, winner, bool(trunc), length,
                                 json.loads(rewards), json.loads(deal),
                                 np.frombuffer(actions, "<i2").tolist()), path)
    except sqlite3.DatabaseError as e:
        raise ValueError(f"{path}: not a hiddendeck results database ({e})") from None
    except (TypeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: a damaged game row ({type(e).__name__}: {e})") from None
    finally:
        con.close()


def load(path: str | Path, k: int) -> Record:
    if not isinstance(k, int) or k < 0:
        raise ValueError(f"--game must be a non-negative integer, got {k!r}")
    count = 0
    for record in records(path):
        if count == k:
            return record
        count += 1
    raise ValueError(f"{path}: has no game {k}; it holds {count} (numbered from 0)")


def play_record(record: Record, seat: int | None = None, show: Callable[[str], None] | None = None,
                pause: Callable[[], None] | None = None) -> None:
    """Play the record's actions; raise ``ValueError`` if the game does not go as recorded."""
    if record.game not in envs.registry:
        raise ValueError(f"game {record.game!r} is not registered here")
    spec = envs.registry[record.game]
    if spec.version != record.version:
        raise ValueError(f"recorded on {record.game} version {record.version}, but the game is "
                         f"now version {spec.version}: it cannot be replayed")
    vec = envs.make_vec(record.game, 1, seed=record.seed, first_index=record.index,
                        **record.params)
    if seat is not None and not 0 <= seat < vec.num_players:
        raise ValueError(f"seat must be in [0, {vec.num_players}), got {seat}")
    where = f"game {record.index} of seed {record.seed}"
    if vec.teams()[0].tolist() != list(record.deal):
        raise ValueError(f"{where}: dealt {vec.teams()[0].tolist()}, recorded {record.deal}")
    if show:
        show(f"{record.game} v{record.version} {where}, policies {record.policies}")
        show(vec.render(0, seat))
    terminated = truncated = np.zeros(1, bool)
    for n, action in enumerate(record.actions):
        if terminated[0] or truncated[0]:
            raise ValueError(f"{where}: the game ended after {n} of {len(record.actions)} actions")
        deciding = int(vec.current_seat[0])
        if not vec.action_mask[0, action]:
            raise ValueError(f"{where}: recorded action {action} is illegal at decision {n}")
        if show:
            name = spec.action_names[action] if seat in (None, deciding) else "decides"
            show(f"-- decision {n + 1}: player_{deciding}: {name}")
        _, terminated, truncated = vec.step(np.array([action], np.int64))
        if show:
            show(vec.render(0, seat) if not (terminated[0] or truncated[0]) else "")
            if pause:
                pause()
    if not (terminated[0] or truncated[0]):
        raise ValueError(f"{where}: still running after the {len(record.actions)} recorded actions")
    winner = int(vec.winner[0]) if terminated[0] else -1
    rewards = vec.rewards[0].tolist()
    if (winner, bool(truncated[0]), len(record.actions)) != (
            record.winner, record.truncated, record.length) or rewards != record.rewards:
        raise ValueError(f"{where}: ended with winner {winner}, rewards {rewards}; recorded "
                         f"winner {record.winner}, rewards {record.rewards}")
    if show:
        outcome = "cut short, a draw" if truncated[0] else (
            f"{spec.teams[winner]} wins" if spec.teams and winner >= 0 else "over")
        show(f"game over after {len(record.actions)} decisions: {outcome}; rewards {rewards} "
             f"(as recorded)")


def _wait_for_enter() -> None:
    """Enter steps on; at the end of the input (a closed stdin) the replay runs on."""
    try:
        input()
    except EOFError:
        pass


def replay(path: str | Path, k: int, seat: int | None = None, pause: bool = False,
           out: Callable[[str], None] = print) -> None:
    play_record(load(path, k), seat=seat, show=out, pause=_wait_for_enter if pause else None)
