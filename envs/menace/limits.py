"""The range of every field of a Menace record (see ``envs/core/limits.py``): what
``VecEnv.set_records`` accepts.

Seats, card types, characters, agendas, wound kinds, decisions and stages index the record's
axes and the observation's pieces, so they must lie within them; counts stay within their piles.
``check`` adds what ranges cannot say: every pile's count agrees with its cards, and the wound
and EmMA cards are conserved, so that no later push can run past the end of a pile.
"""

import numpy as np

from ..core.limits import FLAG, SEAT, SEAT_OR_NONE, Range, last_seat, players
from . import cards as c
from .rules import (
    BLOODWORK_REVEAL,
    CALIBRATE_CHOICE,
    COUNT_SEEN,
    ENERGY_GOAL,
    MAX_WOUNDS,
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
    PAST_WIDTH,
    POOL,
    RELAY_GIFT,
    TINKER_DISCARD,
    P,
)
from .spec import N_DECISIONS
from .tables import ABILITY_DISCARDS

T = c.N_CARD_TYPES
CARD = Range(0, T - 1, "a Below Deck card type")
CARD_OR_NONE = Range(-1, T - 1, "a card type, or -1")
COUNT = Range(0, POOL, "cards of one round or one hand")
SEAT_OR_PAST = Range(0, players, "a seat, or num_players once all have had their turn")
# A whole game's count (`count_round`): it stops where the observation's scale ends.
GAME_COUNT = Range(0, COUNT_SEEN, "a count over the game so far, at most COUNT_SEEN")


def _past(params: dict, bound: int) -> np.ndarray:
    """Per column of a past round's row (``rules.PAST_COL_*``): ``bound`` 0 low, 1 high."""
    n = params["num_players"]
    low, high = np.zeros(PAST_WIDTH, np.int64), np.zeros(PAST_WIDTH, np.int64)
    high[PAST_COL_REVEALED:PAST_COL_PLAYED] = POOL
    high[PAST_COL_PLAYED:PAST_COL_BALLOT] = POOL
    low[PAST_COL_BALLOT:PAST_COL_CALLER] = -2  # DID_NOT_VOTE
    high[PAST_COL_BALLOT:PAST_COL_CALLER] = n - 1
    low[PAST_COL_CALLER], high[PAST_COL_CALLER] = -1, n - 1
    for col in (PAST_COL_EXILED, PAST_COL_KILLED):  # one bit per seat, seat 7 the sign bit
        low[col], high[col] = -128, 127
    high[PAST_COL_HELD] = 1
    high[PAST_COL_CARDS:PAST_COL_USED] = POOL
    high[PAST_COL_USED:PAST_COL_TARGET] = 1
    low[PAST_COL_TARGET:PAST_COL_OXYGEN], high[PAST_COL_TARGET:PAST_COL_OXYGEN] = -1, n - 1
    high[PAST_COL_OXYGEN] = params["oxygen_max"]
    high[PAST_COL_ENERGY] = ENERGY_GOAL
    for col in (PAST_COL_BRAWL_BY, PAST_COL_BRAWL_TARGET):
        low[col], high[col] = -1, n - 1
    low[PAST_COL_CLAIM:PAST_COL_ACCUSED], high[PAST_COL_CLAIM:PAST_COL_ACCUSED] = -1, 3
    low[PAST_COL_ACCUSED:PAST_COL_ACCUSED_CARD] = -1
    high[PAST_COL_ACCUSED:PAST_COL_ACCUSED_CARD] = n
    low[PAST_COL_ACCUSED_CARD:PAST_COL_ACCUSED_CARD + P] = -1
    high[PAST_COL_ACCUSED_CARD:PAST_COL_ACCUSED_CARD + P] = T - 1
    return high if bound else low


def _seat_bits(params: dict) -> int:
    return 2 ** params["num_players"] - 1


