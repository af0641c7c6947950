"""The belief benchmark: how well a policy knows who is on the other side.

The interface. A policy may expose ``beliefs(observation [N, D], who [N, 2]) -> [N, P]
float``, asked right after ``act`` for the same rows (``who`` as ``act`` takes it, so a policy
with memory answers from the memory that decision left): row n, column j is the probability
that the seat ``j`` places clockwise from the observer (seat-relative, as observations are) is
on the other side from the observer; column 0, the observer itself, is ignored. Nothing else is
asked of the policy, so a scripted bot, a network with an auxiliary role head, or a wrapper
around either can be scored alike. A policy whose ``beliefs`` cannot answer (a checkpoint
trained without the head) says why in ``beliefs_unavailable`` and is scored as having none.

The scores, over the decisions of the seats the policy plays in evaluation games, against the
true teams (``VecEnv.teams()``, which no policy sees): log-loss, Brier score, expected
calibration error (10 equal-width bins) and top-1 accuracy (the seat it thinks likeliest is on
the other side), overall and by round. Beside them: the base rate (the share of other seats on
the other side, the best guess with no observation at all) and a reference probe, an MLP
trained on the raw observations of half of the games (even game numbers) and scored on the
other half, as the policy is. The probe reads what the observation allows a simple learner to
infer, so ``share = (base - policy) / (base - probe)`` of log-loss says how much of that the
policy has: 0 no better than the base rate, 1 as good as the probe, above 1 better than it.

Mass on ruled-out assignments (``ruled_out``). The public facts of a decision (read from the
observation by the game's own ``PUBLIC_FACTS`` function) settle some seats' sides and the
number of other-side seats; the assignments they allow are those that agree with both.
Beliefs are marginals, so the mass a policy puts on a set of assignments is not defined by
them alone; what is defined is the least mass *any* joint distribution with these marginals
must put on ruled-out assignments, 1 minus the largest mass the allowed assignments can carry
(``allowed_mass``, exact, in closed form). It is 0 exactly when the beliefs are consistent with
the facts, so a correct, unsure belief (1/2 on each of two seats, one of which is the menace)
costs nothing, while 0.9 on each of them costs 0.8, and a belief of 0.3 that a revealed crew
member is on the other side costs 0.3.
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
from .progress import bar
from .stats import format_difference, paired_difference

EPS = 1e-6


class Believer(Protocol):
    def beliefs(self, observation: np.ndarray, who: np.ndarray) -> np.ndarray:
        ...  # [N, D], [N, 2] -> [N, P]


def has_beliefs(policy) -> TypeGuard[Believer]:
    return (callable(getattr(policy, "beliefs", None))
            and not getattr(policy, "beliefs_unavailable", None))


# --- public facts ---------------------------------------------------------------------------


def menace_facts(x: dict, params: dict) -> tuple[np.ndarray, np.ndarray]:
    """The Menace: a revealed agenda (a killed, exiled or Witnessed seat) settles its side,
    and the table size fixes the agendas dealt (``rules/setup.deal_agendas``: one Menace at 4
    seats, two from 5, the Coward from 7). The Coward sides with the Menace once a Menace has
    fallen while one lives, all of which is public: a fallen Menace is revealed, and a seat
    not revealed is alive. So its side, the number of Menace-side seats and the observer's
    own side (its agenda; the Coward's side is shown to the Coward) are all known."""
    from envs.menace.cards import MENACE, THE_COWARD
    from envs.menace.tables import AGENDA_SIDE

    n = params["num_players"]
    menaces, coward = (1 if n == 4 else 2), n >= 7
    shown = x["agenda_revealed"] > 0  # [M, n, agendas], seat-relative
    known = shown.any(-1)
    known[:, 0] = True
    agenda = np.where(known, shown.argmax(-1), -1)
    agenda[:, 0] = x["own_agenda"].argmax(-1)
    alive = x["alive"] > 0
    menace = known & (AGENDA_SIDE[agenda] == MENACE)
    fallen = (menace & (~alive | (x["exiled"] > 0))).any(1)
    menace_alive = (menace.sum(1) < menaces) | (menace & alive).any(1)
    coward_menace = coward & fallen & menace_alive  # [M]
    is_menace = np.where(agenda == THE_COWARD, coward_menace[:, None],
                         AGENDA_SIDE[agenda] == MENACE)
    menace_side = menaces + coward_menace.astype(np.int64)
    own = is_menace[:, 0]
    settled = np.where(known, is_menace != own[:, None], -1)[:, 1:].astype(np.int8)
    count = np.where(own, n - menace_side, menace_side)
    return settled, count


def amongus_facts(x: dict, params: dict) -> tuple[np.ndarray, np.ndarray]:
    """Among Us: one impostor; its colour is public from the start, and a character card face
    up (voted, voted for, cleared, guessed in a sabotage) shows a colour, so that seat's side;
    a seat a clearer looked at is publicly not the impostor. The observer knows its own card."""
    n = params["num_players"]
    own = x["is_impostor"][:, 0] > 0  # [M]
    up = x["revealed"] > 0  # [M, n]
    impostor = x["known_colour"].argmax(-1) == x["impostor_colour"].argmax(-1)[:, None]
    side = np.where(up, impostor, np.where(x["not_impostor"] > 0, False, -1))
    other = np.where(side < 0, -1, side != own[:, None])
    settled = other[:, 1:].astype(np.int8)
    count = np.where(own, n - 1, 1)
    return settled, count


PUBLIC_FACTS = {"menace": menace_facts, "amongus": amongus_facts}
"""Per game: ``(pieces of the observations [M, ...] by name, params) -> (settled [M, P-1]
int8: 1 the seat is publicly on the observer's other side, 0 on its side, -1 not settled;
count [M]: the number of other seats on the other side)``, from what the observer sees."""


def public_facts(game: str, observation: np.ndarray, params: dict):
    """``PUBLIC_FACTS`` of ``game`` for observations ``[M, D]``, or None for a game without."""
    facts = PUBLIC_FACTS.get(game)
    if facts is None:
        return None
    layout = envs.registry[game].observation_layout(params)
    return facts(layout.split(np.asarray(observation)), params)


def _largest_share(b: np.ndarray, free: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Per row, the largest m in [0, 1] with ``sum over free seats of min(m, b) >= k m``: how
    much mass sets of exactly k free seats can carry when each seat's inclusion is at most its
    belief. ``sum min(m, b)`` is the minimum over subsets I of ``sum_I b + (u - |I|) m``, and for
    each size i the i smallest beliefs bind, so m* = min over i with k - u + i > 0 of
    ``(sum of the i smallest) / (k - u + i)``."""
    u = free.sum(1)
    ordered = np.sort(np.where(free, b, np.inf), 1)
    smallest = np.concatenate([np.zeros((b.shape[0], 1)),
                               np.cumsum(np.where(np.isfinite(ordered), ordered, 0.0), 1)], 1)
    best = np.ones(b.shape[0])
    for i in range(b.shape[1] + 1):
        denominator = k - u + i
        ok = (i <= u) & (denominator > 0)
        best = np.where(ok, np.minimum(best, smallest[:, i] / np.maximum(denominator, 1)), best)
    return best


def allowed_mass(p: np.ndarray, settled: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The largest mass that assignments the facts allow can carry under marginal beliefs
    ``p [M, K]`` (``1 - allowed_mass`` is the mass any joint with these marginals must put on
    ruled-out assignments). A joint's allowed part of mass m needs, for each settled seat, m
    at most the belief in its true side; on the free seats, a distribution over sets of exactly
    k other-side seats (k: ``count`` less the settled other-side seats) whose inclusion
    probabilities pi lie in ``[max(0, m - (1 - b)), min(m, b)]`` and sum to ``k m``. Such pi
    exists iff ``sum min(m, b) >= k m`` and ``sum min(m, 1 - b) >= (u - k) m``; both hold on an
    interval from 0, whose ends ``_largest_share`` gives."""
    p = np.asarray(p, np.float64)
    settled = np.asarray(settled)
    count = np.asarray(count, np.int64)
    if p.shape != settled.shape or count.shape != p.shape[:1]:
        raise ValueError(f"beliefs {p.shape}, settled {settled.shape} and count {count.shape} "
                         f"do not fit")
    free = settled < 0
    k = count - (settled == 1).sum(1)
    if ((k < 0) | (k > free.sum(1))).any():
        row = int(np.flatnonzero((k < 0) | (k > free.sum(1)))[0])
        raise ValueError(f"public facts contradict each other in row {row}: settled "
                         f"{settled[row].tolist()} with {count[row]} other-side seats")
    cap = np.where(settled == 1, p, np.where(settled == 0, 1.0 - p, 1.0)).min(1)
    return np.minimum.reduce([cap, _largest_share(p, free, k),
                              _largest_share(1.0 - p, free, free.sum(1) - k)])


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
    progress = bar(games, "beliefs")  # before make_vec: a first run compiles there
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
                        b = np.asarray(policy.beliefs(vec.observation[pick], who[pick]),
                                       np.float64)
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
        progress.update(done.size)
        decision[ended] = 0
        game_of[ended] = -1
        refill = done[: max(0, games - next_game)]
        if refill.size:
            numbers = np.arange(next_game, next_game + refill.size)
            vec.deal(refill, numbers)
            game_of[refill] = numbers
            next_game += refill.size
    progress.close()
    if not parts["game"]:
        raise ValueError(f"no decisions of {sorted(scored)} in {games} games")
    cat = {k: np.concatenate(v) if v else None for k, v in parts.items()}
    return Observed(cat["observation"], cat["other_side"], cat["round"], cat["game"],
                    cat["team"], cat["beliefs"])


def scores(p: np.ndarray, y: np.ndarray, facts=None, bins: int = 10) -> dict:
    """Log-loss, Brier, ECE and top-1 of probabilities ``p`` [M, K] for truths ``y`` [M, K];
    with ``facts`` (``(settled, count)`` of ``public_facts``), the mean mass on assignments
    they rule out."""
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
    ruled_out = None if facts is None else float(np.mean(1.0 - allowed_mass(p, *facts)))
    return {"n": int(y.size), "log_loss": log_loss, "brier": brier, "ece": float(ece),
            "top1": top1, "ruled_out": ruled_out, "calibration": curve}


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
    facts = public_facts(game, data.observation[test], params)

    def part(at):
        return None if facts is None else (facts[0][at], facts[1][at])

    result = {"game": game, "version": spec.version, "params": params, "policy": entrant.label,
              "teams": list(entrant.roles), "against": other.label, "games": games, "seed": seed,
              "decisions_scored": int(test.sum()), "has_beliefs": data.beliefs is not None,
              "no_beliefs_because": getattr(built, "beliefs_unavailable", None),
              "overall": {k: scores(v, y, facts) for k, v in predictors.items()},
              "by_round": {}}
    for r in np.unique(rounds):
        at = rounds == r
        if at.sum() >= 50:
            result["by_round"][int(r)] = {k: _brief(scores(v[at], y[at], part(at)))
                                          for k, v in predictors.items()}
    # by the observer's side: a side that knows its partners has little left to infer
    result["by_team"] = {spec.teams[t]: {k: _brief(scores(v[teams == t], y[teams == t],
                                                          part(teams == t)))
                                        for k, v in predictors.items()}
                         for t in np.unique(teams)}
    result["differences"] = log_loss_differences(predictors, y, data.game[test])
    o = result["overall"]
    if entrant.label in o:
        gain = o["base rate"]["log_loss"] - o["probe"]["log_loss"]
        result["share_of_probe"] = (
            (o["base rate"]["log_loss"] - o[entrant.label]["log_loss"]) / gain if gain > 0
            else None)
    return result


def log_loss_differences(predictors: dict, y: np.ndarray, games: np.ndarray) -> dict:
    """Each pair of predictors' log-loss difference (the first minus the second; negative: the
    first predicts better), with a paired bootstrap 95% interval over held-out games: the
    predictors score the same decisions, and a game's decisions share its deal, so the game is
    the unit resampled."""
    y = np.asarray(y, bool)
    _, game_of = np.unique(games, return_inverse=True)
    per_game = {}
    for name, p in predictors.items():
        p = np.clip(np.asarray(p, np.float64), EPS, 1 - EPS)
        loss = -np.where(y, np.log(p), np.log1p(-p)).mean(axis=1)  # [decisions]
        per_game[name] = np.bincount(game_of, loss) / np.bincount(game_of)
    names = list(per_game)
    out = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            mean, lo, hi = paired_difference(per_game[b], per_game[a])
            out[f"{b} - {a}"] = {"mean": mean, "interval": [lo, hi]}
    return out


def _mass(s: dict) -> str:
    return "-" if s["ruled_out"] is None else f"{s['ruled_out']:.3f}"


def _brief(s: dict) -> dict:
    return {k: v for k, v in s.items() if k != "calibration"}


def format_result(r: dict) -> str:
    lines = [f"{r['game']} v{r['version']}: beliefs of {r['policy']} as "
             f"{'/'.join(r['teams'])} (other teams: {r['against']}), "
             f"{r['decisions_scored']:,} decisions of {r['games'] // 2:,} held-out games"]
    if not r["has_beliefs"]:
        lines.append(f"({r['policy']}: {r.get('no_beliefs_because') or 'has no beliefs()'}; "
                     f"base rate and probe only)")
    head = (f"{'round/team':>10} {'predictor':<14} {'log-loss':>9} {'Brier':>7} {'ECE':>7} "
            f"{'top-1':>7} {'ruled out':>9}")
    lines += [head, "-" * len(head)]
    rows = [("all", r["overall"])] + [(k, v) for k, v in r.get("by_team", {}).items()]
    rows += [(str(k), v) for k, v in r["by_round"].items()]
    for label, table in rows:
        for name, s in table.items():
            lines.append(f"{label:>10} {name:<14} {s['log_loss']:>9.4f} {s['brier']:>7.4f} "
                         f"{s['ece']:>7.4f} {s['top1']:>7.3f} {_mass(s):>9}")
    for pair, d in r.get("differences", {}).items():
        lines.append(f"log-loss {pair}: {format_difference((d['mean'], *d['interval']), 4)} "
                     f"(paired over held-out games)")
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
