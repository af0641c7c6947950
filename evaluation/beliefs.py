"""The belief benchmark: how well a policy knows who is on the other side.

The interface. A policy may expose ``beliefs(observation [N, D]) -> [N, P] float``: row n,
column j is the probability that the seat ``j`` places clockwise from the observer (seat-relative,
as observations are) is on the other side from the observer; column 0, the observer itself, is
ignored. Nothing else is asked of the policy, so a scripted bot, a network with an auxiliary
role head, or a wrapper around either can be scored alike.

The scores, over the decisions of the seats the policy plays in evaluation games, against the
true teams (``VecEnv.teams()``, which no policy sees): log-loss, Brier score, expected
calibration error (10 equal-width bins) and top-1 accuracy (the seat it thinks likeliest is on
the other side), overall and by round. Beside them: the base rate (the share of other seats on
the other side, the best guess with no observation at all) and a reference probe, an MLP
trained on the raw observations of half of the games (even game numbers) and scored on the
other half, as the policy is. The probe reads what the observation allows a simple learner to
infer, so ``share = (base - policy) / (base - probe)`` of log-loss says how much of that the
policy has: 0 no better than the base rate, 1 as good as the probe, above 1 better than it.

Mass on ruled-out assignments, as far as marginal beliefs can show it: ``count_error`` is the
mean gap between the number of other-side seats the beliefs imply (their sum) and the true
number, which in both team games the table size fixes and every seat can work out; beliefs
with mass on assignments of the wrong size show it as a gap. Facts public only in one game
(a revealed agenda, a cleared player) need that game's own check and are not scored here.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeGuard

import numpy as np

import envs
from agents.policy import choose

from .entrants import free_for_all, resolve, roles

EPS = 1e-6


class Believer(Protocol):
    def beliefs(self, observation: np.ndarray) -> np.ndarray:  # [N, D] -> [N, P]
        ...


def has_beliefs(policy) -> TypeGuard[Believer]:
    return callable(getattr(policy, "beliefs", None))


@dataclass
class Observed:
    """Decisions of the evaluated policy's seats: what each saw and the truth about the others."""

    observation: np.ndarray  # [M, D] float32
    other_side: np.ndarray  # [M, P-1] bool: seat j+1 (relative) is on the other side
    round: np.ndarray  # [M] int
    game: np.ndarray  # [M] int game number
    team: np.ndarray  # [M] int the observer's team
    beliefs: np.ndarray | None  # [M, P-1] the policy's, or None


