"""MANIACAL, the rules as scalar code over one game record.

Read top to bottom it follows ``shared/maniacal-spec.md`` §1: setup, the round (Base Building,
Henchmen, the Contract Phase with its attempts, Clean-up), the end of the game. ``step``
applies one decision; ``settle`` then applies every decision that has a single legal action
(P-44), so a seat is only asked real choices, except where whether it is asked would tell the
table something hidden (version 2: a seat holding Schemes is asked at every Scheme window). Every function takes the record ``s`` of one
game; the engine runs them over a whole batch.

Amounts and ids handed to functions are int64 (``np.int64(...)`` where a record field of a
narrower type would go): numba compiles one copy of a function per argument type.
"""

import numpy as np

from ..core.jit import kernel
from ..core.record import make_dtype
from ..core.rng import below, shuffle
from . import cards as c
from .actions import (
    BUILD, CONTRACT, COUNT, HENCHMAN, HOSPITAL, MAX_COUNT, NUM_ACTIONS, PASS, REROLL,
    ROOM, SCHEME, SELL, SUPERVILLAIN, TRAIT, UNDERGROUND, VISIT,
)
from .spec import DIE_FACES, MAX_PLAYERS, MONEY_BONUS, ROUNDS, SPEC, WEEKS
from .tables import (
    CONTRACT_DECK_SIZES, CONTRACT_DECKS, CONTRACT_RESULT, CONTRACT_TARGET, CONTRACT_TEAM,
    CONTRACT_TRAIT, FIRST_MERCENARY, HENCHMAN_COST, HENCHMAN_DECKS, HENCHMAN_TRAITS,
    HENCHMAN_TYPE, LACKEY, MAX_DIFFICULTY_DECK, MERCENARY, N_CONTINENTS, N_HENCHMEN,
    N_MERCENARIES, N_POWERS, N_ROOM_CARDS, N_ROOM_KINDS, N_SCHEME_CARDS, N_SCHEME_KINDS,
    N_SUPERVILLAINS, POWER_BONUS, ROOM_AMOUNT, ROOM_ATTRACTION, ROOM_CATEGORY, ROOM_COST,
    ROOM_DECK, ROOM_EFFECT, ROOM_TRAIT, ROOM_WEEKS, ROOM_WINDOW, SCHEME_DECK, SCHEME_NEG,
    SCHEME_NEG_AMOUNT, SCHEME_POS, SCHEME_POS_AMOUNT, SCHEME_WINDOW, VILLAIN_LACKEY, VILLAIN_WEEKS,
)

P, H, R, S, C = MAX_PLAYERS, N_HENCHMEN, N_ROOM_KINDS, N_SCHEME_KINDS, N_CONTINENTS
HAND_SIZE, PICKS = 5, 3
TEAM_MAX = 4
DICE_QUEUE = 64
FACES = np.array(DIE_FACES, np.int64)
WEEKS_OF_ROUND = np.array(WEEKS, np.int64)
BONUS_OF_RANK = np.array(MONEY_BONUS, np.int64)
VISIT_WEEKS, HEAL_PRICE = 2, 2

# Phases, as in spec.PHASE_NAMES; OVER once the game has ended.
BASE_BUILDING, CONTRACT_PHASE, CLEAN_UP, OVER = 0, 1, 2, 3

# Pending decisions, as in spec.DECISION_NAMES.
(DRAFT, TURN, WORKER, TEAM, NEGATIVE_SCHEME, BEFORE, AFTER, REROLL_COUNT, CHOOSE_TRAIT,
 CHOOSE_HENCHMAN, HEAL, AFTER_ACTION, UNPAID, FIRE) = range(14)

# What a WORKER / CHOOSE_TRAIT / CHOOSE_HENCHMAN / REROLL_COUNT decision is for.
(NO_SUBJECT, LACKEY_TRAIT, CAPTURED_ONE, INJURED_ONE, POWER_ONE, ROOM_POWER, ROOM_HEAL,
 SCHEME_HEAL, ACTION_ROOM_WORKER, CONTRACT_ROOM_WORKER, LACKEY_REROLL, SCHEME_REROLL) = range(12)

# Where a henchman card is, as in spec.WHERE_NAMES.
FACE_DOWN, FACE_UP, OWNED, REMOVED, IN_MERCENARY_DECK = 0, 1, 2, 3, 4

NOBODY = -1

DTYPE = make_dtype(
    SPEC,
    [
        ("round", np.int8),  # 1..3
        ("phase", np.int8),
        ("decision", np.int8),
        ("subject", np.int8),
        ("back", np.int8),  # the window a free Scheme or a room's worker returns to
        # Base Building
        ("room_deck", np.int8, (N_ROOM_CARDS,)),  # kinds, top last
        ("room_deck_n", np.int64),
        ("hand", np.int8, (P, R)),  # draft hands by kind
        ("pick", np.int8),  # 0..2
        ("pick_kind", np.int8, (P,)),  # pending pick, -1 before the seat chose
        ("pick_build", np.uint8, (P,)),
        ("revealed_kind", np.int8, (P,)),  # last revealed pick, -1 none
        ("revealed_build", np.uint8, (P,)),
        ("passed", np.int8, (P, 2, R)),  # passed[seat, k]: cards seat passed after pick k+1,
        # less the picks revealed since by the seats that held them
        ("base", np.int8, (P, R)),
        ("used", np.int8, (P, R)),  # activations this round, by kind
        # seats
        ("money", np.int32, (P,)),
        ("infamy", np.int32, (P,)),
        ("attraction", np.int32, (P, 4)),
        ("villain", np.int8, (P,)),
        ("villain_exhausted", np.uint8, (P,)),
        ("schemes", np.int8, (P, S)),
        ("scheme_count", np.int8, (P,)),
        # the Time track and Player Order
        ("order", np.int8, (P,)),  # order[i]: the seat i-th on the Player Order track
        ("next_order", np.int8, (P,)),
        ("next_order_n", np.int8),
        ("finished", np.uint8, (P,)),
        ("spent", np.int8, (P,)),
        ("arrival", np.int16, (P,)),  # the highest arrival is on top of its stack
        ("arrivals", np.int16),
        ("active", np.int8),
        # decks
        ("scheme_deck", np.int8, (N_SCHEME_CARDS,)),  # top last
        ("scheme_deck_n", np.int64),
        ("scheme_discard", np.int8, (N_SCHEME_CARDS,)),
        ("scheme_discard_n", np.int64),
        ("scheme_discarded", np.int8, (S,)),  # the discard pile by kind (public)
        ("power_deck", np.int8, (N_POWERS,)),  # top last
        ("power_deck_n", np.int64),
        ("power_discard", np.int8, (N_POWERS,)),
        ("power_discard_n", np.int64),
        ("power_holder", np.int8, (N_POWERS,)),  # henchman id, -1 in the deck or discard
        ("mercenary_deck", np.int8, (N_MERCENARIES,)),  # top first
        ("mercenary_deck_n", np.int64),
        ("mercenary_known", np.int64),  # how many at the bottom returned in public
        ("henchman_deck", np.int8, (4, 10)),  # by type, top first
        ("henchman_top", np.int8, (4,)),  # index of the face-up card
        ("contract_deck", np.int16, (3, MAX_DIFFICULTY_DECK)),  # top last
        ("contract_deck_n", np.int64, (3,)),
        ("map", np.int16, (C,)),  # contract id on each continent, -1 empty
        # henchmen, by card id
        ("owner", np.int8, (H,)),
        ("where", np.int8, (H,)),
        ("injuries", np.int8, (H,)),
        ("exhausted", np.uint8, (H,)),
        ("on_team", np.uint8, (H,)),
        ("bonus", np.int8, (H, 4)),  # traits added by Powers
        ("powers", np.int8, (H,)),
        # the attempt in progress
        ("attempt_seat", np.int8),  # -1 when none
        ("continent", np.int8),
        ("contract", np.int16),
        ("team", np.int8, (TEAM_MAX,)),
        ("team_n", np.int8),
        ("window", np.int8),  # next opponent offset asked in the Negative-Scheme window
        ("declined", np.uint8, (P,)),
        ("negative", np.int8),  # kind of the negative Scheme played, -1 none
        ("negative_by", np.int8),
        ("flipped", np.bool_),
        ("target", np.int16),
        ("target_up", np.int16),
        ("remove_dice", np.int16),
        ("no_reroll", np.bool_),
        ("no_rooms", np.bool_),
        ("fail_injure", np.bool_),
        ("injure_again", np.bool_),  # Ambush on a failure that Injures anyway: a second one
        ("money_down", np.int16),
        ("money_up", np.int16),
        ("cancel_capture", np.bool_),
        ("lackey_trait", np.int8),  # -1 until chosen
        ("pool", np.int16, (4,)),
        ("faces", np.int16, (3,)),
        ("extra", np.int16),  # successes added after the roll
        ("rolled", np.bool_),
        ("rerolled", np.bool_),
        ("icons_left", np.int8),  # result icons still to apply
        ("pending_room", np.int8),
        ("pending_amount", np.int16),
        # Clean-up
        ("cleanup_pos", np.int8),
        ("unpaid_left", np.int8),
        # dice injected by rules tests (empty in play): the next faces to roll, in order
        ("dice_queue", np.int8, (DICE_QUEUE,)),
        ("dice_queue_n", np.int64),
        ("dice_queue_pos", np.int64),
    ],
)


