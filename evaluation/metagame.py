"""Meta-game views of a cross-play matrix: Nash averaging and alpha-Rank.

A row's mean over the columns of a cross-play matrix (``hiddendeck eval``) rewards beating
weak or redundant opponents: add three copies of a bad menace and every crew's mean rises. The
meta-game views weigh the opponents by how the other team would mix them if it chose well:

- **Nash averaging** (Balduzzi et al., 2018): the matrix is a two-team constant-sum game (the
  first team scores its win rate plus half the draws, the second the rest). Each team's
  maximum-entropy Nash mixture over its policies is computed, and each policy is scored by its
  expected score against the *other* team's mixture. Copies of a policy cannot change anyone's
  score, and a policy's score falls below the game's value only if it is exploitable by the
  mixture. With scipy (the ``[metagame]`` extra brings it): the value and an equilibrium by
  linear programming, then the maximum-entropy mixture within the equilibria (exact to solver
  tolerance). Without it: the limit of the entropy-regularised (logit) equilibrium as the
  temperature falls, solved at a small temperature (weights within a few hundredths), and the
  remaining gap reported.
- **alpha-Rank** (Omidshafiei et al., 2019): the stationary mass of each policy in a
  two-population evolutionary process over the matrix, through OpenSpiel's implementation
  (``pip install -e ".[metagame]"``); absent that extra, the alpha-Rank column says so.

Both read only the matrix, and the matrix is an estimate: a mixture weight on a policy whose
cells barely differ from another's means little (on a 300-deal eval, a crew mixture printed as
"heuristic 1.000" was the equilibrium pick in 13 of 30 deal resamples). So where the eval's
games are at hand (``eval --out DIR`` writes ``DIR/games.jsonl.gz``) and scipy is installed,
every cell is resampled over the same deals together (the cells share their deals) and solved
again, ``RESAMPLES`` times: the value and each Nash weight and score get a 95% range over deals.
Draws: the zero-sum score counts a draw as half a win to each side (docs/evaluation.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .stats import DRAWS_HALF

TEMPERATURES = (1e-1, 1e-2, 1e-3)  # the regularised equilibrium's path towards the Nash limit
RESAMPLES = 200  # deal resamples for the ranges


@dataclass
class TeamView:
    team: str
    policies: list[str]
    mean: np.ndarray  # score averaged uniformly over the other team's policies
    nash_weight: np.ndarray  # this team's maximum-entropy Nash mixture
    nash_score: np.ndarray  # score against the other team's Nash mixture
    alpha_rank: np.ndarray | None  # alpha-Rank stationary mass; None without OpenSpiel
    weight_range: np.ndarray | None = None  # [policies, 2] 95% over deal resamples
    score_range: np.ndarray | None = None  # [policies, 2]


@dataclass
class MetaGame:
    game: str
    teams: tuple[str, str]
    value: float  # the first team's score at the equilibrium
    gap: float  # how far the computed mixtures are from an exact equilibrium (exploitability)
    views: tuple[TeamView, TeamView]
    value_range: list[float] | None = None  # 95% over deal resamples; None without the games
    ranges_note: str = "no ranges: the eval's games.jsonl.gz was not read"

    def as_dict(self) -> dict:
        return {
            "game": self.game, "teams": list(self.teams), "value": self.value, "gap": self.gap,
            "value_range": self.value_range, "ranges": self.ranges_note,
            "draws": DRAWS_HALF,
            "views": [{
                "team": v.team,
                "policies": [{
                    "name": name, "mean": float(v.mean[i]),
                    "nash_weight": float(v.nash_weight[i]), "nash_score": float(v.nash_score[i]),
                    "alpha_rank": None if v.alpha_rank is None else float(v.alpha_rank[i]),
                    "nash_weight_range": None if v.weight_range is None
                    else v.weight_range[i].tolist(),
                    "nash_score_range": None if v.score_range is None
                    else v.score_range[i].tolist(),
                } for i, name in enumerate(v.policies)],
            } for v in self.views],
        }

    def format_table(self) -> str:
        value = f"{self.value:.3f}"
        if self.value_range is not None:
            value += f" [{self.value_range[0]:.3f}, {self.value_range[1]:.3f}]"
        lines = [f"{self.game}: meta-game of the cross-play matrix; {self.teams[0]} score "
                 f"{value} at the equilibrium (gap {self.gap:.4f}); {self.ranges_note}"]
        for v in self.views:
            w = max(len("policy"), *(len(p) for p in v.policies))
            ranged = v.weight_range is not None
            mix, vs = ("nash mix [95%]", "vs nash [95%]") if ranged else ("nash mix", "vs nash")
            lines += ["", f"{v.team}: score = win rate + half the draws ({DRAWS_HALF})",
                      f"{'policy':<{w}}  {'mean':>6}  {mix:>21}  {vs:>21}  {'alpha-rank':>10}"]
            for i in np.argsort(-v.nash_score, kind="stable"):
                alpha = "(no extra)" if v.alpha_rank is None else f"{v.alpha_rank[i]:.3f}"
                weight, score = f"{v.nash_weight[i]:.3f}", f"{v.nash_score[i]:.3f}"
                if ranged:
                    weight += " [{:.3f}, {:.3f}]".format(*v.weight_range[i])
                    score += " [{:.3f}, {:.3f}]".format(*v.score_range[i])
                lines.append(f"{v.policies[i]:<{w}}  {v.mean[i]:6.3f}  {weight:>21}  "
                             f"{score:>21}  {alpha:>10}")
        return "\n".join(lines)


def _normalise_log(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits - logits.max())
    return p / p.sum()


def _max_entropy_side(a: np.ndarray, value: float) -> np.ndarray:
    """The row player's maximum-entropy mixture among those that guarantee ``value`` against
    every column (its equilibrium strategies): a linear program finds one, then entropy is
    maximised over that face (SLSQP), within a tolerance of 1e-9 of the value."""
    from scipy.optimize import linprog, minimize

    rows = a.shape[0]
    found = linprog(np.zeros(rows), A_ub=-a.T, b_ub=np.full(a.shape[1], -value + 1e-9),
                    A_eq=np.ones((1, rows)), b_eq=[1.0], bounds=[(0, 1)] * rows,
                    method="highs")
    start = found.x if found.success else np.full(rows, 1.0 / rows)
    start = np.clip(0.99 * start + 0.01 / rows, 1e-12, 1)

    def negative_entropy(x):
        x = np.clip(x, 1e-15, 1)
        return float(np.sum(x * np.log(x)))

    def gradient(x):
        return np.log(np.clip(x, 1e-15, 1)) + 1.0

    best = minimize(negative_entropy, start, jac=gradient, method="SLSQP",
                    bounds=[(0, 1)] * rows,
                    constraints=[{"type": "eq", "fun": lambda x: x.sum() - 1.0,
                                  "jac": lambda x: np.ones(rows)},
                                 {"type": "ineq", "fun": lambda x: a.T @ x - value + 1e-9,
                                  "jac": lambda x: a.T}],
                    options={"ftol": 1e-12, "maxiter": 500})
    x = np.clip(best.x if best.success else found.x, 0, None)
    return x / x.sum()


def _linear_program(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """``nash_equilibrium`` by linear programming (scipy): the row player's value maximises
    v subject to every column paying at least v; each side's maximum-entropy mixture among its
    equilibrium strategies."""
    from scipy.optimize import linprog

    rows, cols = a.shape
    # variables (x, v): maximise v; a.T @ x >= v; sum x = 1
    found = linprog(np.r_[np.zeros(rows), -1.0], A_ub=np.c_[-a.T, np.ones(cols)],
                    b_ub=np.zeros(cols), A_eq=np.r_[np.ones(rows), 0.0][None],
                    b_eq=[1.0], bounds=[(0, 1)] * rows + [(None, None)], method="highs")
    if not found.success:
        raise ValueError(f"the meta-game's linear program failed: {found.message}")
    value = float(found.x[-1])
    x = _max_entropy_side(a, value)
    y = _max_entropy_side(1.0 - a.T, 1.0 - value)
    return x, y, float((a @ y).max() - (a.T @ x).min())


def has_linear_programs() -> bool:
    try:
        import scipy.optimize  # noqa: F401
    except ImportError:
        return False
    return True


def nash_equilibrium(payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The maximum-entropy Nash mixtures ``(row, column, gap)`` of the constant-sum game in
    which the row player scores ``payoff`` and the column player the rest.

    With scipy: linear programs and a maximum-entropy refinement (``_linear_program``).
    Without: entropy-regularised extragradient (Cen et al., 2021) converges linearly to the logit
    equilibrium at each temperature; following the temperatures down, warm-started, reaches the
    equilibrium that the entropy selects among Nash equilibria. ``gap`` is the duality gap of
    the result in the unregularised game: 0 at an exact equilibrium.
    """
    a = np.asarray(payoff, dtype=np.float64)
    if a.ndim != 2 or 0 in a.shape or not np.isfinite(a).all():
        raise ValueError(f"a payoff matrix needs finite entries and two non-empty axes, got "
                         f"shape {a.shape}")
    if has_linear_programs():
        return _linear_program(a)
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