def collect(game: str, policies: dict, scored: set, games: int, seed: int = 0,
            max_rows: int = 60_000, slots: int = 256, **params) -> Observed:
    """Play games ``0 .. games-1``; keep (at most ``max_rows``, an even sample) the decisions
    of seats whose team is in ``scored``, with the policy's beliefs where it has them."""
    vec = envs.make_vec(game, min(slots, games), seed=seed, **params)
    spec, P = vec.spec, vec.num_players
    B = vec.num_envs
    rows = np.arange(B)
    game_of = np.arange(B)
    next_game = B
    who = np.empty((B, 2), np.int64)
    who[:, 0] = rows
    has_round = "round" in vec.records.dtype.names
    decision = np.zeros(B, np.int64)
    keep_every = 1
    parts = {k: [] for k in ("observation", "other_side", "round", "game", "team", "beliefs")}
    kept = 0
    relative = (np.arange(P)[None, :] + np.arange(P)[:, None]) % P  # [observer, j] -> seat
    while (game_of >= 0).any():
        team = vec.teams()
        seat = vec.current_seat
        side = team[rows, seat]
        live = game_of >= 0
        who[:, 1] = seat
        actions = np.empty(B, np.int64)
        for t, name in enumerate(spec.teams):
            idx = np.flatnonzero((side == t) & live)
            if not idx.size:
                continue
            policy = policies[name]
            actions[idx] = choose(policy, vec.observation[idx], vec.action_mask[idx], who[idx])
            if name in scored:
                pick = idx[(game_of[idx] * 7919 + decision[idx]) % keep_every == 0]
                if pick.size:
                    others = team[pick[:, None], relative[seat[pick], 1:]]  # [k, P-1]
                    parts["observation"].append(vec.observation[pick].copy())
                    parts["other_side"].append(others != side[pick, None])
                    parts["round"].append(vec.records["round"][pick].astype(np.int64)
                                          if has_round else decision[pick] // P)
                    parts["game"].append(game_of[pick].copy())
                    parts["team"].append(side[pick].copy())
                    if has_beliefs(policy):
                        b = np.asarray(policy.beliefs(vec.observation[pick]), np.float64)
                        if b.shape != (pick.size, P):
                            raise ValueError(f"{policy}: beliefs must be [N, {P}], got {b.shape}")
                        parts["beliefs"].append(b[:, 1:])
                    kept += pick.size
                    if kept > max_rows:  # thin what is kept to every other row, and go on so
                        keep_every *= 2
                        for k, v in parts.items():
                            if v:
                                parts[k] = [np.concatenate(v)[::2]]
                        kept = parts["game"][0].shape[0]
        idle = np.flatnonzero(~live)
        actions[idle] = vec.action_mask[idle].argmax(1)
        decision += 1
        _, terminated, truncated = vec.step(actions)
        ended = np.flatnonzero(terminated | truncated)
        for policy in {id(p): p for p in policies.values()}.values():
            if ended.size:
                policy.game_over(ended)
        done = ended[game_of[ended] >= 0]
        decision[ended] = 0
        game_of[ended] = -1
        refill = done[: max(0, games - next_game)]
        if refill.size:
            numbers = np.arange(next_game, next_game + refill.size)
            vec.deal(refill, numbers)
            game_of[refill] = numbers
            next_game += refill.size
    if not parts["game"]:
        raise ValueError(f"no decisions of {sorted(scored)} in {games} games")
    cat = {k: np.concatenate(v) if v else None for k, v in parts.items()}
    return Observed(cat["observation"], cat["other_side"], cat["round"], cat["game"],
                    cat["team"], cat["beliefs"])


def scores(p: np.ndarray, y: np.ndarray, bins: int = 10) -> dict:
    """Log-loss, Brier, ECE and top-1 of probabilities ``p`` [M, K] for truths ``y`` [M, K]."""
    p = np.clip(np.asarray(p, np.float64), EPS, 1 - EPS)
    y = np.asarray(y, bool)
    flat_p, flat_y = p.ravel(), y.ravel()
    log_loss = float(-np.mean(np.where(flat_y, np.log(flat_p), np.log1p(-flat_p))))
    brier = float(np.mean((flat_p - flat_y) ** 2))
    which = np.minimum((flat_p * bins).astype(np.int64), bins - 1)
    ece = 0.0
    curve = []
    for b in range(bins):
        inside = which == b
        if inside.any():
            conf, freq = flat_p[inside].mean(), flat_y[inside].mean()
            ece += inside.mean() * abs(conf - freq)
            curve.append((float(conf), float(freq), int(inside.sum())))
    has_other = y.any(1)
    top1 = float(y[np.flatnonzero(has_other), p[has_other].argmax(1)].mean()) \
        if has_other.any() else float("nan")
    count_error = float(np.mean(np.abs(p.sum(1) - y.sum(1))))
    return {"n": int(y.size), "log_loss": log_loss, "brier": brier, "ece": float(ece),
            "top1": top1, "count_error": count_error, "calibration": curve}


def train_probe(x: np.ndarray, y: np.ndarray, groups: np.ndarray, seed: int = 0,
                hidden: int = 128, steps: int = 1500, batch: int = 512):
    """An MLP from raw observations to the other-side probabilities; returns ``predict``.

    One game in ten (by ``groups``, the game numbers) is held out to keep the weights with the
    lowest held-out loss, so a probe fitted on few games does not score worse than the base
    rate by overfitting. One thread: the layers are small, and threads on a shared machine
    only wait for each other.
    """
    import torch
    from torch import nn

    saved = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        torch.manual_seed(seed)
        net = nn.Sequential(nn.Linear(x.shape[1], hidden), nn.ReLU(),
                            nn.Linear(hidden, y.shape[1]))
        opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-4)
        X = torch.from_numpy(np.asarray(x, np.float32))
        Y = torch.from_numpy(y.astype(np.float32))
        held = torch.from_numpy(groups % 10 == 5)
        fit = torch.nonzero(~held).squeeze(1)
        if not held.any():
            held = ~held  # too few games to hold one out: keep the last weights' loss in view
        g = torch.Generator().manual_seed(seed)
        loss_fn = nn.BCEWithLogitsLoss()
        best, best_state = float("inf"), None
        for step in range(steps):
            idx = fit[torch.randint(0, fit.shape[0], (min(batch, fit.shape[0]),), generator=g)]
            opt.zero_grad()
            loss_fn(net(X[idx]), Y[idx]).backward()
            opt.step()
            if step % 50 == 49 or step == steps - 1:
                with torch.inference_mode():
                    loss = float(loss_fn(net(X[held]), Y[held]))
                if loss < best:
                    best, best_state = loss, {k: v.clone() for k, v in net.state_dict().items()}
        net.load_state_dict(best_state)
    finally:
        torch.set_num_threads(saved)

    def predict(obs: np.ndarray) -> np.ndarray:
        with torch.inference_mode():
            return torch.sigmoid(net(torch.from_numpy(np.asarray(obs, np.float32)))).numpy()

    return predict


