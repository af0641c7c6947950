"""The range of every field of an Among Us record (see ``envs/core/limits.py``): what
``VecEnv.set_records`` accepts. Seats and colours index the record's seat and colour axes, so
they must lie at the table; counts stay within what the deal and ``max_rounds`` allow."""

from ..core.limits import FLAG, SEAT, SEAT_OR_NONE, Range, last_seat
from .cards import TASKS_PER_COLOUR
from .rules import AFTER_CLEAR, NUM_PHASES


def _rounds(params: dict) -> int:
    return params["max_rounds"]


COLOUR = Range(0, last_seat, "a colour at the table")
COLOUR_OR_NONE = Range(-1, last_seat, "a colour at the table, or -1")
PER_ROUND = Range(0, _rounds, "at most one a round")

LIMITS = {
    "colour": COLOUR_OR_NONE,
    "impostor_colour": COLOUR,
    "impostor": SEAT,
    "hand": Range(0, TASKS_PER_COLOUR, "task cards of one colour"),
    "phase": Range(0, NUM_PHASES - 1, "a phase"),
    "round": Range(1, _rounds, "a round up to max_rounds"),
    "first_player": SEAT,
    "investigation_index": Range(0, lambda p: p["num_players"], "seats that have shown"),
    "turn_index": Range(0, lambda p: p["num_players"], "turns ended this round"),
    "turn_owner": SEAT,
    "partner": SEAT_OR_NONE,
    "offered_colour": COLOUR_OR_NONE,
    "sabotage_index": Range(0, lambda p: p["num_players"] - 2, "seats guessed right"),
    "voted": FLAG,
    "ballot": SEAT_OR_NONE,
    "cleared": FLAG,
    "revealed": FLAG,
    "not_impostor": FLAG,
    "looked": FLAG,
    "shown_now": COLOUR_OR_NONE,
    "shown_total": PER_ROUND,
    "given": Range(0, lambda p: 2 * p["max_rounds"], "a card each way in a round"),
    "trades": PER_ROUND,
    "trades_started": PER_ROUND,
    "deck": Range(0, last_seat, "the colour of a task card being dealt"),
    "window": Range(0, AFTER_CLEAR, "no window, after a wrong vote, after a clear"),
    "window_index": Range(0, lambda p: p["num_players"] - 1, "seats the window has passed"),
    "vote_target": SEAT_OR_NONE,
    "look_target": SEAT_OR_NONE,
}
