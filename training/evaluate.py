"""Learning curves against held-out opponents, written while the trainer runs.

Self-play win rates say how the teams fare against each other, which tells nothing of strength
(both can get worse together). So every ``eval_every`` updates each trained team plays fixed
references it never trains against (``agents.make_policy`` names: "random", "heuristic", and
any scripted bot a game adds) on every other side, on the same deals each time (one seed that
training never uses), sampling its actions as it does in training. Beside each curve, the
heuristic's own rate against the same reference on the same deals: the line to beat. And the
floor: a random player's rate against the random reference on the same deals; a run whose last
point is not above it learned nothing usable, and ``below_random`` says so in one line a team.

In a free-for-all game the one shared policy holds half the seats (rounded down) and the
reference the rest, every deal played once in every seating so the seat advantage cancels
(``evaluation.ffa``); the curve is the shared policy's mean final position (1 = first, lower
is better) with its 95% interval, and the line to beat is the heuristic's in its place.

Results go to TensorBoard (``eval/{team}_vs_{reference}``), ``curves.json`` and ``curves.png``
in the run directory (a mixed-size run's, per table size, to ``eval/{team}@{n}p_vs_{reference}``
and ``players-N/``).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np

import envs
from agents import make_policy
from agents.neural import ActorCritic, NeuralPolicy, RecurrentPolicy
from evaluation.entrants import free_for_all, resolve
from evaluation.ffa import InProcess, play_seatings, score, seatings
from evaluation.match import play_match


def eval_seed(seed: int) -> int:
    """The deals of the held-out evaluation: a stream apart from every training seed (the
    trainer deals from ``seed``, and on resume from ``SeedSequence([seed, updates])``)."""
    return int(np.random.SeedSequence([seed, 0x5EED, 0xE7A1]).generate_state(1)[0] >> 1)


class HeldOut:
    def __init__(self, game: str, params: dict, teams: list[str], opponents: list[str],
                 games: int, seed: int, out: Path,
                 models: dict[str, ActorCritic] | None = None):
        """``models``: the trained teams' models as they start, given when the run has a time
        budget: ``seconds``, how long the trainer keeps for its last evaluation, is then
        measured on them (see the end of ``__init__``)."""
        spec = envs.registry[game]
        self.game, self.params, self.spec = game, params, spec
        self.teams, self.games, self.seed, self.out = list(teams), games, seed, out
        self.free_for_all = free_for_all(spec)
        self.measure = "mean position" if self.free_for_all else "win rate"
        if self.free_for_all:  # every seating of half the table, ``games`` games or just over
            n = params["num_players"]
            self.deals = max(2, -(-games // len(seatings(n, n // 2))))
            self.entrants = {name: resolve(name, spec, params) for name in opponents}
        self.references = {name: make_policy(name, spec, params, seed) for name in opponents}
        for name, policy in self.references.items():
            if getattr(policy, "team", None) is not None:
                raise ValueError(f"held-out opponent {name!r} is a checkpoint of one team; "
                                 f"name scripted players (random, heuristic, ...)")
        self.history: list[dict] = []
        self.baseline: dict[str, dict[str, list[float]]] = {}
        self.baseline_random: dict[str, list[float]] = {}
        started = time.perf_counter()
        if "heuristic" in self.references:
            heuristic = self.references["heuristic"]
            for team in self.teams:
                self.baseline[team] = {name: self._rate(team, heuristic, name)
                                       for name in self.references}
        # as many games as one evaluation: the trainer keeps time for its last one
        self.seconds = time.perf_counter() - started
        if "random" in self.references:
            for team in self.teams:
                self.baseline_random[team] = self._rate(team, self.references["random"], "random")
        if models is not None:
            # a network decides far slower than the heuristic: timed on the heuristic's games,
            # MANIACAL's 60 s budget ran to 64.7 s, its last evaluation alone overrunning. So
            # each team's model plays one reference (the heuristic, slower than random), and
            # that time, times the references, is kept for the last evaluation
            started = time.perf_counter()
            one = "heuristic" if "heuristic" in self.references else next(iter(self.references))
            for team in self.teams:
                self._rates(team, models[team], 0, [one])
            self.seconds = max(self.seconds,
                               (time.perf_counter() - started) * len(self.references))

    def _rate(self, team: str, player, reference: str) -> list[float]:
        if self.free_for_all:
            return self._position(player, reference)
        policies = {t: player if t == team else self.references[reference]
                    for t in self.spec.teams}
        r = play_match(self.game, policies, self.games, num_envs=min(self.games, 512),
                       seed=self.seed, **self.params)
        lo, hi = r.interval(team)
        return [r.rate(team), lo, hi]

    def _position(self, player, reference: str) -> list[float]:
        """``[mean position, low, high]`` of ``player`` in half the seats against the
        reference in the others, every seating of the same deals, in this process."""
        n = self.params["num_players"]
        mine = InProcess("trained", player)
        against = self.entrants[reference]
        logs, plans = play_seatings(self.game, self.params, mine, against, self.deals,
                                    self.seed, n // 2)
        side, _, _ = score(mine.label, against.label, logs, plans, n)
        return [side.mean_position, *side.position_interval]

    def _rates(self, team: str, model: ActorCritic, step: int, references) -> dict:
        """``model``'s ``[rate, low, high]`` against each of ``references`` (the policy puts the
        model in eval mode; its training mode is restored after)."""
        kind = RecurrentPolicy if model.recurrent else NeuralPolicy
        was_training = model.training
        player = kind(model, {"team": team, "game": self.game, "steps": step}, seed=self.seed)
        rates = {name: self._rate(team, player, name) for name in references}
        model.train(was_training)
        return rates

    def evaluate(self, step: int, updates: int, seconds: float,
                 models: dict[str, ActorCritic]) -> dict[str, dict[str, list[float]]]:
        """Each team's ``[rate, low, high]`` (Wilson 95%) against each reference."""
        started = time.perf_counter()
        rates = {}
        for team in self.teams:
            rates[team] = self._rates(team, models[team], step, self.references)
        self.history.append({"step": step, "updates": updates, "seconds": seconds,
                             "rates": rates})
        self._write()
        self.seconds = time.perf_counter() - started
        return rates

    def _write(self) -> None:
        record = {"game": self.game, "params": self.params, "games": self.games,
                  "measure": self.measure,
                  "seed": self.seed, "baseline_heuristic": self.baseline,
                  "baseline_random": self.baseline_random,
                  "history": self.history}
        _atomic_text(self.out / "curves.json", json.dumps(record, indent=1))
        self.plot()

    def plot(self) -> Path:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        path = self.out / "curves.png"
        fig, axes = plt.subplots(1, len(self.teams), figsize=(5.5 * len(self.teams), 4),
                                 squeeze=False)
        steps = np.array([h["step"] for h in self.history]) / 1e6
        for ax, team in zip(axes[0], self.teams):
            for k, name in enumerate(self.references):
                color = f"C{k}"
                rate, lo, hi = (np.array([h["rates"][team][name][i] for h in self.history])
                                for i in range(3))
                ax.plot(steps, rate, "o-", color=color, ms=3, label=f"vs {name}")
                ax.fill_between(steps, lo, hi, color=color, alpha=0.2)
                if team in self.baseline:
                    ax.axhline(self.baseline[team][name][0], color=color, ls="--", lw=1,
                               label=f"heuristic {'' if self.free_for_all else team + ' '}"
                               f"vs {name}")
            ax.set_title(f"trained {team}{' (half the seats)' if self.free_for_all else ''} "
                         f"vs held-out opponents")
            ax.set_xlabel("agent-steps (millions)")
            if self.free_for_all:  # positions 1 (best) .. P, the best at the top
                n = self.params["num_players"]
                ax.set_ylabel(f"mean position, 1 best ({self.deals} deals, 95% band)")
                ax.set_ylim(n, 1)
            else:
                ax.set_ylabel(f"{team} win rate ({self.games} games, 95% band)")
                ax.set_ylim(0, 1)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        fig.suptitle(f"{self.game} {self.params}", fontsize=8)
        fig.tight_layout()
        tmp = path.with_name(f".{path.name}.tmp")
        fig.savefig(tmp, format="png", dpi=100)
        plt.close(fig)
        os.replace(tmp, path)
        return path


