"""A text picture of one game, as the whole table (``seat=None``) or as one seat sees it."""

import numpy as np

from ..core.words import card_lookup
from . import actions as A
from . import cards as c
from . import rules as R
from .actions import LOCATION_NAMES, henchman_name
from .rules import CONTRACT_PHASE, OWNED
from .spec import DECISION_NAMES, PHASE_NAMES, SUBJECT_NAMES, WEEKS, WHERE_NAMES
from .tables import CONTRACT_TARGET, HENCHMAN_TRAITS, N_HENCHMEN, VILLAIN_WEEKS

DIFFICULTY = ("Easy", "Hard", "Legendary")


def _kinds(counts, names) -> str:
    return ", ".join(f"{names[k]}x{int(v)}" for k, v in enumerate(counts) if v > 0) or "-"


def _henchman(s: np.void, h: int) -> str:
    traits = "/".join(str(int(HENCHMAN_TRAITS[h, t] + s["bonus"][h, t])) for t in range(4))
    tags = [t for t, on in (("exhausted", s["exhausted"][h]), ("team", s["on_team"][h])) if on]
    if s["injuries"][h]:
        tags.append(f"injured x{int(s['injuries'][h])}")
    return f"{henchman_name(h)} [{traits}]" + (f" ({', '.join(tags)})" if tags else "")


def render(s: np.void, seat: int | None = None) -> str:
    n = int(s["num_players"])
    rnd, phase = int(s["round"]), int(s["phase"])
    room_names = [r.name for r in c.ROOMS]
    scheme_names = [x.name for x in c.SCHEMES]
    head = f"round {rnd}/3  phase: {PHASE_NAMES[min(phase, 2)]}"
    if s["terminated"]:
        head += "  (game over)"
    else:
        head += (
            f"  deciding: player_{int(s['current_seat'])} "
            f"({DECISION_NAMES[int(s['decision'])]}"
            + (f", {SUBJECT_NAMES[int(s['subject'])]}" if s["subject"] else "")
            + ")"
        )
    if phase == 0:
        head += f"  pick {int(s['pick']) + 1}/3"
    lines = [head]
    order = " > ".join(f"player_{int(x)}" for x in s["order"][:n])
    lines.append(f"  player order: {order}")
    slots = []
    for k in range(6):
        card = int(s["map"][k])
        if card < 0:
            slots.append(f"{c.CONTINENT_NAMES[k]}: -")
            continue
        k_ = c.CONTRACTS[card]
        text = f"{DIFFICULTY[k_.difficulty]} team {k_.team} {c.TRAITS[k_.trait]}"
        if seat is None:
            text += f" [{k_.name}, target {k_.target}]"
        slots.append(f"{c.CONTINENT_NAMES[k]}: {text}")
    lines.append("  map: " + "; ".join(slots))
    if s["attempt_seat"] >= 0:
        k_ = c.CONTRACTS[int(s["contract"])]
        where = c.CONTINENT_NAMES[int(s["continent"])]
        text = f"  attempt by player_{int(s['attempt_seat'])} on {where}"
        if s["negative"] >= 0:
            text += f"; scheme {scheme_names[int(s['negative'])]} by player_{int(s['negative_by'])}"
        if s["flipped"]:
            printed = int(CONTRACT_TARGET[int(s["contract"])])
            text += f"; {k_.name}, target {int(s['target'])} (printed {printed})"
            text += f"; pool {'/'.join(str(int(x)) for x in s['pool'])}"
        if s["rolled"]:
            f = s["faces"]
            text += f"; rolled {int(f[0])}x0 {int(f[1])}x1 {int(f[2])}x2 +{int(s['extra'])}"
        lines.append(text)
    for j in range(n):
        left = ""
        if phase == CONTRACT_PHASE:
            left = f" time {int(s['spent'][j])}/{WEEKS[rnd - 1]}"
            left += " done" if s["finished"][j] else ""
        lines.append(
            f"  player_{j}: ${int(s['money'][j])} infamy {int(s['infamy'][j])} "
            f"villain {c.SUPERVILLAINS[int(s['villain'][j])].name} "
            f"(weeks {'/'.join(str(int(x)) for x in VILLAIN_WEEKS[int(s['villain'][j])])})"
            f" attraction {'/'.join(str(int(x)) for x in s['attraction'][j])} "
            f"schemes {int(s['scheme_count'][j])}{left}"
        )
        lines.append(f"    base: {_kinds(s['base'][j], room_names)}")
        crew = [
            _henchman(s, h)
            for h in range(N_HENCHMEN)
            if s["owner"][h] == j and s["where"][h] == OWNED
        ]
        lines.append(f"    henchmen: {'; '.join(crew) or '-'}")
        if seat is None or seat == j:
            if phase == 0:
                lines.append(f"    hand: {_kinds(s['hand'][j], room_names)}")
            lines.append(f"    schemes: {_kinds(s['schemes'][j], scheme_names)}")
    if s["terminated"]:
        rewards = [float(x) for x in s["rewards"][:n]]
        lines.append(f"  over: player_{int(s['winner'])} wins; rewards {rewards}")
    return "\n".join(lines)


