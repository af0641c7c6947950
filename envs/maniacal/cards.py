"""Every card of MANIACAL as data.

The seed rulebook (`003_*`) counts the components but prints almost no card: we design them
(rulings.md, R7) within what it does print: the counts, trait values 1-5, team sizes 1-4,
contract Targets by difficulty (Easy 1-4, Hard 3-9, Legendary 4-15), time costs 3-5 weeks,
the Lackeys' 1/1/1/1, and the few cards it names (the Intrinsic Field Chamber's 5 Scientist
attraction points, a room with +3 Beast and +3 Criminal, Berserker Strength's +2 Brawn, a Power
of +1 Stealth +1 Magic, the Robotics Lab that draws Scientists, Steal a Nuclear Warhead).
Each entry carries its provenance: "rulebook" when the rulebook prints the card's content,
"designed" when we designed it (a printed name with designed numbers counts as designed).

Effects are ids from closed lists with an amount, so no kernel branches on a card name;
`tables.py` turns these tables into numpy arrays. The design principles (how costs, attraction,
Targets and rewards relate) are in `docs/rules/maniacal.md`; `tests/maniacal/test_cards.py`
checks every count and range below.
"""

from __future__ import annotations

from dataclasses import dataclass

RULEBOOK = "rulebook"
DESIGNED = "designed"
RULING = "ruling"
PROVENANCES = (RULEBOOK, DESIGNED, RULING)

TRAITS = ("Brawn", "Stealth", "Intellect", "Magic")
BRAWN, STEALTH, INTELLECT, MAGIC = range(4)
TYPES = ("Beast", "Criminal", "Scientist", "Mystic", "Lackey", "Mercenary")
BEAST, CRIMINAL, SCIENTIST, MYSTIC, LACKEY, MERCENARY = range(6)
TYPE_TRAITS = {  # rulebook: the two traits a recruitable type may have values in
    BEAST: (BRAWN, STEALTH),
    CRIMINAL: (STEALTH, INTELLECT),
    SCIENTIST: (INTELLECT, MAGIC),
    MYSTIC: (MAGIC, BRAWN),
}
ATTRACTION_TRACKS = ("Beasts", "Criminals", "Scientists", "Mystics")  # a room's bottom row

CONTINENT_NAMES = ("North America", "South America", "Europe", "Africa", "Asia", "Oceania")

EASY, HARD, LEGENDARY = 0, 1, 2
DIFFICULTIES = ("Easy", "Hard", "Legendary")
TARGET_RANGE = {EASY: (1, 4), HARD: (3, 9), LEGENDARY: (4, 15)}  # rulebook
TEAM_RANGE = (1, 4)  # rulebook: "between 1-4"
TRAIT_RANGE = (1, 5)  # rulebook: "can vary between 1-5"
TIME_COST_RANGE = (3, 5)  # rulebook "3-5 weeks", ruling R5

# Result icons, as bits (rulebook: Captured, Injured, Scheme, Power, applied in that order).
CAPTURED, INJURED, SCHEME, POWER = 1, 2, 4, 8
ICON_NAMES = ("Captured", "Injured", "Scheme", "Power")

# Room categories and the windows an effect is used in.
PASSIVE, ACTION, CONTRACT = 0, 1, 2
CATEGORY_NAMES = ("Passive", "Action", "Contract")
ANY_ACTIVE, BEFORE_ROLL, AFTER_ROLL = 0, 1, 2
WINDOW_NAMES = ("any time while active", "before the roll", "after the roll")

# Room.trait: a trait (or, for GAIN_ATTRACTION, an attraction track) 0..3, or one of these.
NO_TRAIT, WORKER_TRAIT, RECOMMENDED = -1, -2, -3

