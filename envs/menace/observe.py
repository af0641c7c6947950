"""What one seat may know, written as the named pieces of ``spec.observation_layout``.

Seats are relative to the observer. Another seat's agenda, hand, deck and face-down cards
appear only where the rules made them known: a revealed agenda, a Bloodwork reveal, or the
observer's own Analyze, Surveillance, Intercept or Calibrate. The votes of the vote in progress
stay hidden until all are cast; the Coward's side is shown to the Coward alone.

Bloodwork, Surveillance and Intercept each belong to one character and are used at most once a
round, so what each showed this round is about one seat: a seat one-hot and the card(s) seen.
Only the owner of a knowledge ability can hold what it showed, so other observers never read
those (large, mostly empty) parts of the record.
"""

import numpy as np

from ..core.jit import kernel
from ..core.seats import absolute, relative
from .cards import (
    ANALYZE,
    BLOODWORK,
    CALIBRATE,
    INTERCEPT,
    N_AGENDAS,
    N_CARD_TYPES,
    N_CHARACTERS,
    SURVEILLANCE,
    THE_COWARD,
)
from .rules import (
    ABSTAINED,
    COUNT_SEEN,
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
    PICKING,
    VETO_CHOICE,
    team_of,
)
from .spec import N_WOUND_KINDS, observation_layout, state_layout
from .tables import ABILITY_OXYGEN, CHARACTER_ABILITIES

# Version 4: what each character's two ability slots cost in Oxygen, looked up once. A seat's
# Oxygen spent on Above Deck Actions is public (characters and the abilities used are), and it
# is the Crew's clue against a Menace that drains the track with no card; a flat network does
# not learn the seat x slot x table lookup from `character` and `abilities_used` (its imitation
# of the heuristic Crew, which sums exactly this, won 3% against the drain Menace where the
# heuristic won 42%), so the sum is written out.
SLOT_COST = ABILITY_OXYGEN[CHARACTER_ABILITIES].astype(np.float64)  # [character, slot]
SLOT_OXYGEN = SLOT_COST * 0.25


def _owner(ability: int) -> int:
    """The one character with this Above Deck Action: the only seat that can know what it shows."""
    owners = np.flatnonzero((CHARACTER_ABILITIES == ability).any(axis=1))
    assert len(owners) == 1, (
        f"Above Deck Action {ability} must belong to exactly one character: the observation "
        "shows what it revealed as that character's knowledge, about one seat a round"
    )
    return int(owners[0])


_owner(BLOODWORK)  # its reveal is public, but also shown as one seat's this round
ANALYST = _owner(ANALYZE)
SURVEILLANT = _owner(SURVEILLANCE)
INTERCEPTOR = _owner(INTERCEPT)
CALIBRATOR = _owner(CALIBRATE)

