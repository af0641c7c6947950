"""How The Menace Among Us games between two policies end: the tally behind the balance notes
of docs/rules/menace.md (issue 46).

Plays games ``0 .. games-1`` of ``seed`` (dealt by index, as ``hiddendeck benchmark`` deals them,
so two runs with the same seed play the same deals) with one policy per team, and reads each
finished game's record: who won, the rounds, the Crew seats killed and exiled and the Menaces
exiled in the games the Crew lost, and how often a Menace played Backstab or Brawl and chose a
Brawl's target. Every rate comes with its Wilson 95% interval.

    python -m evaluation.menace_tally --players 5 --games 300 --seed 0 \\
        --crew heuristic --menace heuristic

A policy is any entrant text (``heuristic``, ``drain``,
``killer@py:agents.menace_styles:MenaceKiller``).
"""

from __future__ import annotations

import argparse
import json

import numpy as np

import envs
from agents.policy import choose
from envs.menace import cards as c
from envs.menace.tables import AGENDA_SIDE

from .entrants import resolve
from .stats import wilson_interval


def tally(crew: str, menace: str, players: int, games: int, seed: int = 0,
          num_envs: int = 256) -> dict:
    """Play ``games`` deals of ``seed`` at ``players`` seats and count how they ended."""
    if games < 1:
        raise ValueError(f"games must be positive, got {games}")
    spec = envs.registry["menace"]
    params = spec.resolve(num_players=players)
    policies = {team: resolve(text, spec, params).build(spec, params, seed)
                for team, text in (("crew", crew), ("menace", menace))}
    slots = min(num_envs, games)
    vec = envs.make_vec("menace", slots, seed=seed, **params)
    vec.deal(np.arange(slots), np.arange(slots))
    next_game = slots
    live = np.ones(slots, bool)
    teams = vec.spec.teams
    n = players
    sums = {k: 0.0 for k in ("crew_wins", "draws", "rounds", "lost", "lost_crew_killed",
                             "lost_crew_exiled", "lost_menace_exiled", "won_crew_killed",
                             "menace_backstab", "menace_brawl", "crew_backstab", "crew_brawl",
                             "menace_brawl_targets")}
    rows = np.arange(slots)
    who = np.empty((slots, 2), np.int64)
    who[:, 0] = rows
    while live.any():
        who[:, 1] = vec.current_seat
        seat_team = vec.teams()[rows, vec.current_seat]
        actions = np.zeros(slots, np.int64)
        for t, name in enumerate(teams):
            idx = np.flatnonzero((seat_team == t) & live)
            if idx.size:
                actions[idx] = choose(policies[name], vec.observation[idx],
                                      vec.action_mask[idx], who[idx])
        for b in np.flatnonzero(~live):  # a slot with no deal left plays out a spare one
            actions[b] = np.flatnonzero(vec.action_mask[b])[0]
        _, terminated, truncated = vec.step(actions, autoreset=False)
        ended = np.flatnonzero((terminated | truncated) & live)
        if ended.size:
            for policy in set(policies.values()):
                policy.game_over(ended)
        refill, indices = [], []
        for b in ended:
            s = vec.records[b]
            menace_seats = [p for p in range(n) if AGENDA_SIDE[s["agenda"][p]] == c.MENACE]
            crew_seats = [p for p in range(n) if s["agenda"][p] != c.THE_COWARD
                          and AGENDA_SIDE[s["agenda"][p]] == c.CREW]
            killed = sum(1 for p in crew_seats if not s["alive"][p])
            crew_won = bool(terminated[b]) and teams[vec.winner[b]] == "crew"
            sums["rounds"] += s["round"]
            if not terminated[b] or vec.winner[b] < 0:
                sums["draws"] += 1
            elif crew_won:
                sums["crew_wins"] += 1
                sums["won_crew_killed"] += killed
            else:
                sums["lost"] += 1
                sums["lost_crew_killed"] += killed
                sums["lost_crew_exiled"] += sum(1 for p in crew_seats if s["exiled"][p])
                sums["lost_menace_exiled"] += sum(1 for p in menace_seats if s["exiled"][p])
            for p in range(n):
                side = "menace" if p in menace_seats else "crew"
                sums[f"{side}_backstab"] += s["game_cards"][p, c.BACKSTAB]
                sums[f"{side}_brawl"] += s["game_cards"][p, c.BRAWL]
            for p in menace_seats:
                sums["menace_brawl_targets"] += int(s["game_brawls"][p].sum())
            if next_game < games:
                refill.append(b)
                indices.append(next_game)
                next_game += 1
            else:
                live[b] = False
        if refill:
            vec.deal(refill, indices)
        if not live.any():
            break
        # a slot with no deal left gets a spare one (never counted), so that every slot steps
        spare = np.flatnonzero(~live & (terminated | truncated))
        if spare.size:
            vec.deal(spare, games + spare)
    played = games
    lost = max(1.0, sums["lost"])
    wins = int(sums["crew_wins"])
    lo, hi = wilson_interval(wins, played)
    return {
        "players": players, "seed": seed, "games": played, "crew": crew, "menace": menace,
        "crew_wins": wins, "crew_win_rate": wins / played, "interval95": [lo, hi],
        "draws": int(sums["draws"]), "rounds_per_game": sums["rounds"] / played,
        "per_lost_game": {
            "crew_killed": sums["lost_crew_killed"] / lost,
            "crew_exiled": sums["lost_crew_exiled"] / lost,
            "menace_exiled": sums["lost_menace_exiled"] / lost,
        },
        "crew_killed_per_won_game": sums["won_crew_killed"] / max(1.0, sums["crew_wins"]),
        "per_game": {
            "menace_backstab": sums["menace_backstab"] / played,
            "menace_brawl": sums["menace_brawl"] / played,
            "menace_brawl_targets": sums["menace_brawl_targets"] / played,
            "crew_backstab": sums["crew_backstab"] / played,
            "crew_brawl": sums["crew_brawl"] / played,
        },
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evaluation.menace_tally",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[5])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--crew", default="heuristic")
    parser.add_argument("--menace", nargs="+", default=["heuristic"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    for n in args.players:
        for menace in args.menace:
            r = tally(args.crew, menace, n, args.games, args.seed)
            if args.json:
                print(json.dumps(r))
                continue
            lo, hi = r["interval95"]
            lost, per = r["per_lost_game"], r["per_game"]
            print(f"{n}p {r['crew']} vs {r['menace'].partition('@')[0]:>14}: crew "
                  f"{r['crew_wins']}/{r['games']} = {r['crew_win_rate']:.3f} [{lo:.3f}, {hi:.3f}]"
                  f"  rounds {r['rounds_per_game']:.1f}  lost game: killed "
                  f"{lost['crew_killed']:.2f} crew-exiled {lost['crew_exiled']:.2f} "
                  f"menace-exiled {lost['menace_exiled']:.2f}  "
                  f"menace BS {per['menace_backstab']:.2f}"
                  f" Brawl {per['menace_brawl']:.2f} (targets {per['menace_brawl_targets']:.2f})",
                  flush=True)


if __name__ == "__main__":
    main()