RULES_REMINDER = """MANIACAL: 2-5 supervillains; after 3 rounds the most Infamy wins.
Each round:
- Base building: a hidden draft of Secret Base Rooms. Three times every player picks a room
  from their hand and builds it (pay its cost: it joins the base and adds Attraction) or sells
  it (take its cost); the picks are revealed together and hands pass on.
- Henchmen: the highest Attraction of each type recruits the face-up henchman (no decisions).
- Contracts: the player with the least time spent acts: activate an Action room, attempt a
  contract (its team rolls trait dice; opponents may play a negative Scheme first), visit a
  Special Location, play a Scheme, or pass. Successes at least the target win Infamy and money.
- Clean-up: pay henchmen, or fire them.
`card NAME` gives a card's text: rooms, Schemes, henchmen, Mercenaries, Lackeys, Powers,
Supervillains, contracts."""


# What a seat does, in its own words (first) and as the table tells it (second).
_PASS_WORDS = {
    R.TURN: ("pass: spend all remaining weeks", "passes, ending its contract phase"),
    R.NEGATIVE_SCHEME: ("play no Scheme", "plays no Scheme"),
    R.BEFORE: ("roll the dice", "rolls the dice"),
    R.AFTER: ("accept the roll", "accepts the roll"),
    R.HEAL: ("done healing", "is done healing"),
    R.AFTER_ACTION: ("done", "is done"),
    R.FIRE: ("fire no one", "fires no one"),
}
_HENCHMAN_WORDS = {
    R.WORKER: ("put {} to work", "puts {} to work"),
    R.TEAM: ("send {} on the team", "sends {} on the team"),
    R.HEAL: ("heal {} ($2 a token)", "heals {}"),
    R.UNPAID: ("let {} go unpaid", "lets {} go unpaid"),
    R.FIRE: ("fire {}", "fires {}"),
}


