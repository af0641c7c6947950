"""The board of one game as a record: its fields, the stages and pending decisions, and the small
facts every phase reads off it (who sits where, who holds which wound, who may play what).
"""

import numpy as np

from ...core.jit import kernel
from ...core.record import make_dtype
from .. import cards as c
from ..actions import MAX_PLAYERS
from ..spec import MAX_HISTORY_ROUNDS, SPEC
from ..tables import AGENDA_SIDE


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
PAST_COL_BRAWL_BY = PAST_COL_ENERGY + 1  # who chose the Brawl's target, NOBODY if no Brawl
PAST_COL_BRAWL_TARGET = PAST_COL_BRAWL_BY + 1  # whom the Brawl wounded
PAST_COL_CLAIM = PAST_COL_BRAWL_TARGET + 1  # + seat: table talk, as the record's `claim`
PAST_COL_ACCUSED = PAST_COL_CLAIM + P  # + seat: as the record's `accused`
PAST_COL_ACCUSED_CARD = PAST_COL_ACCUSED + P  # + seat: as the record's `accused_card`
PAST_WIDTH = 184
assert PAST_COL_ACCUSED_CARD + P <= PAST_WIDTH

DTYPE = make_dtype(
    SPEC,
    [
        ("stage", np.int8),
        ("decision", np.int8),
        ("round", np.int16),
        ("mission_leader", np.int8),
        ("round_leader", np.int8),  # first to act this round: turn order ignores later passes
        ("leader_passed", np.bool_),  # the token already moved on this round: its holder died
        ("turn_pos", np.int8),
        ("oxygen", np.int16),
        ("energy", np.int16),
        ("energy_at_resolution", np.int16),
        # seats
        ("agenda", np.int8, (P,)),
        ("character", np.int8, (P,)),
        ("offer", np.uint8, (P, c.N_CHARACTERS)),
        ("pick_pos", np.int8),
        ("picks_shown", np.int8),  # picks in turn order made public: a group's, once all chose
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
        ("brawl_by", np.int8),  # this round's Brawl: who chose its target, NOBODY if none yet
        ("brawl_target", np.int8),
        # What happened over the whole game, counted when a round ends (`remember_round`):
        # the memory a careful player keeps beyond the past rounds the observation details.
        # A count stops at COUNT_SEEN, so a byte holds it (`count_up`).
        ("game_played", np.uint8, (P,)),  # Below Deck cards each seat played
        ("game_cards", np.uint8, (P, T)),  # which cards: each seat's own secret
        ("game_revealed", np.uint8, (T,)),  # cards revealed in Resolution Phases
        ("game_calls", np.uint8, (P,)),  # votes each seat called
        ("game_ballots", np.uint8, (P, P + 1)),  # [voter, seat voted for]; last: abstained
        ("game_used", np.uint8, (P, 2)),  # Above Deck Actions used, by slot of the character
        ("game_targets", np.uint8, (P, P)),  # [user, seat its abilities chose]
        ("game_bloodwork", np.uint8, (P, T)),  # cards each seat revealed by Bloodwork
        ("game_surveilled", np.uint8, (P, T)),  # face-down cards Surveillance saw (its user's)
        ("game_intercepted", np.uint8, (P, T)),  # deck tops Intercept saw (its user's)
        ("game_claims", np.uint8, (P, 3)),  # table talk: Good, Neutral, Bad claimed
        ("game_accused", np.uint8, (P, P)),  # table talk: [accuser, accused]
        ("game_brawls", np.uint8, (P, P)),  # [who chose, whom the Brawl wounded]
        # counted when chosen, this round included: several seats may use one in a round, and
        # an agenda ability is used once a game, so the count is its whole public record
        ("game_agenda_targets", np.uint8, (P, P)),  # [owner, whom its agenda ability chose]
        # sides and goals
        ("menace_fallen", np.bool_),  # a Menace has been exiled or killed
        ("coward_side", np.int8),
        ("repairs_played", np.int8, (P,)),
        ("voted_for_crew", np.uint8, (P,)),
        ("crew_exiled", np.bool_),
        ("menace_exiled", np.bool_),
    ],
)


# The observation shows a whole-game count / 20, at most 2: counts of 40 and beyond look alike,
# so the record's `game_*` counts stop there and fit in a byte. In two bytes (until 2026-12-07)
# they made the record 752 bytes longer (5,728), bytes every observation reads (docs/speed.md).
COUNT_SEEN = 40


@kernel
def count_up(counts, i, k):
    """``counts[i] += k`` for a whole-game count, stopping at COUNT_SEEN."""
    counts[i] = min(counts[i] + k, COUNT_SEEN)


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


@kernel
def decide(s, decision, seat):
    s["decision"] = decision
    s["current_seat"] = seat


@kernel
def over_hand_limit(s):
    n = s["num_players"]
    for k in range(n):
        seat = seat_after(s, s["mission_leader"], k)
        if s["alive"][seat] and s["hand_n"][seat] > hand_limit(s, seat):
            return seat
    return NOBODY