# --- small helpers -----------------------------------------------------------------------------


@kernel
def team_of(s, seat):
    """Free-for-all: every seat is its own side (``SPEC.teams`` = player_0 .. player_4)."""
    return seat


@kernel
def ask(s, seat, decision, subject):
    s["current_seat"] = seat
    s["decision"] = decision
    s["subject"] = subject


@kernel
def trait_value(s, h, t):
    return HENCHMAN_TRAITS[h, t] + s["bonus"][h, t]


@kernel
def best_trait(s, h):
    """The worker's best trait (a Lackey picks one trait: its best is the one it would pick)."""
    best = 0
    for t in range(1, 4):
        if trait_value(s, h, t) > trait_value(s, h, best):
            best = t
    return best


@kernel
def owns(s, seat, h):
    return s["owner"][h] == seat and s["where"][h] == OWNED


@kernel
def has_injured(s, seat):
    for h in range(H):
        if owns(s, seat, h) and s["injuries"][h] > 0:
            return True
    return False


@kernel
def has_henchman(s, seat):
    for h in range(H):
        if owns(s, seat, h):
            return True
    return False


@kernel
def henchmen_of(s, seat):
    k = 0
    for h in range(H):
        if owns(s, seat, h):
            k += 1
    return k


@kernel
def weeks(s):
    return WEEKS_OF_ROUND[s["round"] - 1]


@kernel
def time_left(s, seat):
    return weeks(s) - s["spent"][seat]


@kernel
def roll_die(s):
    """A die is rolled only when the rules roll it (nothing is rolled ahead into the record)."""
    if s["dice_queue_pos"] < s["dice_queue_n"]:
        face = np.int64(s["dice_queue"][s["dice_queue_pos"]])
        s["dice_queue_pos"] += 1
        return face
    return FACES[below(s, 6)]


@kernel
def roll(s, count):
    for _ in range(count):
        s["faces"][roll_die(s)] += 1


# --- decks -------------------------------------------------------------------------------------


@kernel
def can_draw_scheme(s):
    return s["scheme_deck_n"] > 0 or s["scheme_discard_n"] > 0


@kernel
def draw_scheme(s, seat):
    """Top card; an empty deck is the shuffled discard pile; both empty: nothing (P-25)."""
    if s["scheme_deck_n"] == 0:
        if s["scheme_discard_n"] == 0:
            return
        for i in range(s["scheme_discard_n"]):
            s["scheme_deck"][i] = s["scheme_discard"][i]
        s["scheme_deck_n"] = s["scheme_discard_n"]
        s["scheme_discard_n"] = 0
        s["scheme_discarded"][:] = 0
        shuffle(s, s["scheme_deck"], s["scheme_deck_n"])
    s["scheme_deck_n"] -= 1
    kind = s["scheme_deck"][s["scheme_deck_n"]]
    s["schemes"][seat, kind] += 1
    s["scheme_count"][seat] += 1


@kernel
def discard_scheme(s, seat, kind):
    s["schemes"][seat, kind] -= 1
    s["scheme_count"][seat] -= 1
    s["scheme_discard"][s["scheme_discard_n"]] = kind
    s["scheme_discard_n"] += 1
    s["scheme_discarded"][kind] += 1


@kernel
def can_draw_power(s):
    return s["power_deck_n"] > 0 or s["power_discard_n"] > 0


@kernel
def grant_power(s, h):
    """Attach the top Power to ``h``, chosen before the draw (P-10); refill from the discard
    pile when the deck is empty (P-26)."""
    if s["power_deck_n"] == 0:
        if s["power_discard_n"] == 0:
            return
        for i in range(s["power_discard_n"]):
            s["power_deck"][i] = s["power_discard"][i]
        s["power_deck_n"] = s["power_discard_n"]
        s["power_discard_n"] = 0
        shuffle(s, s["power_deck"], s["power_deck_n"])
    s["power_deck_n"] -= 1
    p = s["power_deck"][s["power_deck_n"]]
    s["power_holder"][p] = h
    for t in range(4):
        s["bonus"][h, t] += POWER_BONUS[p, t]
    s["powers"][h] += 1


@kernel
def discard_powers(s, h):
    for p in range(N_POWERS):
        if s["power_holder"][p] == h:
            s["power_holder"][p] = -1
            s["power_discard"][s["power_discard_n"]] = p
            s["power_discard_n"] += 1
    s["bonus"][h, :] = 0
    s["powers"][h] = 0


