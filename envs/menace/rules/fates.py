"""Wounds, deaths and exile, the agenda abilities they set off, and the Mission Leader token that
passes over the fallen (rulebook "Wounds", "Exile", "Death").
"""

import numpy as np

from ...core.jit import kernel
from .. import cards as c
from ..tables import AGENDA_EXILED_OXYGEN, AGENDA_KILLED_OXYGEN
from .board import (
    BLANK_WOUND,
    NOBODY,
    has_wound,
    is_crew,
    is_menace,
    removable_wound,
    seat_after,
)
from .hands import discard_hand, draw_card
from .tracks import change_oxygen, check_end, gain_energy, lose_energy, update_coward


@kernel
def wound(s, seat):
    """The top wound card, face up in front of the seat; on-receipt wounds act at once."""
    if not s["alive"][seat]:
        return
    if s["shielded"][seat]:
        s["shielded"][seat] = False
        return
    kind = BLANK_WOUND
    if s["wound_deck_n"] > 0:
        s["wound_deck_n"] -= 1
        kind = s["wound_deck"][s["wound_deck_n"]]
    s["wound_list"][seat, s["wound_n"][seat]] = kind
    s["wound_n"][seat] += 1
    s["wound_held"][seat, kind] += 1
    s["wounded_this_round"] = True
    if kind == c.PUNCTURED_LUNG:
        change_oxygen(s, np.int64(-1))
    elif kind == c.ADRENALINE_SURGE:
        draw_card(s, seat)
        draw_card(s, seat)
    elif kind == c.RADIATION_BURNS:
        lose_energy(s, np.int64(1))


@kernel
def remove_wound(s, seat):
    """The most recent removable Wound goes under the wound deck."""
    i = removable_wound(s, seat)
    if i < 0:
        return
    kind = s["wound_list"][seat, i]
    for j in range(i, s["wound_n"][seat] - 1):
        s["wound_list"][seat, j] = s["wound_list"][seat, j + 1]
    s["wound_n"][seat] -= 1
    s["wound_list"][seat, s["wound_n"][seat]] = -1
    s["wound_held"][seat, kind] -= 1
    if kind != BLANK_WOUND:
        deck = s["wound_deck"]
        for j in range(s["wound_deck_n"], 0, -1):
            deck[j] = deck[j - 1]
        deck[0] = kind
        s["wound_deck_n"] += 1


@kernel
def pass_mission_leader(s):
    """Clockwise to the next living seat without a Dislocated Shoulder, if there is one."""
    n = s["num_players"]
    fallback = NOBODY
    for k in range(1, n + 1):
        seat = seat_after(s, s["mission_leader"], k)
        if s["alive"][seat]:
            if not has_wound(s, seat, c.DISLOCATED_SHOULDER):
                s["mission_leader"] = seat
                return
            if fallback == NOBODY:
                fallback = seat
    if fallback != NOBODY:
        s["mission_leader"] = fallback


@kernel
def kill(s, seat):
    """Agenda revealed, its killed effect and ability; the seat takes no further part."""
    agenda = s["agenda"][seat]
    was_exiled = s["exiled"][seat]
    s["alive"][seat] = False
    s["revealed"][seat] = True
    s["killed_this_round"] = True
    s["round_killed"] |= 1 << seat
    if is_menace(s, seat):
        s["menace_fallen"] = True
    if seat == s["mission_leader"]:
        pass_mission_leader(s)
        s["leader_passed"] = True
    if agenda == c.THE_VENGEANT:
        s["agenda_due"][seat] = True
    elif not was_exiled:
        if agenda == c.THE_CONTAGION or agenda == c.THE_SAINT or agenda == c.THE_WITNESS:
            s["agenda_due"][seat] = True
    update_coward(s)
    oxygen = s["killed_menace_oxygen"] if is_menace(s, seat) else AGENDA_KILLED_OXYGEN[agenda]
    change_oxygen(s, oxygen)
    if agenda == c.THE_DEVOTED and not was_exiled:
        devoted_last_repair(s)
    check_end(s)


@kernel
def devoted_last_repair(s):
    gain_energy(s, np.int64(2))


@kernel
def exile(s, seat):
    """Agenda revealed, its exiled effect; the seat loses its voice but still plays cards."""
    agenda = s["agenda"][seat]
    s["exiled"][seat] = True
    s["revealed"][seat] = True
    s["round_exiled"] |= 1 << seat
    if is_menace(s, seat):
        s["menace_fallen"] = True
        s["menace_exiled"] = True
    elif is_crew(s, seat):
        s["crew_exiled"] = True
    if agenda == c.THE_BUTCHER or agenda == c.THE_WITNESS:
        s["agenda_due"][seat] = True
    update_coward(s)
    change_oxygen(s, AGENDA_EXILED_OXYGEN[agenda])


@kernel
def agenda_target_ok(s, owner, target):
    """Whom an agenda ability may choose: always another living seat, plus its own condition."""
    if target == owner or not s["alive"][target]:
        return False
    agenda = s["agenda"][owner]
    if agenda == c.THE_SAINT:
        return removable_wound(s, target) >= 0
    if agenda == c.THE_WITNESS:
        return not s["revealed"][target]
    return True


@kernel
def use_agenda_ability(s, owner, target):
    agenda = s["agenda"][owner]
    if agenda == c.THE_CONTAGION:
        discard_hand(s, target)
    elif agenda == c.THE_VENGEANT or agenda == c.THE_BUTCHER:
        wound(s, target)
    elif agenda == c.THE_SAINT:
        remove_wound(s, target)
    elif agenda == c.THE_WITNESS:
        s["revealed"][target] = True
