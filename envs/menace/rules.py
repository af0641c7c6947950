"""The Menace Among Us, the rules as scalar code over one game record.

Read top to bottom it follows `docs/rules/menace.md`: setup, the tracks and the end of the
game, wounds, deaths and exile, the Action Phase with every Above Deck Action, the Resolution
Phase with every Below Deck card, the Accusation Phase, the end of the round. `advance` walks
the game forward to the next decision; `step` applies one decision and calls it again.
Every function takes the record `s` of one game; the engine runs them over a whole batch.

numba compiles a function once per distinct argument types, and a constant or a record field
narrower than int64 counts as a type of its own (`Literal[int](1)`, `int8`); each such copy of
a function also recompiles everything it calls. So amounts, seats and slots handed to the
functions with large call trees (tracks, wounds, the end of the game, ability checks) are
passed as int64, `np.int64(...)` where a constant or an int8 field would go, and ability slots
are looped over rather than written out.
"""

import numpy as np

from ..core.jit import kernel
from ..core.record import make_dtype
from ..core.rng import below, shuffle
from . import cards as c
from .actions import CARD, CLAIM, DRAW, MAX_PLAYERS, PASS, PICK, PLAY, SEAT, USE, YES
from .spec import MAX_HISTORY_ROUNDS, SPEC
from .tables import (
    ABILITY_DISCARDS,
    ABILITY_ENERGY,
    ABILITY_OXYGEN,
    ABILITY_TARGET,
    ABILITY_WOUNDS,
    AGENDA_DECK,
    AGENDA_EXILED_OXYGEN,
    AGENDA_GOAL,
    AGENDA_KILLED_OXYGEN,
    AGENDA_SIDE,
    CARD_ENERGY,
    CARD_OXYGEN,
    CARD_REPLICABLE,
    CHARACTER_ABILITIES,
    CHARACTER_DECK,
    CREW_AGENDAS,
    EMMA_CARDS,
)

P = MAX_PLAYERS
T = c.N_CARD_TYPES
BLANK_WOUND = c.N_WOUNDS  # dealt when every wound card is already in front of someone
MAX_WOUNDS = c.WOUND_DECK_SIZE + 1
POOL = 32  # face-down cards of one round: turns, Rush, Delegate, Emergency Protocol, EmMA
ENERGY_GOAL = 20
SAFETY_THRESHOLD = 14
OVERLOAD = 5

# Teams, as in SPEC.teams.
CREW_TEAM, MENACE_TEAM = 0, 1

# Stages of the game.
PICKING, ACTION, RESOLUTION, CALLING, TALKING, VOTING, END_OF_ROUND = 0, 1, 2, 3, 4, 5, 6

# Pending decisions, as named in spec.DECISION_NAMES.
(
    PICK_CHARACTER,
    TURN,
    DELEGATED,
    RUSH_PLAY,
    PAY_DISCARD,
    ABILITY_TARGET_CHOICE,
    BLOODWORK_REVEAL,
    RELAY_GIFT,
    TINKER_DISCARD,
    CALIBRATE_CHOICE,
    HAND_LIMIT,
    VETO_CHOICE,
    BRAWL_TARGET,
    AGENDA_TARGET,
    CALL_VOTE,
    TALK_CLAIM,
    TALK_ACCUSE_SEAT,
    TALK_ACCUSE_CARD,
    VOTE,
) = range(19)

# Stages of an Above Deck Action in progress.
PAYING, TARGETING, FOLLOW_UP = 0, 1, 2

NOBODY = -1
ABSTAINED = -1
DID_NOT_VOTE = -2

# The public record of past rounds: row 0 is the round last ended, row k the one k rounds
# before. The columns of a row:
PAST_COL_REVEALED = 0  # + card type: cards revealed that round
PAST_COL_PLAYED = PAST_COL_REVEALED + T  # + seat: Below Deck cards it played
PAST_COL_BALLOT = PAST_COL_PLAYED + P  # + seat: whom it voted for, ABSTAINED or DID_NOT_VOTE
PAST_COL_CALLER = PAST_COL_BALLOT + P  # who called the vote, NOBODY if no one did
PAST_COL_EXILED = PAST_COL_CALLER + 1  # seats exiled, one bit each (seat 7 is the sign bit)
PAST_COL_KILLED = PAST_COL_EXILED + 1  # seats killed, one bit each
PAST_COL_HELD = PAST_COL_KILLED + 1  # 1 once the row holds a round
PAST_COL_CARDS = PAST_COL_HELD + 1  # + seat * T + card type: what the seat played (its secret)
PAST_COL_USED = PAST_COL_CARDS + P * T  # + seat * 2 + slot: Above Deck Action used
PAST_COL_TARGET = PAST_COL_USED + 2 * P  # + seat * 2 + slot: whom it chose, NOBODY if no one
PAST_COL_OXYGEN = PAST_COL_TARGET + 2 * P  # the tracks at the end of that round
PAST_COL_ENERGY = PAST_COL_OXYGEN + 1
PAST_WIDTH = 160
assert PAST_COL_ENERGY < PAST_WIDTH

