"""Setup (rulebook "Setup"): the tracks, the wound and EmMA decks, agendas by player count,
characters dealt and picked, personal decks and starting hands.
"""

import numpy as np

from ...core.jit import kernel
from ...core.rng import below, shuffle
from .. import cards as c
from ..tables import AGENDA_DECK, CHARACTER_DECK, CREW_AGENDAS, EMMA_CARDS
from .action_phase import start_of_round_flags, start_round
from .board import (
    CREW_TEAM,
    DID_NOT_VOTE,
    NOBODY,
    P,
    PICK_CHARACTER,
    PICKING,
    decide,
    seat_after,
)
from .hands import draw_card


@kernel
def set_up(s):
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


@kernel
def clear_table(s):
    s["round"] = 0
    s["agenda"][:] = -1
    s["character"][:] = -1
    s["offer"][:, :] = False
    s["pick_pos"] = 0
    s["picks_shown"] = 0
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
    s["game_played"][:] = 0
    s["game_cards"][:, :] = 0
    s["game_revealed"][:] = 0
    s["game_calls"][:] = 0
    s["game_ballots"][:, :] = 0
    s["game_used"][:, :] = 0
    s["game_targets"][:, :] = 0
    s["game_bloodwork"][:, :] = 0
    s["game_surveilled"][:, :] = 0
    s["game_intercepted"][:, :] = 0
    s["game_claims"][:, :] = 0
    s["game_accused"][:, :] = 0
    s["game_brawls"][:, :] = 0
    s["game_agenda_targets"][:, :] = 0
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
    """Seats pick one at a time, but a group's picks stay hidden until the whole group has
    chosen: the rulebook's players choose together and place their characters face up (all
    seats at 4-5 players; the first five, then the rest, at 6-8). The offers within a group
    never overlap, so the order of decisions tells no one anything."""
    n = s["num_players"]
    while s["pick_pos"] < n:
        if s["pick_pos"] == c.CHARACTER_FIRST_PICKERS:
            s["picks_shown"] = s["pick_pos"]
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
    s["picks_shown"] = n
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
