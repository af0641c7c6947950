"""3. Accusation Phase (rulebook "Accusation Phase"): calling a vote, table talk, the secret
ballot and exile.
"""

from ...core.jit import kernel
from .. import cards as c
from .board import (
    ABSTAINED,
    CALL_VOTE,
    DID_NOT_VOTE,
    NOBODY,
    TALKING,
    TALK_ACCUSE_CARD,
    TALK_ACCUSE_SEAT,
    TALK_CLAIM,
    VOTE,
    VOTING,
    decide,
    has_wound,
    is_crew,
    seat_after,
)
from .end_of_round import begin_end_of_round
from .fates import exile


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
    """Lockdown keeps a seat from calling a vote, not from voting (v3: a locked-down ballot
    let two Menaces block every exile at 5 players)."""
    return s["alive"][seat] and not s["exiled"][seat] and not has_wound(s, seat, c.CRUSHED_THROAT)


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
