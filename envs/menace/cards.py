"""Every card of The Menace Among Us as data.

The rules kernels never name a card by a literal: they index the tables below through the
integer ids defined here, and `tables.py` turns the tables into numpy arrays once at import.
Each entry carries its provenance: "rulebook" when the seed rulebook (`000_*`, with `002_*`
where the English is garbled) prints it, "designed" when we had to invent it, "ruling" when
`shared/rulings.md` fixed a garbled or contradictory print.

Card lists are written as {card type: copies}. The printed copy counts of each Below Deck
Action card type bound the sum over all agendas, characters and the EmMA deck together;
`tests/menace/test_cards.py` checks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

RULEBOOK = "rulebook"
DESIGNED = "designed"
RULING = "ruling"
PROVENANCES = (RULEBOOK, DESIGNED, RULING)

# ------------------------------------------------------------------------------------------
# Below Deck Action cards
# ------------------------------------------------------------------------------------------

RAISE_MORALE = 0
ADVANCED_REPAIR = 1
COMMAND = 2
BASIC_REPAIR = 3
REPLICATE = 4
BACKSTAB = 5
BRAWL = 6
PANIC = 7
AIRLOCK_BREACH = 8
REACTOR_LEAK = 9
EXPLOSION = 10
N_CARD_TYPES = 11

# Player Guide categories: all a seat may say about its own cards under the table-talk rules.
GOOD = 0
NEUTRAL = 1
BAD = 2
CATEGORY_NAMES = ("Good", "Neutral", "Bad")


@dataclass(frozen=True)
class BelowDeckCard:
    """One Below Deck Action card type.

    `oxygen` and `energy` are the plain track changes the card makes when it resolves; the
    cards with more to them (Command, Panic!, Replicate, Backstab, Brawl, Reactor Leak) have a
    resolve function of their own in `rules/resolution.py` and keep the track part here.
    """

    name: str
    copies: int  # printed copies in the box
    category: int  # Player Guide category
    oxygen: int
    energy: int
    replicable: bool  # Replicate may copy it (Backstab and Brawl cannot)
    effect: str
    provenance: str


BELOW_DECK_CARDS: tuple[BelowDeckCard, ...] = (
    BelowDeckCard("Raise Morale", 50, GOOD, +1, 0, True, "+1 Oxygen.", RULING),
    BelowDeckCard("Advanced Repair", 33, GOOD, -1, +2, True, "-1 Oxygen, +2 Energy.", RULING),
    BelowDeckCard(
        "Command",
        14,
        GOOD,
        -1,
        0,
        True,
        "-1 Oxygen; every living crewmember draws a card (hand limit applies).",
        RULING,
    ),
    BelowDeckCard("Basic Repair", 68, NEUTRAL, -1, +1, True, "-1 Oxygen, +1 Energy.", RULING),
    BelowDeckCard(
        "Replicate",
        24,
        NEUTRAL,
        0,
        0,
        True,
        "Copies the effect, costs included, of the next revealed card. Replicate followed by "
        "Replicate does nothing; Backstab and Brawl cannot be copied; a Replicate revealed last "
        "carries to the first card revealed next round.",
        RULING,
    ),
    BelowDeckCard(
        "Backstab",
        24,
        NEUTRAL,
        0,
        0,
        False,
        "The first Backstab revealed in a round wounds the Mission Leader; later ones do nothing.",
        RULING,
    ),
    BelowDeckCard(
        "Brawl",
        19,
        NEUTRAL,
        0,
        0,
        False,
        "The first Brawl revealed in a round: the Mission Leader chooses a crewmember to wound; "
        "later ones do nothing.",
        RULING,
    ),
    BelowDeckCard(
        "Panic!",
        9,
        BAD,
        -1,
        0,
        True,
        "-1 Oxygen; every living crewmember discards a random card from hand, face down.",
        RULING,
    ),
    BelowDeckCard("Airlock Breach", 13, BAD, -1, 0, True, "-1 Oxygen.", RULING),
    BelowDeckCard(
        "Reactor Leak",
        5,
        BAD,
        0,
        0,
        True,
        "Every un-wounded crewmember who played a Below Deck card this round gets a Wound.",
        RULING,
    ),
    BelowDeckCard("Explosion", 9, BAD, 0, -2, True, "-2 Energy.", RULING),
)
assert len(BELOW_DECK_CARDS) == N_CARD_TYPES

CARD_NAMES = tuple(card.name for card in BELOW_DECK_CARDS)
PRINTED_COPIES = MappingProxyType({i: card.copies for i, card in enumerate(BELOW_DECK_CARDS)})

# The EmMA deck, printed in Set Up step G.
EMMA_DECK = MappingProxyType(
    {
        BASIC_REPAIR: 5,
        ADVANCED_REPAIR: 4,
        RAISE_MORALE: 4,
        AIRLOCK_BREACH: 2,
        EXPLOSION: 1,
        REACTOR_LEAK: 1,
        PANIC: 1,
        BRAWL: 1,
        BACKSTAB: 1,
    }
)
EMMA_DECK_PROVENANCE = RULEBOOK
EMMA_DECK_SIZE = 20

# ------------------------------------------------------------------------------------------
# Agendas
# ------------------------------------------------------------------------------------------

CREW = 0
MENACE = 1
NEUTRAL_SIDE = 2
SIDE_NAMES = ("Crew", "Menace", "Neutral")

# Triggers of agenda special abilities. Each is resolved by one function in `rules/fates.py`.
NO_TRIGGER = 0
ON_KILLED_NOT_EXILED = 1  # fires when killed, unless the player had been exiled before
ON_KILLED = 2  # fires when killed, exiled or not
ON_EXILED = 3
ON_KILLED_OR_EXILED = 4  # fires on whichever comes first
PASSIVE = 5  # a standing rule, no trigger

# Individual goals (Advanced game). Each is checked by one function in `rules/tracks.py`.
GOAL_NONE = 0
GOAL_ANOTHER_PLAYER_KILLED = 1
GOAL_NOT_EXILED = 2
GOAL_NO_CREW_EXILED = 3
GOAL_ALIVE_AND_WOUNDED = 4
GOAL_MENACE_EXILED = 5
GOAL_FOUR_REPAIRS_PLAYED = 6
GOAL_NEVER_VOTED_FOR_CREW = 7
GOAL_OXYGEN_FOUR_AT_END = 8


@dataclass(frozen=True)
class Agenda:
    """One agenda card: the seat's hidden role, its goals, its ability and its 13 cards.

    `exiled_oxygen` and `killed_oxygen` are the track changes when the player is exiled or
    killed (rulings: exiled Crew -3, Coward -2, Menace +2; killed Crew -2, Coward -1, Menace 0,
    the last one a config option).
    """

    name: str
    side: int
    primary_goal: str
    individual_goal: str
    goal: int
    ability: str
    trigger: int
    exiled_effect: str
    exiled_oxygen: int
    killed_effect: str
    killed_oxygen: int
    cards: MappingProxyType
    provenance: str
    detail_provenance: str  # where the goal, ability and card list come from


MENACE_GOAL = "You win when the Oxygen Level reaches 0% or all Crew are killed."
CREW_GOAL = (
    "You win when the Energy Level reaches 100% without the Oxygen reaching 0%, or when Energy "
    "is at the Safety Threshold (70%) or above with no Menace alive."
)
COWARD_GOAL = (
    "Start on the Crew's side; join the Menace once a Menace is exiled or killed; return to "
    "the Crew when no Menace is alive. Win by being alive at the end."
)


_CARD_KEYWORDS = MappingProxyType(
    {
        "raise_morale": RAISE_MORALE,
        "advanced_repair": ADVANCED_REPAIR,
        "command": COMMAND,
        "basic_repair": BASIC_REPAIR,
        "replicate": REPLICATE,
        "backstab": BACKSTAB,
        "brawl": BRAWL,
        "panic": PANIC,
        "airlock_breach": AIRLOCK_BREACH,
        "reactor_leak": REACTOR_LEAK,
        "explosion": EXPLOSION,
    }
)


def _cards(**counts: int) -> MappingProxyType:
    """A card list written as keyword counts, e.g. `_cards(basic_repair=6, brawl=4)`."""
    return MappingProxyType({_CARD_KEYWORDS[name]: copies for name, copies in counts.items()})


THE_CONTAGION = 0
THE_BUTCHER = 1
THE_COWARD = 2
THE_VENGEANT = 3
THE_SAINT = 4
THE_RESOLUTE = 5
THE_WITNESS = 6
THE_DEVOTED = 7
THE_IDEALIST = 8
THE_STEWARD = 9
N_AGENDAS = 10

AGENDAS: tuple[Agenda, ...] = (
    Agenda(
        name="The Contagion",
        side=MENACE,
        primary_goal=MENACE_GOAL,
        individual_goal="None.",
        goal=GOAL_NONE,
        ability=(
            "When you are killed, if you have not been Exiled, you may choose a player. That "
            "player discards their hand."
        ),
        trigger=ON_KILLED_NOT_EXILED,
        exiled_effect="Gain 2 Oxygen.",
        exiled_oxygen=+2,
        killed_effect="None.",
        killed_oxygen=0,
        cards=_cards(airlock_breach=6, explosion=4, panic=3),
        provenance=RULEBOOK,
        detail_provenance=RULEBOOK,
    ),
    Agenda(
        name="The Butcher",
        side=MENACE,
        primary_goal=MENACE_GOAL,
        individual_goal="None.",
        goal=GOAL_NONE,
        ability=(
            "When you are Exiled, you may choose another living crewmember. That crewmember "
            "receives a Wound."
        ),
        trigger=ON_EXILED,
        exiled_effect="Gain 2 Oxygen.",
        exiled_oxygen=+2,
        killed_effect="None.",
        killed_oxygen=0,
        cards=_cards(backstab=4, brawl=3, reactor_leak=2, panic=2, airlock_breach=2),
        provenance=RULEBOOK,
        detail_provenance=DESIGNED,
    ),
    Agenda(
        name="The Coward",
        side=NEUTRAL_SIDE,
        primary_goal=COWARD_GOAL,
        individual_goal="Complete your Primary Goal without being Exiled.",
        goal=GOAL_NOT_EXILED,
        ability=(
            "Once a Menace is exiled or killed, your goal becomes the Menace's; it reverts when "
            "no Menace is alive."
        ),
        trigger=PASSIVE,
        exiled_effect="Lose 2 Oxygen.",
        exiled_oxygen=-2,
        killed_effect="Lose 1 Oxygen.",
        killed_oxygen=-1,
        cards=_cards(basic_repair=6, backstab=3, airlock_breach=2, explosion=2),
        provenance=RULEBOOK,
        detail_provenance=RULING,
    ),
    Agenda(
        name="The Vengeant",
        side=CREW,
        primary_goal=CREW_GOAL,
        individual_goal="Complete your Primary Goal with at least one other player killed.",
        goal=GOAL_ANOTHER_PLAYER_KILLED,
        ability="When you are killed, you may choose another player. That player receives a Wound.",
        trigger=ON_KILLED,
        exiled_effect="Lose 3 Oxygen.",
        exiled_oxygen=-3,
        killed_effect="Lose 2 Oxygen.",
        killed_oxygen=-2,
        cards=_cards(basic_repair=6, reactor_leak=1, advanced_repair=2, brawl=4),
        provenance=RULEBOOK,
        detail_provenance=RULEBOOK,
    ),
    Agenda(
        name="The Saint",
        side=CREW,
        primary_goal=CREW_GOAL,
        individual_goal="Complete your Primary Goal with no Crew-agenda player Exiled.",
        goal=GOAL_NO_CREW_EXILED,
        ability=(
            "When you are killed, if you have not been Exiled, you may choose another living "
            "crewmember. That crewmember removes a Wound."
        ),
        trigger=ON_KILLED_NOT_EXILED,
        exiled_effect="Lose 3 Oxygen.",
        exiled_oxygen=-3,
        killed_effect="Lose 2 Oxygen.",
        killed_oxygen=-2,
        cards=_cards(raise_morale=5, advanced_repair=3, basic_repair=3, command=2),
        provenance=RULEBOOK,
        detail_provenance=DESIGNED,
    ),
    Agenda(
        name="The Resolute",
        side=CREW,
        primary_goal=CREW_GOAL,
        individual_goal="Complete your Primary Goal alive, with at least one Wound.",
        goal=GOAL_ALIVE_AND_WOUNDED,
        ability="You are killed only with 3 or more Wounds at the end of a round.",
        trigger=PASSIVE,
        exiled_effect="Lose 3 Oxygen.",
        exiled_oxygen=-3,
        killed_effect="Lose 2 Oxygen.",
        killed_oxygen=-2,
        cards=_cards(basic_repair=3, advanced_repair=3, raise_morale=2, backstab=2, replicate=3),
        provenance=RULEBOOK,
        detail_provenance=DESIGNED,
    ),
    Agenda(
        name="The Witness",
        side=CREW,
        primary_goal=CREW_GOAL,
        individual_goal="Complete your Primary Goal with at least one Menace Exiled.",
        goal=GOAL_MENACE_EXILED,
        ability=(
            "When you are killed or Exiled, you may choose another living player. That "
            "player's Agenda is revealed to everyone."
        ),
        trigger=ON_KILLED_OR_EXILED,
        exiled_effect="Lose 3 Oxygen.",
        exiled_oxygen=-3,
        killed_effect="Lose 2 Oxygen.",
        killed_oxygen=-2,
        cards=_cards(basic_repair=3, raise_morale=3, replicate=2, advanced_repair=2, brawl=2, backstab=1),
        provenance=DESIGNED,
        detail_provenance=DESIGNED,
    ),
    Agenda(
        name="The Devoted",
        side=CREW,
        primary_goal=CREW_GOAL,
        individual_goal=(
            "Complete your Primary Goal having played at least 4 Repair cards (Basic or Advanced)."
        ),
        goal=GOAL_FOUR_REPAIRS_PLAYED,
        ability="When you are killed, if you have not been Exiled, the Energy Level rises 2.",
        trigger=ON_KILLED_NOT_EXILED,
        exiled_effect="Lose 3 Oxygen.",
        exiled_oxygen=-3,
        killed_effect="Lose 2 Oxygen.",
        killed_oxygen=-2,
        cards=_cards(advanced_repair=5, basic_repair=4, raise_morale=2, replicate=2),
        provenance=DESIGNED,
        detail_provenance=DESIGNED,
    ),
    Agenda(
        name="The Idealist",
        side=CREW,
        primary_goal=CREW_GOAL,
        individual_goal="Complete your Primary Goal never having voted for a Crew-agenda player.",
        goal=GOAL_NEVER_VOTED_FOR_CREW,
        ability="When you are Exiled, the Oxygen Level drops 1 instead of 3.",
        trigger=ON_EXILED,
        exiled_effect="Lose 1 Oxygen (ability).",
        exiled_oxygen=-1,
        killed_effect="Lose 2 Oxygen.",
        killed_oxygen=-2,
        cards=_cards(raise_morale=4, basic_repair=3, command=3, advanced_repair=2, backstab=1),
        provenance=DESIGNED,
        detail_provenance=DESIGNED,
    ),
    Agenda(
        name="The Steward",
        side=CREW,
        primary_goal=CREW_GOAL,
        individual_goal="Complete your Primary Goal with the Oxygen Level at 4 or more at the end.",
        goal=GOAL_OXYGEN_FOUR_AT_END,
        ability="When you are Exiled, you keep your Above Deck Actions.",
        trigger=ON_EXILED,
        exiled_effect="Lose 3 Oxygen.",
        exiled_oxygen=-3,
        killed_effect="Lose 2 Oxygen.",
        killed_oxygen=-2,
        cards=_cards(raise_morale=5, basic_repair=2, advanced_repair=2, replicate=4),
        provenance=DESIGNED,
        detail_provenance=DESIGNED,
    ),
)
assert len(AGENDAS) == N_AGENDAS
AGENDA_NAMES = tuple(agenda.name for agenda in AGENDAS)
AGENDA_CARDS = 13
MENACE_AGENDAS = (THE_CONTAGION, THE_BUTCHER)
CREW_AGENDAS = tuple(i for i, agenda in enumerate(AGENDAS) if agenda.side == CREW)


@dataclass(frozen=True)
class AgendaDeal:
    """Which agendas a game of a given size uses (rulebook, "Determining Agenda Cards")."""

    menaces: int
    saint: bool  # The Saint is always in
    coward: bool  # The Coward is always in
    random_crew: int  # drawn from the crew agendas not already in


AGENDA_DEALS = MappingProxyType(
    {
        4: AgendaDeal(menaces=1, saint=False, coward=False, random_crew=3),
        5: AgendaDeal(menaces=2, saint=False, coward=False, random_crew=3),
        6: AgendaDeal(menaces=2, saint=True, coward=False, random_crew=3),
        7: AgendaDeal(menaces=2, saint=True, coward=True, random_crew=3),
        8: AgendaDeal(menaces=2, saint=True, coward=True, random_crew=4),
    }
)
AGENDA_DEALS_PROVENANCE = RULEBOOK
# With one Menace (4 players) it is The Contagion unless the `random_menace` option is on.
SINGLE_MENACE = THE_CONTAGION

# ------------------------------------------------------------------------------------------
# Characters and their Above Deck Actions
# ------------------------------------------------------------------------------------------

# Whom an ability's "choose a crewmember" may name. A chosen seat is always a living one.
TARGET_NONE = 0
TARGET_ANY = 1  # any living crewmember, yourself included
TARGET_OTHER = 2  # another living crewmember
TARGET_UNWOUNDED = 3  # a living crewmember with no Wound, yourself included
TARGET_WOUNDED = 4  # a living crewmember with a removable Wound, yourself included
TARGET_OTHER_PLAYED = 5  # another crewmember with a Below Deck card face down this round

# Ability effects. Each names one branch of `rules/abilities.py`'s `resolve_ability`.
BLOODWORK = 0
FIRST_AID = 1
DELEGATE = 2
COMMANDEER = 3
CRUNCH = 4
MOXIE = 5
VETO = 6
LASER_PISTOL = 7
OVERCLOCK = 8
JURY_RIG = 9
SURVEILLANCE = 10
LOCKDOWN = 11
RELAY = 12
INTERCEPT = 13
ANALYZE = 14
CALIBRATE = 15
REQUISITION = 16
SHARE_RATIONS = 17
RUSH = 18
COURSE_CORRECTION = 19
SERMON = 20
VIGIL = 21
SCRAP = 22
TINKER = 23
HIDE = 24
PILFER = 25
SELF_REPAIR = 26
EMERGENCY_PROTOCOL = 27
PHOTOSYNTHESIS = 28
PRUNE = 29
SHIELD = 30
SUPPRESS = 31
N_ABILITIES = 32


@dataclass(frozen=True)
class AboveDeckAction:
    """One Above Deck Action: usable once per round, paid before its effect.

    Costs are paid by the user: Oxygen and Energy from the tracks (the track must hold the
    amount), discards from hand (chosen by the user), wounds to the user.

    `provenance` is where the ability, its effect and its kinds of cost come from;
    `amounts_provenance` where the numbers come from. The printed cards say "(Cost: Oxygen)"
    or "gain Oxygen" without an amount on Bloodwork, Crunch and Moxie: those amounts are ours.
    """

    name: str
    oxygen_cost: int
    energy_cost: int
    discard_cost: int
    wound_cost: int
    target: int
    effect: str
    provenance: str
    amounts_provenance: str = ""  # "": the same as `provenance`

    def __post_init__(self):
        if not self.amounts_provenance:
            object.__setattr__(self, "amounts_provenance", self.provenance)


ABOVE_DECK_ACTIONS: tuple[AboveDeckAction, ...] = (
    AboveDeckAction(
        "Bloodwork",
        1,
        0,
        0,
        1,
        TARGET_ANY,
        "Choose a crewmember. That crewmember publicly reveals a card of their choice from hand.",
        RULEBOOK,
        amounts_provenance=DESIGNED,  # printed "(Cost: Oxygen, Wound)": 1 Oxygen is ours
    ),
    AboveDeckAction(
        "First Aid",
        2,
        0,
        0,
        0,
        TARGET_WOUNDED,
        "Choose a crewmember. That crewmember removes a Wound.",
        RULEBOOK,
    ),
    AboveDeckAction(
        "Delegate",
        0,
        0,
        0,
        0,
        TARGET_OTHER,
        "Choose another crewmember. They must choose and immediately use an Above or Below "
        "Deck Action.",
        RULEBOOK,
    ),
    AboveDeckAction(
        "Commandeer",
        0,
        1,
        0,
        0,
        TARGET_ANY,
        "Draw a Below Deck Action card from any crewmember's deck.",
        RULEBOOK,
    ),
    AboveDeckAction(
        "Crunch",
        1,
        0,
        0,
        0,
        TARGET_UNWOUNDED,
        "Choose an un-wounded crewmember. That crewmember draws 3 cards and receives a Wound.",
        RULEBOOK,
        amounts_provenance=DESIGNED,  # printed "(Cost: Oxygen)"
    ),
    AboveDeckAction(
        "Moxie",
        1,
        0,
        0,
        0,
        TARGET_NONE,
        "At the end of this round, if any crewmember was wounded this round, gain 2 Oxygen.",
        RULEBOOK,
        amounts_provenance=DESIGNED,  # printed "(Cost: Oxygen)" and "gain Oxygen"
    ),
    AboveDeckAction(
        "Veto",
        0,
        0,
        1,
        0,
        TARGET_NONE,
        "Once during this round, you can and must cancel the cost and effect of a Below Deck "
        "Action card as it is revealed.",
        RULEBOOK,
    ),
    AboveDeckAction(
        "Laser Pistol",
        0,
        2,
        0,
        0,
        TARGET_OTHER,
        "Choose another crewmember. That crewmember receives a Wound.",
        RULEBOOK,
    ),
    AboveDeckAction(
        "Overclock", 1, 0, 1, 0, TARGET_NONE, "Raise the Energy Level 2 increments.", DESIGNED
    ),
    AboveDeckAction(
        "Jury-Rig", 0, 0, 0, 1, TARGET_NONE, "Raise the Energy Level 2 increments.", DESIGNED
    ),
    AboveDeckAction(
        "Surveillance",
        0,
        0,
        0,
        0,
        TARGET_OTHER_PLAYED,
        "Choose another crewmember with a face-down Below Deck card this round. Look at the "
        "cards they played this round.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Lockdown",
        1,
        0,
        0,
        0,
        TARGET_OTHER,
        "Choose another crewmember. They cannot call a vote this round.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Relay",
        0,
        0,
        0,
        0,
        TARGET_OTHER,
        "Choose another crewmember. Give them a card of your choice from your hand.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Intercept",
        0,
        1,
        0,
        0,
        TARGET_OTHER,
        "Choose another crewmember. Look at the top card of their deck.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Analyze",
        0,
        1,
        0,
        0,
        TARGET_OTHER,
        "Choose another crewmember. Look at their hand.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Calibrate",
        0,
        0,
        0,
        0,
        TARGET_NONE,
        "Look at the top card of the EmMA deck. You may put it on the bottom.",
        DESIGNED,
    ),
    AboveDeckAction("Requisition", 1, 0, 0, 0, TARGET_NONE, "Draw 2 cards.", DESIGNED),
    AboveDeckAction(
        "Share Rations",
        0,
        0,
        0,
        0,
        TARGET_OTHER,
        "Choose another crewmember. You and they each draw a card.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Rush", 0, 1, 0, 0, TARGET_NONE, "Play two Below Deck Action cards, one after the other.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Course Correction",
        0,
        0,
        0,
        0,
        TARGET_OTHER,
        "Choose another crewmember. Pass them the Mission Leader token now.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Sermon",
        0,
        0,
        1,
        0,
        TARGET_WOUNDED,
        "Choose a crewmember. That crewmember removes a Wound.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Vigil",
        0,
        0,
        1,
        0,
        TARGET_NONE,
        "At the end of this round, if no crewmember was killed this round, gain 1 Oxygen.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Scrap", 0, 0, 2, 0, TARGET_NONE, "Raise the Energy Level 1 increment.", DESIGNED
    ),
    AboveDeckAction(
        "Tinker", 0, 0, 0, 0, TARGET_NONE, "Draw a card, then discard a card.", DESIGNED
    ),
    AboveDeckAction(
        "Hide",
        0,
        0,
        1,
        0,
        TARGET_NONE,
        "Until the end of this round, no one else's Above Deck Action can choose you.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Pilfer",
        1,
        0,
        0,
        0,
        TARGET_OTHER,
        "Choose another crewmember. Take a random card from their hand.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Self-Repair", 0, 2, 0, 0, TARGET_NONE, "Remove one of your own Wounds.", DESIGNED
    ),
    AboveDeckAction(
        "Emergency Protocol",
        0,
        1,
        0,
        0,
        TARGET_NONE,
        "Add the top card of the EmMA deck, face down, to this round's played cards.",
        DESIGNED,
    ),
    AboveDeckAction("Photosynthesis", 0, 0, 1, 0, TARGET_NONE, "Gain 1 Oxygen.", DESIGNED),
    AboveDeckAction(
        "Prune",
        0,
        0,
        1,
        0,
        TARGET_OTHER,
        "Choose another crewmember. They discard a random card from hand.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Shield",
        1,
        0,
        0,
        0,
        TARGET_ANY,
        "Choose a crewmember. The next Wound they would receive this round is prevented.",
        DESIGNED,
    ),
    AboveDeckAction(
        "Suppress",
        0,
        1,
        0,
        0,
        TARGET_OTHER,
        "Choose another crewmember. They cannot use Above Deck Actions this round.",
        DESIGNED,
    ),
)
assert len(ABOVE_DECK_ACTIONS) == N_ABILITIES
ABILITY_NAMES = tuple(ability.name for ability in ABOVE_DECK_ACTIONS)


@dataclass(frozen=True)
class Character:
    """One character card: two Above Deck Actions and 7 Below Deck cards for the deck."""

    name: str
    title: str
    abilities: tuple[int, int]
    cards: MappingProxyType
    provenance: str


CHARACTERS: tuple[Character, ...] = (
    Character(
        "Rotti Vestine",
        "Medical Officer",
        (BLOODWORK, FIRST_AID),
        _cards(raise_morale=5, basic_repair=2),
        RULEBOOK,
    ),
    Character(
        "Andrew Nance",
        "Pilot",
        (DELEGATE, COMMANDEER),
        _cards(backstab=3, basic_repair=2, command=2),
        RULEBOOK,
    ),
    Character(
        "Martella Isodorus",
        "Rear Gunner",
        (CRUNCH, MOXIE),
        _cards(brawl=3, basic_repair=2, raise_morale=2),
        RULEBOOK,
    ),
    Character(
        "Malumil Einum",
        "Captain",
        (VETO, LASER_PISTOL),
        _cards(basic_repair=3, command=2, raise_morale=2),
        RULEBOOK,
    ),
    Character(
        "Oda Brannock",
        "Chief Engineer",
        (OVERCLOCK, JURY_RIG),
        _cards(explosion=2, basic_repair=3, advanced_repair=2),
        DESIGNED,
    ),
    Character(
        "Sela Okonkwo",
        "Security Chief",
        (SURVEILLANCE, LOCKDOWN),
        _cards(brawl=2, backstab=3, basic_repair=1, raise_morale=1),
        DESIGNED,
    ),
    Character(
        "Ines Varro",
        "Communications Officer",
        (RELAY, INTERCEPT),
        _cards(command=2, replicate=2, raise_morale=2, basic_repair=1),
        DESIGNED,
    ),
    Character(
        "Hal Quist",
        "Science Officer",
        (ANALYZE, CALIBRATE),
        _cards(replicate=3, advanced_repair=2, basic_repair=2),
        DESIGNED,
    ),
    Character(
        "Mara Tull",
        "Quartermaster",
        (REQUISITION, SHARE_RATIONS),
        _cards(raise_morale=3, basic_repair=2, command=1, advanced_repair=1),
        DESIGNED,
    ),
    Character(
        "Kestrel Aun",
        "Navigator",
        (RUSH, COURSE_CORRECTION),
        _cards(basic_repair=2, advanced_repair=2, replicate=1, brawl=1, raise_morale=1),
        DESIGNED,
    ),
    Character(
        "Osric Vale",
        "Chaplain",
        (SERMON, VIGIL),
        _cards(raise_morale=3, basic_repair=2, command=1, replicate=1),
        DESIGNED,
    ),
    Character(
        "Pip Arvo",
        "Mechanic",
        (SCRAP, TINKER),
        _cards(basic_repair=3, replicate=3, advanced_repair=1),
        DESIGNED,
    ),
    Character(
        "Vex",
        "Stowaway",
        (HIDE, PILFER),
        _cards(backstab=2, replicate=2, airlock_breach=1, basic_repair=2),
        DESIGNED,
    ),
    Character(
        "K-7",
        "Maintenance Android",
        (SELF_REPAIR, EMERGENCY_PROTOCOL),
        _cards(basic_repair=3, advanced_repair=2, reactor_leak=1, raise_morale=1),
        DESIGNED,
    ),
    Character(
        "Juno Saar",
        "Botanist",
        (PHOTOSYNTHESIS, PRUNE),
        _cards(raise_morale=3, basic_repair=2, replicate=1, command=1),
        DESIGNED,
    ),
    Character(
        "Brack Hollis",
        "Marine",
        (SHIELD, SUPPRESS),
        _cards(brawl=2, backstab=2, raise_morale=2, basic_repair=1),
        DESIGNED,
    ),
)
N_CHARACTERS = 16
assert len(CHARACTERS) == N_CHARACTERS
CHARACTER_NAMES = tuple(character.name for character in CHARACTERS)
CHARACTER_CARDS = 7
CHARACTERS_DEALT = 3
# With 6 to 8 players only the first 5 are dealt 3; the rest share out what those 5 left.
CHARACTER_FIRST_PICKERS = 5

PERSONAL_DECK_SIZE = AGENDA_CARDS + CHARACTER_CARDS
STARTING_HAND = 3
HAND_LIMIT = 4

# ------------------------------------------------------------------------------------------
# Wounds
# ------------------------------------------------------------------------------------------

FLESH_WOUND = 0
BROKEN_HAND = 1
CONCUSSION = 2
CRUSHED_THROAT = 3
BROKEN_LEG = 4
PUNCTURED_LUNG = 5
ADRENALINE_SURGE = 6
SEVERE_BURNS = 7
BURNED_HANDS = 8
INFECTED_WOUND = 9
PANIC_ATTACK = 10
DISLOCATED_SHOULDER = 11
PARANOIA = 12
RADIATION_BURNS = 13
TREMORS = 14
N_WOUNDS = 15

# When a wound's rule applies.
ON_RECEIPT = 0  # once, the moment the card is drawn
WHILE_HELD = 1  # for as long as it lies in front of the player


@dataclass(frozen=True)
class Wound:
    name: str
    timing: int
    effect: str
    provenance: str


WOUNDS: tuple[Wound, ...] = (
    Wound("Flesh Wound", WHILE_HELD, "This wound has no additional effects.", RULEBOOK),
    Wound("Broken Hand", WHILE_HELD, "Your hand limit is 3.", DESIGNED),
    Wound("Concussion", WHILE_HELD, "You cannot call a vote.", DESIGNED),
    Wound("Crushed Throat", WHILE_HELD, "You cannot vote.", DESIGNED),
    Wound("Broken Leg", WHILE_HELD, "You cannot use Above Deck Actions.", DESIGNED),
    Wound("Punctured Lung", ON_RECEIPT, "When you receive this Wound, lose 1 Oxygen.", DESIGNED),
    Wound(
        "Adrenaline Surge",
        ON_RECEIPT,
        "When you receive this Wound, draw 2 cards (hand limit applies).",
        DESIGNED,
    ),
    Wound(
        "Severe Burns",
        WHILE_HELD,
        "At the end of each round, discard a random card from your hand.",
        DESIGNED,
    ),
    Wound(
        "Burned Hands",
        WHILE_HELD,
        "You cannot play Basic Repair or Advanced Repair.",
        DESIGNED,
    ),
    Wound("Infected Wound", WHILE_HELD, "This Wound cannot be removed.", DESIGNED),
    Wound(
        "Panic Attack",
        WHILE_HELD,
        "When Panic! resolves, you discard two random cards instead of one.",
        DESIGNED,
    ),
    Wound(
        "Dislocated Shoulder",
        WHILE_HELD,
        "You cannot be Mission Leader: the token passes over you.",
        DESIGNED,
    ),
    Wound(
        "Paranoia",
        WHILE_HELD,
        "When a vote is held, you must vote for a player (you cannot abstain).",
        DESIGNED,
    ),
    Wound(
        "Radiation Burns",
        ON_RECEIPT,
        "When you receive this Wound, the Energy Level drops 1.",
        DESIGNED,
    ),
    Wound(
        "Tremors",
        WHILE_HELD,
        "In the Action Phase you cannot draw while you hold 2 or more cards.",
        DESIGNED,
    ),
)
assert len(WOUNDS) == N_WOUNDS
WOUND_NAMES = tuple(wound.name for wound in WOUNDS)
WOUND_DECK_SIZE = 15
WOUNDS_TO_KILL = 2
