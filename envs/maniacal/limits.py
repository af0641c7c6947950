"""The range of every field of a MANIACAL record (see ``envs/core/limits.py``): what
``VecEnv.set_records`` accepts. Room and Scheme kinds, henchman, Power and contract ids,
continents, traits, decisions and seats index the record's axes and the game's tables, so they
must lie within them; pile counts stay within their piles, and ``check`` holds every count to
what it counts."""

import numpy as np

from ..core.limits import FLAG, SEAT, SEAT_OR_NONE, Range, players
from .rules import DICE_QUEUE, FACE_UP, IN_MERCENARY_DECK, PICKS, TEAM_MAX
from .spec import DIE_FACES, ROUNDS
from .tables import (
    CONTRACT_TARGET, FIRST_MERCENARY, MAX_DIFFICULTY_DECK, N_CONTINENTS, N_HENCHMEN,
    N_MERCENARIES, N_POWERS, N_ROOM_CARDS, N_ROOM_KINDS, N_SCHEME_CARDS, N_SCHEME_KINDS,
    N_SUPERVILLAINS,
)

N_CONTRACTS = len(CONTRACT_TARGET)
N_DECISIONS, N_SUBJECTS, N_TRAITS, N_WHERE = 14, 12, 4, 5
ROOM_KIND = Range(0, N_ROOM_KINDS - 1, "a room kind")
ROOM_KIND_OR_NONE = Range(-1, N_ROOM_KINDS - 1, "a room kind, or -1")
SCHEME_KIND = Range(0, N_SCHEME_KINDS - 1, "a Scheme kind")
HENCHMAN = Range(0, N_HENCHMEN - 1, "a henchman card")
HENCHMAN_OR_NONE = Range(-1, N_HENCHMEN - 1, "a henchman card, or -1")
CONTRACT_OR_NONE = Range(-1, N_CONTRACTS - 1, "a contract, or -1")
COPIES = Range(0, N_ROOM_CARDS, "cards of one kind")
SMALL = Range(0, 100, "a small count or amount")
BIG = Range(0, 10_000, "money, Infamy or Attraction")