# Room effects. Action rooms: GAIN_MONEY .. BUY_INFAMY; Contract rooms: the rest.
(
    NO_EFFECT,
    GAIN_MONEY,  # +$amount
    MONEY_PER_WORKER_TRAIT,  # +$ the worker's best trait value (a Lackey: one trait)
    DRAW_SCHEME,  # draw `amount` Scheme cards
    GRANT_POWER,  # choose one of your henchmen, then draw the top Power onto it
    HEAL,  # choose an injured henchman of yours, remove up to `amount` Injury tokens
    GAIN_ATTRACTION,  # +amount on the attraction track `trait`
    BUY_INFAMY,  # pay $BUY_INFAMY_PRICE, gain `amount` Infamy
    ADD_DICE,  # before the roll: `amount` dice of trait `trait`
    ADD_DICE_RECOMMENDED,  # before the roll: `amount` dice of the contract's recommended trait
    ADD_WORKER_DICE,  # before the roll: dice equal to the worker's best trait value
    ADD_SUCCESSES,  # after the roll: +amount successes
    REROLL_BLANKS,  # after the roll: re-roll every blank once
    ON_SUCCESS_MONEY,  # after the roll: +$amount if the contract succeeds
    CANCEL_CAPTURE,  # after the roll: this result's Captured icon does nothing
) = range(15)
ACTION_EFFECTS = (
    GAIN_MONEY,
    MONEY_PER_WORKER_TRAIT,
    DRAW_SCHEME,
    GRANT_POWER,
    HEAL,
    GAIN_ATTRACTION,
    BUY_INFAMY,
)
BEFORE_ROLL_EFFECTS = (ADD_DICE, ADD_DICE_RECOMMENDED, ADD_WORKER_DICE)
AFTER_ROLL_EFFECTS = (ADD_SUCCESSES, REROLL_BLANKS, ON_SUCCESS_MONEY, CANCEL_CAPTURE)
BUY_INFAMY_PRICE = 2

# Scheme halves. Negative: played by an opponent in the Negative-Scheme window of an attempt.
(
    TARGET_UP,  # the flipped Target is printed + amount
    REMOVE_DICE,  # `amount` fewer dice of the recommended trait, at dice collection
    NO_REROLL,  # the Lackey's re-roll is barred in this attempt
    NO_CONTRACT_ROOMS,  # no Contract room may be activated in this attempt
    ON_FAIL_INJURE,  # a failure Injures one more henchman (version 2; it was an icon OR)
    ON_SUCCESS_MONEY_DOWN,  # success money - amount, not below 0
) = range(1, 7)
# Positive: played by the active seat for itself, in `pos_window`.
(
    P_ADD_DICE,  # before the roll: `amount` dice of the recommended trait
    P_ADD_SUCCESSES,  # after the roll: +amount successes
    P_REROLL,  # after the roll: a re-roll by the P-17 rules (blanks, then how many ones)
    P_GAIN_MONEY,  # any time while active: +$amount
    P_HEAL,  # any time while active: remove `amount` Injury tokens from one of your henchmen
) = range(1, 6)

NO_ABILITY = 0  # Supervillain strengths and weaknesses are an option left out of v1 (spec §7)


@dataclass(frozen=True)
class Room:
    """A Secret Base Room kind; `copies` of it are in the 75-card Room deck."""

    name: str
    copies: int
    cost: int  # $, paid to build, received on a sale
    attraction: tuple[int, int, int, int]  # Beasts, Criminals, Scientists, Mystics
    category: int  # PASSIVE, ACTION, CONTRACT
    weeks: int  # ACTION: the time an activation costs; else 0
    window: int  # CONTRACT: BEFORE_ROLL or AFTER_ROLL; else 0
    effect: int
    amount: int
    trait: int
    text: str
    provenance: str


@dataclass(frozen=True)
class Henchman:
    """A recruitable henchman: one non-zero trait, from its type's pair (ruling P-12)."""

    name: str
    kind: int  # BEAST .. MYSTIC
    cost: int  # in attraction points
    traits: tuple[int, int, int, int]
    provenance: str