T = N_CARD_TYPES
_OBS = observation_layout(
    {"num_players": 4, "table_talk": 1, "history_rounds": 1, "game_counts": 1}
)
_names = [p.name for p in _OBS.pieces]
(
    OWN_AGENDA,
    COWARD_SIDE,
    CHARACTER_OFFER,
    HAND,
    OXYGEN,
    ENERGY,
    ROUND,
    DECISION,
    DECIDING_SEAT,
    MISSION_LEADER,
    ABILITY_IN_PLAY,
    ABILITY_USER,
    SUBJECT,
    ALIVE,
    EXILED,
    CHARACTER,
    AGENDA_REVEALED,
    WOUNDS,
    HAND_SIZE,
    DECK_SIZE,
    ABILITIES_USED,
    ABILITY_TARGETS,
    STATUS,
    PLAYED,
    OWN_PLAYED,
    REVEALED,
    BEING_REVEALED,
    RESOLUTION,
    BLOODWORK_SEAT,
    BLOODWORK_CARD,
    SEEN_HAND,
    SURVEILLED_SEAT,
    SURVEILLED_CARDS,
    INTERCEPTED_SEAT,
    INTERCEPTED_CARD,
    SEEN_EMMA_TOP,
    VOTE_CALLER,
    BALLOTS,
    CLAIMS,
    ACCUSED,
    ACCUSED_CARD,
    DECKS,
    PAST_ROUND,
    PAST_REVEALED,
    PAST_PLAYED,
    PAST_VOTE_CALLER,
    PAST_BALLOTS,
    PAST_EXILED,
    PAST_KILLED,
    PAST_OWN_PLAYED,
    PAST_ABILITIES_USED,
    PAST_ABILITY_TARGETS,
    PAST_TRACKS,
    OXYGEN_SPENT,
    BRAWL,
    PAST_BRAWL,
    PAST_CLAIMS,
    PAST_ACCUSED,
    PAST_ACCUSED_CARD,
    GAME_REVEALED,
    GAME_PLAYED,
    GAME_OWN_PLAYED,
    GAME_VOTE_CALLS,
    GAME_BALLOTS,
    GAME_ABILITIES_USED,
    GAME_ABILITY_TARGETS,
    GAME_OXYGEN_SPENT,
    GAME_BLOODWORK,
    GAME_SURVEILLED,
    GAME_INTERCEPTED,
    GAME_BRAWLS,
    GAME_AGENDA_TARGETS,
    GAME_CLAIMS,
    GAME_ACCUSED,
) = range(len(_names))
assert _names[PAST_TRACKS] == "past_tracks" and _names[SEEN_HAND] == "seen_hand"
assert _names[OXYGEN_SPENT] == "oxygen_spent"
assert _names[OWN_PLAYED] == "own_played" and _names[ABILITY_TARGETS] == "ability_targets"
assert _names[BRAWL] == "brawl" and _names[GAME_ACCUSED] == "game_accused"
assert _names[GAME_OXYGEN_SPENT] == "game_oxygen_spent"


@kernel
def subject_of(s):
    """The seat the pending decision is about: the target of the ability in progress."""
    if s["ab_user"] != NOBODY and s["ab_target"] != NOBODY:
        return s["ab_target"]
    return NOBODY


