"""Meta-game views of a cross-play matrix: Nash averaging and alpha-Rank.

A row's mean over the columns of a cross-play matrix (``hiddendeck eval``) rewards beating
weak or redundant opponents: add three copies of a bad menace and every crew's mean rises. The
meta-game views weigh the opponents by how the other team would mix them if it chose well:

- **Nash averaging** (Balduzzi et al., 2018): the matrix is a two-team constant-sum game (the
  first team scores its win rate plus half the draws, the second the rest). Each team's
  maximum-entropy Nash mixture over its policies is computed, and each policy is scored by its
  expected score against the *other* team's mixture. Copies of a policy cannot change anyone's
  score, and a policy's score falls below the game's value only if it is exploitable by the
  mixture. The mixture is the limit of the entropy-regularised (logit) equilibrium as the
  temperature falls; we solve it at a small temperature and report the remaining gap.
- **alpha-Rank** (Omidshafiei et al., 2019): the stationary mass of each policy in a
  two-population evolutionary process over the matrix, through OpenSpiel's implementation
  (``pip install -e ".[metagame]"``); absent that extra, the alpha-Rank column says so.

Both read only the matrix: the estimates' own noise (each cell's Wilson interval) carries into
them, so a mixture weight on a policy whose cells barely differ from another's means little.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

TEMPERATURES = (1e-1, 1e-2, 1e-3)  # the regularised equilibrium's path towards the Nash limit


@dataclass
class TeamView:
    team: str
    policies: list[str]
    mean: np.ndarray  # score averaged uniformly over the other team's policies
    nash_weight: np.ndarray  # this team's maximum-entropy Nash mixture
    nash_score: np.ndarray  # score against the other team's Nash mixture
    alpha_rank: np.ndarray | None  # alpha-Rank stationary mass; None without OpenSpiel


@dataclass
class MetaGame:
    game: str
    teams: tuple[str, str]
    value: float  # the first team's score at the equilibrium
    gap: float  # how far the computed mixtures are from an exact equilibrium (exploitability)
    views: tuple[TeamView, TeamView]

    def as_dict(self) -> dict:
        return {
            "game": self.game, "teams": list(self.teams), "value": self.value, "gap": self.gap,
            "views": [{
                "team": v.team,
                "policies": [{
                    "name": name, "mean": float(v.mean[i]),
                    "nash_weight": float(v.nash_weight[i]), "nash_score": float(v.nash_score[i]),
                    "alpha_rank": None if v.alpha_rank is None else float(v.alpha_rank[i]),
                } for i, name in enumerate(v.policies)],
            } for v in self.views],
        }

    def format_table(self) -> str:
        lines = [f"{self.game}: meta-game of the cross-play matrix; {self.teams[0]} score "
                 f"{self.value:.3f} at the equilibrium (gap {self.gap:.4f})"]
        for v in self.views:
            w = max(len("policy"), *(len(p) for p in v.policies))
            lines += ["", f"{v.team}: score = win rate + half the draws",
                      f"{'policy':<{w}}  {'mean':>6}  {'nash mix':>8}  {'vs nash':>7}  "
                      f"{'alpha-rank':>10}"]
            for i in np.argsort(-v.nash_score, kind="stable"):
                alpha = "(no extra)" if v.alpha_rank is None else f"{v.alpha_rank[i]:.3f}"
                lines.append(f"{v.policies[i]:<{w}}  {v.mean[i]:6.3f}  {v.nash_weight[i]:8.3f}  "
                             f"{v.nash_score[i]:7.3f}  {alpha:>10}")
        return "\n".join(lines)


def _normalise_log(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits - logits.max())
    return p / p.sum()


def nash_equilibrium(payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The maximum-entropy Nash mixtures ``(row, column, gap)`` of the constant-sum game in
    which the row player scores ``payoff`` and the column player the rest.

    Entropy-regularised extragradient (Cen et al., 2021) converges linearly to the logit
    equilibrium at each temperature; following the temperatures down, warm-started, reaches the
    equilibrium that the entropy selects among Nash equilibria. ``gap`` is the duality gap of
    the result in the unregularised game: 0 at an exact equilibrium.
    """
    a = np.asarray(payoff, dtype=np.float64)
    if a.ndim != 2 or 0 in a.shape or not np.isfinite(a).all():
        raise ValueError(f"a payoff matrix needs finite entries and two non-empty axes, got "
                         f"shape {a.shape}")
    scale = max(1e-12, float(np.ptp(a)))
    a = (a - a.min()) / scale  # temperatures are relative to the payoffs' spread
    log_x = np.full(a.shape[0], -np.log(a.shape[0]))
    log_y = np.full(a.shape[1], -np.log(a.shape[1]))
    for tau in TEMPERATURES:
        eta = 1.0 / (1.0 + tau)
        for _ in range(int(20 / tau)):
            x, y = np.exp(log_x), np.exp(log_y)
            mid_x = np.log(_normalise_log((1 - eta * tau) * log_x + eta * (a @ y)))
            mid_y = np.log(_normalise_log((1 - eta * tau) * log_y - eta * (a.T @ x)))
            new_x = np.log(_normalise_log((1 - eta * tau) * log_x + eta * (a @ np.exp(mid_y))))
            new_y = np.log(_normalise_log((1 - eta * tau) * log_y - eta * (a.T @ np.exp(mid_x))))
            done = max(np.abs(new_x - log_x).max(), np.abs(new_y - log_y).max()) < 1e-12
            log_x, log_y = new_x, new_y
            if done:
                break
    x, y = np.exp(log_x), np.exp(log_y)
    gap = float((a @ y).max() - (a.T @ x).min()) * scale
    return x, y, gap