@dataclass(frozen=True)
class Mercenary:
    name: str
    traits: tuple[int, int, int, int]
    provenance: str


@dataclass(frozen=True)
class Lackey:
    name: str
    supervillain: int  # whose Lackey it is; -1 for the two variants
    traits: tuple[int, int, int, int]
    variant: bool
    provenance: str


@dataclass(frozen=True)
class Contract:
    """A contract card. The back (difficulty, team, trait) is public; the rest is the front."""

    name: str
    difficulty: int
    team: int  # exactly this many henchmen are assigned
    trait: int  # the recommended trait
    target: int  # successes needed
    win_infamy: int
    win_money: int
    win_icons: int
    fail_infamy: int
    fail_money: int
    fail_icons: int
    provenance: str


@dataclass(frozen=True)
class Scheme:
    """A Scheme kind: a negative (top) half and a positive (bottom) half."""

    name: str
    copies: int
    neg_effect: int
    neg_amount: int
    pos_effect: int
    pos_amount: int
    pos_window: int
    provenance: str


@dataclass(frozen=True)
class Power:
    name: str
    bonus: tuple[int, int, int, int]
    provenance: str


@dataclass(frozen=True)
class Supervillain:
    name: str
    base: int  # the continent of its base
    weeks_to: tuple[int, int, int, int, int, int]  # contract time cost per continent
    lackey: int  # index into LACKEYS
    strength: int
    strength_amount: int
    weakness: int
    weakness_amount: int
    provenance: str


# ------------------------------------------------------------------------------------------
# Secret Base Rooms: 25 kinds x 3 copies = 75. Total attraction = cost + 2, + 1 more for a
# passive room. 8 passive, 9 Action and 8 Contract kinds.
# ------------------------------------------------------------------------------------------


def _room(name, cost, attraction, category, effect=NO_EFFECT, amount=0, trait=NO_TRAIT, *,
          weeks=None, window=0, text="", provenance=DESIGNED):
    if weeks is None:
        weeks = 1 if category == ACTION else 0
    return Room(name, 3, cost, attraction, category, weeks, window, effect, amount, trait, text,
                provenance)