def from_matrix(data: dict, per_deal: np.ndarray | None = None) -> MetaGame:
    """The meta-game of a ``hiddendeck eval`` matrix (``matrix.json``'s object); with
    ``per_deal`` ([rows, columns, deals]: the first team's score on each deal of each cell),
    95% ranges over deal resamples too."""
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
    meta = MetaGame(data["game"], (first, second), float(x @ score @ y), gap, views)
    if per_deal is not None and not has_linear_programs():
        meta.ranges_note = "no ranges: they need scipy (pip install -e '.[metagame]')"
    elif per_deal is not None:
        add_ranges(meta, per_deal)
    return meta


def add_ranges(meta: MetaGame, per_deal: np.ndarray, resamples: int = RESAMPLES,
               seed: int = 0) -> None:
    """95% ranges (2.5% and 97.5% quantiles) of the value and of every Nash weight and score
    over resamples of the deals, one resample shared by every cell."""
    deals = per_deal.shape[2]
    rng = np.random.default_rng(seed)
    value, weights, scores = [], ([], []), ([], [])
    for _ in range(resamples):
        a = per_deal[:, :, rng.integers(0, deals, deals)].mean(axis=2)
        x, y, _ = nash_equilibrium(a)
        value.append(float(x @ a @ y))
        weights[0].append(x)
        weights[1].append(y)
        scores[0].append(a @ y)
        scores[1].append(1.0 - a.T @ x)
    meta.value_range = np.quantile(value, [0.025, 0.975]).tolist()
    for k, view in enumerate(meta.views):
        view.weight_range = np.quantile(weights[k], [0.025, 0.975], axis=0).T
        view.score_range = np.quantile(scores[k], [0.025, 0.975], axis=0).T
    meta.ranges_note = f"95% ranges over {resamples} resamples of the {deals} deals"


