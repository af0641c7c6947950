"""Where a trained policy disagrees with a scripted teacher, and what each disagreement costs.

    python -m evaluation.agreement runs/amongus6-selfplay3/checkpoints/step_N/impostor.pt \
        --game amongus --players 6 --games 1024 --seed 777
    python -m evaluation.agreement runs/amongus6-selfplay3/checkpoints/step_N/impostor.pt \
        --game amongus --players 6 --games 2000 --seed 777 --teacher-takes guess

A policy warm-started by imitation can stay below its teacher; these two diagnostics say where.

*Agreement.* The teacher (default ``heuristic``) plays every seat: the teacher's own games, game
``i`` the deal ``(seed, i)`` as in the evaluation harness. At each decision of the checkpoint's
team the checkpoint's greedy action is set beside the teacher's (the one played), and the
decisions are tallied by kind: each kind's share of the team's decisions and how often the two
agree, with Wilson 95% intervals.

*Take-over.* The checkpoint plays its team against the teacher on the other side(s), once alone
and once with the teacher deciding the decisions of the kinds listed (``TeacherTakes``, a
``Policy`` that routes each row by its kind); the teacher's own team in the same seats is the
reference. The difference between the first two is what the network's play of those kinds
costs or gains.

A decision's *kind* is the set of leading words of its legal actions' names
(``spec.action_names``), joined by ``+`` in the order the action table first uses them. It needs
nothing of a game but its action names. For the Among Us impostor: ``show+sabotage`` (an
investigation, where a sabotage may also be declared), ``offer+no+sabotage`` (a trade offer),
``give+sabotage`` (the reply to an offer), ``end+sabotage`` (the end of the turn),
``no+sabotage`` (a sabotage window after a card turned face up) and ``guess`` (a sabotage guess).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

import numpy as np

import envs
from agents import make_policy
from agents.checkpoint import load_checkpoint
from agents.neural import load_policy
from agents.policy import Policy, choose
from envs.core.spec import GameSpec

from .commands import game_param
from .entrants import free_for_all
from .ffa import InProcess, Side, play_seatings, score
from .harness import Batch, play_batch
from .match import MatchResult, play_match, wilson_interval

SLOTS = 1024  # games in flight at once
PROBE_GAMES = 256  # the teacher's own games whose kinds a take-over may name


def leading_word(action_name: str) -> str:
    """``clear, look at +1`` -> ``clear``: the verb that names what kind of action it is."""
    return action_name.split()[0].rstrip(",;:")


class DecisionKinds:
    """The kinds of a game's decisions, each a set of leading words held as bits of an int64."""

    def __init__(self, spec: GameSpec):
        words = [leading_word(n) for n in spec.action_names]
        self.game = spec.name
        self.words = tuple(dict.fromkeys(words))  # in the order the action table first uses them
        if len(self.words) > 63:
            raise ValueError(f"{spec.name}: {len(self.words)} leading words of actions; a decision "
                             f"kind holds at most 63")
        self._bits = np.left_shift(1, [self.words.index(w) for w in words]).astype(np.int64)

    def codes(self, action_mask: np.ndarray) -> np.ndarray:  # [N, A] bool -> [N] int64
        return np.bitwise_or.reduce(np.where(action_mask, self._bits, 0), axis=1)

    def label(self, code: int) -> str:
        return "+".join(w for i, w in enumerate(self.words) if code >> i & 1)

    def parse(self, text: str) -> int:
        """``guess`` or ``no+sabotage`` (the words in any order) -> its code."""
        words = [w.strip() for w in text.split("+")]
        unknown = [w for w in words if w not in self.words]
        if not text.strip() or unknown:
            raise ValueError(f"{self.game}: {text!r} is not a decision kind ({unknown or 'empty'}"
                             f" not among the leading words of its actions: "
                             f"{', '.join(self.words)})")
        return int(np.bitwise_or.reduce([1 << self.words.index(w) for w in words]))