@kernel
def remove_henchman(s, h):
    """Captured, unpaid or fired: out of the game, with its Powers and Injury tokens."""
    discard_powers(s, h)
    s["owner"][h] = NOBODY
    s["where"][h] = REMOVED
    s["injuries"][h] = 0
    s["exhausted"][h] = False


@kernel
def mercenary_to_bottom(s, h):
    discard_powers(s, h)
    s["owner"][h] = NOBODY
    s["where"][h] = IN_MERCENARY_DECK
    s["injuries"][h] = 0
    s["exhausted"][h] = False
    s["mercenary_deck"][s["mercenary_deck_n"]] = h
    s["mercenary_deck_n"] += 1
    s["mercenary_known"] += 1


@kernel
def hire_mercenary(s, seat):
    """Lucifer's Lounge: the top Mercenary joins at once, unexhausted (P-24)."""
    h = s["mercenary_deck"][0]
    for i in range(1, s["mercenary_deck_n"]):
        s["mercenary_deck"][i - 1] = s["mercenary_deck"][i]
    s["mercenary_deck_n"] -= 1
    s["mercenary_known"] = min(s["mercenary_known"], s["mercenary_deck_n"])
    s["owner"][h] = seat
    s["where"][h] = OWNED
    s["exhausted"][h] = False


@kernel
def deal_contracts(s, easy, hard):
    """Draw the round's contracts (the rest of the 6 Legendary) and place them at random."""
    for k in range(C):
        d = 0 if k < easy else (1 if k < easy + hard else 2)
        s["contract_deck_n"][d] -= 1
        s["map"][k] = s["contract_deck"][d, s["contract_deck_n"][d]]
    shuffle(s, s["map"], C)


# --- setup -------------------------------------------------------------------------------------


@kernel
def reset(s):
    """Setup (spec §1.1) and the first pick of round 1."""
    n = s["num_players"]
    s["room_deck"][:] = ROOM_DECK
    s["room_deck_n"] = N_ROOM_CARDS
    shuffle(s, s["room_deck"], N_ROOM_CARDS)
    for d in range(3):
        s["contract_deck"][d, :] = CONTRACT_DECKS[d]
        s["contract_deck_n"][d] = CONTRACT_DECK_SIZES[d]
        shuffle(s, s["contract_deck"][d], CONTRACT_DECK_SIZES[d])
    s["owner"][:] = NOBODY
    s["where"][:] = FACE_DOWN
    s["injuries"][:] = 0
    s["exhausted"][:] = False
    s["on_team"][:] = False
    s["bonus"][:, :] = 0
    s["powers"][:] = 0
    for k in range(4):
        s["henchman_deck"][k, :] = HENCHMAN_DECKS[k]
        shuffle(s, s["henchman_deck"][k], 10)
        s["henchman_top"][k] = 0
        s["where"][s["henchman_deck"][k, 0]] = FACE_UP
    for p in range(N_POWERS):
        s["power_deck"][p] = p
        s["power_holder"][p] = -1
    s["power_deck_n"] = N_POWERS
    s["power_discard_n"] = 0
    shuffle(s, s["power_deck"], N_POWERS)
    s["scheme_deck"][:] = SCHEME_DECK
    s["scheme_deck_n"] = N_SCHEME_CARDS
    s["scheme_discard_n"] = 0
    s["scheme_discarded"][:] = 0
    shuffle(s, s["scheme_deck"], N_SCHEME_CARDS)
    for i in range(N_MERCENARIES):
        s["mercenary_deck"][i] = FIRST_MERCENARY + i
        s["where"][FIRST_MERCENARY + i] = IN_MERCENARY_DECK
    s["mercenary_deck_n"] = N_MERCENARIES
    s["mercenary_known"] = 0
    shuffle(s, s["mercenary_deck"], N_MERCENARIES)
    villains = np.arange(N_SUPERVILLAINS)
    shuffle(s, villains, N_SUPERVILLAINS)
    s["hand"][:, :] = 0
    s["base"][:, :] = 0
    s["used"][:, :] = 0
    s["schemes"][:, :] = 0
    s["scheme_count"][:] = 0
    s["attraction"][:, :] = 0  # P-02
    s["infamy"][:] = 0
    s["villain"][:] = -1
    s["villain_exhausted"][:] = False
    s["finished"][:] = False
    s["spent"][:] = 0
    s["arrival"][:] = 0
    s["money"][:] = 0
    s["order"][:] = -1
    s["next_order"][:] = -1
    for seat in range(n):
        s["villain"][seat] = villains[seat]
        lackey = VILLAIN_LACKEY[villains[seat]]
        s["owner"][lackey] = seat
        s["where"][lackey] = OWNED
    first = below(s, n)
    for i in range(n):
        seat = (first + i) % n
        s["order"][i] = seat
        s["money"][seat] = 8 + i
    for i in range(n):
        draw_scheme(s, np.int64(s["order"][i]))
    s["map"][:] = -1
    deal_contracts(s, 4, 2)
    s["attempt_seat"] = -1
    clear_attempt(s)
    s["dice_queue_n"] = 0
    s["dice_queue_pos"] = 0
    s["round"] = 1
    start_base_building(s)
    settle(s)


# --- Phase I: Base Building ----------------------------------------------------------------


@kernel
def start_base_building(s):
    n = s["num_players"]
    s["phase"] = BASE_BUILDING
    s["hand"][:, :] = 0
    for seat in range(n):
        for _ in range(HAND_SIZE):
            s["room_deck_n"] -= 1
            s["hand"][seat, s["room_deck"][s["room_deck_n"]]] += 1
    s["pick"] = 0
    s["passed"][:, :, :] = 0
    s["pick_kind"][:] = -1
    s["revealed_kind"][:] = -1
    ask(s, 0, DRAFT, NO_SUBJECT)


@kernel
def pass_direction(s):
    """Clockwise (to seat + 1) in rounds 1 and 3, counter-clockwise in round 2."""
    return -1 if s["round"] == 2 else 1


@kernel
def choose_pick(s, seat, kind, build):
    """A hidden pick: nothing public changes until every seat has chosen."""
    s["hand"][seat, kind] -= 1
    s["pick_kind"][seat] = kind
    s["pick_build"][seat] = build
    if seat + 1 < s["num_players"]:
        ask(s, seat + 1, DRAFT, NO_SUBJECT)
    else:
        reveal_picks(s)