DTYPE = make_dtype(
    SPEC,
    [
        ("stage", np.int8),
        ("decision", np.int8),
        ("round", np.int16),
        ("mission_leader", np.int8),
        ("round_leader", np.int8),  # first to act this round: turn order ignores later passes
        ("turn_pos", np.int8),
        ("oxygen", np.int16),
        ("energy", np.int16),
        ("energy_at_resolution", np.int16),
        # seats
        ("agenda", np.int8, (P,)),
        ("character", np.int8, (P,)),
        ("offer", np.uint8, (P, c.N_CHARACTERS)),
        ("pick_pos", np.int8),
        ("alive", np.uint8, (P,)),
        ("exiled", np.uint8, (P,)),
        ("revealed", np.uint8, (P,)),  # agenda face up
        ("hand", np.int8, (P, T)),
        ("hand_n", np.int8, (P,)),
        ("deck", np.int8, (P, c.PERSONAL_DECK_SIZE)),  # top card last
        ("deck_n", np.int8, (P,)),
        ("wound_list", np.int8, (P, MAX_WOUNDS)),  # in the order received
        ("wound_n", np.int8, (P,)),
        ("wound_held", np.int8, (P, MAX_WOUNDS)),  # by wound kind
        # decks on the HUD board
        ("wound_deck", np.int8, (c.WOUND_DECK_SIZE,)),  # top card last
        ("wound_deck_n", np.int8),
        ("emma", np.int8, (c.EMMA_DECK_SIZE,)),  # top card last
        ("emma_n", np.int8),
        ("emma_discard", np.int8, (c.EMMA_DECK_SIZE,)),
        ("emma_discard_n", np.int8),
        # this round's face-down cards and their resolution
        ("pool", np.int8, (POOL,)),
        ("pool_seat", np.int8, (POOL,)),  # NOBODY for EmMA cards
        ("pool_n", np.int8),
        ("reveal_pos", np.int8),
        ("played", np.int8, (P, T)),
        ("played_n", np.int8, (P,)),
        ("revealed_cards", np.int8, (T,)),
        ("replicate_waiting", np.bool_),
        ("backstab_spent", np.bool_),
        ("brawl_spent", np.bool_),
        ("brawl_pending", np.bool_),
        ("veto_user", np.int8),
        ("veto_armed", np.bool_),
        ("veto_asked", np.bool_),
        # Above Deck Actions
        ("used", np.uint8, (P, 2)),
        ("locked_down", np.uint8, (P,)),
        ("suppressed", np.uint8, (P,)),
        ("hidden", np.uint8, (P,)),
        ("shielded", np.uint8, (P,)),
        ("moxie", np.int8),
        ("vigil", np.int8),
        ("wounded_this_round", np.bool_),
        ("killed_this_round", np.bool_),
        ("ab_user", np.int8),
        ("ab_id", np.int8),
        ("ab_slot", np.int8),
        ("ability_target", np.int8, (P, 2)),  # whom each ability used this round chose
        ("ab_stage", np.int8),
        ("ab_discards_left", np.int8),
        ("ab_target", np.int8),
        ("ab_follow_up", np.int8),  # decision kind of the follow-up
        ("ab_follow_up_seat", np.int8),
        ("delegated", np.int8),
        ("rush_seat", np.int8),
        ("rush_left", np.int8),
        ("bloodwork", np.int8, (P,)),  # card each seat revealed this round, -1 none
        ("seen_hand", np.int8, (P, P, T)),  # [observer, seat]: Analyze snapshot, -1 unseen
        ("seen_played", np.int8, (P, P, T)),  # [observer, seat]: Surveillance, this round
        ("seen_top", np.int8, (P, P)),  # [observer, seat]: Intercept, this round, -1 none
        ("seen_emma", np.int8, (P,)),  # Calibrate, this round, -1 none
        # agenda abilities waiting for their owner's choice
        ("agenda_due", np.uint8, (P,)),
        # accusation
        ("call_pos", np.int8),
        ("vote_called", np.bool_),
        ("talk_pos", np.int8),
        ("vote_pos", np.int8),
        ("ballot", np.int8, (P,)),
        ("ballots_public", np.bool_),
        ("claim", np.int8, (P,)),
        ("accused", np.int8, (P,)),
        ("accused_card", np.int8, (P,)),
        ("eor_stage", np.int8),
        ("vote_caller", np.int8),
        ("round_exiled", np.uint8),  # seats exiled this round, one bit each
        ("round_killed", np.uint8),  # seats killed this round, one bit each
        ("past", np.int8, (MAX_HISTORY_ROUNDS, PAST_WIDTH)),  # rows: see PAST_COL_*
        # sides and goals
        ("menace_fallen", np.bool_),  # a Menace has been exiled or killed
        ("coward_side", np.int8),
        ("repairs_played", np.int8, (P,)),
        ("voted_for_crew", np.uint8, (P,)),
        ("crew_exiled", np.bool_),
        ("menace_exiled", np.bool_),
    ],
)


# --- small facts -------------------------------------------------------------------------------


@kernel
def seat_after(s, seat, k):
    """The seat k places clockwise (0 <= k <= players); a compare instead of a division."""
    j = seat + k
    n = s["num_players"]
    return j - n if j >= n else j


@kernel
def has_wound(s, seat, wound):
    return s["wound_held"][seat, wound] > 0


@kernel
def hand_limit(s, seat):
    return c.HAND_LIMIT - 1 if has_wound(s, seat, c.BROKEN_HAND) else c.HAND_LIMIT


@kernel
def wounds_to_kill(s, seat):
    return 3 if s["agenda"][seat] == c.THE_RESOLUTE else c.WOUNDS_TO_KILL


@kernel
def is_menace(s, seat):
    return AGENDA_SIDE[s["agenda"][seat]] == c.MENACE


@kernel
def is_crew(s, seat):
    return AGENDA_SIDE[s["agenda"][seat]] == c.CREW


@kernel
def menace_alive(s):
    for seat in range(s["num_players"]):
        if s["alive"][seat] and is_menace(s, seat):
            return True
    return False


@kernel
def playable(s, seat, card):
    """Burned Hands forbids the Repair cards."""
    if s["hand"][seat, card] == 0:
        return False
    if has_wound(s, seat, c.BURNED_HANDS):
        return card != c.BASIC_REPAIR and card != c.ADVANCED_REPAIR
    return True


@kernel
def playable_count(s, seat):
    total = 0
    for card in range(T):
        if playable(s, seat, card):
            total += s["hand"][seat, card]
    return total


@kernel
def removable_wound(s, seat):
    """Index in the seat's wound list of its most recent removable Wound, or -1."""
    for i in range(s["wound_n"][seat] - 1, -1, -1):
        if s["wound_list"][seat, i] != c.INFECTED_WOUND:
            return i
    return -1


@kernel
def team_of(s, seat):
    if s["agenda"][seat] == c.THE_COWARD:
        return s["coward_side"]
    return MENACE_TEAM if is_menace(s, seat) else CREW_TEAM


# --- setup -------------------------------------------------------------------------------------


@kernel
def reset(s):
    """Deal agendas and characters; the game waits for the first character pick."""
    n = s["num_players"]
    clear_table(s)
    s["oxygen"] = min(n, s["oxygen_max"])
    s["energy"] = 0
    s["mission_leader"] = 0
    for i in range(c.WOUND_DECK_SIZE):
        s["wound_deck"][i] = i
    s["wound_deck_n"] = c.WOUND_DECK_SIZE
    shuffle(s, s["wound_deck"], c.WOUND_DECK_SIZE)
    s["emma"][:] = EMMA_CARDS
    s["emma_n"] = c.EMMA_DECK_SIZE
    shuffle(s, s["emma"], c.EMMA_DECK_SIZE)
    deal_agendas(s)
    deal_characters(s)
    s["stage"] = PICKING
    advance(s)