@dataclass
class Agreement:
    game: str
    params: dict
    team: str  # the seats whose decisions are compared ("player": every seat, free-for-all)
    policy: str
    teacher: str
    games: int
    seed: int
    kinds: list[tuple[str, int, int]]  # (kind, decisions, agreed), most frequent first

    @property
    def decisions(self) -> int:
        return sum(n for _, n, _ in self.kinds)

    def as_dict(self) -> dict:
        rows = []
        for kind, n, agreed in self.kinds:
            rows.append({"kind": kind, "decisions": n, "share": n / self.decisions,
                         "agreed": agreed, "agreement": agreed / n,
                         "interval95": wilson_interval(agreed, n)})
        agreed = sum(a for _, _, a in self.kinds)
        return {"game": self.game, "params": self.params, "team": self.team,
                "policy": self.policy, "teacher": self.teacher, "games": self.games,
                "seed": self.seed, "decisions": self.decisions,
                "agreement": agreed / self.decisions,
                "interval95": wilson_interval(agreed, self.decisions), "kinds": rows}

    def format_table(self) -> str:
        d = self.as_dict()
        lo, hi = d["interval95"]
        lines = [f"{self.game} {self.params}: {self.policy} (greedy) against {self.teacher}'s "
                 f"choice at the {self.team}'s decisions of {self.teacher}'s own games "
                 f"({self.games} games, seed {self.seed}: {self.decisions:,} decisions)",
                 "| decision kind | share | decisions | agrees (95% CI) |", "|---|---|---|---|"]
        for r in d["kinds"] + [{"kind": "**all**", "share": 1.0, "decisions": self.decisions,
                                "agreement": d["agreement"], "interval95": (lo, hi)}]:
            a, b = r["interval95"]
            lines.append(f"| {r['kind']} | {r['share']:.1%} | {r['decisions']:,} | "
                         f"{r['agreement']:.1%} [{a:.1%}, {b:.1%}] |")
        return "\n".join(lines)


def _team(spec: GameSpec, team: str | None) -> str:
    if free_for_all(spec):
        if team not in (None, "player"):
            raise ValueError(f"{spec.name} is a free-for-all: every seat is compared, not {team!r}")
        return "player"
    if team not in spec.teams:
        raise ValueError(f"{spec.name}: team must be one of {list(spec.teams)}, got {team!r}")
    return team


