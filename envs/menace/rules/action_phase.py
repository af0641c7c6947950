"""1. Action Phase (rulebook "Action Phase"): from the Mission Leader clockwise each living seat
draws, plays a Below Deck card face down or uses an Above Deck Action (`abilities.py`).
"""

from ...core.jit import kernel
from .. import cards as c
from .abilities import can_use
from .board import ACTION, NOBODY, P, TURN, decide, has_wound, playable_count, seat_after
from .fates import kill
from .resolution import start_resolution


@kernel
def start_of_round_flags(s):
    for seat in range(P):
        s["played"][seat, :] = 0
        s["seen_played"][seat, :, :] = 0
        s["seen_top"][seat, :] = -1
    s["played_n"][:] = 0
    s["revealed_cards"][:] = 0
    s["used"][:, :] = False
    s["leader_passed"] = False
    s["ability_target"][:, :] = NOBODY
    s["locked_down"][:] = False
    s["suppressed"][:] = False
    s["hidden"][:] = False
    s["shielded"][:] = False
    s["bloodwork"][:] = -1
    s["seen_emma"][:] = -1
    s["moxie"] = 0
    s["vigil"] = 0
    s["wounded_this_round"] = False
    s["killed_this_round"] = False
    s["backstab_spent"] = False
    s["brawl_spent"] = False
    s["brawl_by"] = NOBODY
    s["brawl_target"] = NOBODY
    s["veto_user"] = NOBODY
    s["veto_armed"] = False
    s["veto_asked"] = False
    s["vote_called"] = False
    s["vote_caller"] = NOBODY
    s["round_exiled"] = 0
    s["round_killed"] = 0
    s["claim"][:] = -1
    s["accused"][:] = NOBODY
    s["accused_card"][:] = -1


@kernel
def start_round(s):
    s["round"] += 1
    start_of_round_flags(s)
    s["round_leader"] = s["mission_leader"]
    s["turn_pos"] = 0
    s["stage"] = ACTION


@kernel
def can_draw(s, seat):
    if s["deck_n"][seat] == 0:
        return False
    return not (has_wound(s, seat, c.TREMORS) and s["hand_n"][seat] >= 2)


@kernel
def has_turn_action(s, seat):
    if can_draw(s, seat) or playable_count(s, seat) > 0:
        return True
    for slot in range(2):
        if can_use(s, seat, slot):
            return True
    return False


@kernel
def next_turn(s):
    """From the round's first seat clockwise, each living seat takes one action."""
    n = s["num_players"]
    while s["turn_pos"] < n:
        seat = seat_after(s, s["round_leader"], s["turn_pos"])
        if not s["alive"][seat]:
            s["turn_pos"] += 1
            continue
        if s["hand_n"][seat] == 0 and s["deck_n"][seat] == 0:
            s["turn_pos"] += 1
            kill(s, seat)
            return False
        if has_turn_action(s, seat):
            decide(s, TURN, seat)
            return True
        s["turn_pos"] += 1
    start_resolution(s)
    return False