@kernel
def clear_table(s):
    s["round"] = 0
    s["agenda"][:] = -1
    s["character"][:] = -1
    s["offer"][:, :] = False
    s["pick_pos"] = 0
    s["alive"][:] = False
    s["exiled"][:] = False
    s["revealed"][:] = False
    s["hand"][:, :] = 0
    s["hand_n"][:] = 0
    s["deck_n"][:] = 0
    s["wound_list"][:, :] = -1
    s["wound_n"][:] = 0
    s["wound_held"][:, :] = 0
    s["emma_discard_n"] = 0
    s["pool_n"] = 0
    s["replicate_waiting"] = False
    s["agenda_due"][:] = False
    s["ab_user"] = NOBODY
    s["delegated"] = NOBODY
    s["rush_left"] = 0
    s["brawl_pending"] = False
    s["menace_fallen"] = False
    s["coward_side"] = CREW_TEAM
    s["repairs_played"][:] = 0
    s["voted_for_crew"][:] = False
    s["crew_exiled"] = False
    s["menace_exiled"] = False
    s["seen_hand"][:, :, :] = -1
    s["ballot"][:] = DID_NOT_VOTE
    s["ballots_public"] = False
    s["vote_called"] = False
    s["claim"][:] = -1
    s["accused"][:] = NOBODY
    s["accused_card"][:] = -1
    s["past"][:, :] = 0
    start_of_round_flags(s)


@kernel
def deal_agendas(s):
    """The printed table by player count; the agenda decks then go to random seats."""
    n = s["num_players"]
    chosen = np.empty(P, np.int8)
    k = 0
    if n == 4:
        menace = c.SINGLE_MENACE
        if s["random_menace"]:
            menace = c.MENACE_AGENDAS[below(s, 2)]
        chosen[k] = menace
        k += 1
    else:
        chosen[0] = c.THE_CONTAGION
        chosen[1] = c.THE_BUTCHER
        k = 2
    if n >= 6:
        chosen[k] = c.THE_SAINT
        k += 1
    if n >= 7:
        chosen[k] = c.THE_COWARD
        k += 1
    crew = np.empty(len(CREW_AGENDAS), np.int8)
    m = 0
    for agenda in CREW_AGENDAS:
        if not (n >= 6 and agenda == c.THE_SAINT):
            crew[m] = agenda
            m += 1
    shuffle(s, crew, m)
    i = 0
    while k < n:
        chosen[k] = crew[i]
        k += 1
        i += 1
    shuffle(s, chosen, n)
    for seat in range(n):
        s["agenda"][seat] = chosen[seat]
        s["alive"][seat] = True