ROOMS: tuple[Room, ...] = (
    # Passive: attraction only.
    _room("Intrinsic Field Chamber", 2, (0, 0, 5, 0), PASSIVE,
          text="5 Scientist attraction (printed); cost designed."),
    _room("Beast Pens", 2, (5, 0, 0, 0), PASSIVE),
    _room("Thieves' Den", 2, (0, 5, 0, 0), PASSIVE),
    _room("Ritual Circle", 2, (0, 0, 0, 5), PASSIVE),
    _room("Smugglers' Menagerie", 3, (3, 3, 0, 0), PASSIVE,
          text="+3 Beast and +3 Criminal attraction (the printed example); cost designed."),
    _room("Alchemy Lab", 4, (0, 0, 4, 3), PASSIVE),
    _room("Ley Line Arena", 4, (3, 0, 0, 4), PASSIVE),
    _room("Hacker Den", 4, (0, 4, 3, 0), PASSIVE),
    # Action rooms: 1 week (the Mutation Chamber 2), one worker.
    _room("Vault", 2, (0, 3, 0, 1), ACTION, GAIN_MONEY, 2, text="Gain $2."),
    _room("Counting House", 3, (0, 2, 3, 0), ACTION, MONEY_PER_WORKER_TRAIT, 0, WORKER_TRAIT,
          text="Gain $ equal to the worker's best trait (a Lackey: one trait; "
          "not the Supervillain)."),
    _room("Robotics Lab", 3, (0, 0, 4, 1), ACTION, GAIN_ATTRACTION, 3, SCIENTIST,
          text="+3 Scientist attraction (the printed room that draws Scientists)."),
    _room("Briefing Room", 1, (1, 1, 1, 0), ACTION, DRAW_SCHEME, 1, text="Draw 1 Scheme."),
    _room("Infirmary", 1, (3, 0, 0, 0), ACTION, HEAL, 2,
          text="Remove up to 2 Injury tokens from one of your henchmen."),
    _room("Mutation Chamber", 6, (2, 1, 3, 2), ACTION, GRANT_POWER, 0, weeks=2,
          text="2 weeks. Choose one of your henchmen, then it receives the top Power."),
    _room("Propaganda Studio", 4, (1, 2, 0, 3), ACTION, BUY_INFAMY, 2,
          text=f"Pay ${BUY_INFAMY_PRICE} to gain 2 Infamy."),
    _room("Breeding Pits", 3, (4, 0, 0, 1), ACTION, GAIN_ATTRACTION, 3, BEAST,
          text="+3 Beast attraction."),
    _room("Seance Parlour", 3, (1, 0, 0, 4), ACTION, GAIN_ATTRACTION, 3, MYSTIC,
          text="+3 Mystic attraction."),
    # Contract rooms: no time, a worker not on the team, once per round.
    _room("Armory", 3, (3, 1, 0, 1), CONTRACT, ADD_DICE, 2, BRAWN, window=BEFORE_ROLL,
          text="Before the roll: +2 Brawn dice."),
    _room("Cloaking Lab", 3, (1, 3, 1, 0), CONTRACT, ADD_DICE, 2, STEALTH, window=BEFORE_ROLL,
          text="Before the roll: +2 Stealth dice."),
    _room("Supercomputer", 5, (1, 0, 4, 2), CONTRACT, ADD_DICE_RECOMMENDED, 3, RECOMMENDED,
          window=BEFORE_ROLL, text="Before the roll: +3 dice of the recommended trait."),
    _room("Occult Library", 4, (0, 0, 2, 4), CONTRACT, ADD_WORKER_DICE, 0, WORKER_TRAIT,
          window=BEFORE_ROLL, text="Before the roll: dice equal to the worker's best trait."),
    _room("War Room", 4, (2, 2, 2, 0), CONTRACT, ADD_SUCCESSES, 1, window=AFTER_ROLL,
          text="After the roll: +1 success."),
    _room("Probability Engine", 5, (1, 2, 2, 2), CONTRACT, REROLL_BLANKS, 0, window=AFTER_ROLL,
          text="After the roll: re-roll every blank once."),
    _room("Escape Tunnel", 1, (3, 0, 0, 0), CONTRACT, CANCEL_CAPTURE, 0, window=AFTER_ROLL,
          text="After the roll: this result's Captured icon does nothing."),
    _room("Money Laundry", 2, (0, 4, 0, 0), CONTRACT, ON_SUCCESS_MONEY, 3, window=AFTER_ROLL,
          text="After the roll: +$3 if the contract succeeds."),
)
ROOM_NAMES = tuple(room.name for room in ROOMS)
ROOM_DECK_SIZE = 75

# ------------------------------------------------------------------------------------------
# Henchmen: 10 per type (P-01), one per (trait of the type's pair, value 1-5); cost = value + 2.
# ------------------------------------------------------------------------------------------

_HENCHMAN_NAMES = {
    (BEAST, BRAWN): ("Weasel-Man", "Gorilla Bruiser", "Rhino Brute", "Bear-Man", "Mutant Rex"),
    (BEAST, STEALTH): ("Rat Scout", "Bat Lurker", "Panther Stalker", "Chameleon Woman",
                       "Shadow Wolf"),
    (CRIMINAL, STEALTH): ("Pickpocket", "Getaway Driver", "Cat Burglar", "Assassin",
                          "Master Thief"),
    (CRIMINAL, INTELLECT): ("Con Artist", "Forger", "Safecracker", "Hacker", "Crime Boss"),
    (SCIENTIST, INTELLECT): ("Lab Assistant", "Chemist", "Roboticist", "Geneticist",
                             "Mad Genius"),
    (SCIENTIST, MAGIC): ("Alchemist", "Quantum Tinkerer", "Radiation Researcher",
                         "Dimensional Physicist", "Doctor of Forbidden Science"),
    (MYSTIC, MAGIC): ("Fortune Teller", "Hedge Witch", "Necromancer", "Warlock", "Archmage"),
    (MYSTIC, BRAWN): ("Cultist", "Possessed Monk", "Werewolf", "Stone Golem", "Demon Champion"),
}


