"""The end of the round (rulebook "End of the Round"): burns, deaths one at a time, Moxie and
Vigil, the Energy goal, the public record of the round, the Mission Leader token.
"""

import numpy as np

from ...core.jit import kernel
from .. import cards as c
from .action_phase import start_round
from .board import (
    CREW_TEAM,
    DID_NOT_VOTE,
    END_OF_ROUND,
    ENERGY_GOAL,
    P,
    ABSTAINED,
    NOBODY,
    PAST_COL_ACCUSED,
    PAST_COL_ACCUSED_CARD,
    PAST_COL_BALLOT,
    PAST_COL_BRAWL_BY,
    PAST_COL_BRAWL_TARGET,
    PAST_COL_CALLER,
    PAST_COL_CLAIM,
    PAST_COL_CARDS,
    PAST_COL_ENERGY,
    PAST_COL_EXILED,
    PAST_COL_HELD,
    PAST_COL_KILLED,
    PAST_COL_OXYGEN,
    PAST_COL_PLAYED,
    PAST_COL_REVEALED,
    PAST_COL_TARGET,
    PAST_COL_USED,
    T,
    count_up,
    has_wound,
    seat_after,
    wounds_to_kill,
)
from .fates import kill, pass_mission_leader
from .hands import discard_random_card
from .tracks import change_oxygen, win


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
    if not s["leader_passed"]:
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
    row[PAST_COL_BRAWL_BY] = s["brawl_by"]
    row[PAST_COL_BRAWL_TARGET] = s["brawl_target"]
    row[PAST_COL_CLAIM : PAST_COL_CLAIM + P] = s["claim"]
    row[PAST_COL_ACCUSED : PAST_COL_ACCUSED + P] = s["accused"]
    row[PAST_COL_ACCUSED_CARD : PAST_COL_ACCUSED_CARD + P] = s["accused_card"]
    count_round(s)


@kernel
def count_round(s):
    """Adds the round just ended to the whole game's counts (the record's `game_*` fields):
    what a careful player still knows after the rounds shown in detail have gone by. Each
    count stops at COUNT_SEEN, past which the observation shows them alike (`count_up`)."""
    n = s["num_players"]
    for card in range(T):
        count_up(s["game_revealed"], card, s["revealed_cards"][card])
    if s["brawl_by"] != NOBODY:
        count_up(s["game_brawls"][s["brawl_by"]], s["brawl_target"], 1)
    if s["vote_called"]:
        count_up(s["game_calls"], s["vote_caller"], 1)
    for seat in range(n):
        count_up(s["game_played"], seat, s["played_n"][seat])
        for card in range(T):
            count_up(s["game_cards"][seat], card, s["played"][seat, card])
        if s["vote_called"]:
            ballot = s["ballot"][seat]
            if ballot == ABSTAINED:
                count_up(s["game_ballots"][seat], n, 1)
            elif ballot >= 0:
                count_up(s["game_ballots"][seat], ballot, 1)
        for slot in range(2):
            if s["used"][seat, slot]:
                count_up(s["game_used"][seat], slot, 1)
                if s["ability_target"][seat, slot] != NOBODY:
                    count_up(s["game_targets"][seat], s["ability_target"][seat, slot], 1)
        if s["bloodwork"][seat] >= 0:
            count_up(s["game_bloodwork"][seat], s["bloodwork"][seat], 1)
        if 0 <= s["claim"][seat] < 3:
            count_up(s["game_claims"][seat], s["claim"][seat], 1)
        if 0 <= s["accused"][seat] < n:
            count_up(s["game_accused"][seat], s["accused"][seat], 1)
        for observer in range(n):  # only the user of Surveillance or Intercept saw anything
            for card in range(T):
                count_up(s["game_surveilled"][seat], card, s["seen_played"][observer, seat, card])
            if s["seen_top"][observer, seat] >= 0:
                count_up(s["game_intercepted"][seat], s["seen_top"][observer, seat], 1)
