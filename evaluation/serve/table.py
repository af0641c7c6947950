"""One served table: a game over the batched engine with a batch of one, people at some seats
and policies at the rest, each seat shown only what it may know.

Every view is computed here, on the server, from the same pieces the terminal player uses
(``render(seat)`` and ``render.public_action``), so a page never holds more than its seat's
text: there is nothing in the browser to leak. A person's move comes in as an action number
and is checked against the seat, the turn and the mask before the engine sees it; a bad one is
answered with one error and the game waits for a good one.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field

import numpy as np

import envs
from agents.policy import Policy, choose
from envs.core.aec import game_hook

from ..entrants import Entrant, free_for_all, resolve, resolve_all, roles
from ..harness import GameLog
from ..play import _who_acted
from ..replay import Record

HUMAN = "human"  # a --seats item: a person takes this seat
MAX_CARD_NAME = 100  # a card name a page asks for, at most (the longest printed is under 60)


def action_words(game: str, record: np.void, seat: int, action: int) -> str:
    """The words a page shows for one action, on its button and in its own seat's log: the
    game's ``render.action_words`` (absolute seats, cards and abilities by name), as the
    terminal player's menu, else the action's name."""
    words = game_hook(game, "render", "action_words")
    return words(record, seat, action) if words else envs.registry[game].action_names[action]


def log_lines(game: str, before: np.void, after: np.void, seat: int, action: int,
              viewer: int) -> list[str]:
    """What ``viewer`` sees of ``seat`` taking ``action`` at table ``before``: its own action in
    full, another seat's as the terminal player sees it across the table; then what the whole
    table saw happen up to ``after`` (``render.public_events``: a vote's count, an exile)."""
    if seat == viewer:
        lines = [f"you: {action_words(game, before, seat, action)}"]
    else:
        public_action = game_hook(game, "render", "public_action") or _who_acted
        lines = [f"player_{seat}: {public_action(before, seat, action, viewer)}"]
    public_events = game_hook(game, "render", "public_events")
    if public_events is not None:
        lines += [f"* {event}" for event in public_events(before, after, viewer)]
    return lines


@dataclass
class Seat:
    """Who plays a seat: a person (by the host's label) or policies, one for each role the
    seat may be dealt (a checkpoint trained for one team plays only that team)."""

    text: str  # as the host wrote it: public, it names no team
    token: str  # the seat's room key; its page and websocket must show it
    person: str | None = None
    policies: dict[str, Entrant] = field(default_factory=dict)  # role -> entrant


def plan_seats(items: list[str], spec, params: dict, labels: dict[int, str]) -> list[Seat]:
    """The seats from ``--seats`` items: ``human`` or ``NAME[+NAME...]``, where each later NAME
    plays the roles the earlier ones cannot (``zoo:amongus6-crew-s1+heuristic``): a seat's team
    is dealt, so every seat needs a player for every role."""
    n = params["num_players"]
    if len(items) != n:
        raise ValueError(f"--seats names {len(items)} seats; the table has {n}")
    for seat, label in labels.items():
        if not 0 <= seat < n or items[seat] != HUMAN:
            raise ValueError(f"--label {seat}={label}: seat {seat} is not a human seat")
    game_roles = roles(spec)
    resolve_all([name for item in items if item != HUMAN for name in item.split("+")],
                spec, params)  # one label may not name two policies
    seats = []
    for k, item in enumerate(items):
        seat = Seat(item, secrets.token_urlsafe(16))
        if item == HUMAN:
            seat.person = labels.get(k, HUMAN)
            if not seat.person or "," in seat.person or not seat.person.isprintable():
                raise ValueError(f"--label {k}={seat.person!r}: a label is printable text "
                                 f"without ','")
        else:
            for name in item.split("+"):
                entrant = resolve(name, spec, params)
                new = [r for r in entrant.roles if r not in seat.policies]
                if not new:
                    raise ValueError(f"seat {k}: {name} plays no role the names before it "
                                     f"leave open in {item!r}")
                seat.policies.update({r: entrant for r in new})
            missing = [r for r in game_roles if r not in seat.policies]
            if missing:
                raise ValueError(f"seat {k}: {item} cannot play {missing}, and the seat may be "
                                 f"dealt it; add a policy for it ({item}+heuristic)")
        seats.append(seat)
    return seats


class Table:
    """The game a server runs, one deal after another (game numbers ``first_index`` on)."""

    def __init__(self, game: str, seats: list[str], labels: dict[int, str] | None = None,
                 seed: int = 0, first_index: int = 0, pace: float = 1.0, db: str | None = None,
                 **params):
        if pace < 0:
            raise ValueError(f"--pace must be at least 0 seconds, got {pace}")
        self.game = game
        self.vec = envs.make_vec(game, 1, seed=seed, first_index=first_index, **params)
        self.spec, self.params = self.vec.spec, self.vec.params
        self.seats = plan_seats(seats, self.spec, self.params, labels or {})
        self.seed, self.index, self.pace, self.db = seed, first_index, pace, db
        self.ffa = free_for_all(self.spec)
        if db:  # a database that cannot take this game is refused now, not after a game
            from ..benchmark import check_results_file
            from ..tournament import Results

            check_results_file(db)
            Results(db, self.spec, self.params).close()
        built: dict[str, Policy] = {}
        for s in self.seats:
            for e in s.policies.values():
                if e.label not in built:
                    built[e.label] = e.build(self.spec, self.params, seed)
        self.policies = built
        self.finished: list[Record] = []  # this server's games, for the replay viewer
        self.listeners: dict[int, set[asyncio.Queue]] = {k: set() for k in range(len(seats))}
        self.again = asyncio.Event()
        self._move: asyncio.Future | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # the server's, once it runs
        self._deal()

    # -- the game ---------------------------------------------------------------------------
    def _deal(self) -> None:
        self.vec.deal([0], [self.index])
        self.deal = self.vec.teams()[0].copy()
        self.actions: list[int] = []
        self.lines: list[list[str]] = [[] for _ in self.seats]  # each viewer's public log
        self.over = False

    def role(self, seat: int) -> str:
        """The role a policy plays at ``seat`` as the game stands (a Coward may change sides)."""
        return "player" if self.ffa else self.spec.teams[self.vec.teams()[0, seat]]

    async def run(self) -> None:
        """Deal after deal: each played to its end, stored, then the next once a person asks."""
        while True:
            await self.play_one()
            self.again.clear()
            await self.again.wait()
            self.index += 1
            self._deal()
            await self.broadcast()

    async def play_one(self) -> None:
        await self.broadcast()
        while not self.over:
            seat = int(self.vec.current_seat[0])
            if self.seats[seat].person is not None:
                self._move = asyncio.get_running_loop().create_future()
                action = await self._move
                self._move = None
            else:
                await asyncio.sleep(self.pace)
                policy = self.policies[self.seats[seat].policies[self.role(seat)].label]
                action = int(choose(policy, self.vec.observation, self.vec.action_mask,
                                    np.array([[0, seat]]))[0])
            self._step(seat, action)
            if self.over:
                self._finish()  # before the last views, which link to its replay
            await self.broadcast()

    def _step(self, seat: int, action: int) -> None:
        before = self.vec.records[0].copy()  # the table the action was taken at
        # a finished game stays on the table as it ended, to be seen (the next is dealt anew)
        _, terminated, truncated = self.vec.step(np.array([action], np.int64), autoreset=False)
        self.actions.append(action)
        for viewer, lines in enumerate(self.lines):
            lines += log_lines(self.game, before, self.vec.records[0], seat, action, viewer)
        self.over = bool(terminated[0] or truncated[0])

    def card(self, message: dict) -> dict:
        """A page's ``{"type": "card", "name": ...}``: that card's printed text, which every
        player may read (the game's ``render.card_text``), or the one error naming the cards."""
        name = message.get("name")
        if not isinstance(name, str) or len(name) > MAX_CARD_NAME:
            return {"type": "error", "message": '"name" must be a card\'s name (a short text)'}
        lookup = game_hook(self.game, "render", "card_text")
        if lookup is None:
            return {"type": "error", "message": f"{self.game} has no card texts to show"}
        try:
            return {"type": "card", "text": lookup(name)}
        except ValueError as e:
            return {"type": "error", "message": str(e)}

    def submit(self, seat: int, message) -> str | None:
        """A page's message, checked; ``None`` when taken, else the one error to show it."""
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            return 'a message is a JSON object with a "type": "act", "again" or "card"'
        if message["type"] == "again":
            if not self.over:
                return "the game is still being played"
            self.again.set()
            return None
        if message["type"] != "act":
            return f'unknown message type {message["type"]!r}: expected "act", "again" or "card"'
        action = message.get("action")
        if isinstance(action, bool) or not isinstance(action, int):
            return f'"action" must be an action number, got {action!r}'
        if self.over:
            return "the game is over"
        if self.seats[seat].person is None:
            return f"a policy plays player_{seat}: this page only watches"
        deciding = int(self.vec.current_seat[0])
        if deciding != seat or self._move is None or self._move.done():
            return f"not your turn: player_{deciding} decides"
        if not 0 <= action < self.spec.num_actions or not self.vec.action_mask[0, action]:
            return f"action {action} is not one of your legal actions now"
        self._move.set_result(action)
        return None

    # -- what each seat sees ----------------------------------------------------------------
    def view(self, seat: int) -> dict:
        """Everything the page of ``seat`` shows, and nothing else."""
        deciding = int(self.vec.current_seat[0])
        mine = not self.over and deciding == seat and self.seats[seat].person is not None
        view = {
            "type": "view", "game": self.game, "number": self.index, "seat": seat,
            "dealt": "player" if self.ffa else self.spec.teams[self.deal[seat]],
            "players": [f"player_{k}: {s.person or s.text}" for k, s in enumerate(self.seats)],
            "table": self.vec.render(0, seat), "deciding": None if self.over else deciding,
            "actions": [{"action": int(a),
                         "words": action_words(self.game, self.vec.records[0], seat, int(a))}
                        for a in np.flatnonzero(self.vec.action_mask[0])] if mine else [],
            "log": self.lines[seat], "end": None,
            "rules": game_hook(self.game, "render", "RULES_REMINDER") or "",
        }
        if self.over:
            view["end"] = {"outcome": self.outcome(),
                           "reward": float(self.vec.rewards[0, seat]),
                           "replay": len(self.finished) - 1}
        return view

    def outcome(self) -> str:
        if self.vec.truncated[0]:
            return "cut short: a draw"
        winner = int(self.vec.winner[0])
        return f"{self.spec.teams[winner]} wins" if winner >= 0 else "over"

    async def broadcast(self) -> None:
        for seat, queues in self.listeners.items():
            if queues:
                view = self.view(seat)
                for q in queues:
                    q.put_nowait(view)

    # -- the record -------------------------------------------------------------------------
    def seat_labels(self) -> list[str]:
        """Who sat where in this deal: a person's label, or the policy that played the seat's
        dealt role."""
        return [s.person if s.person is not None else
                s.policies["player" if self.ffa else self.spec.teams[self.deal[k]]].label
                for k, s in enumerate(self.seats)]

    def _finish(self) -> None:
        vec = self.vec
        winner = int(vec.winner[0]) if vec.terminated[0] else -1
        record = Record(self.game, self.spec.version, dict(self.params), self.seed, self.index,
                        {"seats": self.seat_labels()}, winner, bool(vec.truncated[0]),
                        len(self.actions), vec.rewards[0].tolist(), self.deal.tolist(),
                        list(self.actions))
        self.finished.append(record)
        if self.db:
            store(self.db, record, self.seats, self.spec, self.params)


def sides(seat_labels: list[str], deal: list[int], spec, ffa: bool) -> list[str]:
    """A pairing's sides: each seat's label in a free-for-all game, else each team's players
    joined by ``+`` in seat order (``alice+heuristic``), so people with and without a policy
    partner stand apart in the ratings."""
    if ffa:
        return list(seat_labels)
    out = []
    for t in range(len(spec.teams)):
        names = [lab for lab, team in zip(seat_labels, deal) if team == t]
        out.append("+".join(dict.fromkeys(names)) or "-")
    return out


def store(db: str, record: Record, seats: list[Seat], spec, params: dict) -> None:
    """One finished game into the results database (``evaluation.tournament.Results``), with
    who sat where; people are entered by label, as ``person:LABEL``."""
    from ..tournament import Results

    results = Results(db, spec, params)
    try:
        game_roles = roles(spec)
        entrants = {e.label: e for s in seats for e in s.policies.values()}
        entrants.update({s.person: Entrant(s.person, HUMAN, game_roles, f"person:{s.person}")
                         for s in seats if s.person is not None})
        results.register(list(entrants.values()))
        run = results.begin_run(record.seed, 1, list(entrants.values()))
        pairing = results.pairing_id(tuple(sides(record.policies["seats"], record.deal, spec,
                                                 free_for_all(spec))), record.seed)
        n = len(record.actions)
        log = GameLog(np.array([record.index]), np.array([record.winner]),
                      np.array([record.truncated]), np.array([n]),
                      np.array([record.rewards], np.float32), np.array([record.deal], np.int8),
                      np.array(record.actions, np.int16), np.array([0, n]))
        results.store_batch(pairing, log, run)
        results.store_seating(pairing, record.index, record.policies["seats"])
    finally:
        results.close()


def replay_frames(record: Record, seat: int) -> list[dict]:
    """A finished game step by step as ``seat`` saw it: the table after each decision and the
    lines each added to the log (the same text its page showed)."""
    vec = envs.make_vec(record.game, 1, seed=record.seed, first_index=record.index,
                        **record.params)
    if not 0 <= seat < vec.num_players:
        raise ValueError(f"seat must be in [0, {vec.num_players}), got {seat}")
    frames = [{"table": vec.render(0, seat), "lines": []}]
    for action in record.actions:
        deciding = int(vec.current_seat[0])
        if not vec.action_mask[0, action]:
            raise ValueError(f"game {record.index}: recorded action {action} is illegal")
        before = vec.records[0].copy()
        vec.step(np.array([action], np.int64), autoreset=False)
        frames.append({"table": vec.render(0, seat),
                       "lines": log_lines(record.game, before, vec.records[0], deciding, action,
                                          seat)})
    return frames