def _henchman(kind: int, trait: int, value: int) -> Henchman:
    traits = tuple(value if t == trait else 0 for t in range(4))
    return Henchman(_HENCHMAN_NAMES[kind, trait][value - 1], kind, value + 2, traits, DESIGNED)


HENCHMEN: tuple[Henchman, ...] = tuple(
    _henchman(kind, trait, value)
    for kind in (BEAST, CRIMINAL, SCIENTIST, MYSTIC)
    for trait in TYPE_TRAITS[kind]
    for value in range(1, 6)
)
HENCHMAN_NAMES = tuple(h.name for h in HENCHMEN)

# Mercenaries: two traits totalling 4, a little above an average recruit (one trait, 3 on
# average), since they stay one round and cost no Attraction. Version 1's totals of 5-6 made
# selling every room and renting Mercenaries the best plan (an outside audit's `sellhire`
# placed 2.09 at 4 players, par 2.5); at 4 it places 2.65 against three heuristics.
MERCENARIES: tuple[Mercenary, ...] = (
    Mercenary("Ex-Commando", (3, 1, 0, 0), DESIGNED),
    Mercenary("Corporate Spy", (0, 2, 2, 0), DESIGNED),
    Mercenary("Rogue Android", (0, 0, 3, 1), DESIGNED),
    Mercenary("Cursed Gladiator", (2, 0, 0, 2), DESIGNED),
    Mercenary("Bomb Expert", (1, 0, 3, 0), DESIGNED),
    Mercenary("Shadow Sorceress", (0, 2, 0, 2), DESIGNED),
    Mercenary("Bounty Hunter", (2, 2, 0, 0), DESIGNED),
    Mercenary("Techno-Shaman", (0, 0, 1, 3), DESIGNED),
)
MERCENARY_NAMES = tuple(m.name for m in MERCENARIES)

# Lackeys: the five standard ones are printed 1/1/1/1 (names designed); two variants serve the
# Supervillain-abilities option (P-31), which v1 leaves out.
LACKEYS: tuple[Lackey, ...] = (
    Lackey("Igor", 0, (1, 1, 1, 1), False, RULEBOOK),
    Lackey("Number Two", 1, (1, 1, 1, 1), False, RULEBOOK),
    Lackey("Henchbot", 2, (1, 1, 1, 1), False, RULEBOOK),
    Lackey("Grub", 3, (1, 1, 1, 1), False, RULEBOOK),
    Lackey("Toady", 4, (1, 1, 1, 1), False, RULEBOOK),
    Lackey("Hulking Lackey", -1, (2, 1, 1, 1), True, DESIGNED),
    Lackey("Feeble Lackey", -1, (1, 1, 1, 0), True, DESIGNED),
)
LACKEY_NAMES = tuple(lackey.name for lackey in LACKEYS)

