"""A person plays one seat at the terminal; every other seat is played by a named policy.

The person sees only what a player at that seat would: their own view (``render(seat)``) and
the other seats' actions as they look across the table, from the game's
``render.public_action(record, seat, action, viewer)`` (face-down cards and secret ballots
hidden until revealed), printed as ``player_N: <text>`` with ``record`` the table before the
action; their own likewise, as ``player_N (you): <text>``; and what the rules then did in
public, from ``render.public_events(before, after, viewer)`` (a vote's count and result, an exile, cards
revealed, the tracks), each as ``  * <text>``. The menu names moves with
``render.action_words(record, seat, action)`` (absolute seats, cards by name), and ``help``
and ``card NAME`` answer from ``render.RULES_REMINDER`` and ``render.card_text``. A game
without a hook shows only who acted, the action table's names, and no events: all the words
live in the game's ``render`` module, for every front end to share."""

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
    words = game_hook(game, "render", "action_words")
    human = HumanPolicy(
        vec.spec.action_names, lambda: vec.render(0, seat), read=read,
        words=(lambda a: words(vec.records[0], seat, a)) if words else None,
        rules=game_hook(game, "render", "RULES_REMINDER") or "",
        card_text=game_hook(game, "render", "card_text"))
    public_action = game_hook(game, "render", "public_action") or _who_acted
    public_events = game_hook(game, "render", "public_events") or _no_events
    team = vec.spec.teams[vec.teams()[0, seat]]
    side = "" if team == f"player_{seat}" else f", on the {team} side"
    print(f"You are player_{seat}{side}. Type help for the commands and the rules.")
    while True:
        deciding = vec.current_seat[0]
        if deciding == seat:
            policy = human
        else:  # the deciding seat's team as the game stands (a Coward may have changed sides)
            policy = others[vec.spec.teams[vec.teams()[0, deciding]]]
        who = np.array([[0, deciding]])  # game slot 0, the seat to decide
        action = choose(policy, vec.observation, vec.action_mask, who)
        before = vec.records[0].copy()  # the table the action was taken at
        # refuses an illegal one first; a finished game stays on the table, to tell how it ended
        rewards, terminated, truncated = vec.step(action, autoreset=False)
        seen = public_action(before, int(deciding), int(action[0]), seat)
        print(f"player_{deciding}{'' if policy is not human else ' (you)'}: {seen}")
        for event in public_events(before, vec.records[0], seat):
            print(f"  * {event}")
        if terminated[0] or truncated[0]:
            outcome = "a draw" if truncated[0] else f"{vec.spec.teams[vec.winner[0]]} wins"
            print(vec.render(0, seat))
            order = sorted(range(vec.num_players), key=lambda j: -rewards[0, j])
            print(f"Game over: {outcome}. Rewards: " + ", ".join(
                f"player_{j} {rewards[0, j]:+.2g}" for j in order))
            print(f"Your reward: {rewards[0, seat]:+.2g}")
            return float(rewards[0, seat])


def _who_acted(record, seat: int, action: int, viewer: int) -> str:
    """For a game without ``render.public_action``: that the seat acted, never what it did."""
    return "acts"


def _no_events(before, after, viewer: int) -> list[str]:
    """For a game without ``render.public_events``: nothing announced beyond the table."""
    return []