LIMITS = {
    "stage": Range(0, 6, "a stage of the round"),
    "decision": Range(0, N_DECISIONS - 1, "a kind of pending decision"),
    "round": Range(0, lambda p: p["max_rounds"], "a round up to max_rounds (0: picking)"),
    "mission_leader": SEAT,
    "round_leader": SEAT,
    "leader_passed": FLAG,
    "turn_pos": SEAT_OR_PAST,
    "oxygen": Range(0, lambda p: p["oxygen_max"], "the Oxygen track"),
    "energy": Range(0, ENERGY_GOAL, "the Energy track"),
    "energy_at_resolution": Range(0, ENERGY_GOAL, "the Energy track"),
    "agenda": Range(-1, c.N_AGENDAS - 1, "an agenda, or -1 before the deal"),
    "character": Range(-1, c.N_CHARACTERS - 1, "a character, or -1 before the pick"),
    "offer": FLAG,
    "pick_pos": SEAT_OR_PAST,
    "picks_shown": SEAT_OR_PAST,
    "alive": FLAG,
    "exiled": FLAG,
    "revealed": FLAG,
    "hand": Range(0, POOL, "cards of one type in hand"),
    "hand_n": Range(0, POOL, "cards in hand"),
    "deck": CARD,
    "deck_n": Range(0, c.PERSONAL_DECK_SIZE, "cards left in the personal deck"),
    "wound_list": Range(-1, c.N_WOUNDS, "a wound kind (the last is the blank), or -1"),
    "wound_n": Range(0, MAX_WOUNDS - 1, "wounds in front of the seat"),
    "wound_held": Range(0, MAX_WOUNDS - 1, "wounds of one kind"),
    "wound_deck": Range(0, c.N_WOUNDS - 1, "a wound card"),
    "wound_deck_n": Range(0, c.WOUND_DECK_SIZE, "cards left in the wound deck"),
    "emma": CARD,
    "emma_n": Range(0, c.EMMA_DECK_SIZE, "cards left in the EmMA deck"),
    "emma_discard": CARD,
    "emma_discard_n": Range(0, c.EMMA_DECK_SIZE, "cards in the EmMA discards"),
    "pool": CARD,
    "pool_seat": SEAT_OR_NONE,
    "pool_n": Range(0, POOL - 1, "face-down cards this round"),
    "reveal_pos": Range(0, POOL - 1, "cards of the pool revealed so far"),
    "played": COUNT,
    "played_n": COUNT,
    "revealed_cards": COUNT,
    "replicate_waiting": FLAG,
    "backstab_spent": FLAG,
    "brawl_spent": FLAG,
    "brawl_pending": FLAG,
    "veto_user": SEAT_OR_NONE,
    "veto_armed": FLAG,
    "veto_asked": FLAG,
    "used": FLAG,
    "locked_down": FLAG,
    "suppressed": FLAG,
    "hidden": FLAG,
    "shielded": FLAG,
    "moxie": Range(0, players, "uses this round"),
    "vigil": Range(0, players, "uses this round"),
    "wounded_this_round": FLAG,
    "killed_this_round": FLAG,
    "ab_user": SEAT_OR_NONE,
    "ab_id": Range(0, c.N_ABILITIES - 1, "an Above Deck Action"),
    "ab_stage": Range(0, 2, "paying, targeting or follow-up"),
    "ab_discards_left": Range(0, int(ABILITY_DISCARDS.max()), "discards still owed"),
    "ab_target": SEAT_OR_NONE,
    "ab_slot": Range(0, 1, "which of the character's two Above Deck Actions"),
    "ability_target": SEAT_OR_NONE,
    "ab_follow_up": Range(-1, N_DECISIONS - 1, "a kind of decision, or -1"),
    "ab_follow_up_seat": SEAT_OR_NONE,
    "delegated": SEAT_OR_NONE,
    "rush_seat": SEAT_OR_NONE,
    "rush_left": Range(0, 2, "Rush cards still to play"),
    "bloodwork": CARD_OR_NONE,
    "seen_hand": Range(-1, POOL, "cards of a type seen in a hand, or -1 unseen"),
    "seen_played": COUNT,
    "seen_top": CARD_OR_NONE,
    "seen_emma": CARD_OR_NONE,
    "agenda_due": FLAG,
    "call_pos": SEAT_OR_PAST,
    "vote_called": FLAG,
    "talk_pos": Range(0, lambda p: 3 * p["num_players"], "table-talk turns so far"),
    "vote_pos": SEAT_OR_PAST,
    "ballot": Range(-2, last_seat, "a seat, -1 abstained, -2 not voted"),
    "ballots_public": FLAG,
    "claim": Range(-1, 3, "a Player Guide category, 3 passed, -1 none"),
    "accused": Range(-1, players, "a seat, num_players passed, -1 none"),
    "accused_card": CARD_OR_NONE,
    "eor_stage": Range(0, 2, "a step of the end of the round"),
    "vote_caller": SEAT_OR_NONE,
    "round_exiled": Range(0, _seat_bits, "one bit per seat"),
    "round_killed": Range(0, _seat_bits, "one bit per seat"),
    "past": Range(lambda p: _past(p, 0), lambda p: _past(p, 1), "a past round's row"),
    "brawl_by": SEAT_OR_NONE,
    "brawl_target": SEAT_OR_NONE,
    **{field: GAME_COUNT for field in (
        "game_played", "game_cards", "game_revealed", "game_calls", "game_ballots", "game_used",
        "game_targets", "game_bloodwork", "game_surveilled", "game_intercepted", "game_claims",
        "game_accused", "game_brawls", "game_agenda_targets",
    )},
    "menace_fallen": FLAG,
    "coward_side": Range(0, 1, "crew or menace"),
    "repairs_played": Range(0, 100, "repairs played this game"),
    "voted_for_crew": FLAG,
    "crew_exiled": FLAG,
    "menace_exiled": FLAG,
}