# Powers: 8 of +2 to one trait (2 per trait), 6 of +1/+1 (every pair of traits once).
POWERS: tuple[Power, ...] = (
    Power("Berserker Strength", (2, 0, 0, 0), RULEBOOK),
    Power("Titan Serum", (2, 0, 0, 0), DESIGNED),
    Power("Shadow Cloak", (0, 2, 0, 0), DESIGNED),
    Power("Phase Shift", (0, 2, 0, 0), DESIGNED),
    Power("Cybernetic Brain", (0, 0, 2, 0), DESIGNED),
    Power("Photographic Memory", (0, 0, 2, 0), DESIGNED),
    Power("Eldritch Pact", (0, 0, 0, 2), DESIGNED),
    Power("Arcane Tattoo", (0, 0, 0, 2), DESIGNED),
    Power("Feral Instincts", (1, 1, 0, 0), DESIGNED),
    Power("Power Armour", (1, 0, 1, 0), DESIGNED),
    Power("Demon Blood", (1, 0, 0, 1), DESIGNED),
    Power("Master of Disguise", (0, 1, 1, 0), DESIGNED),
    Power("Spectral Form", (0, 1, 0, 1), RULEBOOK),  # the printed +1 Stealth +1 Magic example
    Power("Techno-Magic", (0, 0, 1, 1), DESIGNED),
)
POWER_NAMES = tuple(p.name for p in POWERS)

# Schemes: 10 kinds, 25 cards. A bigger negative half pairs with a smaller positive one.
SCHEMES: tuple[Scheme, ...] = (
    Scheme("Double Cross", 3, TARGET_UP, 2, P_ADD_SUCCESSES, 1, AFTER_ROLL, DESIGNED),
    Scheme("Sabotage", 3, REMOVE_DICE, 2, P_ADD_DICE, 2, BEFORE_ROLL, DESIGNED),
    Scheme("Jammed Signals", 2, NO_REROLL, 0, P_REROLL, 0, AFTER_ROLL, DESIGNED),
    Scheme("Lockdown", 2, NO_CONTRACT_ROOMS, 0, P_GAIN_MONEY, 2, ANY_ACTIVE, DESIGNED),
    Scheme("Ambush", 3, ON_FAIL_INJURE, 0, P_HEAL, 1, ANY_ACTIVE, DESIGNED),
    Scheme("Tax Audit", 3, ON_SUCCESS_MONEY_DOWN, 2, P_GAIN_MONEY, 3, ANY_ACTIVE, DESIGNED),
    Scheme("Anonymous Tip-off", 3, TARGET_UP, 1, P_ADD_DICE, 3, BEFORE_ROLL, DESIGNED),
    Scheme("Framed!", 2, TARGET_UP, 3, P_ADD_SUCCESSES, 2, AFTER_ROLL, DESIGNED),
    Scheme("Cut the Power", 2, REMOVE_DICE, 3, P_REROLL, 0, AFTER_ROLL, DESIGNED),
    Scheme("Bribed Guard", 2, ON_SUCCESS_MONEY_DOWN, 3, P_HEAL, 2, ANY_ACTIVE, DESIGNED),
)
SCHEME_NAMES = tuple(s.name for s in SCHEMES)
SCHEME_DECK_SIZE = 25

# Supervillains: each time table is a permutation of (3, 4, 4, 4, 5, 5) with the 3 at its base
# (R5, P-37), so no villain travels more than another in total.
SUPERVILLAINS: tuple[Supervillain, ...] = (
    Supervillain("Doctor Despair", 0, (3, 4, 4, 5, 4, 5), 0, 0, 0, 0, 0, DESIGNED),
    Supervillain("Baron von Blitz", 2, (4, 5, 3, 4, 4, 5), 1, 0, 0, 0, 0, DESIGNED),
    Supervillain("The Hex Queen", 4, (4, 5, 4, 5, 3, 4), 2, 0, 0, 0, 0, DESIGNED),
    Supervillain("Mastermind Mortimer", 3, (5, 4, 4, 3, 4, 5), 3, 0, 0, 0, 0, DESIGNED),
    Supervillain("Lady Leviathan", 1, (4, 3, 5, 4, 5, 4), 4, 0, 0, 0, 0, DESIGNED),
)
SUPERVILLAIN_NAMES = tuple(v.name for v in SUPERVILLAINS)