@kernel
def reveal_picks(s):
    """All picks resolve together; then hands pass, or after pick 3 the last 2 are discarded."""
    n = s["num_players"]
    d = pass_direction(s)
    p = s["pick"]
    for seat in range(n):
        kind = s["pick_kind"][seat]
        if s["pick_build"][seat]:
            s["money"][seat] -= ROOM_COST[kind]
            s["base"][seat, kind] += 1
            for t in range(4):
                s["attraction"][seat, t] += ROOM_ATTRACTION[kind, t]
        else:
            s["money"][seat] += ROOM_COST[kind]
        s["revealed_kind"][seat] = kind
        s["revealed_build"][seat] = s["pick_build"][seat]
        s["pick_kind"][seat] = -1
    for seat in range(n):  # what each seat passed, less what its holders just revealed
        for k in range(min(p, 2)):
            holder = (seat + (p - k) * d) % n
            kind = s["revealed_kind"][holder]
            if s["passed"][seat, k, kind] > 0:
                s["passed"][seat, k, kind] -= 1
    if p < PICKS - 1:
        moved = s["hand"].copy()
        for seat in range(n):
            s["passed"][seat, p, :] = moved[seat]
            s["hand"][(seat + d) % n, :] = moved[seat]
        s["pick"] = p + 1
        ask(s, 0, DRAFT, NO_SUBJECT)
    else:
        s["hand"][:, :] = 0  # the last 2 cards leave the game face down
        s["passed"][:, :, :] = 0
        recruit_henchmen(s)
        start_contract_phase(s)


# --- Phase II: Henchmen ----------------------------------------------------------------------


@kernel
def recruit_henchmen(s):
    """Per type, twice: the highest Attraction recruits the face-up card, paying its Cost in
    Attraction; ties go to the seat highest on Player Order; a top score below the Cost ends
    that type's recruiting this round (P-03)."""
    n = s["num_players"]
    for kind in range(4):
        for _ in range(2):
            best = -1
            for i in range(n):
                seat = s["order"][i]
                if best < 0 or s["attraction"][seat, kind] > s["attraction"][best, kind]:
                    best = seat
            h = s["henchman_deck"][kind, s["henchman_top"][kind]]
            if s["attraction"][best, kind] < HENCHMAN_COST[h]:
                break
            s["attraction"][best, kind] -= HENCHMAN_COST[h]
            s["owner"][h] = best
            s["where"][h] = OWNED
            s["exhausted"][h] = False
            s["henchman_top"][kind] += 1
            s["where"][s["henchman_deck"][kind, s["henchman_top"][kind]]] = FACE_UP


# --- Phase III: the Contract Phase -----------------------------------------------------------


@kernel
def start_contract_phase(s):
    """Tokens at spent 0, stacked in Player Order with the 1st player on top."""
    n = s["num_players"]
    s["phase"] = CONTRACT_PHASE
    s["used"][:, :] = 0
    s["finished"][:] = False
    s["spent"][:] = 0
    for i in range(n):
        s["arrival"][s["order"][i]] = n - i
    s["arrivals"] = n
    s["next_order"][:] = -1
    s["next_order_n"] = 0
    next_turn(s)


@kernel
def active_seat(s):
    """Least time spent; a tie goes to the token highest in the stack (the last to arrive)."""
    best = -1
    for seat in range(s["num_players"]):
        if s["finished"][seat]:
            continue
        if best < 0 or s["spent"][seat] < s["spent"][best] or (
            s["spent"][seat] == s["spent"][best] and s["arrival"][seat] > s["arrival"][best]
        ):
            best = seat
    return best


@kernel
def next_turn(s):
    seat = active_seat(s)
    if seat < 0:
        start_clean_up(s)
        return
    s["active"] = seat
    ask(s, seat, TURN, NO_SUBJECT)


@kernel
def move_token(s, seat, amount):
    """Right by ``amount`` weeks, on top of any token already there."""
    s["spent"][seat] += amount
    s["arrivals"] += 1
    s["arrival"][seat] = s["arrivals"]


@kernel
def leave_time_track(s, seat):
    """At 0 time left, to the leftmost free space on the Player Order track."""
    if s["spent"][seat] >= weeks(s) and not s["finished"][seat]:
        s["finished"][seat] = True
        s["next_order"][s["next_order_n"]] = seat
        s["next_order_n"] += 1


@kernel
def stays_active(s, seat):
    if s["spent"][seat] >= weeks(s):
        return False
    for j in range(s["num_players"]):
        if j != seat and not s["finished"][j] and s["spent"][j] < s["spent"][seat]:
            return False
    return True  # it arrived last, so it is on top of any token it shares a space with


@kernel
def end_action(s, seat):
    """After an action: the after-action Scheme window if the seat will not be active next
    (P-19), then its token leaves the track at 0 time, then the next active player. The
    window is opened for any seat holding a Scheme, playable now or not (pass only then):
    opened only for a playable one, it told the table which Schemes the seat held."""
    if not stays_active(s, seat) and s["scheme_count"][seat] > 0:
        ask(s, seat, AFTER_ACTION, NO_SUBJECT)
        return
    leave_time_track(s, seat)
    next_turn(s)


@kernel
def back_to_window(s, seat, window):
    """Where play resumes after a free Scheme or a Contract room: the window it came from."""
    if window == AFTER_ACTION:
        end_action(s, seat)
    else:
        ask(s, seat, window, NO_SUBJECT)


# --- rooms -------------------------------------------------------------------------------------


@kernel
def room_available(s, seat, kind):
    return s["base"][seat, kind] > s["used"][seat, kind]


@kernel
def worker_ok(s, seat, worker, kind, subject):
    """``worker`` is the Supervillain (-1) or a henchman id. The Supervillain has no traits, so
    it cannot work rooms that pay by the worker's trait (P-33). A Contract room's worker is
    never on the team."""
    effect = ROOM_EFFECT[kind]
    if worker < 0:
        if s["villain_exhausted"][seat]:
            return False
        return effect != c.MONEY_PER_WORKER_TRAIT and effect != c.ADD_WORKER_DICE
    if not owns(s, seat, worker) or s["exhausted"][worker]:
        return False
    return not (subject == CONTRACT_ROOM_WORKER and s["on_team"][worker])


@kernel
def has_worker(s, seat, kind, subject):
    if worker_ok(s, seat, np.int64(-1), kind, subject):
        return True
    for h in range(H):
        if worker_ok(s, seat, np.int64(h), kind, subject):
            return True
    return False


@kernel
def action_room_ok(s, seat, kind):
    """An Action room is offered only when it can be paid for and would do something (P-33):
    Attraction is used only in a Henchmen Phase, and none follows round 3."""
    if ROOM_CATEGORY[kind] != c.ACTION or not room_available(s, seat, kind):
        return False
    if time_left(s, seat) < ROOM_WEEKS[kind]:
        return False
    effect = ROOM_EFFECT[kind]
    if effect == c.GAIN_ATTRACTION and s["round"] == ROUNDS:
        return False
    if effect == c.DRAW_SCHEME and not can_draw_scheme(s):
        return False
    if effect == c.GRANT_POWER and not (can_draw_power(s) and has_henchman(s, seat)):
        return False
    if effect == c.HEAL and not has_injured(s, seat):
        return False
    if effect == c.BUY_INFAMY and s["money"][seat] < c.BUY_INFAMY_PRICE:
        return False
    return has_worker(s, seat, kind, np.int64(ACTION_ROOM_WORKER))


