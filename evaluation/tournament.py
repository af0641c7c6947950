"""Tournaments: every policy in every role it can play, rated by a batch fit, stored in SQLite.

Results live in one SQLite file (default ``runs/results.sqlite``) under a *context*: the game,
its version and its resolved parameters (plus the observation fingerprint, so a game changed
without a version bump is refused rather than mixed). A context's games are never mixed with
another's: a new version starts a new table.

A pairing is one policy per side (a team, or a seat in a free-for-all game); each pairing plays
games ``0 .. N-1`` of the tournament seed, the same deals for every pairing. Games are stored a
whole batch per transaction, so a tournament stopped at any moment resumes with the batches it
lacks, and a run with a new entrant plays only the new pairings. Ratings are recomputed from
every stored game of the context in a fixed order (game number, then pairing), so the table
depends on the games stored, not on the runs that stored them.

Ratings (``evaluation.ratings``): one batch maximum-likelihood fit over every stored game of the
context, so the table does not depend on the order games were stored in: Bradley-Terry per role
(a role's rating is earned against the other role's ratings) and overall, where each role
carries an advantage term that soaks up the game's side bias (crew and menace do not win
equally often); a policy's games against itself move only that term. Intervals are a bootstrap
over deals. A scripted bot written for one side (``teams``) is entered on that side only.
Free-for-all games are fitted by Plackett-Luce over each game's finishing order by final reward.
"""

from __future__ import annotations

import csv
import fcntl
import importlib.metadata
import itertools
import json
import math
import os
import sqlite3
import subprocess
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

import envs

from .crossplay import BATCH_GAMES, SLOTS
from .entrants import GREEDY, Entrant, free_for_all, resolve_all, roles, shown, split_list
from .harness import Batch, GameLog
from .match import wilson_interval
from .ratings import free_for_all_ratings, team_ratings
from .stats import DRAWS_HALF
from .runner import run_batches

SCHEMA = """
CREATE TABLE IF NOT EXISTS contexts (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, version INTEGER NOT NULL,
    params TEXT NOT NULL, observation_fingerprint TEXT NOT NULL,
    batch_games INTEGER NOT NULL, slots INTEGER NOT NULL,
    UNIQUE (game, version, params));
CREATE TABLE IF NOT EXISTS entrants (
    context INTEGER NOT NULL REFERENCES contexts(id), label TEXT NOT NULL,
    source TEXT NOT NULL, identity TEXT NOT NULL, roles TEXT NOT NULL,
    PRIMARY KEY (context, label));
CREATE TABLE IF NOT EXISTS pairings (
    id INTEGER PRIMARY KEY, context INTEGER NOT NULL REFERENCES contexts(id),
    sides TEXT NOT NULL, seed INTEGER NOT NULL, UNIQUE (context, sides, seed));
CREATE TABLE IF NOT EXISTS games (
    pairing INTEGER NOT NULL REFERENCES pairings(id), idx INTEGER NOT NULL,
    winner INTEGER NOT NULL, truncated INTEGER NOT NULL, length INTEGER NOT NULL,
    rewards TEXT NOT NULL, deal TEXT NOT NULL, actions BLOB,
    PRIMARY KEY (pairing, idx));
CREATE TABLE IF NOT EXISTS seatings (
    pairing INTEGER NOT NULL, idx INTEGER NOT NULL, seats TEXT NOT NULL,
    PRIMARY KEY (pairing, idx), FOREIGN KEY (pairing, idx) REFERENCES games(pairing, idx));
CREATE TABLE IF NOT EXISTS context_teams (
    context INTEGER PRIMARY KEY REFERENCES contexts(id), teams TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, context INTEGER NOT NULL REFERENCES contexts(id),
    started_utc TEXT NOT NULL, hiddendeck_version TEXT NOT NULL, git_commit TEXT,
    seed INTEGER NOT NULL, games INTEGER NOT NULL, entrants TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS run_pairings (
    run INTEGER NOT NULL REFERENCES runs(id), pairing INTEGER NOT NULL REFERENCES pairings(id),
    games INTEGER NOT NULL, PRIMARY KEY (run, pairing));
CREATE VIEW IF NOT EXISTS summary AS
    SELECT c.game, c.version, c.params, t.teams, p.sides, p.seed, count(*) AS games,
           sum(g.winner = 0) AS first_side_wins, sum(g.winner < 0) AS draws,
           avg(g.length) AS mean_length,
           (SELECT group_concat(r.started_utc || ' ' || r.hiddendeck_version || ' '
                                || coalesce(r.git_commit, '-'), '; ')
            FROM run_pairings rp JOIN runs r ON rp.run = r.id WHERE rp.pairing = p.id) AS runs
    FROM games g JOIN pairings p ON g.pairing = p.id JOIN contexts c ON p.context = c.id
    LEFT JOIN context_teams t ON t.context = c.id
    GROUP BY p.id ORDER BY c.id, p.id;
"""
SUMMARY_COLUMNS = ("game", "version", "params", "teams", "sides", "seed", "games",
                   "first_side_wins", "draws", "mean_length", "runs")


