"""A person plays one seat at the terminal; every other seat is played by a named policy.

The person sees only what a player at that seat would: their own view (``render(seat)``) and
the other seats' actions as they look across the table, from the game's
``render.public_action(record, seat, action, viewer)`` (face-down cards and secret ballots
hidden until revealed), printed as ``player_N: <text>`` with ``record`` the table before the
action. A game without that hook shows only who acted."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import envs
from agents import make_policy
from agents.checkpoint import load_checkpoint
from agents.human import HumanPolicy
from agents.neural import load_policy
from agents.policy import Policy, choose
from envs.core.aec import game_hook


def opponent_policies(
    opponents: str | list[str], spec, params: dict, seed: int = 0
) -> dict[str, Policy]:
    """One policy per team from ``NAME`` or ``TEAM=NAME`` items (``heuristic`` if unnamed).

    A bare ``random`` or ``heuristic`` plays every team not named; a bare checkpoint plays
    only the team it was trained for, since a crew network in a menace seat would read an
    observation it never learnt to act on; a checkpoint of one policy for every seat
    (``shared``, as a free-for-all trains) plays every team not named, like a bare name.
    """
    items = [opponents] if isinstance(opponents, str) else list(opponents)
    named: dict[str, str] = {}
    default = "heuristic"
    trained_for = {}  # checkpoint -> its team ("shared": every seat), each file read once
    for item in items:
        team, sep, name = item.rpartition("=")
        if Path(name).suffix == ".pt" and name not in trained_for:
            trained_for[name] = load_checkpoint(name)["metadata"]["team"]
        if not sep and trained_for.get(name, "shared") != "shared":
            team = trained_for[name]
        if not sep and not team:
            default = name
            continue
        if team not in spec.teams:
            raise ValueError(f"no team {team!r} in {spec.name}; teams are {list(spec.teams)}")
        named[team] = name
    policies = {}
    for team in spec.teams:
        name = named.get(team, default)
        if Path(name).suffix == ".pt":
            policies[team] = load_policy(
                name, spec.name, team=None if trained_for[name] == "shared" else team,
                seed=seed, **params)
        else:
            policies[team] = make_policy(name, spec, params, seed)
    return policies


def play(
    game: str,
    seat: int,
    opponents: str | list[str] = "heuristic",
    seed: int = 0,
    read=input,
    **params,
):
    vec = envs.make_vec(game, 1, seed=seed, **params)
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not (
        0 <= seat < vec.num_players
    ):
        raise ValueError(f"seat must be in [0, {vec.num_players}), got {seat}")
    others = opponent_policies(opponents, vec.spec, vec.params, seed)
    human = HumanPolicy(vec.spec.action_names, lambda: vec.render(0, seat), read=read)
    public_action = game_hook(game, "render", "public_action") or _who_acted
    team = vec.spec.teams[vec.teams()[0, seat]]
    print(f"You are player_{seat} ({team}).")
    while True:
        deciding = vec.current_seat[0]
        if deciding == seat:
            policy = human
        else:  # the deciding seat's team as the game stands (a Coward may have changed sides)
            policy = others[vec.spec.teams[vec.teams()[0, deciding]]]
        who = np.array([[0, deciding]])  # game slot 0, the seat to decide
        action = choose(policy, vec.observation, vec.action_mask, who)
        before = vec.records[0].copy()  # the table the action was taken at
        rewards, terminated, truncated = vec.step(action)  # refuses an illegal one first
        if policy is not human:
            seen = public_action(before, int(deciding), int(action[0]), seat)
            print(f"player_{deciding}: {seen}")
        if terminated[0] or truncated[0]:
            outcome = "a draw" if truncated[0] else f"{vec.spec.teams[vec.winner[0]]} wins"
            print(f"Game over: {outcome}. Your reward: {rewards[0, seat]:+.0f}")
            return float(rewards[0, seat])


def _who_acted(record, seat: int, action: int, viewer: int) -> str:
    """For a game without ``render.public_action``: that the seat acted, never what it did."""
    return "acts"
