"""Among Us – The Card Game, the rules as scalar code over one game record.

Read top to bottom it follows the rulebook (``shared/seeds/004_*``) and the rulings: setup,
the round (investigation, then each player's turn: trade, then vote / clear / kill), the
sabotage windows that follow a card turned face up, sabotage at any impostor decision, and the
end of the game. Every function takes the record ``s`` of
one game; the engine runs them over a whole batch.
"""

import numpy as np

from ..core.jit import kernel
from ..core.record import make_dtype
from ..core.rng import below, shuffle
from .actions import (
    CLEAR, GIVE, GUESS, KILL, NO_SABOTAGE, NO_TRADE, OFFER, PASS, SABOTAGE, SHOW, VOTE, O,
)
from .cards import HAND_SIZE, MAX_PLAYERS, TASKS_PER_COLOUR
from .spec import NUM_PHASES, SPEC

P = MAX_PLAYERS
C = MAX_PLAYERS

# Phases: whose decision is pending and what it is about.
INVESTIGATION, TRADE, REPLY, END_OF_TURN, SABOTAGE_WINDOW, SABOTAGE_GUESS = 0, 1, 2, 3, 4, 5
PHASE_NAMES = (
    "investigation", "trade", "trade reply", "end of turn", "sabotage window", "sabotage",
)
assert len(PHASE_NAMES) == NUM_PHASES

# Sabotage windows: which reveal the open one follows.
NO_WINDOW, AFTER_VOTE, AFTER_CLEAR = 0, 1, 2

# Teams, as in SPEC.teams.
CREW, IMPOSTOR = 0, 1

DTYPE = make_dtype(
    SPEC,
    [
        ("colour", np.int8, (P,)),  # seat -> colour of its character card
        ("impostor_colour", np.int8),  # public from the start (ruling)
        ("impostor", np.int8),  # the seat holding the impostor's character card: secret
        ("hand", np.int8, (P, C)),  # task cards held, by colour
        ("phase", np.int8),
        ("round", np.int16),
        ("first_player", np.int8),  # first to take a turn (and to show) this round
        ("investigation_index", np.int8),  # how many seats of the order have shown
        ("turn_index", np.int8),  # how many turns of the round have ended
        ("turn_owner", np.int8),
        ("partner", np.int8),  # seat asked to reply to a trade, -1 when none pending
        ("offered_colour", np.int8),  # the offered card, face down on the table
        ("sabotage_index", np.int8),  # how many seats the impostor has guessed right
        ("window", np.int8),  # the open sabotage window: NO_WINDOW, AFTER_VOTE, AFTER_CLEAR
        ("window_index", np.int8),  # how far clockwise from the turn owner the window has gone
        ("vote_target", np.int8),  # the seat a wrong vote named, while its window is open
        ("look_target", np.int8),  # the seat a clearer will look at: secret, -1 when none
        ("voted", np.uint8, (P,)),  # has used the one vote of the game
        ("ballot", np.int8, (P,)),  # the seat each vote named (public), -1 before it votes
        ("cleared", np.uint8, (P,)),  # has cleared: hand on the table, no more trades
        ("revealed", np.uint8, (P,)),  # character card face up
        ("not_impostor", np.uint8, (P,)),  # publicly cleared by someone's look
        ("looked", np.uint8, (P, P)),  # looked[i, j]: i has seen j's character card
        ("shown_now", np.int8, (P,)),  # colour shown this round, -1 if none yet
        ("shown_total", np.int8, (P, C)),  # colours shown in all investigations
        ("given", np.int8, (P, P, C)),  # given[i, j, c]: cards of colour c that i gave j
        ("trades", np.int8, (P, P)),  # trades[i, j]: trades i started with j (public)
        ("trades_started", np.int8, (P,)),  # row sums of trades, so observers skip empty rows
        ("deck", np.int8, (P * TASKS_PER_COLOUR,)),  # the task cards while they are dealt
    ],
)


# --- setup -----------------------------------------------------------------------------------