def schedule(entrants: list[Entrant], spec, num_players: int) -> list[tuple[Entrant, ...]]:
    """Every pairing: each ordered choice of policies, one per team, each able to play its
    team, a policy against itself included: without those games, with two entrants, each
    entrant's crew and the other's menace would form a world of their own, and the two roles'
    ratings could not be compared. Free-for-all: every ordered pair (a, b) of different
    policies, a on the even seats, b on the odd."""
    if free_for_all(spec):
        return [tuple(a if s % 2 == 0 else b for s in range(num_players))
                for a, b in itertools.permutations(entrants, 2)]
    return [
        sides for sides in itertools.product(entrants, repeat=len(spec.teams))
        if all(team in e.roles for team, e in zip(spec.teams, sides))
    ]


class Results:
    """The results database of one context."""

    def __init__(self, path: str | Path, spec, params: dict, create: bool = True,
                 batch_games: int = BATCH_GAMES, slots: int = SLOTS):
        """``batch_games`` and ``slots`` apply to a new context; an existing one keeps its own,
        since they are part of what fixes its games."""
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise ValueError(f"{self.path}: no results database")
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.db = sqlite3.connect(self.path)
                self.db.executescript(SCHEMA)
            else:  # reading only (``report``): the file is never written
                self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
                self.db.execute("SELECT count(*) FROM contexts").fetchone()
        except sqlite3.DatabaseError as e:
            raise ValueError(f"{self.path}: not a hiddendeck results database ({e})") from None
        self.spec = spec
        self.params = params
        key = (spec.name, spec.version, json.dumps(params, sort_keys=True))
        fingerprint = spec.observation_layout(params).fingerprint()
        row = self.db.execute(
            "SELECT id, observation_fingerprint, batch_games, slots FROM contexts "
            "WHERE game=? AND version=? AND params=?", key).fetchone()
        if row is None and not create:
            raise ValueError(f"{self.path}: no {spec.name} v{spec.version} results with "
                             f"{dict(params)}")
        if row is None:
            with self.db:
                cur = self.db.execute(
                    "INSERT INTO contexts (game, version, params, observation_fingerprint, "
                    "batch_games, slots) VALUES (?, ?, ?, ?, ?, ?)",
                    (*key, fingerprint, batch_games, slots))
            row = (cur.lastrowid, fingerprint, batch_games, slots)
        if row[1] != fingerprint:
            raise ValueError(
                f"{self.path}: {spec.name} v{spec.version} results were stored with observation "
                f"fingerprint {row[1]}, the game now has {fingerprint}: the game changed "
                f"without a version bump; use another --db"
            )
        self.context, _, self.batch_games, self.slots = row
        if create:
            with self.db:
                self.db.execute("INSERT OR IGNORE INTO context_teams VALUES (?, ?)",
                                (self.context, json.dumps(side_names(spec, params))))

    def close(self) -> None:
        self.db.close()

    def register(self, entrants: list[Entrant]) -> None:
        """Add new entrants; refuse a label that already means another policy here."""
        for e in entrants:
            row = self.db.execute("SELECT source, identity FROM entrants WHERE context=? AND "
                                  "label=?", (self.context, e.label)).fetchone()
            # a scripted identity is name:SOURCE@DIGEST, and SOURCE may hold '@' itself
            # (llm:MODEL@URL), so the digest is what follows the last '@'
            if row is not None and row[1] != e.identity and e.identity.startswith("name:") \
                    and row[1].rpartition("@")[0] == e.identity.rpartition("@")[0]:
                raise ValueError(
                    f"{e.label}: the scripted bot's code changed since its games were stored in "
                    f"{self.path} ({row[1].rpartition('@')[2][:20]}... now "
                    f"{e.identity.rpartition('@')[2][:20]}...); its old games cannot be rated "
                    f"with the new bot: use another --db"
                )
            if row is not None and row[1] != e.identity and \
                    row[1].removesuffix(GREEDY) == e.identity.removesuffix(GREEDY):
                stored, now = (("greedy", "sampled") if row[1].endswith(GREEDY)
                               else ("sampled", "greedy"))
                raise ValueError(
                    f"label {e.label!r} holds {stored} games of {e.source} in {self.path}; "
                    f"its {now} play is another policy: give it another label "
                    f"(LABEL@SOURCE) or another --db"
                )
            if row is not None and row[1] != e.identity:
                raise ValueError(
                    f"label {e.label!r} already names {row[0]} ({row[1][:20]}...) in "
                    f"{self.path}; give {e.source} another label (LABEL@SOURCE)"
                )
        with self.db:
            self.db.executemany(
                "INSERT OR IGNORE INTO entrants VALUES (?, ?, ?, ?, ?)",
                [(self.context, e.label, e.source, e.identity, json.dumps(e.roles))
                 for e in entrants])

    def begin_run(self, seed: int, games: int, entrants: list[Entrant]) -> int:
        """Record who stored the games about to be played: when (UTC), which hiddendeck and
        commit, with which seed, games per pairing and entrants (label -> identity)."""
        with self.db:
            cur = self.db.execute(
                "INSERT INTO runs (context, started_utc, hiddendeck_version, git_commit, seed, "
                "games, entrants) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (self.context, datetime.now(timezone.utc).isoformat(timespec="seconds"),
                 hiddendeck_version(), git_commit(), seed, games,
                 json.dumps({e.label: e.identity for e in entrants}, sort_keys=True)))
        return cur.lastrowid

    def pairing_id(self, sides: tuple[str, ...], seed: int) -> int:
        text = json.dumps(list(sides))
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO pairings (context, sides, seed) VALUES "
                            "(?, ?, ?)", (self.context, text, seed))
        return self.db.execute("SELECT id FROM pairings WHERE context=? AND sides=? AND seed=?",
                               (self.context, text, seed)).fetchone()[0]

    def stored(self, pairing: int) -> set[int]:
        return {r[0] for r in self.db.execute("SELECT idx FROM games WHERE pairing=?",
                                              (pairing,))}

    def store_batch(self, pairing: int, log: GameLog, run: int | None = None) -> None:
        """One batch's games in one transaction: all of them or none (with the count of games
        the run stored for the pairing)."""
        rows = [
            (pairing, int(log.index[g]), int(log.winner[g]), int(log.truncated[g]),
             int(log.length[g]), json.dumps(log.rewards[g].tolist()),
             json.dumps(log.deal[g].tolist()),
             log.game_actions(g).astype("<i2").tobytes())
            for g in range(len(log))
        ]
        with self.db:
            # OR IGNORE: a game already stored (by a writer that did not take the lock) is the
            # same game, since a batch's games depend on the batch alone
            added = self.db.executemany("INSERT OR IGNORE INTO games VALUES "
                                        "(?, ?, ?, ?, ?, ?, ?, ?)", rows).rowcount
            if run is not None and added:
                self.db.execute(
                    "INSERT INTO run_pairings VALUES (?, ?, ?) ON CONFLICT (run, pairing) DO "
                    "UPDATE SET games = games + excluded.games", (run, pairing, added))

    def store_seating(self, pairing: int, index: int, seats: list[str]) -> None:
        """Who sat at each seat of one stored game (a served game's people by the host's
        label, beside its policies): a team's side names its players together, and a study of
        people needs each person's seat."""
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO seatings VALUES (?, ?, ?)",
                            (pairing, int(index), json.dumps(list(seats))))

    def games(self):
        """Every stored game of the context: (sides, winner, rewards, deal number)."""
        return self.db.execute(
            "SELECT p.sides, g.winner, g.rewards, g.idx FROM games g JOIN pairings p "
            "ON g.pairing = p.id WHERE p.context = ? ORDER BY g.idx, p.sides, p.seed",
            (self.context,)).fetchall()

    def entrant_labels(self) -> list[str]:
        return [r[0] for r in self.db.execute(
            "SELECT label FROM entrants WHERE context=? ORDER BY label", (self.context,))]


