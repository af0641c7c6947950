"""Among Us – The Card Game: meta-facts, parameters and the named pieces of observations."""

from ..core.spec import GameSpec, Layout, Param, Piece
from .actions import ACTION_NAMES
from .cards import MAX_PLAYERS, MIN_PLAYERS

NUM_PHASES = 6

PARAMS = (
    Param("num_players", 6, MIN_PLAYERS, MAX_PLAYERS, "seats at the table"),
    Param(
        "max_rounds",
        30,
        1,
        60,
        "rounds before the game is truncated as a draw (ruling: 30); at most 60, so that the "
        "per-round counters of the record fit a byte",
        per_game=True,
    ),
    Param(
        "assist",
        0,
        0,
        1,
        "adds counts under a stated prior (sabotage_chance, sabotage_target_odds, impostor_odds; "
        "docs/rules/amongus.md): inferences a seat could make itself, off by default",
        "bool",
    ),
)


def observation_layout(params: dict) -> Layout:
    """One seat's view; seats are relative (0 = the observer, 1 = next clockwise, ...)."""
    n = params["num_players"]
    return Layout(_raw_pieces(n) + _assist_pieces(n if params["assist"] else 0))


def _raw_pieces(n: int) -> tuple[Piece, ...]:
    """What the seat saw and remembers, for the whole game: nothing inferred."""
    return (
        Piece("own_colour", (n,), "one-hot colour of the observer's character card"),
        Piece("impostor_colour", (n,), "one-hot; public from the start"),
        Piece("is_impostor", (1,), "1 if the observer holds the impostor's character"),
        Piece("hand", (n,), "task cards held by colour, / 5"),
        Piece(
            "phase",
            (NUM_PHASES,),
            "investigation, trade, trade reply, end of turn, sabotage window, sabotage",
        ),
        Piece("deciding_seat", (n,), "one-hot: whose decision is pending"),
        Piece("turn_owner", (n,), "one-hot: whose turn it is"),
        Piece("first_player", (n,), "one-hot: who went first this round"),
        Piece("round", (1,), "round / max_rounds"),
        Piece("voted", (n,), "has used the one vote"),
        Piece("voted_for", (n, n), "voted_for[i, j]: seat i's ballot named seat j (public)"),
        Piece("cleared", (n,), "has cleared"),
        Piece("revealed", (n,), "character card face up"),
        Piece("not_impostor", (n,), "publicly cleared by someone's look"),
        Piece("known_colour", (n, n), "one-hot colour of every seat the observer knows"),
        Piece("shown_now", (n, n), "colour each seat showed this round"),
        Piece("shown_total", (n, n), "colours each seat showed in all rounds, / max_rounds"),
        Piece("given_to", (n, n), "cards the observer gave each seat, / max_rounds"),
        Piece("received_from", (n, n), "cards each seat gave the observer, / max_rounds"),
        Piece(
            "trades", (n, n), "trades[i, j]: trades seat i started with seat j, / max_rounds"
        ),
        Piece("trade_partner", (n,), "one-hot: the seat asked to reply to a pending trade"),
        Piece("window", (2,), "the open sabotage window: after a wrong vote, after a clear"),
        Piece(
            "window_cards",
            (n,),
            "the character cards whose turning face up opened the window (voter and voted, "
            "or the clearer)",
        ),
        Piece("sabotage_target", (n,), "one-hot: the seat whose colour is being guessed"),
        Piece(
            "sabotage_target_colour",
            (n,),
            "one-hot colour of the seat being guessed, if the observer knows it; else zero",
        ),
        Piece(
            "sabotage_target_shown",
            (n,),
            "the cards the seat being guessed has shown in all rounds, / max_rounds; zero "
            "outside a sabotage",
        ),
        Piece(
            "sabotage_target_gave",
            (n,),
            "the cards the seat being guessed gave the observer, / max_rounds; zero outside "
            "a sabotage",
        ),
        Piece(
            "unclaimed_colours",
            (n,),
            "colours neither the impostor's nor of any seat whose colour the observer knows",
        ),
        Piece("colours_known", (1,), "fraction of the other seats whose colour is known"),
    )


def _assist_pieces(n: int) -> tuple[Piece, ...]:
    """The counts of ``envs/amongus/counting.py`` under its prior (a seat that showed or gave a
    colour holds it ``SHOWN_OWN`` times as often as one it never let go): inferences, not what
    the seat saw. With ``assist=0`` they are empty (``n = 0``), so every piece before them
    keeps its index and the default observation pays nothing for them."""
    return (
        Piece(
            "sabotage_chance",
            (1 if n else 0,),
            "the impostor's: how often a sabotage now would guess every colour right, counted "
            "under the prior; zero for a crewmate",
        ),
        Piece(
            "sabotage_target_odds",
            (n,),
            "the impostor's: the chance the seat being guessed holds each colour, counted under "
            "the prior (one-hot if known); zero outside a sabotage and for a crewmate",
        ),
        Piece(
            "impostor_odds",
            (n,),
            "a crewmate's, at its own end of turn: the chance each seat is the impostor, counted "
            "under the prior; zero at other decisions and for the impostor",
        ),
    )


def state_layout(params: dict) -> Layout:
    """The god-view for centralised critics: absolute seats, every hidden fact."""
    n = params["num_players"]
    return Layout(
        (
            Piece("colour", (n, n), "one-hot colour of each seat"),
            Piece("impostor", (n,), "one-hot seat of the impostor"),
            Piece("impostor_colour", (n,)),
            Piece("hand", (n, n), "task cards by colour, / 5"),
            Piece("phase", (NUM_PHASES,)),
            Piece("window", (2,), "the open sabotage window: after a wrong vote, after a clear"),
            Piece("look_target", (n,), "one-hot: the seat a clearer looks at after the window"),
            Piece("deciding_seat", (n,)),
            Piece("turn_owner", (n,)),
            Piece("round", (1,), "round / max_rounds"),
            Piece("voted", (n,)),
            Piece("cleared", (n,)),
            Piece("revealed", (n,)),
            Piece("shown_total", (n, n), "/ max_rounds"),
            Piece("trades", (n, n), "/ max_rounds"),
        )
    )


def max_decisions(params: dict) -> int:
    """Per round: n shows, n turns of at most 4 decisions. Each seat votes and clears at most
    once a game, and each opens a window of at most n - 1 decisions. Then a sabotage of n - 1
    guesses."""
    n = params["num_players"]
    return params["max_rounds"] * (n + 4 * n) + 2 * n * (n - 1) + n


SPEC = GameSpec(
    name="amongus",
    version=6,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    action_names=ACTION_NAMES,
    params=PARAMS,
    observation_layout=observation_layout,
    state_layout=state_layout,
    max_decisions=max_decisions,
    teams=("crew", "impostor"),
    doc="Among Us – The Card Game: one impostor, task cards, trades, vote/clear/sabotage/kill; "
    "the impostor may sabotage in a window after any card is turned face up.",
)