# ------------------------------------------------------------------------------------------
# Contracts: 36 Easy, 34 Hard, 27 Legendary (card id = index, in that order). Each name list
# runs Brawn, Stealth, Intellect, Magic; within a trait the team sizes alternate. The
# numbers come from one template row per (difficulty, team), taken in turn:
#   (Target, success Infamy, $, icons, failure Infamy, $, icons).
# Targets sit at about 0.6-0.9 of a typical team's expected successes (2/3 per die).
# ------------------------------------------------------------------------------------------

_I, _C, _S, _P = INJURED, CAPTURED, SCHEME, POWER
_TEMPLATES = {
    (EASY, 1): ((1, 2, 1, 0, 0, 0, _I), (2, 3, 1, 0, 0, 0, 0), (2, 2, 2, _S, 0, 0, _I),
                (3, 4, 2, 0, 1, 0, _I), (1, 2, 2, 0, 0, 0, 0)),
    (EASY, 2): ((2, 3, 2, 0, 0, 1, _I), (3, 3, 3, 0, 1, 0, _I), (3, 4, 2, _S, 0, 1, _I),
                (4, 4, 3, 0, 1, 1, _C), (4, 4, 2, _P, 1, 0, _I)),
    (HARD, 2): ((3, 5, 2, 0, 1, 0, _I), (4, 5, 3, _S, 1, 1, _I), (4, 6, 3, 0, 1, 0, _C),
                (5, 6, 4, _P, 2, 0, _I), (5, 7, 3, _S, 1, 1, _C)),
    (HARD, 3): ((5, 6, 4, 0, 1, 1, _I), (6, 7, 3, _P, 2, 0, _I), (6, 7, 4, _S, 1, 1, _C),
                (7, 8, 4, 0, 2, 1, _I), (8, 8, 5, _P | _S, 2, 1, _C), (9, 8, 5, _P, 2, 1, _I | _C)),
    (LEGENDARY, 3): ((6, 9, 3, _P, 2, 1, _C), (7, 9, 4, 0, 2, 1, _I), (7, 10, 3, _S, 2, 1, _C),
                     (8, 10, 4, _P, 3, 1, _I), (9, 11, 5, _P | _S, 3, 2, _C),
                     (5, 9, 4, 0, 2, 1, _I | _C)),
    (LEGENDARY, 4): ((8, 10, 5, _P, 3, 1, _C), (9, 11, 5, 0, 3, 2, _I), (10, 11, 5, _S, 3, 1, _C),
                     (11, 12, 6, _P, 3, 2, _I | _C), (12, 12, 6, _P | _S, 3, 2, _C)),
}
# The one Legendary that breaks the pattern: the biggest Target for the biggest prize.
_SPECIAL = {"Summon an Elder God": (4, (15, 13, 6, _P | _S, 3, 2, _I | _C))}

