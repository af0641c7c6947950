"""The Menace Among Us: meta-facts, parameters and the named pieces of observations."""

from ..core.spec import GameSpec, Layout, Param, Piece
from .actions import ACTION_NAMES, MAX_PLAYERS
from .cards import AGENDA_NAMES, N_ABILITIES, N_AGENDAS, N_CARD_TYPES, N_CHARACTERS, N_WOUNDS

MIN_PLAYERS = 4
MAX_HISTORY_ROUNDS = 8  # the most past rounds an observation may show (`history_rounds`)

# What the pending decision is about; one name per kind, in `rules/board.py`'s numbering.
DECISION_NAMES = (
    "pick a character",
    "take an action",
    "delegated action",
    "rush: play a card",
    "pay a discard",
    "choose a target",
    "bloodwork: reveal a card",
    "relay: give a card",
    "tinker: discard a card",
    "calibrate: bottom the EmMA card?",
    "discard down to the hand limit",
    "veto this card?",
    "brawl: choose whom to wound",
    "agenda ability: choose a player",
    "call a vote?",
    "table talk: claim",
    "table talk: accuse whom",
    "table talk: accuse of which card",
    "vote",
)
N_DECISIONS = len(DECISION_NAMES)
N_WOUND_KINDS = N_WOUNDS + 1  # the 15 cards and the blank dealt from an exhausted deck

PARAMS = (
    Param("num_players", 6, MIN_PLAYERS, MAX_PLAYERS, "seats at the table"),
    Param("oxygen_max", 12, 8, 20, "Oxygen never rises above this (ruling: 12)"),
    Param("random_menace", 0, 0, 1, "4 players: random Menace, not The Contagion", "bool"),
    Param("random_characters", 0, 0, 1, "characters picked at random, not decided", "bool"),
    Param("killed_menace_oxygen", 0, -3, 3, "Oxygen change when a Menace is killed (ruling: 0)"),
    Param(
        "max_rounds", 40, 1, 1000, "rounds before the game is truncated as a draw (ruling: 40)",
        per_game=True,
    ),
    Param("advanced", 0, 0, 1, "Advanced game: individual goals count", "bool"),
    Param("table_talk", 0, 0, 1, "structured claims and accusations before each vote", "bool"),
    Param(
        "history_rounds", 3, 0, MAX_HISTORY_ROUNDS,
        "past rounds in the observation: revealed cards, who played, one's own cards, "
        "abilities used and their targets, votes, exiles, deaths, the tracks",
    ),
    Param(
        "game_counts", 1, 0, 1,
        "the whole game's counts in the observation (the game_ pieces, version 5); 0 keeps "
        "the window alone, for a policy with its own memory, and a smaller, faster view",
        "bool",
    ),
)


GAME = "over every round ended, / 20, at most 2: "