@kernel
def observe(s, seat, out, off, n):
    agenda = s["agenda"][seat]
    out[off[OWN_AGENDA] + agenda] = 1.0
    if agenda == THE_COWARD:
        out[off[COWARD_SIDE] + s["coward_side"]] = 1.0
    if s["stage"] == PICKING:
        for ch in range(N_CHARACTERS):
            out[off[CHARACTER_OFFER] + ch] = s["offer"][seat, ch]
    for card in range(T):
        out[off[HAND] + card] = s["hand"][seat, card] * 0.125
        out[off[REVEALED] + card] = s["revealed_cards"][card] * 0.125
    if s["played_n"][seat]:
        for card in range(T):
            out[off[OWN_PLAYED] + card] = s["played"][seat, card] * (1.0 / 3.0)
    out[off[OXYGEN]] = s["oxygen"] * 0.05
    out[off[ENERGY]] = s["energy"] * 0.05
    out[off[ROUND]] = s["round"] / s["max_rounds"]
    out[off[DECISION] + s["decision"]] = 1.0
    out[off[DECIDING_SEAT] + relative(s["current_seat"], seat, n)] = 1.0
    out[off[MISSION_LEADER] + relative(s["mission_leader"], seat, n)] = 1.0
    if s["ab_user"] != NOBODY:
        out[off[ABILITY_IN_PLAY] + s["ab_id"]] = 1.0
        out[off[ABILITY_USER] + relative(s["ab_user"], seat, n)] = 1.0
    subject = subject_of(s)
    if subject != NOBODY:
        out[off[SUBJECT] + relative(subject, seat, n)] = 1.0
    if s["decision"] == VETO_CHOICE:  # the card just revealed is public
        out[off[BEING_REVEALED] + s["pool"][s["reveal_pos"]]] = 1.0
    out[off[RESOLUTION] + 0] = s["replicate_waiting"]
    out[off[RESOLUTION] + 1] = s["backstab_spent"]
    out[off[RESOLUTION] + 2] = s["brawl_spent"]
    out[off[RESOLUTION] + 3] = s["veto_armed"]
    # What abilities showed is read only by their owners: the others skip those record lines.
    ch = s["character"][seat]
    if ch == CALIBRATOR and s["seen_emma"][seat] >= 0:
        out[off[SEEN_EMMA_TOP] + s["seen_emma"][seat]] = 1.0
    if s["vote_caller"] != NOBODY:
        out[off[VOTE_CALLER] + relative(s["vote_caller"], seat, n)] = 1.0
    out[off[DECKS] + 0] = s["emma_n"] * 0.05
    out[off[DECKS] + 1] = s["wound_deck_n"] * (1.0 / 15.0)
    # Views hoisted out of the seat loop: each record-field access rebuilds an array header.
    seen_hand, seen_played = s["seen_hand"][seat], s["seen_played"][seat]
    seen_top = s["seen_top"][seat]
    wound_list, used, chose = s["wound_list"], s["used"], s["ability_target"]
    analyst, searching, interceptor = ch == ANALYST, ch == SURVEILLANT, ch == INTERCEPTOR
    leader = s["mission_leader"]
    for r in range(n):
        j = absolute(r, seat, n)
        out[off[ALIVE] + r] = s["alive"][j]
        out[off[EXILED] + r] = s["exiled"][j]
        if s["character"][j] >= 0 and (r == 0 or relative(j, leader, n) < s["picks_shown"]):
            out[off[CHARACTER] + r * N_CHARACTERS + s["character"][j]] = 1.0
            cost = SLOT_OXYGEN[s["character"][j]]
            out[off[OXYGEN_SPENT] + r] += used[j, 0] * cost[0] + used[j, 1] * cost[1]
        if s["revealed"][j]:
            out[off[AGENDA_REVEALED] + r * N_AGENDAS + s["agenda"][j]] = 1.0
        for w in range(s["wound_n"][j]):
            i = off[WOUNDS] + r * N_WOUND_KINDS + wound_list[j, w]
            out[i] = min(out[i] + 1.0, 2.0)
        out[off[HAND_SIZE] + r] = s["hand_n"][j] * 0.125
        out[off[DECK_SIZE] + r] = s["deck_n"][j] * 0.05
        out[off[ABILITIES_USED] + 2 * r] = used[j, 0]
        out[off[ABILITIES_USED] + 2 * r + 1] = used[j, 1]
        for slot in range(2):
            if chose[j, slot] != NOBODY:
                out[off[ABILITY_TARGETS] + r * n + relative(chose[j, slot], seat, n)] = 1.0
        out[off[STATUS] + 4 * r] = s["locked_down"][j]
        out[off[STATUS] + 4 * r + 1] = s["suppressed"][j]
        out[off[STATUS] + 4 * r + 2] = s["hidden"][j]
        out[off[STATUS] + 4 * r + 3] = s["shielded"][j]
        out[off[PLAYED] + r] = s["played_n"][j] * (1.0 / 3.0)
        if s["bloodwork"][j] >= 0:
            out[off[BLOODWORK_SEAT] + r] = 1.0
            out[off[BLOODWORK_CARD] + s["bloodwork"][j]] = 1.0
        if analyst and seen_hand[j, 0] >= 0:
            for card in range(T):
                out[off[SEEN_HAND] + r * T + card] = seen_hand[j, card] * 0.125
        if r > 0 and searching:
            for card in range(T):
                if seen_played[j, card]:
                    searching = False
                    out[off[SURVEILLED_SEAT] + r] = 1.0
                    for cd in range(T):
                        out[off[SURVEILLED_CARDS] + cd] = seen_played[j, cd] * 0.5
                    break
        if interceptor and seen_top[j] >= 0:
            out[off[INTERCEPTED_SEAT] + r] = 1.0
            out[off[INTERCEPTED_CARD] + seen_top[j]] = 1.0
        if s["vote_called"] and (s["ballots_public"] or r == 0):
            write_ballot(s["ballot"][j], seat, n, out, off[BALLOTS] + r * (n + 1))
        if s["table_talk"]:
            if 0 <= s["claim"][j] < 3:
                out[off[CLAIMS] + r * 3 + s["claim"][j]] = 1.0
            if 0 <= s["accused"][j] < n:
                out[off[ACCUSED] + r * n + relative(s["accused"][j], seat, n)] = 1.0
                if s["accused_card"][j] >= 0:
                    out[off[ACCUSED_CARD] + r * T + s["accused_card"][j]] = 1.0
    observe_past_rounds(s, seat, out, off, n)
    for r in range(n):  # four rounds of two abilities can cost more than the scale's 8 Oxygen
        out[off[OXYGEN_SPENT] + r] = min(out[off[OXYGEN_SPENT] + r], 2.0)
    if s["brawl_by"] != NOBODY:  # version 5: this round's Brawl, who chose and whom
        out[off[BRAWL] + relative(s["brawl_by"], seat, n)] = 1.0
        out[off[BRAWL] + n + relative(s["brawl_target"], seat, n)] = 1.0
    if s["game_counts"]:
        observe_game(s, seat, out, off, n, ch)