@kernel
def deal_characters(s):
    """Three each to the first five seats from the Mission Leader; the rest wait for their picks."""
    n = s["num_players"]
    order = np.arange(c.N_CHARACTERS).astype(np.int8)
    shuffle(s, order, c.N_CHARACTERS)
    first = min(n, c.CHARACTER_FIRST_PICKERS)
    for i in range(first * c.CHARACTERS_DEALT):
        seat = seat_after(s, s["mission_leader"], i // c.CHARACTERS_DEALT)
        s["offer"][seat, order[i]] = True


@kernel
def deal_unclaimed_characters(s):
    """6-8 players: what the first five left is dealt round the remaining seats."""
    n = s["num_players"]
    rest = np.empty(c.N_CHARACTERS, np.int8)
    m = 0
    for ch in range(c.N_CHARACTERS):
        taken = False
        for seat in range(n):
            if s["character"][seat] == ch:
                taken = True
        if not taken:
            rest[m] = ch
            m += 1
    shuffle(s, rest, m)
    late = n - c.CHARACTER_FIRST_PICKERS
    for i in range(m):
        seat = seat_after(s, s["mission_leader"], c.CHARACTER_FIRST_PICKERS + i % late)
        s["offer"][seat, rest[i]] = True


@kernel
def pick_character(s, seat, character):
    s["character"][seat] = character
    s["offer"][seat, :] = False
    s["pick_pos"] += 1


@kernel
def next_pick(s):
    n = s["num_players"]
    while s["pick_pos"] < n:
        if s["pick_pos"] == c.CHARACTER_FIRST_PICKERS:
            deal_unclaimed_characters(s)
        seat = seat_after(s, s["mission_leader"], s["pick_pos"])
        if not s["random_characters"]:
            decide(s, PICK_CHARACTER, seat)
            return True
        offered = 0
        for ch in range(c.N_CHARACTERS):
            offered += s["offer"][seat, ch]
        k = below(s, offered)
        for ch in range(c.N_CHARACTERS):
            if s["offer"][seat, ch]:
                if k == 0:
                    pick_character(s, seat, ch)
                    break
                k -= 1
    build_decks(s)
    start_round(s)
    return False


@kernel
def build_decks(s):
    """Agenda's 13 and character's 7, shuffled; a starting hand of 3."""
    for seat in range(s["num_players"]):
        deck = s["deck"][seat]
        deck[: c.AGENDA_CARDS] = AGENDA_DECK[s["agenda"][seat]]
        deck[c.AGENDA_CARDS :] = CHARACTER_DECK[s["character"][seat]]
        s["deck_n"][seat] = c.PERSONAL_DECK_SIZE
        shuffle(s, deck, c.PERSONAL_DECK_SIZE)
        for _ in range(c.STARTING_HAND):
            draw_card(s, seat)


# --- tracks and the end of the game --------------------------------------------------------------


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


# --- cards in hand and deck ----------------------------------------------------------------------


@kernel
def draw_card(s, seat):
    """The top card of the seat's deck into its hand; nothing from an empty deck."""
    n_left = s["deck_n"][seat]
    if n_left == 0:
        return
    card = s["deck"][seat, n_left - 1]
    s["deck_n"][seat] = n_left - 1
    s["hand"][seat, card] += 1
    s["hand_n"][seat] += 1


@kernel
def discard_card(s, seat, card):
    s["hand"][seat, card] -= 1
    s["hand_n"][seat] -= 1


@kernel
def random_card(s, seat):
    """A uniformly random card of the seat's hand (it must hold one)."""
    k = below(s, s["hand_n"][seat])
    for card in range(T):
        if k < s["hand"][seat, card]:
            return card
        k -= s["hand"][seat, card]
    return -1


@kernel
def discard_random_card(s, seat):
    if s["hand_n"][seat] > 0:
        discard_card(s, seat, random_card(s, seat))


@kernel
def discard_hand(s, seat):
    s["hand"][seat, :] = 0
    s["hand_n"][seat] = 0


@kernel
def emma_top(s):
    """The top of the EmMA deck, refilled from its discards when empty; -1 if there is none."""
    if s["emma_n"] == 0:
        m = s["emma_discard_n"]
        s["emma"][:m] = s["emma_discard"][:m]
        s["emma_n"] = m
        s["emma_discard_n"] = 0
        shuffle(s, s["emma"], m)
    if s["emma_n"] == 0:
        return -1
    return s["emma"][s["emma_n"] - 1]


@kernel
def add_to_pool(s, card, seat):
    k = s["pool_n"]
    s["pool"][k] = card
    s["pool_seat"][k] = seat
    s["pool_n"] = k + 1


@kernel
def add_emma_card(s):
    card = emma_top(s)
    if card >= 0:
        s["emma_n"] -= 1
        add_to_pool(s, card, NOBODY)


@kernel
def play_card(s, seat, card):
    """Face down in front of the seat: that it played is public, the card is not."""
    discard_card(s, seat, card)
    add_to_pool(s, card, seat)
    s["played"][seat, card] += 1
    s["played_n"][seat] += 1
    if card == c.BASIC_REPAIR or card == c.ADVANCED_REPAIR:
        s["repairs_played"][seat] += 1


# --- wounds, deaths, exile -----------------------------------------------------------------------


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


# --- the round ---------------------------------------------------------------------------------


@kernel
def start_of_round_flags(s):
    for seat in range(P):
        s["played"][seat, :] = 0
        s["seen_played"][seat, :, :] = 0
        s["seen_top"][seat, :] = -1
    s["played_n"][:] = 0
    s["revealed_cards"][:] = 0
    s["used"][:, :] = False
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
def decide(s, decision, seat):
    s["decision"] = decision
    s["current_seat"] = seat


# --- 1. Action Phase -----------------------------------------------------------------------------


@kernel
def can_draw(s, seat):
    if s["deck_n"][seat] == 0:
        return False
    return not (has_wound(s, seat, c.TREMORS) and s["hand_n"][seat] >= 2)


@kernel
def plain_target_ok(s, user, ability, target):
    """Whom an Above Deck Action may choose, Delegate's extra condition aside."""
    if not s["alive"][target]:
        return False
    if target != user and s["hidden"][target]:
        return False
    kind = ABILITY_TARGET[ability]
    if kind == c.TARGET_OTHER or kind == c.TARGET_OTHER_PLAYED:
        if target == user:
            return False
    if kind == c.TARGET_UNWOUNDED and s["wound_n"][target] > 0:
        return False
    if kind == c.TARGET_WOUNDED and removable_wound(s, target) < 0:
        return False
    if kind == c.TARGET_OTHER_PLAYED and s["played_n"][target] == 0:
        return False
    if ability == c.BLOODWORK or ability == c.PILFER or ability == c.PRUNE:
        return s["hand_n"][target] > 0
    if ability == c.COMMANDEER or ability == c.INTERCEPT:
        return s["deck_n"][target] > 0
    if ability == c.LOCKDOWN:
        return not s["exiled"][target]
    if ability == c.COURSE_CORRECTION:
        return target != s["mission_leader"] and not has_wound(s, target, c.DISLOCATED_SHOULDER)
    return True


@kernel
def target_ok(s, user, ability, target):
    """A delegated seat must have something to do, or Delegate cannot name it."""
    if not plain_target_ok(s, user, ability, target):
        return False
    if ability == c.DELEGATE:
        return has_delegated_action(s, target)
    return True


@kernel
def ready_ability(s, seat, slot):
    """The ability in `slot` if the seat may use it now, targets aside; else -1."""
    if not s["alive"][seat] or s["used"][seat, slot]:
        return -1
    if s["exiled"][seat] and s["agenda"][seat] != c.THE_STEWARD:
        return -1
    if s["suppressed"][seat] or has_wound(s, seat, c.BROKEN_LEG):
        return -1
    ability = CHARACTER_ABILITIES[s["character"][seat], slot]
    if s["oxygen"] < ABILITY_OXYGEN[ability] or s["energy"] < ABILITY_ENERGY[ability]:
        return -1
    hand_needed = ABILITY_DISCARDS[ability]
    if ability == c.RELAY:
        hand_needed = 1
    if s["hand_n"][seat] < hand_needed:
        return -1
    if ability == c.RUSH and playable_count(s, seat) < 2:
        return -1
    if ability == c.CALIBRATE or ability == c.EMERGENCY_PROTOCOL:
        if s["emma_n"] + s["emma_discard_n"] == 0:
            return -1
    if ability == c.REQUISITION or ability == c.TINKER:
        if s["deck_n"][seat] == 0:
            return -1
    if ability == c.SELF_REPAIR and removable_wound(s, seat) < 0:
        return -1
    return ability


@kernel
def can_use(s, seat, slot):
    ability = ready_ability(s, seat, slot)
    if ability < 0:
        return False
    if ABILITY_TARGET[ability] == c.TARGET_NONE:
        return True
    for target in range(s["num_players"]):
        if target_ok(s, seat, ability, target):
            return True
    return False


@kernel
def can_use_when_delegated(s, seat, slot):
    """A delegated seat's abilities; Delegate itself is Andrew Nance's, never the delegated's."""
    ability = ready_ability(s, seat, slot)
    if ability < 0 or ability == c.DELEGATE:
        return False
    if ABILITY_TARGET[ability] == c.TARGET_NONE:
        return True
    for target in range(s["num_players"]):
        if plain_target_ok(s, seat, ability, target):
            return True
    return False


@kernel
def has_delegated_action(s, seat):
    """A delegated seat must play a card or use an Above Deck Action; has it any?"""
    if not s["alive"][seat]:
        return False
    if playable_count(s, seat) > 0:
        return True
    for slot in range(2):
        if can_use_when_delegated(s, seat, slot):
            return True
    return False


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


@kernel
def begin_ability(s, seat, slot):
    """Announce, pay Oxygen, Energy and wounds now; discards and the target come next."""
    ability = CHARACTER_ABILITIES[s["character"][seat], slot]
    s["used"][seat, slot] = True
    s["ab_user"] = seat
    s["ab_id"] = ability
    s["ab_slot"] = slot
    s["ab_stage"] = PAYING
    s["ab_discards_left"] = ABILITY_DISCARDS[ability]
    s["ab_target"] = NOBODY
    s["ab_follow_up"] = -1
    s["energy"] -= ABILITY_ENERGY[ability]
    for _ in range(ABILITY_WOUNDS[ability]):
        wound(s, seat)
    if ABILITY_OXYGEN[ability] > 0:
        change_oxygen(s, -ABILITY_OXYGEN[ability])


@kernel
def follow_up(s, decision, seat):
    s["ab_stage"] = FOLLOW_UP
    s["ab_follow_up"] = decision
    s["ab_follow_up_seat"] = seat


@kernel
def finish_ability(s):
    s["ab_user"] = NOBODY
    s["ab_follow_up"] = -1


@kernel
def continue_ability(s):
    """Walk the ability in progress to its next decision; False once it is over."""
    user = s["ab_user"]
    ability = s["ab_id"]
    if s["ab_stage"] == PAYING:
        if s["ab_discards_left"] > 0:
            decide(s, PAY_DISCARD, user)
            return True
        s["ab_stage"] = TARGETING
    if s["ab_stage"] == TARGETING:
        if ABILITY_TARGET[ability] != c.TARGET_NONE and s["ab_target"] == NOBODY:
            decide(s, ABILITY_TARGET_CHOICE, user)
            return True
        resolve_ability(s, ability, user, s["ab_target"])
    if s["ab_stage"] == FOLLOW_UP and s["ab_follow_up"] >= 0:
        decide(s, s["ab_follow_up"], s["ab_follow_up_seat"])
        return True
    finish_ability(s)
    return False


@kernel
def resolve_ability(s, ability, user, target):
    """One branch per Above Deck Action; those that need one more choice set a follow-up."""
    s["ab_stage"] = FOLLOW_UP
    if ability == c.BLOODWORK:
        follow_up(s, BLOODWORK_REVEAL, target)
    elif ability == c.FIRST_AID or ability == c.SERMON:
        remove_wound(s, target)
    elif ability == c.DELEGATE:
        s["delegated"] = target
    elif ability == c.COMMANDEER:
        commandeer(s, user, target)
    elif ability == c.CRUNCH:
        crunch(s, target)
    elif ability == c.MOXIE:
        s["moxie"] += 1
    elif ability == c.VETO:
        s["veto_user"] = user
        s["veto_armed"] = True
    elif ability == c.LASER_PISTOL:
        wound(s, target)
    elif ability == c.OVERCLOCK or ability == c.JURY_RIG:
        gain_energy(s, np.int64(2))
    elif ability == c.SURVEILLANCE:
        s["seen_played"][user, target, :] = s["played"][target, :]
    elif ability == c.LOCKDOWN:
        s["locked_down"][target] = True
    elif ability == c.RELAY:
        follow_up(s, RELAY_GIFT, user)
    elif ability == c.INTERCEPT:
        s["seen_top"][user, target] = s["deck"][target, s["deck_n"][target] - 1]
    elif ability == c.ANALYZE:
        s["seen_hand"][user, target, :] = s["hand"][target, :]
    elif ability == c.CALIBRATE:
        s["seen_emma"][user] = emma_top(s)
        follow_up(s, CALIBRATE_CHOICE, user)
    elif ability == c.REQUISITION:
        draw_card(s, user)
        draw_card(s, user)
    elif ability == c.SHARE_RATIONS:
        draw_card(s, user)
        draw_card(s, target)
    elif ability == c.RUSH:
        s["rush_seat"] = user
        s["rush_left"] = 2
    elif ability == c.COURSE_CORRECTION:
        s["mission_leader"] = target
    elif ability == c.VIGIL:
        s["vigil"] += 1
    elif ability == c.SCRAP:
        gain_energy(s, np.int64(1))
    elif ability == c.TINKER:
        draw_card(s, user)
        follow_up(s, TINKER_DISCARD, user)
    elif ability == c.HIDE:
        s["hidden"][user] = True
    elif ability == c.PILFER:
        pilfer(s, user, target)
    elif ability == c.SELF_REPAIR:
        remove_wound(s, user)
    elif ability == c.EMERGENCY_PROTOCOL:
        add_emma_card(s)
    elif ability == c.PHOTOSYNTHESIS:
        change_oxygen(s, np.int64(1))
    elif ability == c.PRUNE:
        discard_random_card(s, target)
    elif ability == c.SHIELD:
        s["shielded"][target] = True
    elif ability == c.SUPPRESS:
        s["suppressed"][target] = True


@kernel
def commandeer(s, user, target):
    """The top card of any crewmember's deck into the user's hand."""
    k = s["deck_n"][target] - 1
    card = s["deck"][target, k]
    s["deck_n"][target] = k
    s["hand"][user, card] += 1
    s["hand_n"][user] += 1


@kernel
def crunch(s, target):
    for _ in range(3):
        draw_card(s, target)
    wound(s, target)


@kernel
def pilfer(s, user, target):
    card = random_card(s, target)
    discard_card(s, target, card)
    s["hand"][user, card] += 1
    s["hand_n"][user] += 1


@kernel
def relay(s, user, card):
    target = s["ab_target"]
    discard_card(s, user, card)
    s["hand"][target, card] += 1
    s["hand_n"][target] += 1


@kernel
def calibrate(s, to_bottom):
    """The looked-at EmMA card stays on top, or goes to the bottom."""
    if to_bottom:
        emma = s["emma"]
        k = s["emma_n"] - 1
        top = emma[k]
        for j in range(k, 0, -1):
            emma[j] = emma[j - 1]
        emma[0] = top


# --- 2. Resolution Phase -------------------------------------------------------------------------


@kernel
def start_resolution(s):
    """EmMA tops up the played cards to half the starting table; then all are shuffled."""
    s["stage"] = RESOLUTION
    needed = (s["num_players"] + 1) // 2
    while s["pool_n"] < needed and s["emma_n"] + s["emma_discard_n"] > 0:
        add_emma_card(s)
    n = s["pool_n"]
    for i in range(n - 1, 0, -1):
        j = below(s, i + 1)
        card, seat = s["pool"][i], s["pool_seat"][i]
        s["pool"][i], s["pool_seat"][i] = s["pool"][j], s["pool_seat"][j]
        s["pool"][j], s["pool_seat"][j] = card, seat
    s["energy_at_resolution"] = s["energy"]
    s["reveal_pos"] = 0
    s["veto_asked"] = False


@kernel
def next_reveal(s):
    """Reveal and resolve cards until a decision is due or the pool is empty."""
    while s["reveal_pos"] < s["pool_n"]:
        card = s["pool"][s["reveal_pos"]]
        if s["veto_armed"] and s["alive"][s["veto_user"]] and not s["veto_asked"]:
            if s["reveal_pos"] == s["pool_n"] - 1:
                veto(s)
                continue
            decide(s, VETO_CHOICE, s["veto_user"])
            return True
        s["veto_asked"] = False
        reveal(s, card)
        if s["terminated"] or s["brawl_pending"]:
            return False
        if over_hand_limit(s) != NOBODY:
            return False
    finish_resolution(s)
    return False


@kernel
def veto(s):
    """The revealed card has neither cost nor effect; a Replicate waiting on it copies nothing."""
    s["revealed_cards"][s["pool"][s["reveal_pos"]]] += 1
    s["reveal_pos"] += 1
    s["veto_armed"] = False
    s["veto_asked"] = False
    s["replicate_waiting"] = False


@kernel
def reveal(s, card):
    """Replicate waits for the next card; a waiting Replicate copies it if it can be copied."""
    s["reveal_pos"] += 1
    s["revealed_cards"][card] += 1
    if card == c.REPLICATE:
        s["replicate_waiting"] = True
        return
    copies = 1
    if s["replicate_waiting"]:
        s["replicate_waiting"] = False
        if CARD_REPLICABLE[card]:
            copies = 2
    for _ in range(copies):
        resolve_card(s, card)
        if s["terminated"]:
            return


@kernel
def resolve_card(s, card):
    if card == c.COMMAND:
        resolve_command(s)
    elif card == c.PANIC:
        resolve_panic(s)
    elif card == c.BACKSTAB:
        resolve_backstab(s)
    elif card == c.BRAWL:
        resolve_brawl(s)
    elif card == c.REACTOR_LEAK:
        resolve_reactor_leak(s)
    else:
        resolve_track_card(s, card)


@kernel
def resolve_track_card(s, card):
    """Raise Morale, the Repairs, Airlock Breach, Explosion: Oxygen first, then Energy."""
    if CARD_OXYGEN[card] != 0:
        change_oxygen(s, CARD_OXYGEN[card])
        if s["terminated"]:
            return
    if CARD_ENERGY[card] > 0:
        gain_energy(s, CARD_ENERGY[card])
    elif CARD_ENERGY[card] < 0:
        lose_energy(s, -CARD_ENERGY[card])


@kernel
def resolve_command(s):
    change_oxygen(s, CARD_OXYGEN[c.COMMAND])
    if s["terminated"]:
        return
    for k in range(s["num_players"]):
        seat = seat_after(s, s["mission_leader"], k)
        if s["alive"][seat]:
            draw_card(s, seat)


@kernel
def resolve_panic(s):
    change_oxygen(s, CARD_OXYGEN[c.PANIC])
    if s["terminated"]:
        return
    for seat in range(s["num_players"]):
        if s["alive"][seat]:
            discard_random_card(s, seat)
            if has_wound(s, seat, c.PANIC_ATTACK):
                discard_random_card(s, seat)


@kernel
def resolve_backstab(s):
    if not s["backstab_spent"]:
        s["backstab_spent"] = True
        wound(s, np.int64(s["mission_leader"]))


@kernel
def resolve_brawl(s):
    if not s["brawl_spent"]:
        s["brawl_spent"] = True
        s["brawl_pending"] = True


@kernel
def resolve_reactor_leak(s):
    for seat in range(s["num_players"]):
        if s["alive"][seat] and s["wound_n"][seat] == 0 and s["played_n"][seat] > 0:
            wound(s, seat)


@kernel
def finish_resolution(s):
    """Played cards go face down to the discards; EmMA's to her own discard pile."""
    for i in range(s["pool_n"]):
        if s["pool_seat"][i] == NOBODY:
            s["emma_discard"][s["emma_discard_n"]] = s["pool"][i]
            s["emma_discard_n"] += 1
    s["pool_n"] = 0
    s["stage"] = CALLING
    s["call_pos"] = 0


# --- 3. Accusation Phase -------------------------------------------------------------------------


@kernel
def can_call_vote(s, seat):
    return (
        s["alive"][seat]
        and not s["exiled"][seat]
        and not s["locked_down"][seat]
        and not has_wound(s, seat, c.CONCUSSION)
    )


@kernel
def can_vote(s, seat):
    return (
        s["alive"][seat]
        and not s["exiled"][seat]
        and not s["locked_down"][seat]
        and not has_wound(s, seat, c.CRUSHED_THROAT)
    )


@kernel
def can_be_voted(s, voter, seat):
    return seat != voter and s["alive"][seat] and not s["exiled"][seat]


@kernel
def next_call(s):
    n = s["num_players"]
    while s["call_pos"] < n:
        seat = seat_after(s, s["mission_leader"], s["call_pos"])
        if can_call_vote(s, seat):
            decide(s, CALL_VOTE, seat)
            return True
        s["call_pos"] += 1
    begin_end_of_round(s)
    return False


@kernel
def call_vote(s):
    s["vote_called"] = True
    s["vote_caller"] = s["current_seat"]
    s["ballots_public"] = False
    s["ballot"][:] = DID_NOT_VOTE
    s["talk_pos"] = 0
    s["vote_pos"] = 0
    s["stage"] = TALKING if s["table_talk"] else VOTING


@kernel
def next_talk(s):
    """Each voter in turn: a claim, then an accusation (seat, then card)."""
    n = s["num_players"]
    while s["talk_pos"] < n:
        seat = seat_after(s, s["mission_leader"], s["talk_pos"])
        if can_vote(s, seat):
            if s["claim"][seat] == -1:
                decide(s, TALK_CLAIM, seat)
                return True
            if s["accused"][seat] == NOBODY:
                decide(s, TALK_ACCUSE_SEAT, seat)
                return True
            if 0 <= s["accused"][seat] < n and s["accused_card"][seat] == -1:
                decide(s, TALK_ACCUSE_CARD, seat)
                return True
        s["talk_pos"] += 1
    s["stage"] = VOTING
    return False


@kernel
def next_vote(s):
    n = s["num_players"]
    while s["vote_pos"] < n:
        seat = seat_after(s, s["mission_leader"], s["vote_pos"])
        if can_vote(s, seat):
            decide(s, VOTE, seat)
            return True
        s["vote_pos"] += 1
    count_votes(s)
    begin_end_of_round(s)
    return False


@kernel
def count_votes(s):
    """Exiled only with strictly more votes than anyone else and than the abstentions."""
    n = s["num_players"]
    abstentions = 0
    for seat in range(n):
        target = s["ballot"][seat]
        if target == ABSTAINED:
            abstentions += 1
        elif target >= 0 and is_crew(s, target):
            s["voted_for_crew"][seat] = True
    s["ballots_public"] = True
    best, best_votes, tied = NOBODY, -1, False
    for seat in range(n):
        votes = 0
        for voter in range(n):
            votes += s["ballot"][voter] == seat
        if votes > best_votes:
            best, best_votes, tied = seat, votes, False
        elif votes == best_votes:
            tied = True
    if not tied and best_votes > abstentions:
        exile(s, best)


# --- end of the round ----------------------------------------------------------------------------


@kernel
def begin_end_of_round(s):
    s["stage"] = END_OF_ROUND
    s["eor_stage"] = 0


@kernel
def end_of_round(s):
    """Burns, deaths (one at a time, abilities in between), Moxie, Vigil, Energy, the token."""
    n = s["num_players"]
    if s["eor_stage"] == 0:
        for seat in range(n):
            if s["alive"][seat] and has_wound(s, seat, c.SEVERE_BURNS):
                discard_random_card(s, seat)
        s["eor_stage"] = 1
    if s["eor_stage"] == 1:
        for k in range(n):
            seat = seat_after(s, s["mission_leader"], k)
            if s["alive"][seat] and s["wound_n"][seat] >= wounds_to_kill(s, seat):
                kill(s, seat)
                return
        s["eor_stage"] = 2
    if s["moxie"] > 0 and s["wounded_this_round"]:
        change_oxygen(s, 2 * s["moxie"])
    if s["vigil"] > 0 and not s["killed_this_round"]:
        change_oxygen(s, np.int64(s["vigil"]))
    if s["terminated"]:
        return
    if s["energy"] >= ENERGY_GOAL:
        win(s, np.int64(CREW_TEAM))
        return
    if s["round"] >= s["max_rounds"]:
        s["truncated"] = True
        s["winner"] = -1
        s["rewards"][:] = 0.0
        return
    remember_round(s)
    pass_mission_leader(s)
    start_round(s)


@kernel
def remember_round(s):
    """The round just ended becomes row 0 of the record and older rows move down one.
    Only the rows the observation shows are kept: a shift of 160 bytes a row once a round, so
    that every observation reads the rows it shows as one run of memory. A row is public but
    for the cards each seat played, which only that seat's observation reads."""
    past = s["past"]
    for k in range(s["history_rounds"] - 1, 0, -1):
        past[k, :] = past[k - 1, :]
    row = past[0]
    row[PAST_COL_REVEALED : PAST_COL_REVEALED + T] = s["revealed_cards"]
    row[PAST_COL_PLAYED : PAST_COL_PLAYED + P] = s["played_n"]
    if s["vote_called"]:
        row[PAST_COL_BALLOT : PAST_COL_BALLOT + P] = s["ballot"]
    else:
        row[PAST_COL_BALLOT : PAST_COL_BALLOT + P] = DID_NOT_VOTE
    row[PAST_COL_CALLER] = s["vote_caller"]
    row[PAST_COL_EXILED] = np.int8(s["round_exiled"])
    row[PAST_COL_KILLED] = np.int8(s["round_killed"])
    row[PAST_COL_HELD] = 1
    for seat in range(P):
        row[PAST_COL_CARDS + seat * T : PAST_COL_CARDS + (seat + 1) * T] = s["played"][seat]
        for slot in range(2):
            row[PAST_COL_USED + 2 * seat + slot] = s["used"][seat, slot]
            row[PAST_COL_TARGET + 2 * seat + slot] = s["ability_target"][seat, slot]
    row[PAST_COL_OXYGEN] = s["oxygen"]
    row[PAST_COL_ENERGY] = s["energy"]


# --- walking the game to the next decision -------------------------------------------------------


@kernel
def over_hand_limit(s):
    n = s["num_players"]
    for k in range(n):
        seat = seat_after(s, s["mission_leader"], k)
        if s["alive"][seat] and s["hand_n"][seat] > hand_limit(s, seat):
            return seat
    return NOBODY


@kernel
def has_agenda_target(s, owner):
    for target in range(s["num_players"]):
        if agenda_target_ok(s, owner, target):
            return True
    return False


@kernel
def advance(s):
    """Run everything automatic until a seat must decide or the game is over.

    Priority: an ability's own follow-up, hand limits, agenda abilities of the fallen, the
    ability in progress, a delegated action, Rush plays, a Brawl choice, then the stage.
    """
    while not (s["terminated"] or s["truncated"]):
        if s["ab_user"] != NOBODY and s["ab_stage"] == FOLLOW_UP and s["ab_follow_up"] >= 0:
            decide(s, s["ab_follow_up"], s["ab_follow_up_seat"])
            return
        seat = over_hand_limit(s)
        if seat != NOBODY:
            decide(s, HAND_LIMIT, seat)
            return
        due = NOBODY
        for k in range(s["num_players"]):
            seat = seat_after(s, s["mission_leader"], k)
            if s["agenda_due"][seat]:
                due = seat
                break
        if due != NOBODY:
            if has_agenda_target(s, due):
                decide(s, AGENDA_TARGET, due)
                return
            s["agenda_due"][due] = False
            continue
        if s["ab_user"] != NOBODY:
            if continue_ability(s):
                return
            continue
        if s["delegated"] != NOBODY:
            seat = np.int64(s["delegated"])
            if has_delegated_action(s, seat):
                decide(s, DELEGATED, seat)
                return
            s["delegated"] = NOBODY
            continue
        if s["rush_left"] > 0:
            if playable_count(s, np.int64(s["rush_seat"])) > 0:
                decide(s, RUSH_PLAY, s["rush_seat"])
                return
            s["rush_left"] = 0
            continue
        if s["brawl_pending"]:
            decide(s, BRAWL_TARGET, s["mission_leader"])
            return
        stage = s["stage"]
        if stage == PICKING:
            presented = next_pick(s)
        elif stage == ACTION:
            presented = next_turn(s)
        elif stage == RESOLUTION:
            presented = next_reveal(s)
        elif stage == CALLING:
            presented = next_call(s)
        elif stage == TALKING:
            presented = next_talk(s)
        elif stage == VOTING:
            presented = next_vote(s)
        else:
            end_of_round(s)
            presented = False
        if presented:
            return


# --- decisions -----------------------------------------------------------------------------------


@kernel
def step(s, action):
    """Apply the pending seat's (already validated) action, then walk on."""
    n = s["num_players"]
    seat = s["current_seat"]
    decision = s["decision"]
    target = (seat + action - SEAT) % n
    card = action - CARD
    if decision == PICK_CHARACTER:
        pick_character(s, seat, action - PICK)
    elif decision == TURN or decision == DELEGATED or decision == RUSH_PLAY:
        if decision == TURN:
            s["turn_pos"] += 1
        elif decision == DELEGATED:
            s["delegated"] = NOBODY
        else:
            s["rush_left"] -= 1
        if action == DRAW:
            draw_card(s, seat)
        elif action < USE:
            play_card(s, seat, action - PLAY)
        else:
            begin_ability(s, seat, action - USE)
    elif decision == PAY_DISCARD:
        discard_card(s, seat, card)
        s["ab_discards_left"] -= 1
    elif decision == ABILITY_TARGET_CHOICE:
        s["ab_target"] = target
        s["ability_target"][s["ab_user"], s["ab_slot"]] = target
    elif decision == BLOODWORK_REVEAL:
        s["bloodwork"][seat] = card
        finish_ability(s)
    elif decision == RELAY_GIFT:
        relay(s, seat, card)
        finish_ability(s)
    elif decision == TINKER_DISCARD:
        discard_card(s, seat, card)
        finish_ability(s)
    elif decision == CALIBRATE_CHOICE:
        calibrate(s, action == YES)
        finish_ability(s)
    elif decision == HAND_LIMIT:
        discard_card(s, seat, card)
    elif decision == VETO_CHOICE:
        if action == YES:
            veto(s)
        else:
            s["veto_asked"] = True
    elif decision == BRAWL_TARGET:
        s["brawl_pending"] = False
        wound(s, target)
    elif decision == AGENDA_TARGET:
        s["agenda_due"][seat] = False
        if action != PASS:
            use_agenda_ability(s, seat, target)
    elif decision == CALL_VOTE:
        if action == YES:
            call_vote(s)
        else:
            s["call_pos"] += 1
    elif decision == TALK_CLAIM:
        s["claim"][seat] = 3 if action == PASS else action - CLAIM
    elif decision == TALK_ACCUSE_SEAT:
        s["accused"][seat] = n if action == PASS else target
    elif decision == TALK_ACCUSE_CARD:
        s["accused_card"][seat] = card
    else:
        s["ballot"][seat] = ABSTAINED if action == PASS else target
        s["vote_pos"] += 1
    advance(s)


@kernel
def mask_cards_in_hand(s, seat, mask):
    for card in range(T):
        if s["hand"][seat, card] > 0:
            mask[CARD + card] = True


@kernel
def legal_actions(s, mask):
    n = s["num_players"]
    seat = s["current_seat"]
    decision = s["decision"]
    if decision == PICK_CHARACTER:
        for ch in range(c.N_CHARACTERS):
            mask[PICK + ch] = s["offer"][seat, ch]
    elif decision == TURN or decision == DELEGATED or decision == RUSH_PLAY:
        if decision == TURN:
            mask[DRAW] = can_draw(s, seat)
        for card in range(T):
            mask[PLAY + card] = playable(s, seat, card)
        for slot in range(2):
            if decision == TURN:
                mask[USE + slot] = can_use(s, seat, slot)
            elif decision == DELEGATED:
                mask[USE + slot] = can_use_when_delegated(s, seat, slot)
    elif decision == ABILITY_TARGET_CHOICE:
        for k in range(n):
            mask[SEAT + k] = target_ok(s, seat, np.int64(s["ab_id"]), seat_after(s, seat, k))
    elif decision == CALIBRATE_CHOICE or decision == VETO_CHOICE or decision == CALL_VOTE:
        mask[PASS] = True
        mask[YES] = True
    elif decision == BRAWL_TARGET:
        for k in range(n):
            mask[SEAT + k] = s["alive"][seat_after(s, seat, k)]
    elif decision == AGENDA_TARGET:
        mask[PASS] = True
        for k in range(n):
            mask[SEAT + k] = agenda_target_ok(s, seat, seat_after(s, seat, k))
    elif decision == TALK_CLAIM:
        mask[PASS] = True
        for category in range(3):
            mask[CLAIM + category] = True
    elif decision == TALK_ACCUSE_SEAT:
        mask[PASS] = True
        for k in range(1, n):
            mask[SEAT + k] = s["alive"][seat_after(s, seat, k)]
    elif decision == TALK_ACCUSE_CARD:
        for card in range(T):
            mask[CARD + card] = True
    elif decision == VOTE:
        any_target = False
        for k in range(1, n):
            ok = can_be_voted(s, seat, seat_after(s, seat, k))
            mask[SEAT + k] = ok
            any_target = any_target or ok
        mask[PASS] = not (has_wound(s, seat, c.PARANOIA) and any_target)
    else:  # a card from hand: discard, reveal or give
        mask_cards_in_hand(s, seat, mask)