LIMITS = {
    "round": Range(1, ROUNDS, "a round"),
    "phase": Range(0, 3, "a phase"),
    "decision": Range(0, N_DECISIONS - 1, "a kind of pending decision"),
    "subject": Range(0, N_SUBJECTS - 1, "what the decision is for"),
    "back": Range(0, N_DECISIONS - 1, "the decision to return to"),
    "room_deck": ROOM_KIND,
    "room_deck_n": Range(0, N_ROOM_CARDS, "cards left in the room deck"),
    "hand": COPIES,
    "pick": Range(0, PICKS - 1, "the pick of the draft"),
    "pick_kind": ROOM_KIND_OR_NONE,
    "pick_build": FLAG,
    "revealed_kind": ROOM_KIND_OR_NONE,
    "revealed_build": FLAG,
    "passed": COPIES,
    "base": COPIES,
    "used": Range(0, 100, "activations this round"),
    "money": BIG,
    "infamy": BIG,
    "attraction": BIG,
    "villain": Range(-1, N_SUPERVILLAINS - 1, "a Supervillain, or -1"),
    "villain_exhausted": FLAG,
    "schemes": Range(0, N_SCHEME_CARDS, "Schemes of one kind held"),
    "scheme_count": Range(0, N_SCHEME_CARDS, "Schemes held"),
    "order": SEAT_OR_NONE,
    "next_order": SEAT_OR_NONE,
    "next_order_n": Range(0, players, "seats on the next Player Order"),
    "finished": FLAG,
    "spent": Range(0, 100, "weeks spent"),
    "arrival": Range(0, 10_000, "arrival on the Time track"),
    "arrivals": Range(0, 10_000, "arrivals so far"),
    "active": SEAT,
    "scheme_deck": SCHEME_KIND,
    "scheme_deck_n": Range(0, N_SCHEME_CARDS, "cards left in the Scheme deck"),
    "scheme_discard": SCHEME_KIND,
    "scheme_discard_n": Range(0, N_SCHEME_CARDS, "Schemes discarded"),
    "scheme_discarded": Range(0, N_SCHEME_CARDS, "Schemes of one kind discarded"),
    "power_deck": Range(0, N_POWERS - 1, "a Power"),
    "power_deck_n": Range(0, N_POWERS, "Powers left in the deck"),
    "power_discard": Range(0, N_POWERS - 1, "a Power"),
    "power_discard_n": Range(0, N_POWERS, "Powers discarded"),
    "power_holder": HENCHMAN_OR_NONE,
    "mercenary_deck": HENCHMAN,
    "mercenary_deck_n": Range(0, N_MERCENARIES, "Mercenaries in their deck"),
    "mercenary_known": Range(0, N_MERCENARIES, "Mercenaries returned in public"),
    "henchman_deck": HENCHMAN,
    "henchman_top": Range(0, 9, "the face-up card of a henchman deck"),
    "contract_deck": CONTRACT_OR_NONE,
    "contract_deck_n": Range(0, MAX_DIFFICULTY_DECK, "contracts left of a difficulty"),
    "map": CONTRACT_OR_NONE,
    "owner": SEAT_OR_NONE,
    "where": Range(0, N_WHERE - 1, "where a henchman card is"),
    "injuries": SMALL,
    "exhausted": FLAG,
    "on_team": FLAG,
    "bonus": SMALL,
    "powers": Range(0, N_POWERS, "Powers held"),
    "attempt_seat": SEAT_OR_NONE,
    "continent": Range(-1, N_CONTINENTS - 1, "a continent, or -1"),
    "contract": CONTRACT_OR_NONE,
    "team": HENCHMAN_OR_NONE,
    "team_n": Range(0, TEAM_MAX, "henchmen on the team"),
    "window": Range(0, players, "the opponent offset asked"),
    "declined": FLAG,
    "negative": Range(-1, N_SCHEME_KINDS - 1, "a Scheme kind, or -1"),
    "negative_by": SEAT_OR_NONE,
    "flipped": FLAG,
    "target": SMALL,
    "target_up": SMALL,
    "remove_dice": SMALL,
    "no_reroll": FLAG,
    "no_rooms": FLAG,
    "fail_injure": FLAG,
    "injure_again": FLAG,
    "money_down": SMALL,
    "money_up": SMALL,
    "cancel_capture": FLAG,
    "lackey_trait": Range(-1, N_TRAITS - 1, "a trait, or -1"),
    "pool": SMALL,
    "faces": SMALL,
    "extra": SMALL,
    "rolled": FLAG,
    "rerolled": FLAG,
    "icons_left": SMALL,
    "pending_room": ROOM_KIND,
    "pending_amount": SMALL,
    "cleanup_pos": Range(0, players, "seats cleaned up"),
    "unpaid_left": SMALL,
    "dice_queue": Range(0, max(DIE_FACES), "the successes of a die face"),
    "dice_queue_n": Range(0, DICE_QUEUE, "dice queued by a test"),
    "dice_queue_pos": Range(0, DICE_QUEUE, "queued dice rolled"),
}



def check(records: np.ndarray, params: dict):
    """The first ``(record, what is wrong)`` among the piles, or None: every count agrees with
    what it counts and the cards of each deck add up, so no push can pass a pile's end (the
    ranges alone let ``team_n=4`` or a full discard pile through, and the next push wrote into
    the neighbouring field)."""
    merc = slice(FIRST_MERCENARY, FIRST_MERCENARY + N_MERCENARIES)
    rows = np.arange(records.shape[0])[:, None]
    face_up = records["henchman_deck"][rows, np.arange(records["henchman_top"].shape[1]),
                                       records["henchman_top"].astype(np.int64)]
    checks = (
        (records["scheme_count"] != records["schemes"].sum(-1),
         "scheme_count differs from the Schemes in hand"),
        (records["scheme_deck_n"] + records["scheme_discard_n"]
         + records["scheme_count"].sum(-1) != N_SCHEME_CARDS,
         f"Schemes in the deck, the discard pile and the hands do not add up to "
         f"{N_SCHEME_CARDS}"),
        (records["scheme_discard_n"] != records["scheme_discarded"].sum(-1),
         "scheme_discard_n differs from the discarded Schemes by kind"),
        (records["power_deck_n"] + records["power_discard_n"]
         + (records["power_holder"] >= 0).sum(-1) != N_POWERS,
         f"Powers in the deck, the discard pile and held do not add up to {N_POWERS}"),
        (records["team_n"] != records["on_team"].sum(-1),
         "team_n differs from the henchmen on the team"),
        (records["mercenary_deck_n"] != (records["where"][:, merc] == IN_MERCENARY_DECK).sum(-1),
         "mercenary_deck_n differs from the Mercenaries in their deck"),
        (records["where"][rows, face_up] != FACE_UP,
         "a henchman deck's top card is not face up"),
    )
    for bad, message in checks:
        bad = bad.reshape(bad.shape[0], -1).any(-1)
        if bad.any():
            return int(np.flatnonzero(bad)[0]), message
    return None