@kernel
def game_count(count):
    """A whole-game count as the observation shows it: / 20, at most 2 (40 and beyond)."""
    return min(count * 0.05, 2.0)


# `game_count` of every count the record holds (its counts stop at COUNT_SEEN), as the
# observation's float32: a count is shown with one load, not a conversion, a multiply and a
# compare.
GAME_SEEN = np.minimum(np.arange(COUNT_SEEN + 1) * 0.05, 2.0).astype(np.float32)


@kernel
def observe_game(s, seat, out, off, n, ch):
    """Version 5: what the whole game has shown this seat (the record's `game_*` counts). Every
    field is viewed once, outside the loops (each record-field access rebuilds an array
    header); counts are written without a test for zero, looked up in GAME_SEEN, and each row
    of the n x n pieces in the observer's order of seats, one run of the observation."""
    seen = GAME_SEEN
    revealed, own = s["game_revealed"], s["game_cards"][seat]
    at_revealed, at_own = off[GAME_REVEALED], off[GAME_OWN_PLAYED]
    for card in range(T):
        out[at_revealed + card] = seen[revealed[card]]
        out[at_own + card] = seen[own[card]]
    played, calls, ballots = s["game_played"], s["game_calls"], s["game_ballots"]
    game_used, used, character = s["game_used"], s["used"], s["character"]
    targets, brawls, agenda = s["game_targets"], s["game_brawls"], s["game_agenda_targets"]
    bloodwork, accused, claims = s["game_bloodwork"], s["game_accused"], s["game_claims"]
    surveilled, intercepted = s["game_surveilled"], s["game_intercepted"]
    surveillant, interceptor, talk = ch == SURVEILLANT, ch == INTERCEPTOR, s["table_talk"]
    at_played, at_calls = off[GAME_PLAYED], off[GAME_VOTE_CALLS]
    at_used, at_spent = off[GAME_ABILITIES_USED], off[GAME_OXYGEN_SPENT]
    at_ballots, at_targets = off[GAME_BALLOTS], off[GAME_ABILITY_TARGETS]
    at_brawls, at_agenda, at_accused = off[GAME_BRAWLS], off[GAME_AGENDA_TARGETS], off[GAME_ACCUSED]
    at_bloodwork = off[GAME_BLOODWORK]
    for r in range(n):
        j = absolute(r, seat, n)
        out[at_played + r] = seen[played[j]]
        out[at_calls + r] = seen[calls[j]]
        ballots_at = at_ballots + r * (n + 1)
        out[ballots_at + n] = seen[ballots[j, n]]
        if character[j] >= 0:  # abilities are used only after every pick is shown
            spent = 0.0
            for slot in range(2):
                out[at_used + 2 * r + slot] = seen[game_used[j, slot]]
                spent += (game_used[j, slot] + used[j, slot]) * SLOT_COST[character[j], slot]
            out[at_spent + r] = game_count(spent)
        row = r * n
        for rk in range(n):
            k = absolute(rk, seat, n)
            out[ballots_at + rk] = seen[ballots[j, k]]
            out[at_targets + row + rk] = seen[targets[j, k]]
            out[at_brawls + row + rk] = seen[brawls[j, k]]
            out[at_agenda + row + rk] = seen[agenda[j, k]]
        for card in range(T):
            out[at_bloodwork + r * T + card] = seen[bloodwork[j, card]]
        if surveillant:
            for card in range(T):
                out[off[GAME_SURVEILLED] + r * T + card] = seen[surveilled[j, card]]
        if interceptor:
            for card in range(T):
                out[off[GAME_INTERCEPTED] + r * T + card] = seen[intercepted[j, card]]
        if talk:
            for rk in range(n):
                out[at_accused + row + rk] = seen[accused[j, absolute(rk, seat, n)]]
            for category in range(3):
                out[off[GAME_CLAIMS] + r * 3 + category] = seen[claims[j, category]]