def benchmark(game: str, policy: str, games: int = 2_000, against: str = "heuristic",
              seed: int = 0, max_rows: int = 60_000, probe_steps: int = 1500,
              team: str | None = None, **params) -> dict:
    """Score ``policy``'s beliefs (if it has any), the base rate and the probe, by round and by
    the observer's team. ``policy`` plays ``team`` (default: every team it can), ``against``
    the others."""
    spec = envs.registry[game]
    if free_for_all(spec):
        raise ValueError(f"{game} has no sides to hold beliefs about")
    params = spec.resolve(**params)
    entrant = resolve(policy, spec, params)
    if team is not None:
        if team not in entrant.roles:
            raise ValueError(f"{entrant.label} plays {list(entrant.roles)}, not {team!r}")
        entrant = dataclasses.replace(entrant, roles=(team,))
    other = resolve(against, spec, params)
    built = entrant.build(spec, params, seed)
    opponent = built if other.label == entrant.label else other.build(spec, params, seed + 1)
    policies = {t: built if t in entrant.roles else opponent for t in roles(spec)}
    data = collect(game, policies, set(entrant.roles), games, seed, max_rows, **params)
    train, test = data.game % 2 == 0, data.game % 2 == 1
    if not train.any() or not test.any():
        raise ValueError("too few games to split into probe training and test halves")
    probe = train_probe(data.observation[train], data.other_side[train], data.game[train] // 2,
                        seed, steps=probe_steps)(data.observation[test])
    y = data.other_side[test]
    base = np.broadcast_to(data.other_side[train].mean(), y.shape)
    predictors = {"base rate": base, "probe": probe}
    if data.beliefs is not None:
        predictors[entrant.label] = data.beliefs[test]
    rounds = data.round[test]
    teams = data.team[test]
    result = {"game": game, "version": spec.version, "params": params, "policy": entrant.label,
              "teams": list(entrant.roles), "against": other.label, "games": games, "seed": seed,
              "decisions_scored": int(test.sum()), "has_beliefs": data.beliefs is not None,
              "overall": {k: scores(v, y) for k, v in predictors.items()}, "by_round": {}}
    for r in np.unique(rounds):
        at = rounds == r
        if at.sum() >= 50:
            result["by_round"][int(r)] = {k: _brief(scores(v[at], y[at]))
                                          for k, v in predictors.items()}
    # by the observer's side: a side that knows its partners has little left to infer
    result["by_team"] = {spec.teams[t]: {k: _brief(scores(v[teams == t], y[teams == t]))
                                        for k, v in predictors.items()}
                         for t in np.unique(teams)}
    o = result["overall"]
    if entrant.label in o:
        gain = o["base rate"]["log_loss"] - o["probe"]["log_loss"]
        result["share_of_probe"] = (
            (o["base rate"]["log_loss"] - o[entrant.label]["log_loss"]) / gain if gain > 0
            else None)
    return result


def _brief(s: dict) -> dict:
    return {k: v for k, v in s.items() if k != "calibration"}


def format_result(r: dict) -> str:
    lines = [f"{r['game']} v{r['version']}: beliefs of {r['policy']} as "
             f"{'/'.join(r['teams'])} (other teams: {r['against']}), "
             f"{r['decisions_scored']:,} decisions of {r['games'] // 2:,} held-out games"]
    if not r["has_beliefs"]:
        lines.append(f"({r['policy']} has no beliefs(); base rate and probe only)")
    head = (f"{'round/team':>10} {'predictor':<14} {'log-loss':>9} {'Brier':>7} {'ECE':>7} "
            f"{'top-1':>7} {'count err':>9}")
    lines += [head, "-" * len(head)]
    rows = [("all", r["overall"])] + [(k, v) for k, v in r.get("by_team", {}).items()]
    rows += [(str(k), v) for k, v in r["by_round"].items()]
    for label, table in rows:
        for name, s in table.items():
            lines.append(f"{label:>10} {name:<14} {s['log_loss']:>9.4f} {s['brier']:>7.4f} "
                         f"{s['ece']:>7.4f} {s['top1']:>7.3f} {s['count_error']:>9.3f}")
    if r.get("share_of_probe") is not None:
        lines.append(f"share of the probe's log-loss gain over the base rate: "
                     f"{r['share_of_probe']:.2f}")
    return "\n".join(lines)


def calibration_plot(r: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4.5, 4.5))
    ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--")
    for name, s in r["overall"].items():
        if name == "base rate":
            continue
        conf, freq, _ = zip(*s["calibration"])
        ax.plot(conf, freq, marker="o", label=f"{name} (ECE {s['ece']:.3f})")
    ax.set_xlabel("predicted P(other side)")
    ax.set_ylabel("observed frequency")
    ax.set_title(f"{r['game']}: calibration, {r['policy']}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120, format="png")
    plt.close(fig)


def write(r: dict, out: str | Path) -> list[Path]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "beliefs.json").write_text(json.dumps(r, indent=1))
    (out / "beliefs.txt").write_text(format_result(r) + "\n")
    calibration_plot(r, out / "calibration.png")
    return [out / "beliefs.json", out / "beliefs.txt", out / "calibration.png"]
