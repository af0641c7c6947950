"""The Oxygen and Energy tracks and the end of the game: every change of a track checks the
conditions that end the game at once (rulebook "Winning and Losing", ruling "Tracks").
"""

import numpy as np

from ...core.jit import kernel
from .. import cards as c
from ..tables import AGENDA_GOAL
from .board import (
    CREW_TEAM,
    ENERGY_GOAL,
    MENACE_TEAM,
    OVERLOAD,
    RESOLUTION,
    SAFETY_THRESHOLD,
    is_crew,
    is_menace,
    menace_alive,
)


@kernel
def change_oxygen(s, amount):
    s["oxygen"] = max(0, min(s["oxygen"] + amount, s["oxygen_max"]))
    check_end(s)


@kernel
def gain_energy(s, amount):
    """During a Resolution Phase the reactor takes at most 5 above its level at the start."""
    cap = ENERGY_GOAL
    if s["stage"] == RESOLUTION:
        cap = min(cap, s["energy_at_resolution"] + OVERLOAD)
    s["energy"] = max(s["energy"], min(s["energy"] + amount, cap))
    check_end(s)


@kernel
def lose_energy(s, amount):
    s["energy"] = max(0, s["energy"] - amount)


@kernel
def check_end(s):
    """The conditions that end the game at once, the Menace's first."""
    if s["terminated"] or s["truncated"]:
        return
    if s["oxygen"] <= 0:
        win(s, np.int64(MENACE_TEAM))
        return
    crew_alive = False
    for seat in range(s["num_players"]):
        if s["alive"][seat] and is_crew(s, seat):
            crew_alive = True
    if not crew_alive:
        win(s, np.int64(MENACE_TEAM))
        return
    if s["energy"] >= SAFETY_THRESHOLD and not menace_alive(s):
        win(s, np.int64(CREW_TEAM))


@kernel
def individual_goal_met(s, seat):
    goal = AGENDA_GOAL[s["agenda"][seat]]
    if goal == c.GOAL_ANOTHER_PLAYER_KILLED:
        for other in range(s["num_players"]):
            if other != seat and not s["alive"][other]:
                return True
        return False
    if goal == c.GOAL_NOT_EXILED:
        return not s["exiled"][seat]
    if goal == c.GOAL_NO_CREW_EXILED:
        return not s["crew_exiled"]
    if goal == c.GOAL_ALIVE_AND_WOUNDED:
        return s["alive"][seat] and s["wound_n"][seat] > 0
    if goal == c.GOAL_MENACE_EXILED:
        return s["menace_exiled"]
    if goal == c.GOAL_FOUR_REPAIRS_PLAYED:
        return s["repairs_played"][seat] >= 4
    if goal == c.GOAL_NEVER_VOTED_FOR_CREW:
        return not s["voted_for_crew"][seat]
    if goal == c.GOAL_OXYGEN_FOUR_AT_END:
        return s["oxygen"] >= 4
    return True


@kernel
def win(s, team):
    """Side rewards; the Coward's is survival; the Advanced game adds individual goals."""
    s["terminated"] = True
    s["winner"] = team
    for seat in range(s["num_players"]):
        agenda = s["agenda"][seat]
        if agenda == c.THE_COWARD:
            won = s["alive"][seat]
        elif is_menace(s, seat):
            won = team == MENACE_TEAM
        else:
            won = team == CREW_TEAM
        if s["advanced"] and not individual_goal_met(s, seat):
            won = False
        s["rewards"][seat] = 1.0 if won else -1.0


@kernel
def update_coward(s):
    """The Coward sides with the Menace once one has fallen, while any Menace lives."""
    if s["menace_fallen"] and menace_alive(s):
        s["coward_side"] = MENACE_TEAM
    else:
        s["coward_side"] = CREW_TEAM