@kernel
def write_ballot(ballot, seat, n, out, at):
    """One voter's row of a public vote: the seat voted for, or the last column for abstained."""
    if ballot == ABSTAINED:
        out[at + n] = 1.0
    elif ballot >= 0:
        out[at + relative(ballot, seat, n)] = 1.0


@kernel
def observe_past_rounds(s, seat, out, off, n):
    """The last `history_rounds` rounds, most recent first (rows of the record's `past`).
    Each piece's offset for the row is computed once: the loops then only add a seat."""
    past = s["past"]
    spent_at = off[OXYGEN_SPENT]
    for k in range(s["history_rounds"]):
        row = past[k]
        if not row[PAST_COL_HELD]:
            return
        out[off[PAST_ROUND] + k] = 1.0
        at = off[PAST_TRACKS] + 2 * k
        out[at] = row[PAST_COL_OXYGEN] * 0.05
        out[at + 1] = row[PAST_COL_ENERGY] * 0.05
        at = off[PAST_REVEALED] + k * T
        for card in range(T):
            out[at + card] = row[PAST_COL_REVEALED + card] * 0.125
        if row[PAST_COL_PLAYED + seat]:
            at, own = off[PAST_OWN_PLAYED] + k * T, PAST_COL_CARDS + seat * T
            for card in range(T):
                out[at + card] = row[own + card] * (1.0 / 3.0)
        caller = row[PAST_COL_CALLER]
        exiled, killed = row[PAST_COL_EXILED], row[PAST_COL_KILLED]
        played_at, exiled_at = off[PAST_PLAYED] + k * n, off[PAST_EXILED] + k * n
        killed_at, ballots_at = off[PAST_KILLED] + k * n, off[PAST_BALLOTS] + k * n * (n + 1)
        used_at = off[PAST_ABILITIES_USED] + 2 * k * n
        targets_at = off[PAST_ABILITY_TARGETS] + k * n * n
        for r in range(n):
            j = absolute(r, seat, n)
            if row[PAST_COL_PLAYED + j]:
                out[played_at + r] = row[PAST_COL_PLAYED + j] * (1.0 / 3.0)
            if caller != NOBODY:
                write_ballot(row[PAST_COL_BALLOT + j], seat, n, out, ballots_at + r * (n + 1))
            if (exiled >> j) & 1:
                out[exiled_at + r] = 1.0
            if (killed >> j) & 1:
                out[killed_at + r] = 1.0
            used = PAST_COL_USED + 2 * j
            if row[used] | row[used + 1]:
                for slot in range(2):
                    if row[used + slot]:
                        out[used_at + 2 * r + slot] = 1.0
                        out[spent_at + r] += SLOT_OXYGEN[s["character"][j], slot]
                        target = row[PAST_COL_TARGET + 2 * j + slot]
                        if target != NOBODY:
                            out[targets_at + r * n + relative(target, seat, n)] = 1.0
        if caller != NOBODY:
            out[off[PAST_VOTE_CALLER] + k * n + relative(caller, seat, n)] = 1.0
        if row[PAST_COL_BRAWL_BY] != NOBODY:
            at = off[PAST_BRAWL] + 2 * k * n
            out[at + relative(row[PAST_COL_BRAWL_BY], seat, n)] = 1.0
            out[at + n + relative(row[PAST_COL_BRAWL_TARGET], seat, n)] = 1.0
        if s["table_talk"]:
            observe_past_talk(row, k, seat, out, off, n)