@kernel
def contract_room_ok(s, seat, kind, window):
    if ROOM_CATEGORY[kind] != c.CONTRACT or ROOM_WINDOW[kind] != window or s["no_rooms"]:
        return False
    if not room_available(s, seat, kind):
        return False
    effect = ROOM_EFFECT[kind]
    if effect == c.REROLL_BLANKS and s["faces"][0] == 0:
        return False
    if effect == c.CANCEL_CAPTURE and (s["cancel_capture"] or not result_has_capture(s)):
        return False
    return has_worker(s, seat, kind, np.int64(CONTRACT_ROOM_WORKER))


@kernel
def result_has_capture(s):
    k = s["contract"]
    return ((CONTRACT_RESULT[k, 0, 2] | CONTRACT_RESULT[k, 1, 2]) & c.CAPTURED) != 0


@kernel
def activate_room(s, seat, kind, worker):
    """Exhaust the worker, mark the room used this round, and resolve its effect."""
    if worker < 0:
        s["villain_exhausted"][seat] = True
    else:
        s["exhausted"][worker] = True
    s["used"][seat, kind] += 1
    effect = ROOM_EFFECT[kind]
    amount = ROOM_AMOUNT[kind]
    if ROOM_CATEGORY[kind] == c.ACTION:
        move_token(s, seat, ROOM_WEEKS[kind])
        if effect == c.GAIN_MONEY:
            s["money"][seat] += amount
        elif effect == c.MONEY_PER_WORKER_TRAIT:
            s["money"][seat] += trait_value(s, worker, best_trait(s, worker))
        elif effect == c.DRAW_SCHEME:
            for _ in range(amount):
                draw_scheme(s, seat)
        elif effect == c.GRANT_POWER:
            ask(s, seat, CHOOSE_HENCHMAN, ROOM_POWER)
            return
        elif effect == c.HEAL:
            s["pending_amount"] = amount
            ask(s, seat, CHOOSE_HENCHMAN, ROOM_HEAL)
            return
        elif effect == c.GAIN_ATTRACTION:
            s["attraction"][seat, ROOM_TRAIT[kind]] += amount
        elif effect == c.BUY_INFAMY:
            s["money"][seat] -= c.BUY_INFAMY_PRICE
            s["infamy"][seat] += amount
        end_action(s, seat)
        return
    window = ROOM_WINDOW[kind]
    if effect == c.ADD_DICE:
        s["pool"][ROOM_TRAIT[kind]] += amount
    elif effect == c.ADD_DICE_RECOMMENDED:
        s["pool"][CONTRACT_TRAIT[s["contract"]]] += amount
    elif effect == c.ADD_WORKER_DICE:
        t = best_trait(s, worker)
        s["pool"][t] += trait_value(s, worker, t)
    elif effect == c.ADD_SUCCESSES:
        s["extra"] += amount
    elif effect == c.REROLL_BLANKS:
        blanks = s["faces"][0]
        s["faces"][0] = 0
        roll(s, blanks)
    elif effect == c.ON_SUCCESS_MONEY:
        s["money_up"] += amount
    elif effect == c.CANCEL_CAPTURE:
        s["cancel_capture"] = True
    ask(s, seat, BEFORE if window == c.BEFORE_ROLL else AFTER, NO_SUBJECT)


# --- Schemes -----------------------------------------------------------------------------------


@kernel
def scheme_playable(s, seat, kind, window):
    """A positive half playable now, in the window ``window`` (a decision kind), where it
    would do something (P-33). Schemes work only in the Contract Phase (P-43)."""
    if s["schemes"][seat, kind] == 0:
        return False
    when = SCHEME_WINDOW[kind]
    if window == BEFORE:
        if when != c.ANY_ACTIVE and when != c.BEFORE_ROLL:
            return False
    elif window == AFTER:
        if when != c.ANY_ACTIVE and when != c.AFTER_ROLL:
            return False
    elif when != c.ANY_ACTIVE:  # TURN and AFTER_ACTION
        return False
    effect = SCHEME_POS[kind]
    if effect == c.P_HEAL:
        return has_injured(s, seat)
    if effect == c.P_REROLL:
        return s["faces"][0] + s["faces"][1] > 0
    return effect != 0


@kernel
def play_positive(s, seat, kind, window):
    """A free play while active: it costs no time and is not an action."""
    discard_scheme(s, seat, kind)
    effect = SCHEME_POS[kind]
    amount = SCHEME_POS_AMOUNT[kind]
    s["back"] = window
    if effect == c.P_ADD_DICE:
        s["pool"][CONTRACT_TRAIT[s["contract"]]] += amount
    elif effect == c.P_ADD_SUCCESSES:
        s["extra"] += amount
    elif effect == c.P_REROLL:
        ask(s, seat, REROLL_COUNT, SCHEME_REROLL)
        return
    elif effect == c.P_GAIN_MONEY:
        s["money"][seat] += amount
    elif effect == c.P_HEAL:
        s["pending_amount"] = amount
        ask(s, seat, CHOOSE_HENCHMAN, SCHEME_HEAL)
        return
    back_to_window(s, seat, window)


@kernel
def play_negative(s, seat, kind):
    """One negative Scheme against the attempt; it closes the window (P-20)."""
    discard_scheme(s, seat, kind)
    s["negative"] = kind
    s["negative_by"] = seat
    effect = SCHEME_NEG[kind]
    amount = SCHEME_NEG_AMOUNT[kind]
    if effect == c.TARGET_UP:
        s["target_up"] += amount
    elif effect == c.REMOVE_DICE:
        s["remove_dice"] += amount
    elif effect == c.NO_REROLL:
        s["no_reroll"] = True
    elif effect == c.NO_CONTRACT_ROOMS:
        s["no_rooms"] = True
    elif effect == c.ON_FAIL_INJURE:
        s["fail_injure"] = True
    elif effect == c.ON_SUCCESS_MONEY_DOWN:
        s["money_down"] += amount
    flip(s)


@kernel
def heal(s, h, amount):
    s["injuries"][h] = max(0, s["injuries"][h] - amount)


# --- Special Locations -------------------------------------------------------------------------


@kernel
def visit_ok(s, seat, location):
    if time_left(s, seat) < VISIT_WEEKS:
        return False
    if location == UNDERGROUND:
        return can_draw_scheme(s)
    if location == HOSPITAL:
        return s["money"][seat] >= HEAL_PRICE and has_injured(s, seat)
    return s["mercenary_deck_n"] > 0


@kernel
def visit(s, seat, location):
    move_token(s, seat, VISIT_WEEKS)
    if location == UNDERGROUND:
        draw_scheme(s, seat)
    elif location == HOSPITAL:
        ask(s, seat, HEAL, NO_SUBJECT)
        return
    else:
        hire_mercenary(s, seat)
    end_action(s, seat)