def missing_batches(results: Results, pairing: int, sides, seed: int, games: int) -> list[Batch]:
    """The batches of games ``0 .. games-1`` not stored yet, cut at multiples of the context's
    batch size as in a run straight through."""
    have = results.stored(pairing)
    out = []
    bg = results.batch_games
    for block in range(0, games, bg):
        stop = min(games, block + bg)
        start = block
        while start < stop and start in have:
            start += 1
        if start < stop:
            out.append(Batch(results.spec.name, results.params, tuple(sides), seed, start, stop,
                             results.slots, pairing))
    return out


@dataclass
class Standing:
    label: str
    rating: float  # display scale: 1500 the mean policy, 400 points 10:1 odds
    interval: tuple[float, float]  # bootstrap 95% over deals
    games: int
    wins: int  # games it finished first, alone or tied with some but not all (a draw is not)
    by_role: dict  # role -> (rating, (lo, hi), games)


def _role_rating(rating: float, interval: tuple[float, float]) -> str:
    """``1622 [1604, 1640]``; a role that never won (never lost) has only a bound:
    ``<= 336 (never won)`` (``evaluation.ratings``)."""
    if interval[0] == -math.inf:
        return f"<= {rating:.0f} (never won)"
    if interval[1] == math.inf:
        return f">= {rating:.0f} (never lost)"
    return f"{rating:.0f} [{interval[0]:.0f}, {interval[1]:.0f}]"