def observation_layout(params: dict) -> Layout:
    """One seat's view; seats are relative (0 = the observer, 1 = next clockwise, ...).

    Table-talk pieces have no rows without `table_talk`; the past-round pieces have one row per
    round of `history_rounds`, the last round ended first."""
    n = params["num_players"]
    talk = n if params["table_talk"] else 0
    k = params["history_rounds"]
    talk_k = k if params["table_talk"] else 0
    g = 1 if params["game_counts"] else 0  # rows of the whole game's pieces
    return Layout(
        (
            Piece("own_agenda", (N_AGENDAS,), "one-hot agenda of the observer"),
            Piece("coward_side", (2,), "the Coward's own side now (crew, menace); 0 for others"),
            Piece("character_offer", (N_CHARACTERS,), "characters the observer may pick"),
            Piece("hand", (N_CARD_TYPES,), "cards held by type, / 8"),
            Piece("oxygen", (1,), "Oxygen / 20"),
            Piece("energy", (1,), "Energy / 20"),
            Piece("round", (1,), "round / max_rounds"),
            Piece("decision", (N_DECISIONS,), "one-hot kind of the pending decision"),
            Piece("deciding_seat", (n,), "one-hot: whose decision is pending"),
            Piece("mission_leader", (n,), "one-hot: who holds the Mission Leader token"),
            Piece("ability_in_play", (N_ABILITIES,), "the Above Deck Action being resolved"),
            Piece("ability_user", (n,), "one-hot: who is using it"),
            Piece("subject", (n,), "one-hot: the seat the pending decision is about"),
            Piece("alive", (n,), "not killed"),
            Piece("exiled", (n,), "exiled"),
            Piece("character", (n, N_CHARACTERS), "one-hot picked character of each seat"),
            Piece("agenda_revealed", (n, N_AGENDAS), "one-hot agenda of each revealed seat"),
            Piece("wounds", (n, N_WOUND_KINDS), "Wounds in front of each seat"),
            Piece("hand_size", (n,), "cards in hand / 8"),
            Piece("deck_size", (n,), "cards in deck / 20"),
            Piece("abilities_used", (n, 2), "Above Deck Actions used this round"),
            Piece("ability_targets", (n, n), "whom each seat's abilities chose this round"),
            Piece("status", (n, 4), "locked down, suppressed, hidden, shielded this round"),
            Piece("played", (n,), "Below Deck cards each seat has face down this round / 3"),
            Piece("own_played", (N_CARD_TYPES,), "the observer's own face-down cards by type / 3"),
            Piece("revealed", (N_CARD_TYPES,), "cards revealed this round by type / 8"),
            Piece("being_revealed", (N_CARD_TYPES,), "one-hot card revealed and awaiting a Veto"),
            Piece("resolution", (4,), "Replicate waiting, Backstab spent, Brawl spent, Veto armed"),
            Piece("bloodwork_seat", (n,), "one-hot: who revealed a card by Bloodwork this round"),
            Piece("bloodwork_card", (N_CARD_TYPES,), "one-hot: the card it revealed"),
            Piece("seen_hand", (n, N_CARD_TYPES), "hand the observer saw by Analyze, / 8"),
            Piece("surveilled_seat", (n,), "one-hot: whose face-down cards the observer saw by "
                  "Surveillance this round"),
            Piece("surveilled_cards", (N_CARD_TYPES,), "those cards by type / 2"),
            Piece("intercepted_seat", (n,), "one-hot: whose deck top the observer saw by "
                  "Intercept this round"),
            Piece("intercepted_card", (N_CARD_TYPES,), "one-hot: that card"),
            Piece("seen_emma_top", (N_CARD_TYPES,), "EmMA top card the observer saw by Calibrate"),
            Piece("vote_caller", (n,), "one-hot: who called this round's vote"),
            Piece("ballots", (n, n + 1), "this round's vote: for whom, or abstained"),
            Piece("claims", (talk, 3), "table talk this round: Good, Neutral, Bad claimed"),
            Piece("accused", (talk, n), "table talk this round: whom each seat accused"),
            Piece("accused_card", (talk, N_CARD_TYPES), "table talk: of which card"),
            Piece("decks", (2,), "EmMA deck / 20, wound deck / 15"),
            Piece("past_round", (k,), "1 where the game has had that round"),
            Piece("past_revealed", (k, N_CARD_TYPES), "cards revealed in that round by type / 8"),
            Piece("past_played", (k, n), "Below Deck cards each seat played that round / 3"),
            Piece("past_vote_caller", (k, n), "one-hot: who called that round's vote"),
            Piece("past_ballots", (k, n, n + 1), "that round's vote: for whom, or abstained"),
            Piece("past_exiled", (k, n), "seats exiled that round"),
            Piece("past_killed", (k, n), "seats killed that round"),
            Piece("past_own_played", (k, N_CARD_TYPES), "cards the observer played that round / 3"),
            Piece("past_abilities_used", (k, n, 2), "Above Deck Actions each seat used that round"),
            Piece("past_ability_targets", (k, n, n), "whom each seat's abilities chose then"),
            Piece("past_tracks", (k, 2), "Oxygen / 20 and Energy / 20 at the end of that round"),
            Piece("oxygen_spent", (n,), "Oxygen each seat spent on Above Deck Actions this round "
                  "and in the past rounds shown, / 4, at most 2"),
            # version 5: the Brawl's choice, past table talk, and the whole game's counts
            Piece("brawl", (2, n), "this round's Brawl: one-hot who chose, one-hot whom"),
            Piece("past_brawl", (k, 2, n), "that round's Brawl: who chose, whom"),
            Piece("past_claims", (talk_k, n, 3), "that round's table talk: claims"),
            Piece("past_accused", (talk_k, n, n), "that round's table talk: whom each accused"),
            Piece("past_accused_card", (talk_k, n, N_CARD_TYPES), "of which card"),
            Piece("game_revealed", (g * N_CARD_TYPES,), GAME + "cards revealed by type"),
            Piece("game_played", (g * n,), GAME + "Below Deck cards each seat played"),
            Piece("game_own_played", (g * N_CARD_TYPES,),
                  GAME + "the observer's own cards by type"),
            Piece("game_vote_calls", (g * n,), GAME + "votes each seat called"),
            Piece("game_ballots", (g * n, n + 1), GAME + "ballots each seat cast for each seat, "
                  "or abstained"),
            Piece("game_abilities_used", (g * n, 2), GAME + "Above Deck Actions used, by slot"),
            Piece("game_ability_targets", (g * n, n), GAME + "whom each seat's abilities chose"),
            Piece("game_oxygen_spent", (g * n,), "Oxygen each seat spent on Above Deck Actions "
                  "over the whole game, this round included, / 20, at most 2"),
            Piece("game_bloodwork", (g * n, N_CARD_TYPES), GAME + "cards each seat revealed by "
                  "Bloodwork"),
            Piece("game_surveilled", (g * n, N_CARD_TYPES), GAME + "face-down cards of each seat "
                  "the observer saw by Surveillance"),
            Piece("game_intercepted", (g * n, N_CARD_TYPES), GAME + "deck tops of each seat the "
                  "observer saw by Intercept"),
            Piece("game_brawls", (g * n, n), GAME + "Brawl targets each seat chose"),
            Piece("game_agenda_targets", (g * n, n), "whom each seat's agenda ability chose, this "
                  "round included, / 20"),
            Piece("game_claims", (g * talk, 3), GAME + "table-talk claims"),
            Piece("game_accused", (g * talk, n), GAME + "whom each seat accused"),
        )
    )