def alpha_rank(payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Each population's alpha-Rank mass (OpenSpiel, infinite-alpha limit), or ``None`` when
    OpenSpiel is not installed."""
    try:
        from open_spiel.python.egt import alpharank
    except ImportError:
        return None
    a = np.asarray(payoff, dtype=np.float64)
    _, _, pi, _, _ = alpharank.compute([a, 1.0 - a], use_inf_alpha=True, verbose=False)
    joint = np.asarray(pi).reshape(a.shape)  # profiles enumerate (row, column) row-major
    return joint.sum(axis=1), joint.sum(axis=0)


def from_matrix(data: dict) -> MetaGame:
    """The meta-game of a ``hiddendeck eval`` matrix (``matrix.json``'s object)."""
    from .crossplay import MATRIX_FORMAT

    if data.get("format") != MATRIX_FORMAT:
        raise ValueError(f"not a {MATRIX_FORMAT} cross-play matrix")
    teams = data["teams"]
    if len(teams) != 2:
        raise ValueError(f"the meta-game needs a two-team matrix; {data['game']} has teams "
                         f"{teams}")
    first, second = teams
    rows, cols = data["policies"][first], data["policies"][second]
    score = np.full((len(rows), len(cols)), np.nan)
    index_r, index_c = {r: i for i, r in enumerate(rows)}, {c: j for j, c in enumerate(cols)}
    for cell in data["cells"]:
        i, j = index_r[cell["policies"][first]], index_c[cell["policies"][second]]
        score[i, j] = (cell["wins"][first] + 0.5 * cell["draws"]) / cell["games"]
    if np.isnan(score).any():
        raise ValueError("the cross-play matrix misses cells; run eval for every pairing")
    x, y, gap = nash_equilibrium(score)
    ranks = alpha_rank(score)
    views = (
        TeamView(first, rows, score.mean(axis=1), x, score @ y,
                 None if ranks is None else ranks[0]),
        TeamView(second, cols, 1.0 - score.mean(axis=0), y, 1.0 - score.T @ x,
                 None if ranks is None else ranks[1]),
    )
    return MetaGame(data["game"], (first, second), float(x @ score @ y), gap, views)


def load(path: str | Path) -> MetaGame:
    """The meta-game of an ``eval --out`` directory or its ``matrix.json``."""
    path = Path(path)
    if path.is_dir():
        path = path / "matrix.json"
    try:
        with open(path, "rb") as f:
            text = f.read(64 << 20)  # a matrix of hundreds of policies is a few MB
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: unreadable cross-play matrix ({e})") from None
    try:
        return from_matrix(data)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
    except (KeyError, TypeError, AttributeError, ZeroDivisionError) as e:
        raise ValueError(f"{path}: malformed cross-play matrix ({type(e).__name__}: {e})") \
            from None