def _words(s: np.void, seat: int, action: int, third: bool) -> str:
    decision = int(s["decision"])
    rooms = c.ROOMS
    if action < A.SELL:
        room = rooms[action - A.BUILD]
        return ("picks a room face down" if third
                else f"build {room.name} (${room.cost})")
    if action < A.ROOM:
        room = rooms[action - A.SELL]
        return "picks a room face down" if third else f"sell {room.name} (+${room.cost})"
    if action < A.CONTRACT:
        name = rooms[action - A.ROOM].name
        return f"activates {name}" if third else f"activate {name}"
    if action < A.VISIT:
        k = action - A.CONTRACT
        weeks = int(VILLAIN_WEEKS[int(s["villain"][seat]), k])
        return (f"attempts the contract in {c.CONTINENT_NAMES[k]}" if third else
                f"attempt the contract in {c.CONTINENT_NAMES[k]} ({weeks} weeks)")
    if action < A.SCHEME:
        where = LOCATION_NAMES[action - A.VISIT]
        return f"visits {where}" if third else f"visit {where} (2 weeks)"
    if action < A.SUPERVILLAIN:
        name = c.SCHEMES[action - A.SCHEME].name
        if decision == R.NEGATIVE_SCHEME:
            return (f"plays the Scheme {name} against the attempt" if third
                    else f"play the Scheme {name} against the attempt")
        return f"plays the Scheme {name} for itself" if third else f"play the Scheme {name}"
    if action == A.SUPERVILLAIN:
        return ("puts its Supervillain to work" if third
                else f"put your Supervillain {c.SUPERVILLAINS[int(s['villain'][seat])].name} "
                "to work")
    if action < A.TRAIT:
        name = f"{henchman_name(action - A.HENCHMAN)}"
        pair = _HENCHMAN_WORDS.get(decision, (
            f"choose {{}} ({SUBJECT_NAMES[int(s['subject'])]})", "chooses {}"))
        return pair[third].format(name)
    if action < A.REROLL:
        trait = c.TRAITS[action - A.TRAIT]
        return f"has the Lackey roll {trait}" if third else f"the Lackey rolls {trait}"
    if action == A.REROLL:
        return "uses the Lackey's re-roll" if third else "use the Lackey's re-roll"
    if action < A.PASS:
        k = action - A.COUNT
        return (f"re-rolls {k} one-success dice" if third
                else f"re-roll {k} one-success dice")
    return _PASS_WORDS.get(decision, ("pass", "passes"))[third]


def action_words(s: np.void, seat: int, action: int) -> str:
    """``action``, legal for ``seat`` on the table ``s``, in a player's words: rooms, Schemes,
    henchmen and continents by name, with the cost or time the choice takes."""
    return _words(s, seat, action, third=False)


def public_action(s: np.void, seat: int, action: int, viewer: int) -> str:
    """What ``viewer``, sitting at the table, sees of ``seat`` taking ``action`` on the table
    ``s`` (as it stood before): everything but a draft pick, which lies face down until every
    seat has picked (``public_events`` then tells every pick)."""
    if viewer == seat and action < A.ROOM:  # one's own pick, face down to the others
        return f"{action_words(s, seat, action)} (face down until every seat has picked)"
    return _words(s, seat, action, third=True)


def _scheme_text(x) -> str:
    negative = {
        c.TARGET_UP: f"the contract's Target +{x.neg_amount}",
        c.REMOVE_DICE: f"{x.neg_amount} fewer dice of the recommended trait",
        c.NO_REROLL: "no Lackey re-roll in this attempt",
        c.NO_CONTRACT_ROOMS: "no Contract room in this attempt",
        c.ON_FAIL_INJURE: "a failure injures one more henchman",
        c.ON_SUCCESS_MONEY_DOWN: f"success pays ${x.neg_amount} less",
    }[x.neg_effect]
    positive = {
        c.P_ADD_DICE: f"+{x.pos_amount} dice of the recommended trait",
        c.P_ADD_SUCCESSES: f"+{x.pos_amount} successes",
        c.P_REROLL: "a re-roll",
        c.P_GAIN_MONEY: f"gain ${x.pos_amount}",
        c.P_HEAL: f"remove {x.pos_amount} Injury tokens from one of your henchmen",
    }[x.pos_effect]
    return (f"Scheme, {x.copies} copies. Against an opponent's attempt: {negative}. For "
            f"yourself ({c.WINDOW_NAMES[x.pos_window]}): {positive}.")


def _traits(values) -> str:
    return ", ".join(f"{c.TRAITS[t]} {v}" for t, v in enumerate(values) if v) or "none"