@kernel
def heal_at_hospital(s, seat, h):
    """$2 per Injury token, as many as the seat chooses and can afford."""
    s["money"][seat] -= HEAL_PRICE
    s["injuries"][h] -= 1
    if s["money"][seat] >= HEAL_PRICE and has_injured(s, seat):
        ask(s, seat, HEAL, NO_SUBJECT)
    else:
        end_action(s, seat)


# --- contracts ---------------------------------------------------------------------------------


@kernel
def clear_attempt(s):
    s["team"][:] = -1
    s["team_n"] = 0
    s["on_team"][:] = False
    s["declined"][:] = False
    s["negative"] = -1
    s["negative_by"] = -1
    s["flipped"] = False
    s["target"] = 0
    s["target_up"] = 0
    s["remove_dice"] = 0
    s["no_reroll"] = False
    s["no_rooms"] = False
    s["fail_injure"] = False
    s["injure_again"] = False
    s["money_down"] = 0
    s["money_up"] = 0
    s["cancel_capture"] = False
    s["lackey_trait"] = -1
    s["pool"][:] = 0
    s["faces"][:] = 0
    s["extra"] = 0
    s["rolled"] = False
    s["rerolled"] = False
    s["icons_left"] = 0
    s["contract"] = -1
    s["continent"] = -1


@kernel
def team_eligible(s, seat, h):
    return owns(s, seat, h) and not s["exhausted"][h] and s["injuries"][h] == 0


@kernel
def contract_ok(s, seat, continent, eligible):
    """Time for the seat's own cost to that continent (P-13) and enough eligible henchmen
    (``eligible`` of them)."""
    k = s["map"][continent]
    if k < 0 or time_left(s, seat) < VILLAIN_WEEKS[s["villain"][seat], continent]:
        return False
    return eligible >= CONTRACT_TEAM[k]


@kernel
def team_choices(s, seat, mask):
    """Members in ascending id order (P-34), each leaving enough eligible ones to fill the team."""
    need = CONTRACT_TEAM[s["contract"]] - s["team_n"]
    last = s["team"][s["team_n"] - 1] if s["team_n"] > 0 else -1
    left = 0
    for h in range(H - 1, last, -1):
        if team_eligible(s, seat, h):
            left += 1
            mask[HENCHMAN + h] = left >= need


@kernel
def begin_attempt(s, seat, continent):
    clear_attempt(s)
    s["attempt_seat"] = seat
    s["continent"] = continent
    s["contract"] = s["map"][continent]
    ask(s, seat, TEAM, NO_SUBJECT)


@kernel
def add_to_team(s, seat, h):
    s["team"][s["team_n"]] = h
    s["team_n"] += 1
    s["on_team"][h] = True
    if s["team_n"] == CONTRACT_TEAM[s["contract"]]:
        s["window"] = 1
        next_in_window(s)
    else:
        ask(s, seat, TEAM, NO_SUBJECT)


@kernel
def next_in_window(s):
    """Opponents clockwise from the active player, skipping those with no Scheme (P-20);
    finished seats may still play."""
    n = s["num_players"]
    seat = s["attempt_seat"]
    while s["window"] < n:
        j = (seat + s["window"]) % n
        if s["scheme_count"][j] > 0:
            ask(s, j, NEGATIVE_SCHEME, NO_SUBJECT)
            return
        s["window"] += 1
    flip(s)


@kernel
def lackey_on_team(s):
    for i in range(s["team_n"]):
        if HENCHMAN_TYPE[s["team"][i]] == LACKEY:
            return s["team"][i]
    return -1


@kernel
def flip(s):
    """Pay the time, turn the contract face up and collect the team's dice."""
    seat = s["attempt_seat"]
    move_token(s, seat, VILLAIN_WEEKS[s["villain"][seat], s["continent"]])
    s["flipped"] = True
    s["target"] = CONTRACT_TARGET[s["contract"]] + s["target_up"]
    for i in range(s["team_n"]):
        h = s["team"][i]
        if HENCHMAN_TYPE[h] != LACKEY:
            for t in range(4):
                s["pool"][t] += trait_value(s, h, t)
    if lackey_on_team(s) >= 0:
        ask(s, seat, CHOOSE_TRAIT, LACKEY_TRAIT)
    else:
        dice_collected(s)


@kernel
def dice_collected(s):
    rec = CONTRACT_TRAIT[s["contract"]]
    s["pool"][rec] -= min(s["pool"][rec], s["remove_dice"])
    ask(s, s["attempt_seat"], BEFORE, NO_SUBJECT)


@kernel
def choose_lackey_trait(s, t):
    """The Lackey rolls one trait, chosen now, after the flip (P-15)."""
    s["lackey_trait"] = t
    s["pool"][t] += trait_value(s, lackey_on_team(s), t)
    dice_collected(s)


@kernel
def roll_pool(s):
    s["faces"][:] = 0
    total = 0
    for t in range(4):
        total += s["pool"][t]
    roll(s, total)
    s["rolled"] = True
    ask(s, s["attempt_seat"], AFTER, NO_SUBJECT)


@kernel
def reroll_ok(s):
    return (
        not s["rerolled"]
        and not s["no_reroll"]
        and lackey_on_team(s) >= 0
        and s["faces"][0] + s["faces"][1] > 0
    )


@kernel
def reroll(s, ones):
    """Every blank and ``ones`` one-success dice roll again (P-17)."""
    again = s["faces"][0] + ones
    s["faces"][0] = 0
    s["faces"][1] -= ones
    roll(s, again)
    ask(s, s["attempt_seat"], AFTER, NO_SUBJECT)


@kernel
def successes(s):
    return s["faces"][1] + 2 * s["faces"][2] + s["extra"]


@kernel
def resolve_result(s):
    """Infamy and money, then the icons in the order Captured, Injured, Scheme, Power (P-18)."""
    seat = s["attempt_seat"]
    k = s["contract"]
    failed = 0 if successes(s) >= s["target"] else 1
    s["infamy"][seat] += CONTRACT_RESULT[k, failed, 0]
    money = CONTRACT_RESULT[k, failed, 1]
    icons = CONTRACT_RESULT[k, failed, 2]
    if failed == 0:
        money = max(0, money - s["money_down"]) + s["money_up"]
    elif s["fail_injure"]:  # Ambush: one more Injury, a second one where the failure Injures
        if icons & c.INJURED:
            s["injure_again"] = True
        icons |= c.INJURED
    if s["cancel_capture"]:
        icons &= ~c.CAPTURED
    s["money"][seat] += money
    s["icons_left"] = icons
    next_icon(s)


@kernel
def team_member_left(s):
    for i in range(s["team_n"]):
        if s["where"][s["team"][i]] == OWNED:
            return True
    return False