@dataclass
class Table:
    game: str
    version: int
    params: dict
    db: str
    standings: list[Standing]
    role_advantage: dict  # role -> rating points its side adds (team games)
    pairings: list[dict]

    def as_dict(self) -> dict:
        return {
            "game": self.game, "version": self.version, "params": self.params, "db": self.db,
            "leaderboard": [
                {"policy": s.label, "rating": s.rating, "interval": list(s.interval),
                 "games": s.games, "wins": s.wins,
                 "roles": {r: {"rating": m, "games": n,
                               "interval": [x if math.isfinite(x) else None for x in i]}
                           for r, (m, i, n) in s.by_role.items()}}
                for s in self.standings
            ],
            "role_advantage": self.role_advantage,
            "pairings": self.pairings,
        }

    def _rows(self):
        role_names = sorted({r for s in self.standings for r in s.by_role})
        for k, s in enumerate(self.standings, 1):
            cells = [f"{_role_rating(*s.by_role[r][:2])} ({s.by_role[r][2]})"
                     if r in s.by_role else "-" for r in role_names]
            yield k, s, f"{s.rating:.0f} [{s.interval[0]:.0f}, {s.interval[1]:.0f}]", cells

    def format(self) -> str:
        role_names = sorted({r for s in self.standings for r in s.by_role})
        head = (f"{'#':>2} {'policy':<16} {'rating [95%]':>18} {'games':>7} {'won':>6}"
                + "".join(f" {r + ' [95%] (games)':>26}" for r in role_names))
        lines = [f"{self.game} v{self.version} "
                 + " ".join(f"{k}={v}" for k, v in self.params.items())
                 + f"  (batch {'Plackett-Luce' if self.role_advantage == {} else 'Bradley-Terry'}"
                 f" fit, bootstrap over deals; {DRAWS_HALF}; {self.db})", head, "-" * len(head)]
        for k, s, rating, cells in self._rows():
            lines.append(f"{k:>2} {s.label:<16} {rating:>18} {s.games:>7} "
                         f"{s.wins / max(1, s.games):>6.1%}" + "".join(f" {c:>26}" for c in cells))
        if self.role_advantage:
            lines.append("role advantage (rating points each side adds): " + ", ".join(
                f"{r} {m:+.0f}" for r, m in self.role_advantage.items()))
        return "\n".join(lines)

    def markdown(self) -> str:
        role_names = sorted({r for s in self.standings for r in s.by_role})
        out = [f"**{self.game}** v{self.version}, "
               + " ".join(f"{k}={v}" for k, v in self.params.items())
               + ". Batch ratings (1500 the mean policy, 400 points 10:1 odds) with bootstrap 95%"
               " intervals over deals.", "",
               "| # | policy | rating [95%] | games | won | "
               + " | ".join(f"{r} rating [95%] (games)" for r in role_names) + " |",
               "|---|---|---|---|---|" + "---|" * len(role_names)]
        for k, s, rating, cells in self._rows():
            out.append(f"| {k} | {s.label} | {rating} | {s.games} | "
                       f"{s.wins / max(1, s.games):.1%} | " + " | ".join(cells) + " |")
        out += ["", "| pairing | games | side 1 first | 95% interval | draws |",
                "|---|---|---|---|---|"]
        for p in self.pairings:
            lo, hi = p["interval95"]
            out.append(f"| {' vs '.join(f'{r}={s}' for r, s in p['sides'])} | {p['games']} | "
                       f"{p['first_rate']:.3f} | [{lo:.3f}, {hi:.3f}] | {p['draws']} |")
        return "\n".join(out) + "\n"