@kernel
def observe_past_talk(row, k, seat, out, off, n):
    """A past round's table talk, as `claims`, `accused` and `accused_card` showed it then."""
    for r in range(n):
        j = absolute(r, seat, n)
        claim = row[PAST_COL_CLAIM + j]
        if 0 <= claim < 3:
            out[off[PAST_CLAIMS] + (k * n + r) * 3 + claim] = 1.0
        accused = row[PAST_COL_ACCUSED + j]
        if 0 <= accused < n:
            out[off[PAST_ACCUSED] + (k * n + r) * n + relative(accused, seat, n)] = 1.0
            card = row[PAST_COL_ACCUSED_CARD + j]
            if card >= 0:
                out[off[PAST_ACCUSED_CARD] + (k * n + r) * T + card] = 1.0


_STATE = state_layout({"num_players": 4})
_snames = [p.name for p in _STATE.pieces]
(
    S_AGENDA,
    S_TEAM,
    S_CHARACTER,
    S_HAND,
    S_DECK,
    S_PLAYED,
    S_WOUNDS,
    S_ALIVE,
    S_EXILED,
    S_OXYGEN,
    S_ENERGY,
    S_ROUND,
    S_DECISION,
    S_DECIDING_SEAT,
    S_MISSION_LEADER,
    S_EMMA_TOP,
) = range(len(_snames))
assert _snames[S_EMMA_TOP] == "emma_top"


@kernel
def god_view(s, out, off):
    n = s["num_players"]
    out[off[S_OXYGEN]] = s["oxygen"] * 0.05
    out[off[S_ENERGY]] = s["energy"] * 0.05
    out[off[S_ROUND]] = s["round"] / s["max_rounds"]
    out[off[S_DECISION] + s["decision"]] = 1.0
    out[off[S_DECIDING_SEAT] + s["current_seat"]] = 1.0
    out[off[S_MISSION_LEADER] + s["mission_leader"]] = 1.0
    if s["emma_n"] > 0:
        out[off[S_EMMA_TOP] + s["emma"][s["emma_n"] - 1]] = 1.0
    for j in range(n):
        out[off[S_AGENDA] + j * N_AGENDAS + s["agenda"][j]] = 1.0
        out[off[S_TEAM] + 2 * j + team_of(s, j)] = 1.0
        if s["character"][j] >= 0:
            out[off[S_CHARACTER] + j * N_CHARACTERS + s["character"][j]] = 1.0
        for card in range(T):
            out[off[S_HAND] + j * T + card] = s["hand"][j, card] * 0.125
            out[off[S_PLAYED] + j * T + card] = s["played"][j, card] * 0.5
        for k in range(s["deck_n"][j]):
            out[off[S_DECK] + j * T + s["deck"][j, k]] += 0.05
        for w in range(s["wound_n"][j]):
            i = off[S_WOUNDS] + j * N_WOUND_KINDS + s["wound_list"][j, w]
            out[i] = min(out[i] + 1.0, 2.0)
        out[off[S_ALIVE] + j] = s["alive"][j]
        out[off[S_EXILED] + j] = s["exiled"][j]