@kernel
def next_icon(s):
    seat = s["attempt_seat"]
    while s["icons_left"] != 0:
        if s["icons_left"] & c.CAPTURED:
            s["icons_left"] &= ~c.CAPTURED
            if team_member_left(s):
                ask(s, seat, CHOOSE_HENCHMAN, CAPTURED_ONE)
                return
        elif s["icons_left"] & c.INJURED:
            if s["injure_again"]:
                s["injure_again"] = False
            else:
                s["icons_left"] &= ~c.INJURED
            if team_member_left(s):
                ask(s, seat, CHOOSE_HENCHMAN, INJURED_ONE)
                return
        elif s["icons_left"] & c.SCHEME:
            s["icons_left"] &= ~c.SCHEME
            draw_scheme(s, seat)
        else:
            s["icons_left"] = 0
            if team_member_left(s) and can_draw_power(s):
                ask(s, seat, CHOOSE_HENCHMAN, POWER_ONE)
                return
    end_attempt(s)


@kernel
def end_attempt(s):
    """The contract is discarded; its continent stays empty until Clean-up (P-06)."""
    seat = s["attempt_seat"]
    s["map"][s["continent"]] = -1
    for i in range(s["team_n"]):
        h = s["team"][i]
        if s["where"][h] == OWNED:
            s["exhausted"][h] = True
    clear_attempt(s)
    s["attempt_seat"] = -1
    end_action(s, seat)


@kernel
def choose_henchman_ok(s, seat, h):
    subject = s["subject"]
    if not owns(s, seat, h):
        return False
    if subject == CAPTURED_ONE or subject == INJURED_ONE or subject == POWER_ONE:
        return s["on_team"][h]
    if subject == ROOM_HEAL or subject == SCHEME_HEAL:
        return s["injuries"][h] > 0
    return True  # ROOM_POWER: any own henchman


@kernel
def henchman_chosen(s, seat, h):
    subject = s["subject"]
    if subject == CAPTURED_ONE:
        remove_henchman(s, h)  # a captured Mercenary does not go back to its deck
        next_icon(s)
    elif subject == INJURED_ONE:
        s["injuries"][h] += 1
        next_icon(s)
    elif subject == POWER_ONE:
        grant_power(s, h)
        next_icon(s)
    elif subject == ROOM_POWER:
        grant_power(s, h)
        end_action(s, seat)
    elif subject == ROOM_HEAL:
        heal(s, h, np.int64(s["pending_amount"]))
        end_action(s, seat)
    else:  # SCHEME_HEAL
        heal(s, h, np.int64(s["pending_amount"]))
        back_to_window(s, seat, np.int64(s["back"]))


# --- Phase IV: Clean-up ------------------------------------------------------------------------


@kernel
def start_clean_up(s):
    """Seats in the new Player Order (P-28), each: salaries, Mercenaries back, firing."""
    s["phase"] = CLEAN_UP
    s["order"][:] = s["next_order"]
    s["cleanup_pos"] = 0
    clean_up_seat(s)


@kernel
def clean_up_seat(s):
    n = s["num_players"]
    while s["cleanup_pos"] < n:
        seat = s["order"][s["cleanup_pos"]]
        for h in range(FIRST_MERCENARY, FIRST_MERCENARY + N_MERCENARIES):  # paid first (P-29)
            if owns(s, seat, h):
                if s["money"][seat] > 0:
                    s["money"][seat] -= 1
                    mercenary_to_bottom(s, h)
                else:
                    remove_henchman(s, h)
        others = henchmen_of(s, seat)
        if others > s["money"][seat]:
            s["unpaid_left"] = others - s["money"][seat]
            ask(s, seat, UNPAID, NO_SUBJECT)
            return
        s["money"][seat] -= others
        if has_henchman(s, seat):
            ask(s, seat, FIRE, NO_SUBJECT)
            return
        s["cleanup_pos"] += 1
    end_round(s)


@kernel
def leave_unpaid(s, seat, h):
    remove_henchman(s, h)
    s["unpaid_left"] -= 1
    if s["unpaid_left"] == 0:
        s["money"][seat] -= henchmen_of(s, seat)
        if has_henchman(s, seat):
            ask(s, seat, FIRE, NO_SUBJECT)
            return
        s["cleanup_pos"] += 1
        clean_up_seat(s)
    else:
        ask(s, seat, UNPAID, NO_SUBJECT)


@kernel
def fire(s, h):
    if h >= 0:
        remove_henchman(s, h)
    s["cleanup_pos"] += 1
    clean_up_seat(s)


@kernel
def end_round(s):
    if s["round"] == ROUNDS:
        final_scoring(s)
        return
    for h in range(H):
        s["exhausted"][h] = False
    s["villain_exhausted"][:] = False
    s["map"][:] = -1  # unattempted contracts are discarded unseen (P-07)
    if s["round"] == 1:
        deal_contracts(s, 2, 2)
    else:
        deal_contracts(s, 0, 3)
    s["round"] += 1
    start_base_building(s)


# --- the end -----------------------------------------------------------------------------------


@kernel
def final_scoring(s):
    """Money bonus by competition rank (each tied seat gets the full bonus, P-21, P-22); order
    by Infamy, then henchmen; still tied seats share their mean position (P-23, R8)."""
    n = s["num_players"]
    for seat in range(n):
        rank = 0
        for j in range(n):
            if s["money"][j] > s["money"][seat]:
                rank += 1
        s["infamy"][seat] += BONUS_OF_RANK[rank]
    for seat in range(n):
        above, tied = 0, 0
        for j in range(n):
            if s["infamy"][j] > s["infamy"][seat] or (
                s["infamy"][j] == s["infamy"][seat] and henchmen_of(s, j) > henchmen_of(s, seat)
            ):
                above += 1
            elif s["infamy"][j] == s["infamy"][seat] and henchmen_of(s, j) == henchmen_of(s, seat):
                tied += 1
        position = 1.0 + above + (tied - 1) / 2.0
        if s["reward_mode"] == 0:
            s["rewards"][seat] = 1.0 - 2.0 * (position - 1.0) / (n - 1)
        else:
            s["rewards"][seat] = 1.0 if above == 0 else 0.0
    # ``winner``: a seat of the top group, the first of it on the final Player Order.
    for i in range(n):
        seat = s["order"][i]
        if s["winner"] < 0:
            top = True
            for j in range(n):
                if s["infamy"][j] > s["infamy"][seat] or (
                    s["infamy"][j] == s["infamy"][seat]
                    and henchmen_of(s, j) > henchmen_of(s, seat)
                ):
                    top = False
            if top:
                s["winner"] = seat
    s["phase"] = OVER
    s["terminated"] = True


# --- decisions ---------------------------------------------------------------------------------


