"""MANIACAL: meta-facts, parameters and the named pieces of observations (spec §5).

Every piece is scaled into [0, 2]; counts that have no printed ceiling (money, Infamy,
Attraction) are divided by a typical top value and capped at 2.
"""

from ..core.spec import GameSpec, Layout, Param, Piece
from .actions import ACTION_NAMES
from .tables import (
    N_CONTINENTS, N_CONTRACTS, N_HENCHMEN, N_MERCENARIES, N_POWERS, N_ROOM_KINDS, N_SCHEME_KINDS,
    N_SUPERVILLAINS,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 5
ROUNDS = 3
WEEKS = (8, 9, 10)  # R3
MONEY_BONUS = (6, 4, 2, 1, 0)  # R6
DIE_FACES = (0, 0, 0, 1, 1, 2)  # R2: successes on the six faces of every trait die

DECISION_NAMES = (
    "draft", "turn", "worker", "team", "negative scheme", "before the roll", "after the roll",
    "re-roll count", "choose trait", "choose henchman", "heal", "after action", "unpaid", "fire",
)
SUBJECT_NAMES = (
    "none", "lackey trait", "captured", "injured", "power", "room power", "room heal",
    "scheme heal", "action room worker", "contract room worker", "lackey re-roll",
    "scheme re-roll",
)
PHASE_NAMES = ("base building", "contract", "clean-up")
WHERE_NAMES = ("face down", "face up", "owned", "removed", "mercenary deck")

PARAMS = (
    Param("num_players", 4, MIN_PLAYERS, MAX_PLAYERS, "seats at the table (R1)"),
    Param(
        "reward_mode", 0, 0, 1,
        "0: reward by final rank in [-1, 1], ties share the mean position (R8); "
        "1: +1 for each seat of the winning group, 0 for the rest",
    ),
    Param(
        "ask_forced", 0, 0, 1,
        "1: also ask decisions that have a single legal action; 0 applies them at once (P-44)",
        dtype="bool",
    ),
)

H, R, S, C = N_HENCHMEN, N_ROOM_KINDS, N_SCHEME_KINDS, N_CONTINENTS


def observation_layout(params: dict) -> Layout:
    """One seat's view; seat rows are relative (0 = the observer, 1 = next clockwise, ...)."""
    n = params["num_players"]
    return Layout(
        (
            # the game
            Piece("round", (ROUNDS,), "one-hot round 1-3"),
            Piece("phase", (len(PHASE_NAMES),), "base building, contract, clean-up"),
            Piece("pick", (3,), "one-hot draft pick 1-3 (base building only)"),
            Piece("clockwise", (1,), "1 when hands pass clockwise this round (rounds 1 and 3)"),
            Piece("decision", (len(DECISION_NAMES),), "one-hot pending decision kind"),
            Piece("subject", (len(SUBJECT_NAMES),), "what a worker, trait or henchman is for"),
            Piece("pending_room", (R,), "one-hot room kind a WORKER decision is for"),
            Piece("deciding_seat", (n,), "one-hot: who decides now"),
            Piece("active_seat", (n,), "one-hot: the active player of the Contract Phase"),
            Piece("weeks", (1,), "this round's weeks / 10"),
            # the map: contract backs only
            Piece("map_present", (C,), "a face-down contract lies on the continent"),
            Piece("map_difficulty", (C, 3), "back: Easy, Hard, Legendary"),
            Piece("map_team", (C, 4), "back: team size 1-4"),
            Piece("map_trait", (C, 4), "back: recommended trait"),
            Piece(
                "contract_odds",
                (C, 4),
                "with the observer's best available team of the back's size (uninjured, "
                "unexhausted; zero if it has too few): chance of success, expected Infamy / 15, "
                "expected money / 6, chance of Captured, over every front with that back",
            ),
            Piece("time_cost", (n, C), "each seat's weeks to each continent / 5"),
            # the attempt in progress
            Piece("attempt_seat", (n,), "one-hot: the seat attempting a contract"),
            Piece("attempt_continent", (C,), "one-hot"),
            Piece("negative_scheme", (S,), "one-hot kind of the negative Scheme played on it"),
            Piece("negative_by", (n,), "one-hot: who played it"),
            Piece("declined", (n,), "seats that declined in this attempt's Scheme window"),
            Piece("flipped", (1,), "the contract's front is up"),
            Piece("target", (1,), "Target after Schemes / 15 (after the flip)"),
            Piece("result_rewards", (2, 2), "(success, failure) x (Infamy / 15, money / 6)"),
            Piece("result_icons", (2, 4), "(success, failure) x Captured, Injured, Scheme, Power"),
            Piece("lackey_trait", (4,), "one-hot trait the Lackey rolls"),
            Piece("pool", (4,), "dice by trait / 16, capped"),
            Piece("faces", (3,), "rolled dice showing 0, 1, 2 successes / 16, capped"),
            Piece("bonus", (1,), "successes added by rooms and Schemes / 8"),
            Piece("rerolled", (1,), "the Lackey's re-roll is used"),
            Piece(
                "modifiers", (6,),
                "no re-roll, no contract rooms, failure injures, success money down / 6, "
                "success money up / 6, Captured cancelled",
            ),
            # the seats
            Piece("money", (n,), "/ 30, capped"),
            Piece("infamy", (n,), "/ 50, capped"),
            Piece("supervillain", (n, N_SUPERVILLAINS), "one-hot"),
            Piece("supervillain_exhausted", (n,)),
            Piece("schemes_held", (n,), "/ 5, capped"),
            Piece("attraction", (n, 4), "Beasts, Criminals, Scientists, Mystics / 10, capped"),
            Piece("henchmen", (n,), "henchmen owned / 10, capped"),
            Piece("player_order", (n, n), "one-hot position on the Player Order track"),
            Piece("spent", (n,), "weeks spent this round / 10"),
            Piece("time_left", (n,), "weeks left this round / 10"),
            Piece("on_top", (n,), "the token is on top of its stack on the Time track"),
            Piece("finished", (n,), "the token has left the Time track"),
            Piece("next_order", (n, n), "one-hot place taken on the next Player Order"),
            Piece("rooms_built", (n, R), "rooms in the base by kind / 3, capped"),
            Piece("rooms_used", (n, R), "rooms activated this round by kind / 3, capped"),
            Piece("revealed_pick", (n, 2, R), "last revealed draft pick: (build, sell) x kind"),
            # the henchmen, by card id
            Piece("henchman_owner", (H, n + 1), "one-hot relative seat; last column: nobody"),
            Piece("henchman_where", (H, len(WHERE_NAMES)), "one-hot"),
            Piece("henchman_type", (H, 6), "Beast, Criminal, Scientist, Mystic, Lackey, Mercenary"),
            Piece("henchman_cost", (H,), "Attraction cost / 7"),
            Piece("henchman_traits", (H, 4), "traits with Powers / 7, capped"),
            Piece("henchman_injuries", (H,), "/ 3, capped"),
            Piece("henchman_exhausted", (H,)),
            Piece("henchman_on_team", (H,)),
            Piece("henchman_powers", (H,), "Powers attached / 3, capped"),
            # decks: sizes and public discards
            Piece(
                "deck_sizes", (11,),
                "rooms / 75, Easy, Hard, Legendary contracts / 40, 4 henchmen decks / 10, "
                "Schemes / 25, Powers / 14, Mercenaries / 8",
            ),
            Piece("scheme_discard", (S,), "discarded Schemes by kind / 3, capped"),
            Piece("power_discard", (N_POWERS,), "discarded Powers"),
            Piece("mercenary_bottom", (N_MERCENARIES,), "place from the bottom / 8, if known"),
            # private
            Piece("hand", (R,), "own draft hand by kind / 3, capped"),
            Piece("own_pick", (2, R), "own pending draft pick (build, sell) x kind"),
            Piece("passed", (2, R), "cards passed after picks 1 and 2, not revealed since / 3"),
            Piece("own_schemes", (S,), "own Scheme hand by kind / 3, capped"),
        )
    )


def state_layout(params: dict) -> Layout:
    """The god-view for centralised critics: seat 0's observation (seats relative to seat 0,
    i.e. absolute), then every hidden fact."""
    n = params["num_players"]
    return Layout(
        observation_layout(params).pieces
        + (
            Piece("all_hands", (n, R), "every draft hand / 3, capped"),
            Piece("all_picks", (n, 2, R), "every pending draft pick"),
            Piece("all_schemes", (n, S), "every Scheme hand / 3, capped"),
            Piece("map_fronts", (C, N_CONTRACTS), "one-hot contract card on each continent"),
            Piece("henchman_depth", (H,), "place in its deck from the top / 10, if in a deck"),
            Piece("power_depth", (N_POWERS,), "place in the Power deck from the top / 14"),
            Piece("scheme_deck", (S,), "Scheme deck by kind / 3, capped"),
            Piece("room_deck", (R,), "Room deck by kind / 3, capped"),
        )
    )


def max_decisions(params: dict) -> int:
    """A safe bound (spec §4.3): every non-pass action costs at least a week."""
    return 1500 * params["num_players"]


SPEC = GameSpec(
    name="maniacal",
    version=2,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    action_names=ACTION_NAMES,
    params=PARAMS,
    observation_layout=observation_layout,
    state_layout=state_layout,
    max_decisions=max_decisions,
    teams=tuple(f"player_{i}" for i in range(MAX_PLAYERS)),
    doc="MANIACAL: 2-5 supervillains, free-for-all: a hidden draft of rooms, henchmen by "
    "Attraction, contracts on a time track with dice and Schemes; highest Infamy wins.",
)