def deal_scores(path: Path, data: dict) -> np.ndarray:
    """[rows, columns, deals]: the first team's score (win 1, draw 0.5) on every deal of every
    cell, from an eval's ``games.jsonl.gz``."""
    import gzip

    first, second = data["teams"]
    rows, cols = data["policies"][first], data["policies"][second]
    index_r, index_c = {r: i for i, r in enumerate(rows)}, {c: j for j, c in enumerate(cols)}
    games = data["games_per_pairing"]
    out = np.full((len(rows), len(cols), games), np.nan)
    with gzip.open(path, "rt") as f:
        next(f)  # the header
        for line in f:
            g = json.loads(line)
            winner = g["winner"]
            out[index_r[g["policies"][first]], index_c[g["policies"][second]], g["index"]] = (
                0.5 if winner < 0 else float(winner == 0))
    if np.isnan(out).any():
        raise ValueError(f"{path}: misses games of the matrix")
    return out


def load(path: str | Path) -> MetaGame:
    """The meta-game of an ``eval --out`` directory or its ``matrix.json``, with ranges over
    deals when the directory holds the eval's ``games.jsonl.gz``."""
    path = Path(path)
    if path.is_dir():
        path = path / "matrix.json"
    try:
        with open(path, "rb") as f:
            text = f.read(64 << 20)  # a matrix of hundreds of policies is a few MB
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: unreadable cross-play matrix ({e})") from None
    games = path.parent / "games.jsonl.gz"
    try:
        per_deal = deal_scores(games, data) if games.is_file() else None
        return from_matrix(data, per_deal)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
    except (KeyError, TypeError, AttributeError, ZeroDivisionError, IndexError, OSError,
            EOFError) as e:
        raise ValueError(f"{path}: malformed cross-play matrix or games file "
                         f"({type(e).__name__}: {e})") from None
