"""Among Us – The Card Game: the cards, as data.

Each colour has one character card and five matching task cards (rulebook: "For each player,
use 1 character card and 5 corresponding task cards"). The rulebook names no colours; ours are
the video game's. A user can swap in other names here without touching the rules.
"""

MAX_PLAYERS = 10
MIN_PLAYERS = 4

# (name, provenance)
COLOURS = (
    ("red", "designed"),
    ("blue", "designed"),
    ("green", "designed"),
    ("pink", "designed"),
    ("orange", "designed"),
    ("yellow", "designed"),
    ("black", "designed"),
    ("white", "designed"),
    ("purple", "designed"),
    ("brown", "designed"),
)
COLOUR_NAMES = tuple(name for name, _ in COLOURS)

# (what, count, provenance)
DECK = (
    ("character cards per colour", 1, "rulebook"),
    ("task cards per colour", 5, "rulebook"),
)
TASKS_PER_COLOUR = 5
HAND_SIZE = 5  # rulebook: "deals out 5 task cards to each player"

assert len(COLOURS) == MAX_PLAYERS