@kernel
def legal_actions(s, mask):
    seat = s["current_seat"]
    decision = s["decision"]
    if decision == DRAFT:
        for kind in range(R):
            if s["hand"][seat, kind] > 0:
                mask[SELL + kind] = True
                mask[BUILD + kind] = s["money"][seat] >= ROOM_COST[kind]
    elif decision == TURN:
        mask[PASS] = True
        for kind in range(R):
            mask[ROOM + kind] = action_room_ok(s, seat, np.int64(kind))
        eligible = 0
        for h in range(H):
            if team_eligible(s, seat, h):
                eligible += 1
        for continent in range(C):
            mask[CONTRACT + continent] = contract_ok(s, seat, np.int64(continent), eligible)
        for location in range(3):
            mask[VISIT + location] = visit_ok(s, seat, np.int64(location))
        for kind in range(S):
            mask[SCHEME + kind] = scheme_playable(s, seat, np.int64(kind), np.int64(TURN))
    elif decision == WORKER:
        kind = np.int64(s["pending_room"])
        subject = np.int64(s["subject"])
        mask[SUPERVILLAIN] = worker_ok(s, seat, np.int64(-1), kind, subject)
        for h in range(H):
            mask[HENCHMAN + h] = worker_ok(s, seat, np.int64(h), kind, subject)
    elif decision == TEAM:
        team_choices(s, seat, mask)
    elif decision == NEGATIVE_SCHEME:
        mask[PASS] = True
        for kind in range(S):
            mask[SCHEME + kind] = s["schemes"][seat, kind] > 0 and SCHEME_NEG[kind] != 0
    elif decision == BEFORE or decision == AFTER:
        mask[PASS] = True
        window = np.int64(c.BEFORE_ROLL if decision == BEFORE else c.AFTER_ROLL)
        for kind in range(R):
            mask[ROOM + kind] = contract_room_ok(s, seat, np.int64(kind), window)
        for kind in range(S):
            mask[SCHEME + kind] = scheme_playable(s, seat, np.int64(kind), np.int64(decision))
        if decision == AFTER:
            mask[REROLL] = reroll_ok(s)
    elif decision == REROLL_COUNT:
        for k in range(min(s["faces"][1], MAX_COUNT - 1) + 1):
            mask[COUNT + k] = True
    elif decision == CHOOSE_TRAIT:
        h = lackey_on_team(s)
        for t in range(4):
            mask[TRAIT + t] = trait_value(s, h, t) > 0
    elif decision == CHOOSE_HENCHMAN:
        for h in range(H):
            mask[HENCHMAN + h] = choose_henchman_ok(s, seat, np.int64(h))
    elif decision == HEAL:
        mask[PASS] = True
        for h in range(H):
            mask[HENCHMAN + h] = owns(s, seat, h) and s["injuries"][h] > 0
    elif decision == AFTER_ACTION:
        mask[PASS] = True
        for kind in range(S):
            mask[SCHEME + kind] = scheme_playable(s, seat, np.int64(kind), np.int64(AFTER_ACTION))
    elif decision == UNPAID:
        for h in range(H):
            mask[HENCHMAN + h] = owns(s, seat, h) and HENCHMAN_TYPE[h] != MERCENARY
    elif decision == FIRE:
        mask[PASS] = True
        for h in range(H):
            mask[HENCHMAN + h] = owns(s, seat, h)


@kernel
def apply(s, action):
    """One decision of the pending seat; the walk on to the next decision follows from it."""
    seat = np.int64(s["current_seat"])
    decision = s["decision"]
    h = np.int64(action - HENCHMAN)
    if decision == DRAFT:
        if action < SELL:
            choose_pick(s, seat, np.int64(action - BUILD), True)
        else:
            choose_pick(s, seat, np.int64(action - SELL), False)
    elif decision == TURN:
        if action == PASS:
            move_token(s, seat, time_left(s, seat))
            leave_time_track(s, seat)
            next_turn(s)
        elif action < CONTRACT:
            s["pending_room"] = action - ROOM
            ask(s, seat, WORKER, ACTION_ROOM_WORKER)
        elif action < VISIT:
            begin_attempt(s, seat, np.int64(action - CONTRACT))
        elif action < SCHEME:
            visit(s, seat, np.int64(action - VISIT))
        else:
            play_positive(s, seat, np.int64(action - SCHEME), np.int64(TURN))
    elif decision == WORKER:
        worker = np.int64(-1) if action == SUPERVILLAIN else h
        activate_room(s, seat, np.int64(s["pending_room"]), worker)
    elif decision == TEAM:
        add_to_team(s, seat, h)
    elif decision == NEGATIVE_SCHEME:
        if action == PASS:
            s["declined"][seat] = True
            s["window"] += 1
            next_in_window(s)
        else:
            play_negative(s, seat, np.int64(action - SCHEME))
    elif decision == BEFORE or decision == AFTER:
        if action == PASS:
            if decision == BEFORE:
                roll_pool(s)
            else:
                resolve_result(s)
        elif action == REROLL:
            s["rerolled"] = True
            ask(s, seat, REROLL_COUNT, LACKEY_REROLL)
        elif action < CONTRACT:
            s["pending_room"] = action - ROOM
            ask(s, seat, WORKER, CONTRACT_ROOM_WORKER)
        else:
            play_positive(s, seat, np.int64(action - SCHEME), np.int64(decision))
    elif decision == REROLL_COUNT:
        reroll(s, np.int64(action - COUNT))
    elif decision == CHOOSE_TRAIT:
        choose_lackey_trait(s, np.int64(action - TRAIT))
    elif decision == CHOOSE_HENCHMAN:
        henchman_chosen(s, seat, h)
    elif decision == HEAL:
        if action == PASS:
            end_action(s, seat)
        else:
            heal_at_hospital(s, seat, h)
    elif decision == AFTER_ACTION:
        if action == PASS:
            leave_time_track(s, seat)
            next_turn(s)
        else:
            play_positive(s, seat, np.int64(action - SCHEME), np.int64(AFTER_ACTION))
    elif decision == UNPAID:
        leave_unpaid(s, seat, h)
    elif decision == FIRE:
        fire(s, np.int64(-1) if action == PASS else h)


@kernel
def settle(s):
    """Apply every decision that has exactly one legal action (P-44), unless that it has one
    depends on hidden cards: a draft hand, or the Schemes of a seat holding any (its turn and
    its before- and after-roll windows offer its playable Schemes). Applied there, the table
    would see who is asked next and learn what the seat holds."""
    if s["ask_forced"]:
        return
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    while not s["terminated"]:
        d = s["decision"]
        if d == NEGATIVE_SCHEME or d == HEAL or d == AFTER_ACTION or d == FIRE or d == DRAFT:
            return  # "pass" and at least one card or henchman: asked only then
        if (d == TURN or d == BEFORE or d == AFTER) and s["scheme_count"][s["current_seat"]] > 0:
            return
        mask[:] = False
        legal_actions(s, mask)
        only = -1
        for a in range(NUM_ACTIONS):
            if mask[a]:
                if only >= 0:
                    return
                only = a
        if only < 0:
            return  # no legal action: the engine's contract tests report it
        apply(s, np.int64(only))


@kernel
def step(s, action):
    apply(s, np.int64(action))
    settle(s)