class HeldOutTables:
    """A mixed-size run's held-out curves: one ``HeldOut`` per table size, each writing its
    ``curves.json`` and ``curves.png`` in its own directory (``players-N/`` of the run). Its
    rates are keyed ``TEAM@Np`` (TensorBoard's ``eval/crew@4p_vs_heuristic``)."""

    def __init__(self, tables: dict[int, HeldOut]):
        self.tables = tables
        self.free_for_all = next(iter(tables.values())).free_for_all

    @property
    def seconds(self) -> float:
        """How long the latest evaluation at every size took together."""
        return sum(held_out.seconds for held_out in self.tables.values())

    def evaluate(self, step: int, updates: int, seconds: float,
                 models: dict[str, ActorCritic]) -> dict[str, dict[str, list[float]]]:
        return {f"{team}@{n}p": rates for n, held_out in self.tables.items()
                for team, rates in held_out.evaluate(step, updates, seconds, models).items()}


def below_random(curves: dict) -> list[str]:
    """One line for each team whose last held-out point against the random reference is not
    better than a random player's on the same deals (``curves.json``'s record): a budget too
    small to learn in gives such a team, and nothing else would say so. A random player that
    already wins every game (the Menace's menace at 5 players) leaves nothing to beat."""
    lines = []
    if not curves["history"]:
        return lines
    last = curves["history"][-1]
    lower_is_better = curves["measure"] == "mean position"
    for team, floor in curves.get("baseline_random", {}).items():
        mine = last["rates"][team]["random"][0]
        if lower_is_better:
            behind = floor[0] > 1.0 and mine >= floor[0]
        else:
            behind = floor[0] < 1.0 and mine <= floor[0]
        if behind:
            lines.append(f"warning: the trained {team} does not beat random: {curves['measure']} "
                         f"{mine:.3f} against the random reference, a random {team} "
                         f"{floor[0]:.3f} on the same deals (step {last['step']:,}); "
                         f"train longer")
    return lines


def _atomic_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