def _emma_in_pool(records: np.ndarray) -> np.ndarray:  # [B]
    in_pool = np.arange(POOL) < records["pool_n"][:, None]
    return ((records["pool_seat"] == -1) & in_pool).sum(-1)


def check(records: np.ndarray, params: dict):
    """The first ``(record, what is wrong)`` among the piles, or None."""
    checks = (
        (records["hand_n"] != records["hand"].sum(-1), "hand_n differs from the cards in hand"),
        (records["played_n"] != records["played"].sum(-1), "played_n differs from played"),
        (records["wound_n"] != records["wound_held"].sum(-1), "wound_n differs from wound_held"),
        # the wound list holds wound_n cards, then empty slots (-1): a count raised alone would
        # send the next wound past the list's end
        ((records["wound_list"] >= 0)
         != (np.arange(records["wound_list"].shape[-1]) < records["wound_n"][..., None]),
         "wound_list does not hold exactly wound_n cards"),
        (
            records["wound_deck_n"] + records["wound_held"][:, :, : c.N_WOUNDS].sum((1, 2))
            != c.WOUND_DECK_SIZE,
            f"wound cards in the deck and in front of seats do not add up to "
            f"{c.WOUND_DECK_SIZE}",
        ),
        (
            records["emma_n"] + records["emma_discard_n"] + _emma_in_pool(records)
            > c.EMMA_DECK_SIZE,
            f"the EmMA deck and its discards hold more than {c.EMMA_DECK_SIZE} cards",
        ),
    )
    # An ability in progress (read only then) follows up with none (-1) or one of the decisions
    # ``abilities.follow_up`` asks: another kind there (a Brawl's, say) is asked again after
    # every answer, each wounding a seat, until its wound list overflows (the in-range fuzz:
    # ab_follow_up 12 wrote wound_list[seat, 16]); and the seat it asks must be one.
    in_progress = records["ab_user"] != -1
    follow_ups = (-1, BLOODWORK_REVEAL, RELAY_GIFT, TINKER_DISCARD, CALIBRATE_CHOICE)
    checks += (
        (in_progress & ~np.isin(records["ab_follow_up"], follow_ups),
         "ab_follow_up is not a decision an ability follows up with"),
    )
    # the seats the rules hand a pending decision to (``board.decide``): one with no seat (-1)
    # would make seat -1 decide, and every seat-relative piece of its view be written one
    # place off (audit M3: ab_follow_up with ab_follow_up_seat -1)
    checks += (
        (in_progress & (records["ab_follow_up"] >= 0) & (records["ab_follow_up_seat"] == -1),
         "ab_follow_up names a decision but ab_follow_up_seat no seat"),
        ((records["rush_left"] > 0) & (records["rush_seat"] == -1),
         "rush_left names Rush plays but rush_seat no seat"),
        (records["veto_armed"].astype(bool) & (records["veto_user"] == -1),
         "veto_armed, but veto_user names no seat"),
    )
    past = records["past"]
    checks += (
        ((records["brawl_by"] == -1) != (records["brawl_target"] == -1),
         "brawl_by and brawl_target must both name a seat, or both be -1"),
        ((past[..., PAST_COL_BRAWL_BY] == -1) != (past[..., PAST_COL_BRAWL_TARGET] == -1),
         "a past round's Brawl must name who chose and whom, or neither"),
    )
    for bad, message in checks:
        bad = bad.reshape(bad.shape[0], -1).any(-1)
        if bad.any():
            return int(np.flatnonzero(bad)[0]), message
    return None
