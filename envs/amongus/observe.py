"""What one seat may know, written as the named pieces of ``spec.observation_layout``.

Seats are relative to the observer. Nothing here reads another seat's hand, colour or trades
unless the rules made it known to the observer: a public reveal, the observer's own look during
a clear, or a trade the observer took part in. By default nothing is inferred: the counts of
``counting`` are added only with ``assist=1``, made from the raw pieces written here.
"""

from ..core.jit import kernel
from ..core.seats import absolute, relative
from .cards import HAND_SIZE
from .counting import PRIOR, impostor_counts, impostor_odds
from .pieces import (
    CLEARED, COLOURS_KNOWN, DECIDING_SEAT, FIRST_PLAYER, GIVEN_TO, HAND, IMPOSTOR_COLOUR,
    IMPOSTOR_ODDS, IS_IMPOSTOR, KNOWN_COLOUR, NOT_IMPOSTOR, OWN_COLOUR, PHASE, RECEIVED_FROM,
    REVEALED, ROUND, SABOTAGE_CHANCE, SABOTAGE_TARGET, SABOTAGE_TARGET_COLOUR,
    SABOTAGE_TARGET_GAVE, SABOTAGE_TARGET_ODDS, SABOTAGE_TARGET_SHOWN, SHOWN_NOW, SHOWN_TOTAL,
    TRADE_PARTNER, TRADES, TURN_OWNER, UNCLAIMED_COLOURS, VOTED, VOTED_FOR, WINDOW,
    WINDOW_CARDS,
)
from .rules import AFTER_VOTE, END_OF_TURN, REPLY, SABOTAGE_GUESS, SABOTAGE_WINDOW, sabotage_target
from .spec import state_layout


@kernel
def knows_colour(s, seat, j):
    """Whether ``seat`` knows ``j``'s colour: its own, a face-up card, or its own look."""
    return j == seat or s["revealed"][j] or s["looked"][seat, j]


@kernel
def observe(s, seat, out, off, n):
    per_round = 1.0 / s["max_rounds"]
    hand, colour, given, trades = s["hand"], s["colour"], s["given"], s["trades"]
    shown_now, shown_total = s["shown_now"], s["shown_total"]
    voted, cleared, revealed = s["voted"], s["cleared"], s["revealed"]
    not_impostor = s["not_impostor"]
    out[off[OWN_COLOUR] + colour[seat]] = 1.0
    out[off[IMPOSTOR_COLOUR] + s["impostor_colour"]] = 1.0
    out[off[IS_IMPOSTOR]] = 1.0 if seat == s["impostor"] else 0.0
    for c in range(n):
        out[off[HAND] + c] = hand[seat, c] * (1.0 / HAND_SIZE)
    out[off[PHASE] + s["phase"]] = 1.0
    out[off[DECIDING_SEAT] + relative(s["current_seat"], seat, n)] = 1.0
    out[off[TURN_OWNER] + relative(s["turn_owner"], seat, n)] = 1.0
    out[off[FIRST_PLAYER] + relative(s["first_player"], seat, n)] = 1.0
    out[off[ROUND]] = s["round"] * per_round
    o_known, o_now, o_total = off[KNOWN_COLOUR], off[SHOWN_NOW], off[SHOWN_TOTAL]
    o_given, o_received, o_trades = off[GIVEN_TO], off[RECEIVED_FROM], off[TRADES]
    known = 0
    for c in range(n):
        out[off[UNCLAIMED_COLOURS] + c] = 1.0
    out[off[UNCLAIMED_COLOURS] + s["impostor_colour"]] = 0.0
    for r in range(n):
        j = absolute(r, seat, n)
        out[off[VOTED] + r] = voted[j]
        if s["ballot"][j] >= 0:
            out[off[VOTED_FOR] + r * n + relative(s["ballot"][j], seat, n)] = 1.0
        out[off[CLEARED] + r] = cleared[j]
        out[off[REVEALED] + r] = revealed[j]
        out[off[NOT_IMPOSTOR] + r] = not_impostor[j]
        if knows_colour(s, seat, j):
            out[o_known + r * n + colour[j]] = 1.0
            out[off[UNCLAIMED_COLOURS] + colour[j]] = 0.0
            known += 1
        if shown_now[j] >= 0:
            out[o_now + r * n + shown_now[j]] = 1.0
        row = r * n
        for c in range(n):
            out[o_total + row + c] = shown_total[j, c] * per_round
        if trades[seat, j] or trades[j, seat]:  # only seats that traded with the observer
            for c in range(n):
                out[o_given + row + c] = given[seat, j, c] * per_round
                out[o_received + row + c] = given[j, seat, c] * per_round
        if s["trades_started"][j]:
            for r2 in range(n):
                k = absolute(r2, seat, n)
                out[o_trades + row + r2] = trades[j, k] * per_round
    if s["phase"] == REPLY:
        out[off[TRADE_PARTNER] + relative(s["partner"], seat, n)] = 1.0
    if s["phase"] == SABOTAGE_WINDOW:
        out[off[WINDOW] + s["window"] - 1] = 1.0
        out[off[WINDOW_CARDS] + relative(s["turn_owner"], seat, n)] = 1.0
        if s["window"] == AFTER_VOTE:
            out[off[WINDOW_CARDS] + relative(s["vote_target"], seat, n)] = 1.0
    out[off[COLOURS_KNOWN]] = (known - 1) / (n - 1)
    if s["phase"] == SABOTAGE_GUESS:
        # The target's rows of shown_total and received_from, repeated where a flat network
        # can read them: it cannot easily look up one seat's row by the sabotage_target one-hot.
        target = sabotage_target(s)
        out[off[SABOTAGE_TARGET] + relative(target, seat, n)] = 1.0
        if knows_colour(s, seat, target):
            out[off[SABOTAGE_TARGET_COLOUR] + colour[target]] = 1.0
        traded = trades[seat, target] or trades[target, seat]
        for c in range(n):
            out[off[SABOTAGE_TARGET_SHOWN] + c] = shown_total[target, c] * per_round
            if traded:
                out[off[SABOTAGE_TARGET_GAVE] + c] = given[target, seat, c] * per_round
    if s["assist"]:
        assist(s, seat, out, off, n)