_CONTRACT_NAMES = {
    EASY: (
        ("Smash a Police Station", "Raid a Jewellery Store", "Knock Over an Armoured Van",
         "Brawl at the Docks", "Shake Down a Casino", "Topple a Statue", "Bust Out a Henchman",
         "Wreck a Rival's Hideout", "Rough Up a Union Boss"),
        ("Pickpocket an Ambassador", "Swipe a Museum Relic", "Plant a Listening Bug",
         "Tail a Secret Agent", "Steal a Prototype Car", "Smuggle Contraband",
         "Snatch a Police Dossier", "Burgle a Mansion", "Sneak into an Embassy"),
        ("Hack an ATM Network", "Forge Bearer Bonds", "Rig a Lottery", "Blackmail a Senator",
         "Counterfeit Banknotes", "Crack a Safe", "Phish a Bank Manager", "Fix a Horse Race",
         "Bribe a Customs Officer"),
        ("Curse a Racehorse", "Hex a Rival Gang", "Summon a Minor Imp", "Haunt a Lighthouse",
         "Read a Forbidden Tome", "Brew a Love Potion", "Rob a Fortune Teller",
         "Enchant a Pocket Watch", "Raise a Restless Ghost"),
    ),
    HARD: (
        ("Storm an Army Depot", "Seize an Oil Rig", "Hold a Stadium Hostage",
         "Break a Warlord Out of Prison", "Sink a Battleship", "Flatten a Rival's Fortress",
         "Derail the Orient Express", "Capture a Military Convoy", "Tear Down a Dam"),
        ("Infiltrate a Spy Agency", "Steal a Stealth Bomber", "Kidnap a Royal Heir",
         "Loot a Bank Vault", "Swap the Crown Jewels", "Unmask a Double Agent",
         "Plant a Mole in Parliament", "Steal a Satellite Key", "Smuggle a Tiger Across a Border"),
        ("Hack a Stock Exchange", "Crash the Currency Markets", "Reprogram a Weather Satellite",
         "Clone a Prime Minister", "Counterfeit a Nation's Gold", "Build a Doomsday Clock",
         "Steal the Cure", "Jam Global Air Traffic"),
        ("Awaken a Sleeping Golem", "Curse a Royal Bloodline", "Open a Portal to the Underworld",
         "Bind a Sea Serpent", "Possess a General", "Turn a Town to Stone",
         "Steal a Wizard's Staff", "Summon a Blood Moon"),
    ),
    LEGENDARY: (
        ("Conquer a Small Nation", "Lay Siege to a Capital", "Destroy the Moon Base",
         "Topple the World Bank Tower", "Sink an Aircraft Carrier Fleet", "Seize a Great Canal",
         "Crush the Hero League"),
        ("Steal a Nuclear Warhead", "Steal the Mona Lisa", "Infiltrate the Pentagon",
         "Kidnap the Secretary-General", "Empty Fort Knox", "Steal a Space Shuttle",
         "Replace the President with a Double"),
        ("Hold the Internet to Ransom", "Launch an Orbital Death Ray", "Melt the Polar Ice Caps",
         "Hack Every Missile Silo", "Build a Robot Army", "Take Over the World's Banks",
         "Tow the Moon Out of Orbit"),
        ("Raise an Army of the Dead", "Summon an Elder God", "Eclipse the Sun Forever",
         "Curse Every Crown in Europe", "Open the Gates of Atlantis", "Bind the Four Winds"),
    ),
}
_TEAMS = {EASY: (1, 2), HARD: (2, 3), LEGENDARY: (3, 4)}


def _contracts() -> tuple[Contract, ...]:
    out = []
    used = {key: 0 for key in _TEMPLATES}
    for difficulty, by_trait in _CONTRACT_NAMES.items():
        small, big = _TEAMS[difficulty]
        for trait, names in enumerate(by_trait):
            first = (small, big) if trait % 2 == 0 else (big, small)  # alternate the start
            for i, name in enumerate(names):
                team = first[i % 2]
                if name in _SPECIAL:
                    team, row = _SPECIAL[name]
                else:
                    rows = _TEMPLATES[difficulty, team]
                    row = rows[used[difficulty, team] % len(rows)]
                    used[difficulty, team] += 1
                out.append(Contract(name, difficulty, team, trait, *row, DESIGNED))
    return tuple(out)


CONTRACTS: tuple[Contract, ...] = _contracts()
CONTRACT_NAMES = tuple(c.name for c in CONTRACTS)
CONTRACT_COUNTS = {EASY: 36, HARD: 34, LEGENDARY: 27}
# The most contracts of each difficulty one game deals (ruling R4): 4+2+0, 2+2+3, 0+2+3.
CONTRACT_DEAL = ((4, 2, 0), (2, 2, 2), (0, 3, 3))  # per round: Easy, Hard, Legendary

COMPONENT_COUNTS = {  # rulebook, "Components"
    "rooms": 75,
    "henchmen": 40,
    "contracts": 97,
    "mercenaries": 8,
    "powers": 14,
    "schemes": 25,
    "supervillains": 5,
    "lackeys": 7,
}