def rate(results: Results) -> Table:
    """The leaderboard from every game stored in the context (order-free batch fits)."""
    spec, params = results.spec, results.params
    ffa = free_for_all(spec)
    side_roles = (["player"] * params["num_players"]) if ffa else list(spec.teams)
    games: dict[str, int] = {}
    role_games: dict[tuple[str, str], int] = {}
    wins: dict[str, int] = {}
    pairs: dict[tuple, list[int]] = {}  # sides -> [games, side-0 first, draws]
    fitted = []
    for sides_text, winner, rewards_text, deal in results.games():
        sides = tuple(shown(label) for label in json.loads(sides_text))
        if ffa:
            rewards = json.loads(rewards_text)
            labels = sorted(set(sides))
            score = [float(np.mean([rewards[s] for s in range(len(sides)) if sides[s] == lab]))
                     for lab in labels]
            ranks = [sum(o > sc for o in score) for sc in score]
            teams_of = [(lab, "player") for lab in labels]
            fitted.append((deal, sides, rewards))
        else:
            ranks = [0 if winner < 0 or k == winner else 1 for k in range(len(sides))]
            teams_of = list(zip(sides, side_roles))
            fitted.append((deal, sides, winner))
        stat = pairs.setdefault(sides, [0, 0, 0])
        stat[0] += 1
        stat[1] += ranks[0] == 0 and sum(r == 0 for r in ranks) == 1
        stat[2] += all(r == 0 for r in ranks)
        for (label, role), rank in zip(teams_of, ranks):
            games[label] = games.get(label, 0) + 1
            role_games[label, role] = role_games.get((label, role), 0) + 1
            wins[label] = wins.get(label, 0) + (rank == 0 and max(ranks) > 0)
    if ffa:
        overall = free_for_all_ratings(fitted)
        per_role = {(label, "player"): r for label, r in overall.items()}
        advantage = {}
    else:
        per_role, overall, advantage = team_ratings(fitted, side_roles)
    standings = [
        Standing(label, float(r.rating), (float(r.lo), float(r.hi)), games[label], wins[label],
                 {role: (float(per_role[label, role].rating),
                         (float(per_role[label, role].lo), float(per_role[label, role].hi)),
                         role_games[label, role])
                  for role in (["player"] if ffa else spec.teams) if (label, role) in per_role})
        for label, r in overall.items()
    ]
    standings.sort(key=lambda s: (-s.rating, s.label))
    pairing_rows = []
    for sides, (n, first, draws) in sorted(pairs.items()):
        named = list(zip(side_roles if not ffa else [f"seat{s}" for s in range(len(sides))],
                         sides))
        pairing_rows.append({"sides": named, "games": n, "first_rate": first / n,
                             "interval95": list(wilson_interval(first, n)), "draws": draws})
    return Table(spec.name, spec.version, params, str(results.path), standings, advantage,
                 pairing_rows)