@kernel
def assist(s, seat, out, off, n):
    """The counts of ``assist=1``, made from the raw pieces just written, as a scripted player
    makes them: the impostor's at every decision of its own, a crewmate's at its end of turn
    (where it may vote or look; counting at every decision would cost every crew step)."""
    if seat == s["impostor"]:
        odds = out[off[SABOTAGE_TARGET_ODDS] : off[SABOTAGE_TARGET_ODDS] + n]
        out[off[SABOTAGE_CHANCE]] = impostor_counts(out, off, n, PRIOR, odds)
    elif s["phase"] == END_OF_TURN and s["current_seat"] == seat:
        impostor_odds(out, off, n, PRIOR, out[off[IMPOSTOR_ODDS] : off[IMPOSTOR_ODDS] + n])


_STATE = state_layout({"num_players": 4, "max_rounds": 30})
S_COLOUR = _STATE.index("colour")
S_IMPOSTOR = _STATE.index("impostor")
S_IMPOSTOR_COLOUR = _STATE.index("impostor_colour")
S_HAND = _STATE.index("hand")
S_PHASE = _STATE.index("phase")
S_WINDOW = _STATE.index("window")
S_LOOK_TARGET = _STATE.index("look_target")
S_DECIDING_SEAT = _STATE.index("deciding_seat")
S_TURN_OWNER = _STATE.index("turn_owner")
S_ROUND = _STATE.index("round")
S_VOTED = _STATE.index("voted")
S_CLEARED = _STATE.index("cleared")
S_REVEALED = _STATE.index("revealed")
S_SHOWN_TOTAL = _STATE.index("shown_total")
S_TRADES = _STATE.index("trades")


@kernel
def god_view(s, out, off):
    n = s["num_players"]
    per_round = 1.0 / s["max_rounds"]
    out[off[S_IMPOSTOR] + s["impostor"]] = 1.0
    out[off[S_IMPOSTOR_COLOUR] + s["impostor_colour"]] = 1.0
    out[off[S_PHASE] + s["phase"]] = 1.0
    if s["window"] > 0:
        out[off[S_WINDOW] + s["window"] - 1] = 1.0
    if s["look_target"] >= 0:
        out[off[S_LOOK_TARGET] + s["look_target"]] = 1.0
    out[off[S_DECIDING_SEAT] + s["current_seat"]] = 1.0
    out[off[S_TURN_OWNER] + s["turn_owner"]] = 1.0
    out[off[S_ROUND]] = s["round"] * per_round
    for j in range(n):
        out[off[S_COLOUR] + j * n + s["colour"][j]] = 1.0
        out[off[S_VOTED] + j] = s["voted"][j]
        out[off[S_CLEARED] + j] = s["cleared"][j]
        out[off[S_REVEALED] + j] = s["revealed"][j]
        for c in range(n):
            out[off[S_HAND] + j * n + c] = s["hand"][j, c] / HAND_SIZE
            out[off[S_SHOWN_TOTAL] + j * n + c] = s["shown_total"][j, c] * per_round
        for k in range(n):
            out[off[S_TRADES] + j * n + k] = s["trades"][j, k] * per_round