def _count(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def agreement(game: str, policy: Policy, team: str | None, teacher: str = "heuristic",
              games: int = 1024, seed: int = 0, slots: int = SLOTS, **params) -> Agreement:
    """``policy`` (give a greedy one) against ``teacher`` at ``team``'s decisions of the
    teacher's own games ``0 .. games-1`` of ``seed``, played by the evaluation harness (so they
    are the deals every match plays); a free-for-all compares every seat."""
    games, slots = _count("games", games), _count("slots", slots)
    spec = envs.registry[game]
    team = _team(spec, team)
    resolved = spec.resolve(**params)
    bot = make_policy(teacher, spec, resolved, seed)
    kinds = DecisionKinds(spec)
    every = TeacherTakes(policy, bot, kinds, None)  # plays the teacher, notes the network
    compared, played = InProcess("compared", every), InProcess(teacher, bot)
    if team == "player":
        sides = [compared] * resolved["num_players"]
    else:
        sides = [compared if t == team else played for t in spec.teams]
    play_batch(Batch(game, resolved, tuple(sides), seed, 0, games, slots))
    codes, agreed = np.concatenate(every.codes), np.concatenate(every.agreed)
    found, inverse, counts = np.unique(codes, return_inverse=True, return_counts=True)
    hits = np.bincount(inverse, weights=agreed, minlength=found.size).astype(np.int64)
    order = np.argsort(-counts, kind="stable")
    return Agreement(game, resolved, team, repr(policy), teacher, games, seed,
                     [(kinds.label(int(found[k])), int(counts[k]), int(hits[k])) for k in order])


class TeacherTakes(Policy):
    """The teacher decides the rows of the kinds ``taken`` (codes of ``kinds``; None: every
    row), the network the rest. Both see every row, so a policy that remembers keeps each
    seat's whole game; each row's kind and whether the two chose alike are kept (``codes``,
    ``agreed``), which is what ``agreement`` tallies."""

    def __init__(self, network: Policy, teacher: Policy, kinds: DecisionKinds,
                 taken: list[int] | None):
        self.network, self.teacher, self.kinds = network, teacher, kinds
        self.taken = None if taken is None else np.asarray(taken, np.int64)
        self.remembers = network.remembers or teacher.remembers
        self.name = (teacher.name if taken is None else f"{network.name}, {teacher.name} taking "
                     + ", ".join(kinds.label(int(c)) for c in self.taken))
        self.rows = self.rows_taken = 0  # every row seen, and those the teacher decided
        self.codes: list[np.ndarray] = []
        self.agreed: list[np.ndarray] = []

    def act(self, observation: np.ndarray, action_mask: np.ndarray,
            who: np.ndarray | None = None) -> np.ndarray:
        mine = choose(self.network, observation, action_mask, who)
        theirs = choose(self.teacher, observation, action_mask, who)
        codes = self.kinds.codes(action_mask)
        take = np.ones(codes.size, np.bool_) if self.taken is None else np.isin(codes, self.taken)
        self.codes.append(codes)
        self.agreed.append(mine == theirs)
        self.rows += take.size
        self.rows_taken += int(take.sum())
        return np.where(take, theirs, mine)

    def game_over(self, slots: np.ndarray) -> None:
        self.network.game_over(slots)
        self.teacher.game_over(slots)


@dataclass
class TakeOver:
    team: str
    taken: list[str]  # the kinds the teacher decided
    taken_share: float  # of the team's decisions in every game played (a few past the count)
    seed: int
    rows: list[tuple[str, MatchResult]]  # the network alone, with the teacher, the teacher

    def as_dict(self) -> dict:
        return {"team": self.team, "taken": self.taken, "taken_share": self.taken_share,
                "seed": self.seed,
                "matches": [{"row": label, **r.as_dict()} for label, r in self.rows]}

    def format_table(self) -> str:
        first = self.rows[0][1]
        others = ", ".join(f"{first.policies[t]} {t}" for t in first.wins if t != self.team)
        lines = [f"{first.game} {first.params}: {self.team} against {others}; {first.games} "
                 f"games each, seed {self.seed}; the teacher took {self.taken_share:.1%} of the "
                 f"{self.team}'s decisions",
                 f"| {self.team} | wins (95% CI) | draws |", "|---|---|---|"]
        for label, r in self.rows:
            lo, hi = r.interval(self.team)
            lines.append(f"| {label} | {r.rate(self.team):.3f} [{lo:.3f}, {hi:.3f}] | "
                         f"{r.draws / r.games:.3f} |")
        return "\n".join(lines)


@dataclass
class FreeForAllTakeOver:
    """A free-for-all's take-over: the policy in half the seats against the teacher in the
    rest, every deal in every seating, scored by mean position (1 best)."""

    game: str
    params: dict
    taken: list[str]
    taken_share: float  # of the policy's decisions
    seed: int
    deals: int
    seatings: int
    rows: list[tuple[str, Side, Side]]  # the policy's side and the teacher's, per row

    def as_dict(self) -> dict:
        return {"team": "player", "taken": self.taken, "taken_share": self.taken_share,
                "seed": self.seed, "deals": self.deals, "seatings": self.seatings,
                "matches": [{"row": label, "side": mine.as_dict(), "teacher": theirs.as_dict()}
                            for label, mine, theirs in self.rows]}

    def format_table(self) -> str:
        lines = [f"{self.game} {self.params}: half the seats against the teacher in the rest; "
                 f"{self.deals} deals x {self.seatings} seatings each, seed {self.seed}; the "
                 f"teacher took {self.taken_share:.1%} of the policy's decisions",
                 "| in half the seats | mean position (95% CI) | first places | teacher's mean |",
                 "|---|---|---|---|"]
        for label, mine, theirs in self.rows:
            lo, hi = mine.position_interval
            lines.append(f"| {label} | {mine.mean_position:.3f} [{lo:.3f}, {hi:.3f}] | "
                         f"{mine.first_share:.1%} | {theirs.mean_position:.3f} |")
        return "\n".join(lines)


def take_over(game: str, policy: Policy, team: str, taken: list[str],
              teacher: str = "heuristic", games: int = 2000, seed: int = 0,
              **params) -> TakeOver | FreeForAllTakeOver:
    """``team``'s win rate against ``teacher`` with ``policy`` alone, with ``teacher`` deciding
    the kinds ``taken`` for it, and of ``teacher`` itself in its seats (the reference). In a
    free-for-all, ``policy`` holds half the seats and ``games`` counts deals, each played in
    every seating; the result is its mean position."""
    games = _count("games", games)
    spec = envs.registry[game]
    team = _team(spec, team)
    resolved = spec.resolve(**params)
    if not taken:
        raise ValueError("name at least one decision kind for the teacher to take")
    bot = make_policy(teacher, spec, resolved, seed)
    kinds = DecisionKinds(spec)
    # a kind the team never meets would leave the network alone while the table says otherwise
    met = [kind for kind, _, _ in
           agreement(game, bot, team, teacher, PROBE_GAMES, seed, **resolved).kinds]
    seen = (f"the {team}'s decisions in {PROBE_GAMES} of {teacher}'s own games (seed {seed}) "
            f"are of the kinds {', '.join(met)}")
    codes = []
    for text in taken:
        try:
            codes.append(kinds.parse(text))
        except ValueError as e:
            raise ValueError(f"{e}; {seen}") from None
        if kinds.label(codes[-1]) not in met:
            raise ValueError(f"{game}: no decision of the {team} is of the kind {text!r}; {seen}")
    takes = TeacherTakes(policy, bot, kinds, codes)
    lineups = ((f"{policy.name} alone", policy),
               (f"{teacher} takes {', '.join(taken)}", takes),
               (f"{teacher} (reference)", bot))
    if team == "player":
        if games < 2:
            raise ValueError(f"a free-for-all's take-over needs at least 2 deals (an interval), "
                             f"got {games}")
        n = resolved["num_players"]
        against = InProcess(f"{teacher} (teacher)", bot)
        ffa_rows = []
        for label, mine in lineups:
            logs, plans = play_seatings(game, resolved, InProcess(label, mine), against, games,
                                        seed, n // 2)
            ffa_rows.append((label, *score(label, against.label, logs, plans, n)[:2]))
        return FreeForAllTakeOver(game, resolved, [kinds.label(c) for c in codes],
                                  takes.rows_taken / max(1, takes.rows), seed, games,
                                  len(plans), ffa_rows)
    slots = np.arange(min(SLOTS, games))
    rows = []
    for label, mine in lineups:
        policy.game_over(slots)  # a recurrent network starts every match from blank memories
        lineup = {t: mine if t == team else bot for t in spec.teams}
        rows.append((label, play_match(game, lineup, games, num_envs=SLOTS, seed=seed,
                                       **resolved)))
    return TakeOver(team, [kinds.label(c) for c in codes],
                    takes.rows_taken / max(1, takes.rows), seed, rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evaluation.agreement", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checkpoint", help="a team's checkpoint (.pt)")
    parser.add_argument("--game", required=True, choices=list(envs.registry))
    parser.add_argument("--players", type=int, default=None,
                        help="seats at the table (default: the checkpoint's)")
    parser.add_argument("--param", type=game_param, action="append", default=[],
                        metavar="NAME=VALUE",
                        help="a game parameter (repeatable; default: the checkpoint's)")
    parser.add_argument("--team", default=None,
                        help="the team whose decisions count (default: the checkpoint's)")
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--teacher", default="heuristic",
                        help="a scripted player of the game (or random, or a .pt checkpoint)")
    parser.add_argument("--teacher-takes", metavar="KIND[,KIND]", default=None,
                        help="play matches with the teacher deciding these kinds of decisions "
                        "(instead of the agreement table)")
    parser.add_argument("--greedy", action="store_true",
                        help="with --teacher-takes: the checkpoint takes its most likely action "
                        "(default: sample); the agreement is always greedy")
    parser.add_argument("--json", action="store_true")
    ns = parser.parse_args(argv)
    try:
        result = _run(ns)
    except ValueError as e:  # CheckpointError is one
        parser.exit(2, f"{parser.prog}: {e}\n")
    print(json.dumps(result.as_dict(), indent=2) if ns.json else result.format_table())


def _run(ns) -> Agreement | TakeOver | FreeForAllTakeOver:
    params = dict(ns.param)
    if ns.players is not None:
        params["num_players"] = ns.players
    trained = load_checkpoint(ns.checkpoint)["metadata"]
    if trained["game"] == ns.game:  # what is not given is the checkpoint's own
        params = {**trained["params"], **params}
    if ns.games < 1 or ns.seed < 0:
        raise ValueError(f"--games must be positive and --seed >= 0, got {ns.games} and {ns.seed}")
    if ns.greedy and ns.teacher_takes is None:
        raise ValueError("--greedy goes with --teacher-takes: the agreement always compares the "
                         "checkpoint's greedy action")
    spec = envs.registry[ns.game]
    # game, version, parameters and observation layout: checked before any game is played
    network = load_policy(ns.checkpoint, game=ns.game, greedy=ns.greedy or ns.teacher_takes is None,
                          seed=ns.seed, **params)
    team = ns.team
    if network.team != "shared":  # one team's checkpoint plays that team only
        if team not in (None, network.team):
            raise ValueError(f"{ns.checkpoint}: checkpoint is for team {network.team!r}, "
                             f"not {team!r}")
        team = network.team
    elif team is None and not free_for_all(spec):
        raise ValueError(f"{ns.checkpoint} plays every team: say which with --team")
    _team(spec, team)
    if ns.teacher_takes is None:
        return agreement(ns.game, network, team, ns.teacher, ns.games, ns.seed, **params)
    taken = [k.strip() for k in ns.teacher_takes.split(",")]
    return take_over(ns.game, network, team, taken, ns.teacher, ns.games, ns.seed, **params)


if __name__ == "__main__":
    main()