def run_tournament(
    game: str,
    policies: list[str],
    games: int,
    db: str | Path = "runs/results.sqlite",
    seed: int = 0,
    workers: int | None = None,
    ray_address: str | None = None,
    batch_games: int = BATCH_GAMES,
    slots: int = SLOTS,
    wait: bool = False,
    **params,
) -> Table:
    """Play the pairings' missing games, store them, and rate everything stored. One
    tournament writes a database at a time: another one running on it is refused before any
    game (``wait``: wait for it, then play only what it left missing)."""
    spec = envs.registry[game]
    params = spec.resolve(**params)
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    texts = [x for item in ([policies] if isinstance(policies, str) else policies)
             for x in split_list(item)]
    entrants = resolve_all(texts, spec, params)
    if len(entrants) < 2:
        raise ValueError(f"a tournament needs at least two policies, got {texts}")
    for e in entrants:
        if not set(e.roles) & set(roles(spec)):
            raise ValueError(f"{e.label} plays no role of {game}")
    pairings = schedule(entrants, spec, params["num_players"])
    if not pairings:
        raise ValueError(f"no pairing possible: no two of {[e.label for e in entrants]} can "
                         f"play {game}'s teams {list(spec.teams)} against each other")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"seed must be an integer in [0, 2**63), got {seed!r}")
    check_database_file(db)
    with writer_lock(db, wait):
        try:
            return _play_and_rate(db, spec, params, entrants, pairings, games, seed, workers,
                                  ray_address, batch_games, slots)
        except sqlite3.DatabaseError as e:  # corrupt, foreign, read-only, full disk
            raise ValueError(f"{db}: {e}") from None