@kernel
def reset(s):
    """Deal characters and task cards, name the impostor's colour, start round 1."""
    n = s["num_players"]
    s["hand"][:, :] = 0
    s["voted"][:] = False
    s["ballot"][:] = -1
    s["cleared"][:] = False
    s["revealed"][:] = False
    s["not_impostor"][:] = False
    s["looked"][:, :] = False
    s["shown_total"][:, :] = 0
    s["given"][:, :, :] = 0
    s["trades"][:, :] = 0
    s["trades_started"][:] = 0
    s["colour"][:] = -1
    for seat in range(n):
        s["colour"][seat] = seat
    shuffle(s, s["colour"], n)
    s["impostor_colour"] = below(s, n)
    for seat in range(n):
        if s["colour"][seat] == s["impostor_colour"]:
            s["impostor"] = seat
    deck = s["deck"]  # in the record, so that dealing a game allocates nothing
    for i in range(n * TASKS_PER_COLOUR):
        deck[i] = i // TASKS_PER_COLOUR
    shuffle(s, deck, n * TASKS_PER_COLOUR)
    for i in range(n * HAND_SIZE):
        s["hand"][i // HAND_SIZE, deck[i]] += 1
    s["partner"] = -1
    s["offered_colour"] = -1
    s["sabotage_index"] = 0
    s["window"] = NO_WINDOW
    s["window_index"] = 0
    s["vote_target"] = -1
    s["look_target"] = -1
    s["round"] = 1
    start_round(s, 1 % n)  # the seat on the dealer's (seat 0's) left goes first
    advance(s)


# --- the round ---------------------------------------------------------------------------------


@kernel
def advance(s):
    """Walk the round forward to the next decision: the next player to show a card (a cleared
    player's hand already lies on the table), the next turn (a cleared player skips the trade;
    one who has also voted has nothing left to decide), or the next round, whose first player
    is the one who went second; past ``max_rounds`` the game is a draw."""
    n = s["num_players"]
    while True:
        while s["investigation_index"] < n:
            seat = (s["first_player"] + s["investigation_index"]) % n
            if not s["cleared"][seat]:
                s["phase"] = INVESTIGATION
                s["current_seat"] = seat
                return
            s["investigation_index"] += 1
        while s["turn_index"] < n:
            seat = (s["first_player"] + s["turn_index"]) % n
            s["turn_owner"] = seat
            s["current_seat"] = seat
            if not s["cleared"][seat]:
                s["phase"] = TRADE
                return
            if not s["voted"][seat]:
                s["phase"] = END_OF_TURN
                return
            s["turn_index"] += 1
        if s["round"] >= s["max_rounds"]:
            s["truncated"] = True
            return
        s["round"] += 1
        start_round(s, (s["first_player"] + 1) % n)


@kernel
def start_round(s, first_player):
    s["first_player"] = first_player
    s["turn_owner"] = first_player
    s["shown_now"][:] = -1
    s["investigation_index"] = 0
    s["turn_index"] = 0


@kernel
def show_task_card(s, colour):
    seat = s["current_seat"]
    s["shown_now"][seat] = colour
    s["shown_total"][seat, colour] += 1
    s["investigation_index"] += 1
    advance(s)


@kernel
def end_turn(s):
    s["turn_index"] += 1
    advance(s)


# --- trades ------------------------------------------------------------------------------------


@kernel
def offer_trade(s, colour, partner):
    """The offered card goes face down on the table; the partner must answer with a card."""
    s["hand"][s["current_seat"], colour] -= 1
    s["offered_colour"] = colour
    s["partner"] = partner
    s["phase"] = REPLY
    s["current_seat"] = partner


@kernel
def complete_trade(s, colour):
    owner = s["turn_owner"]
    partner = s["partner"]
    offered = s["offered_colour"]
    s["hand"][partner, colour] -= 1
    s["hand"][owner, colour] += 1
    s["hand"][partner, offered] += 1
    s["given"][owner, partner, offered] += 1
    s["given"][partner, owner, colour] += 1
    s["trades"][owner, partner] += 1
    s["trades_started"][owner] += 1
    s["partner"] = -1
    s["offered_colour"] = -1
    s["phase"] = END_OF_TURN
    s["current_seat"] = owner


# --- end of turn: vote, clear, kill ------------------------------------------------------------


@kernel
def vote(s, target):
    """Both character cards are turned face up. Naming the impostor ends the game at once, with
    no window (the named player "must also reveal"); after a wrong vote a sabotage window opens
    if a card was turned face up by it (ruling: a window follows a card turned face up; a
    cleared voter naming a seat already face up turns none)."""
    voter = s["current_seat"]
    turned = not s["revealed"][voter] or not s["revealed"][target]
    s["voted"][voter] = True
    s["ballot"][voter] = target
    s["revealed"][voter] = True
    s["revealed"][target] = True
    if target == s["impostor"]:
        win(s, CREW)
    elif turned:
        s["vote_target"] = target
        open_window(s, AFTER_VOTE)
    else:
        end_turn(s)


@kernel
def clear(s, target):
    """Hand and character card go face up and a sabotage window opens; the look at ``target``
    comes when the window closes. The target is chosen now and seen by no one else: nothing in
    the window but a sabotage, which ends the game, could change the clearer's choice."""
    seat = s["current_seat"]
    s["cleared"][seat] = True
    s["revealed"][seat] = True
    s["look_target"] = target
    open_window(s, AFTER_CLEAR)


@kernel
def look(s):
    """The clearer's private look: at the impostor it wins for the crew; anyone else is then
    publicly not the impostor, their colour private to the clearer."""
    target = s["look_target"]
    s["look_target"] = -1
    s["looked"][s["turn_owner"], target] = True
    if target == s["impostor"]:
        win(s, CREW)
    else:
        s["not_impostor"][target] = True
        end_turn(s)


@kernel
def kill(s):
    win(s, IMPOSTOR)


# --- sabotage windows ----------------------------------------------------------------------------


@kernel
def open_window(s, kind):
    """Right after another player turns a character card face up, the impostor may sabotage
    (ruling). Every seat whose card is still face down is asked in turn, clockwise from the turn
    owner; the impostor's always is, so being asked tells nobody anything."""
    s["window"] = kind
    s["window_index"] = 0
    next_in_window(s)


@kernel
def next_in_window(s):
    n = s["num_players"]
    while s["window_index"] < n - 1:
        s["window_index"] += 1
        seat = (s["turn_owner"] + s["window_index"]) % n
        if not s["revealed"][seat]:
            s["phase"] = SABOTAGE_WINDOW
            s["current_seat"] = seat
            return
    kind = s["window"]
    shut_window(s)
    if kind == AFTER_CLEAR:
        look(s)
    else:
        end_turn(s)


@kernel
def shut_window(s):
    s["window"] = NO_WINDOW
    s["vote_target"] = -1


# --- sabotage ------------------------------------------------------------------------------------


@kernel
def sabotage_target(s):
    """Seats are guessed one at a time, clockwise from the impostor."""
    return (s["impostor"] + 1 + s["sabotage_index"]) % s["num_players"]


@kernel
def begin_sabotage(s):
    shut_window(s)
    s["look_target"] = -1  # the sabotage decides the game before a clearer's look could
    s["revealed"][s["impostor"]] = True
    s["sabotage_index"] = 0
    s["phase"] = SABOTAGE_GUESS
    s["current_seat"] = s["impostor"]


@kernel
def guess(s, colour):
    """A wrong guess loses at once (the rest could not change that); a right one turns that
    character card face up; all right wins."""
    target = sabotage_target(s)
    if s["colour"][target] != colour:
        win(s, CREW)
        return
    s["revealed"][target] = True
    s["sabotage_index"] += 1
    if s["sabotage_index"] == s["num_players"] - 1:
        win(s, IMPOSTOR)


# --- the end -------------------------------------------------------------------------------------


@kernel
def win(s, team):
    s["terminated"] = True
    s["winner"] = team
    for seat in range(s["num_players"]):
        on_team = (seat == s["impostor"]) == (team == IMPOSTOR)
        s["rewards"][seat] = 1.0 if on_team else -1.0


@kernel
def team_of(s, seat):
    return IMPOSTOR if seat == s["impostor"] else CREW


# --- decisions -------------------------------------------------------------------------------------


@kernel
def step(s, action):
    """Apply the pending seat's (already validated) action."""
    n = s["num_players"]
    seat = s["current_seat"]
    if action == SABOTAGE:
        begin_sabotage(s)
    elif action < OFFER:
        show_task_card(s, action - SHOW)
    elif action < NO_TRADE:
        k = action - OFFER
        offer_trade(s, k // O, (seat + 1 + k % O) % n)
    elif action == NO_TRADE:
        s["phase"] = END_OF_TURN
    elif action < VOTE:
        complete_trade(s, action - GIVE)
    elif action < CLEAR:
        vote(s, (seat + 1 + action - VOTE) % n)
    elif action < KILL:
        clear(s, (seat + 1 + action - CLEAR) % n)
    elif action == KILL:
        kill(s)
    elif action == PASS:
        end_turn(s)
    elif action == NO_SABOTAGE:
        next_in_window(s)
    else:
        guess(s, action - GUESS)


@kernel
def legal_actions(s, mask):
    n = s["num_players"]
    seat = s["current_seat"]
    phase = s["phase"]
    is_impostor = seat == s["impostor"]
    if phase == INVESTIGATION:
        for c in range(n):
            mask[SHOW + c] = s["hand"][seat, c] > 0
    elif phase == TRADE:
        mask[NO_TRADE] = True
        for c in range(n):
            if s["hand"][seat, c] > 0:
                for o in range(1, n):
                    if not s["cleared"][(seat + o) % n]:
                        mask[OFFER + c * O + o - 1] = True
    elif phase == REPLY:
        for c in range(n):
            mask[GIVE + c] = s["hand"][seat, c] > 0
    elif phase == END_OF_TURN:
        mask[PASS] = True
        if is_impostor:
            mask[KILL] = s["hand"][seat, s["impostor_colour"]] == HAND_SIZE
        else:
            if not s["voted"][seat]:
                for o in range(1, n):
                    mask[VOTE + o - 1] = True
            if not s["cleared"][seat] and s["hand"][seat, s["colour"][seat]] == HAND_SIZE:
                for o in range(1, n):
                    mask[CLEAR + o - 1] = True
    elif phase == SABOTAGE_WINDOW:
        mask[NO_SABOTAGE] = True
    else:
        for c in range(n):
            mask[GUESS + c] = c != s["impostor_colour"]
    if is_impostor and phase != SABOTAGE_GUESS:
        mask[SABOTAGE] = True