def _texts() -> dict[str, str]:
    texts = {}
    for room in c.ROOMS:
        attraction = "/".join(str(a) for a in room.attraction)
        texts[room.name] = (
            f"{c.CATEGORY_NAMES[room.category]} room, ${room.cost}, attraction "
            f"{attraction} (Beasts/Criminals/Scientists/Mystics). {room.text}".rstrip())
    for scheme in c.SCHEMES:
        texts[scheme.name] = _scheme_text(scheme)
    for h in c.HENCHMEN:
        texts[h.name] = (f"{c.TYPES[h.kind]} henchman, cost {h.cost} attraction: "
                         f"{_traits(h.traits)}.")
    for m in c.MERCENARIES:
        texts[m.name] = f"Mercenary, hired for one round: {_traits(m.traits)}."
    for lackey in c.LACKEYS:
        texts[lackey.name] = f"Lackey: {_traits(lackey.traits)}; rolls one trait, may re-roll."
    for power in c.POWERS:
        texts[power.name] = f"Power, on a henchman: {_traits(power.bonus)}."
    for v in c.SUPERVILLAINS:
        weeks = ", ".join(f"{c.CONTINENT_NAMES[k]} {w}" for k, w in enumerate(v.weeks_to))
        texts[v.name] = (f"Supervillain, base in {c.CONTINENT_NAMES[v.base]}; weeks to each "
                         f"continent: {weeks}.")
    for k in c.CONTRACTS:
        texts[k.name] = (
            f"{c.DIFFICULTIES[k.difficulty]} contract, team {k.team}, recommended "
            f"{c.TRAITS[k.trait]}, target {k.target}; success: {k.win_infamy} Infamy, "
            f"${k.win_money}; failure: {k.fail_infamy} Infamy, ${k.fail_money}.")
    return texts


_TEXTS = _texts()


def card_text(name: str) -> str:
    """``NAME: text`` of any card by its name (any case; a unique part of a name will do), from
    `cards.py`. Every card's print is public; which contract lies on the map is not, and this
    says nothing about that."""
    return card_lookup(name, _TEXTS, "MANIACAL")


def public_events(before: np.void, after: np.void, viewer: int) -> list[str]:
    """What the whole table sees happen between two decisions, in words: a new round or
    phase, the draft picks once revealed together, henchmen recruited, lost or injured, a
    contract's front and its roll, and every change of money and Infamy. Only public facts are
    read (money and bases change only when the picks are revealed), so every seat hears the
    same."""
    n = int(after["num_players"])
    lines = []
    if before["decision"] == R.DRAFT and (after["pick"] != before["pick"]
                                           or after["phase"] != before["phase"]):
        lines.append("the picks are revealed: " + "; ".join(
            f"player_{j} {'builds' if after['revealed_build'][j] else 'sells'} "
            f"{c.ROOMS[int(after['revealed_kind'][j])].name}" for j in range(n)))
    for h in range(len(after["owner"])):
        was = int(before["owner"][h]) if before["where"][h] == OWNED else -1
        now = int(after["owner"][h]) if after["where"][h] == OWNED else -1
        if now != was and now >= 0:
            lines.append(f"player_{now} gets {henchman_name(h)}")
        elif now != was:
            lines.append(f"player_{was} loses {henchman_name(h)} "
                         f"({WHERE_NAMES[int(after['where'][h])]})")
        if now >= 0 and now == was and after["injuries"][h] > before["injuries"][h]:
            lines.append(f"player_{now}'s {henchman_name(h)} is injured")
    if after["flipped"] and not before["flipped"]:
        lines.append(f"the contract is {c.CONTRACTS[int(after['contract'])].name}, "
                     f"target {int(after['target'])}")
    if after["rolled"] and not before["rolled"]:
        f = after["faces"]
        lines.append(f"rolled: {int(f[0])} blanks, {int(f[1])} ones, {int(f[2])} twos")
    for j in range(n):
        changes = [f"{what} {int(before[key][j])} -> {int(after[key][j])}"
                   for key, what in (("infamy", "Infamy"), ("money", "money $"))
                   if after[key][j] != before[key][j]]
        if changes:
            lines.append(f"player_{j}: " + ", ".join(changes))
    phase = min(int(after["phase"]), 2)
    if not after["terminated"] and (after["round"] != before["round"]
                                    or phase != min(int(before["phase"]), 2)):
        lines.append(f"round {int(after['round'])}: {PHASE_NAMES[phase]} phase")
    return lines