def check_database_file(db: str | Path) -> None:
    """Refuse, before anything is played or written, a path that is not a SQLite database (an
    empty or missing file becomes one)."""
    path = Path(db)
    if path.exists() and not path.is_file():
        raise ValueError(f"{path}: not a file")
    if path.is_file() and path.stat().st_size:
        with open(path, "rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                raise ValueError(f"{path}: not a SQLite database; give another --db")


@contextmanager
def writer_lock(db: str | Path, wait: bool):
    """An advisory lock on ``DB.lock`` for the whole tournament: two writers would each play
    the same missing batches, and the later one would find them stored."""
    path = Path(f"{db}.lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            f.seek(0)
            holder = f.read().strip() or "another process"
            raise ValueError(f"{db}: another tournament is writing it ({holder}); wait for it "
                             f"(--wait) or use another --db") from None
        f.seek(0)
        f.truncate()
        f.write(f"pid {os.getpid()}")
        f.flush()
        try:
            yield
        finally:
            f.seek(0)
            f.truncate()
            fcntl.flock(f, fcntl.LOCK_UN)


def _play_and_rate(db, spec, params, entrants, pairings, games, seed, workers, ray_address,
                   batch_games, slots) -> Table:
    game = spec.name
    results = Results(db, spec, params, batch_games=batch_games, slots=slots)
    try:
        results.register(entrants)
        run = results.begin_run(seed, games, entrants)
        batches = []
        for sides in pairings:
            pid = results.pairing_id(tuple(e.label for e in sides), seed)
            batches += missing_batches(results, pid, sides, seed, games)

        def store(batch: Batch, log: GameLog) -> None:
            results.store_batch(batch.tag, log, run)

        run_batches(batches, workers=workers, ray_address=ray_address, on_done=store,
                    desc=f"tournament {game}", keep=None)  # stored: nothing kept here
        return rate(results)
    finally:
        results.close()


def side_names(spec, params: dict) -> list[str]:
    """What the stored ``sides`` of a pairing name, in order: the teams, or the seats of a
    free-for-all game."""
    if free_for_all(spec):
        return [f"seat{s}" for s in range(params["num_players"])]
    return list(spec.teams)


def hiddendeck_version() -> str:
    try:
        return importlib.metadata.version("hiddendeck")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def git_commit() -> str | None:
    """The checkout's commit (``+dirty`` with uncommitted changes), when this code runs from a
    git checkout; ``None`` from an installed copy."""
    root = Path(__file__).resolve().parents[1]
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode != 0:
        return None
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


@contextmanager
def read_only(db: str | Path):
    """A results database opened read-only (``report``, ``results``: never a write to what is
    read); anything that is not one is a ``ValueError`` naming the file."""
    path = Path(db)
    if not path.is_file():
        raise ValueError(f"{path}: no results database")
    con = None
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        yield con
    except sqlite3.DatabaseError as e:
        raise ValueError(f"{path}: not a hiddendeck results database ({e})") from None
    finally:
        if con is not None:
            con.close()


def summary_rows(db: str | Path) -> list[tuple]:
    """The database's ``summary`` view (one row per pairing: context, teams, sides, games, side
    1's wins, draws, mean length, the runs that stored it), read-only."""
    with read_only(db) as con:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
        if "contexts" not in names:  # an empty file, or another application's database
            raise ValueError(f"{db}: not a hiddendeck results database (no tournament tables)")
        if "summary" not in names:
            raise ValueError(f"{db}: written by an older hiddendeck (no summary view); run a "
                             f"tournament on it once to add it")
        return con.execute(f"SELECT {', '.join(SUMMARY_COLUMNS)} FROM summary").fetchall()


def export_csv(db: str | Path, out: str | Path) -> int:
    """The summary view as CSV, written to a temporary file and renamed (nothing half-written);
    returns the number of rows."""
    rows = summary_rows(db)
    out = Path(out)
    if out.is_dir():
        raise ValueError(f"{out}: is a directory; give a .csv file name")
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(SUMMARY_COLUMNS)
            w.writerows(rows)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return len(rows)


def open_table(db: str | Path) -> list[Table]:
    """Every context's leaderboard in a results database (for ``hiddendeck report``)."""
    path = Path(db)
    with read_only(path) as con:
        contexts = con.execute("SELECT game, version, params FROM contexts ORDER BY id").fetchall()
    tables = []
    for game, version, params_text in contexts:
        # results of a game no longer registered, or of an older version, stay in the file
        # but cannot be rated against today's game
        if game not in envs.registry or envs.registry[game].version != version:
            continue
        spec = envs.registry[game]
        try:
            results = Results(path, spec, spec.resolve(**json.loads(params_text)), create=False)
            try:
                if results.games():
                    tables.append(rate(results))
            finally:
                results.close()
        except (sqlite3.DatabaseError, json.JSONDecodeError, TypeError, KeyError,
                IndexError, AttributeError) as e:
            raise ValueError(f"{path}: a damaged results database ({type(e).__name__}: "
                             f"{e})") from None
    return tables