VERSION_5_PIECES = frozenset({
    "brawl", "past_brawl", "past_claims", "past_accused", "past_accused_card", "game_revealed",
    "game_played", "game_own_played", "game_vote_calls", "game_ballots", "game_abilities_used",
    "game_ability_targets", "game_oxygen_spent", "game_bloodwork", "game_surveilled",
    "game_intercepted", "game_brawls", "game_agenda_targets", "game_claims", "game_accused",
})


def observation_layout_v4(params: dict) -> Layout:
    """Version 4's observation: version 5's without the pieces it added. The rules did not
    change, so a policy trained on version 4 plays version 5 reading just these pieces."""
    return Layout(tuple(
        p for p in observation_layout(params).pieces if p.name not in VERSION_5_PIECES
    ))


def state_layout(params: dict) -> Layout:
    """The god-view for centralised critics: absolute seats, every hidden fact."""
    n = params["num_players"]
    return Layout(
        (
            Piece("agenda", (n, N_AGENDAS), "one-hot agenda of each seat"),
            Piece("team", (n, 2), "one-hot side of each seat now (crew, menace)"),
            Piece("character", (n, N_CHARACTERS)),
            Piece("hand", (n, N_CARD_TYPES), "/ 8"),
            Piece("deck", (n, N_CARD_TYPES), "cards left in each deck by type / 20"),
            Piece("played", (n, N_CARD_TYPES), "cards face down this round by type / 2"),
            Piece("wounds", (n, N_WOUND_KINDS)),
            Piece("alive", (n,)),
            Piece("exiled", (n,)),
            Piece("oxygen", (1,), "/ 20"),
            Piece("energy", (1,), "/ 20"),
            Piece("round", (1,), "/ max_rounds"),
            Piece("decision", (N_DECISIONS,)),
            Piece("deciding_seat", (n,)),
            Piece("mission_leader", (n,)),
            Piece("emma_top", (N_CARD_TYPES,), "one-hot top card of the EmMA deck"),
        )
    )


def max_decisions(params: dict) -> int:
    """A generous bound: per round and seat, one turn with its follow-ups, hand-limit discards,
    talk and a vote stay well under 40 decisions; setup adds one pick per seat."""
    n = params["num_players"]
    return params["max_rounds"] * 40 * n + n


SPEC = GameSpec(
    name="menace",
    version=5,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    action_names=ACTION_NAMES,
    params=PARAMS,
    observation_layout=observation_layout,
    earlier_observations={4: observation_layout_v4},
    state_layout=state_layout,
    max_decisions=max_decisions,
    teams=("crew", "menace"),
    doc="The Menace Among Us: hidden agendas aboard a failing ship; Oxygen against Energy.",
)


def role_card(s, seat: int) -> int:
    """The agenda card ``seat`` was dealt (index into ``ROLE_CARDS``): its role card, which its
    own observation shows it (``own_agenda``); the AEC env reports it as
    ``infos[agent]["role"]`` for trainers."""
    return int(s["agenda"][seat])


ROLE_CARDS = AGENDA_NAMES
