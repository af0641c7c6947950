"""A text picture of one game, as the whole table (``seat=None``) or as one seat sees it."""

import numpy as np

from . import actions as A
from . import rules as R
from ..core.seats import relative
from ..core.words import card_lookup
from .cards import (
    ABILITY_NAMES,
    ABOVE_DECK_ACTIONS,
    AGENDA_NAMES,
    AGENDAS,
    BELOW_DECK_CARDS,
    CARD_NAMES,
    CATEGORY_NAMES,
    CHARACTER_NAMES,
    CHARACTERS,
    SIDE_NAMES,
    WOUND_NAMES,
    WOUNDS,
)
from .spec import DECISION_NAMES
from .tables import CHARACTER_ABILITIES


def _cards_text(counts: np.ndarray) -> str:
    return " ".join(f"{CARD_NAMES[t]}x{counts[t]}" for t in range(len(counts)) if counts[t] > 0)


def render(s: np.void, seat: int | None = None) -> str:
    n = int(s["num_players"])
    lines = [
        f"round {int(s['round'])}/{int(s['max_rounds'])}  oxygen {int(s['oxygen'])}  "
        f"energy {int(s['energy'])}/20  mission leader: player_{int(s['mission_leader'])}  "
        f"deciding: player_{int(s['current_seat'])} ({DECISION_NAMES[int(s['decision'])]})"
    ]
    for j in range(n):
        known = seat is None or j == seat or s["revealed"][j]
        agenda = AGENDA_NAMES[int(s["agenda"][j])] if known else "?"
        ch = int(s["character"][j])
        character = CHARACTER_NAMES[ch] if ch >= 0 else "-"
        # a pick is public once its group has chosen (``picks_shown``, in turn order from the
        # mission leader), as the observation has it; before that only its picker sees it
        if ch >= 0 and seat is not None and j != seat and \
                relative(j, int(s["mission_leader"]), n) >= s["picks_shown"]:
            character = "?"
        wounds = [WOUND_NAMES[w] if w < len(WOUND_NAMES) else "blank" for w in
                  s["wound_list"][j, : int(s["wound_n"][j])]]
        tags = [t for t, on in (("dead", not s["alive"][j]), ("exiled", s["exiled"][j])) if on]
        hand = _cards_text(s["hand"][j]) if seat is None or j == seat else f"{int(s['hand_n'][j])} cards"
        lines.append(
            f"  player_{j}: {character:<18} {agenda:<14} "
            f"hand [{hand}] deck {int(s['deck_n'][j])} played {int(s['played_n'][j])} "
            f"wounds [{', '.join(wounds)}] {' '.join(tags)}"
        )
    revealed = _cards_text(s["revealed_cards"])
    if revealed:
        lines.append(f"  revealed this round: {revealed}")
    if s["terminated"]:
        lines.append(f"  over: {'crew' if s['winner'] == 0 else 'menace'} wins")
    elif s["truncated"]:
        lines.append("  over: truncated, a draw")
    return "\n".join(lines)


def public_action(s: np.void, seat: int, action: int, viewer: int) -> str:
    """What ``viewer``, sitting at the table, sees of ``seat`` taking ``action`` on the table
    ``s`` (as it stood before). Public: draws, Above Deck Actions used and their targets, Brawl
    targets, Vetoes, cards revealed by Bloodwork, calls to vote, table talk, and where the top
    EmMA card goes. Face down: a card played or discarded, a character picked (shown when its
    group has chosen), a ballot (shown when the vote is counted), an agenda's target. A card
    given by Relay is seen by the giver and the receiver only; a seat sees its own face-down
    choices (``viewer == seat``) in full."""
    n = int(s["num_players"])
    decision = int(s["decision"])

    def name(relative_seat: int) -> str:
        return f"player_{(seat + relative_seat) % n}"

    if action == A.DRAW:
        return "draws a card"
    if viewer == seat and (action < A.USE or decision in (R.VOTE, R.AGENDA_TARGET)
                           or A.PICK <= action < A.CLAIM):
        return f"{action_words(s, seat, action)} (seen by you alone)"
    if action < A.USE:
        return "plays a card face down"
    if action < A.CARD:
        ability = CHARACTER_ABILITIES[int(s["character"][seat]), action - A.USE]
        return f"uses {ABILITY_NAMES[ability]}"
    if action < A.SEAT:
        card = CARD_NAMES[action - A.CARD]
        if decision == R.BLOODWORK_REVEAL:
            return f"reveals {card}"
        if decision == R.TALK_ACCUSE_CARD:
            return f"names {card}"
        if viewer == seat and decision in (R.PAY_DISCARD, R.TINKER_DISCARD, R.HAND_LIMIT):
            return f"discards {card} face down (seen by you alone)"
        if decision == R.RELAY_GIFT:
            if viewer == seat or viewer == int(s["ab_target"]):  # giver and receiver
                return f"gives {card}"
            return "gives a card face down"
        return "discards a card face down"
    if decision == R.VOTE and action <= A.PASS:
        return "casts a ballot face down"
    if decision == R.AGENDA_TARGET:
        return "makes its agenda's choice face down"
    if action < A.PASS:
        target = name(action - A.SEAT)
        if decision == R.BRAWL_TARGET:
            return f"brawls {target}"
        if decision == R.TALK_ACCUSE_SEAT:
            return f"accuses {target}"
        return f"targets {target}"
    if action == A.PASS or action == A.YES:
        yes = action == A.YES
        if decision == R.CALL_VOTE:
            return "calls a vote" if yes else "does not call a vote"
        if decision == R.VETO_CHOICE:
            return "vetoes the card" if yes else "lets the card through"
        if decision == R.CALIBRATE_CHOICE:
            return "puts the top EmMA card on the bottom" if yes else "leaves the top EmMA card"
        if decision == R.TALK_ACCUSE_SEAT:
            return "accuses no one"
        return "passes"
    if action < A.CLAIM:
        return "picks a character face down"
    return f"claims {CATEGORY_NAMES[action - A.CLAIM]}"


RULES_REMINDER = """The Menace Among Us: a hidden Crew and a hidden Menace share a ship.
- Each round, from the Mission Leader, each player plays a Below Deck card face down, draws,
  or uses one of their character's two Above Deck Actions (once a round each).
- The played cards and EmMA's are shuffled and revealed: they move Oxygen and Energy.
- Then anyone may call a vote; ballots are secret until counted, and a player with strictly
  more votes than anyone else and than the abstentions is exiled, their agenda revealed.
- The Crew wins when Energy reaches 100% (20) without Oxygen reaching 0, or with Energy at the
  Safety Threshold (70%, 14) and no Menace alive; the Menace when Oxygen reaches 0 or every
  crewmember is dead. A Coward starts with the Crew and sides with whoever is ahead.
`card NAME` gives any card's text: Below Deck cards, Above Deck Actions, characters,
agendas, wounds."""


def _seat_words(seat: int, target: int) -> str:
    return f"player_{target}" + (" (you)" if target == seat else "")


def action_words(s: np.void, seat: int, action: int) -> str:
    """``action``, legal for ``seat`` on the table ``s``, in a player's words: absolute seats
    (``player_3``, as the table shows them), cards and abilities by name. The action table
    itself stays seat-relative (``seat +1``), as observations are."""
    n = int(s["num_players"])
    decision = int(s["decision"])
    if action == A.DRAW:
        return "draw a card"
    if action < A.USE:
        return f"play {CARD_NAMES[action - A.PLAY]} face down"
    if action < A.CARD:
        ability = CHARACTER_ABILITIES[int(s["character"][seat]), action - A.USE]
        return f"use {ABILITY_NAMES[ability]}"
    if action < A.SEAT:
        card = CARD_NAMES[action - A.CARD]
        verb = {R.BLOODWORK_REVEAL: "reveal", R.RELAY_GIFT: "give",
                R.TALK_ACCUSE_CARD: "say they played"}.get(decision, "discard")
        return f"{verb} {card}"
    if action < A.PASS:
        target = _seat_words(seat, (seat + action - A.SEAT) % n)
        if decision == R.VOTE:
            return f"vote to exile {target}"
        if decision == R.BRAWL_TARGET:
            return f"brawl: wound {target}"
        if decision == R.TALK_ACCUSE_SEAT:
            return f"accuse {target}"
        if decision == R.AGENDA_TARGET:
            return f"agenda ability on {target}"
        if decision == R.ABILITY_TARGET_CHOICE and s["ab_id"] >= 0:
            return f"{ABILITY_NAMES[int(s['ab_id'])]} on {target}"
        return f"choose {target}"
    if action == A.PASS or action == A.YES:
        words = {
            R.VOTE: ("abstain", "abstain"),
            R.CALL_VOTE: ("do not call a vote", "call a vote"),
            R.VETO_CHOICE: ("let the card through", "veto the card"),
            R.CALIBRATE_CHOICE: ("leave the top EmMA card on top",
                                 "put the top EmMA card on the bottom"),
            R.TALK_ACCUSE_SEAT: ("accuse no one", "accuse no one"),
        }.get(decision, ("pass", "yes"))
        return words[action == A.YES]
    if action < A.CLAIM:
        character = CHARACTERS[action - A.PICK]
        abilities = " and ".join(ABILITY_NAMES[a] for a in character.abilities)
        return f"pick {character.name}, {character.title} ({abilities})"
    return f"claim my card was {CATEGORY_NAMES[action - A.CLAIM]}"


def _texts() -> dict[str, str]:
    texts = {}
    for card in BELOW_DECK_CARDS:
        texts[card.name] = (f"Below Deck Action, {CATEGORY_NAMES[card.category]}, "
                            f"{card.copies} in the box. {card.effect}")
    for ability in ABOVE_DECK_ACTIONS:
        costs = [f"{amount} {what}" for amount, what in (
            (ability.oxygen_cost, "Oxygen"), (ability.energy_cost, "Energy"),
            (ability.discard_cost, "discard"), (ability.wound_cost, "Wound")) if amount]
        who = [c.name for c in CHARACTERS if ABILITY_NAMES.index(ability.name) in c.abilities]
        texts[ability.name] = (f"Above Deck Action of {', '.join(who)}; cost "
                               f"{', '.join(costs) or 'none'}. {ability.effect}")
    for character in CHARACTERS:
        abilities = " and ".join(ABILITY_NAMES[a] for a in character.abilities)
        texts[character.name] = f"character, {character.title}: {abilities}."
    for agenda in AGENDAS:
        texts[agenda.name] = (
            f"agenda, {SIDE_NAMES[agenda.side]}. Goal: {agenda.primary_goal} Individual goal: "
            f"{agenda.individual_goal} Ability: {agenda.ability} Exiled: "
            f"{agenda.exiled_effect} Killed: {agenda.killed_effect}")
    for wound in WOUNDS:
        texts[wound.name] = f"wound. {wound.effect}"
    return texts


_TEXTS = _texts()


def card_text(name: str) -> str:
    """``NAME: text`` of any card by its name (any case; a unique part of a name will do):
    Below Deck cards, Above Deck Actions, characters, agendas and wounds, from `cards.py`."""
    return card_lookup(name, _TEXTS, "The Menace Among Us")


def public_events(before: np.void, after: np.void, viewer: int) -> list[str]:
    """What the whole table sees happen between two decisions (the rules run on by themselves
    after an action), in words: the count of a vote with every ballot, an exile and the agenda
    it reveals, deaths, wounds dealt, cards revealed in the Resolution Phase, the tracks, a
    new round. Only public facts are read, so every seat (``viewer``) hears the same."""
    n = int(after["num_players"])
    lines = []
    revealed = after["revealed_cards"].astype(int) - before["revealed_cards"].astype(int)
    if after["round"] == before["round"] and (revealed > 0).any():
        lines.append("revealed: " + ", ".join(
            f"{CARD_NAMES[t]}" + (f" x{k}" if k > 1 else "")
            for t, k in enumerate(revealed) if k > 0))
    if after["ballots_public"] and not before["ballots_public"]:
        ballots = []
        for j in range(n):
            b = int(after["ballot"][j])
            if b >= 0:
                ballots.append(f"player_{j} for player_{b}")
            elif b == R.ABSTAINED:
                ballots.append(f"player_{j} abstains")
        lines.append("the vote is counted: " + ("; ".join(ballots) or "no ballots"))
        exiled = [j for j in range(n) if after["exiled"][j] and not before["exiled"][j]]
        if not exiled:
            lines.append("no one is exiled (a tie, or not more votes than abstentions)")
    for j in range(n):
        agenda = f"{AGENDA_NAMES[int(after['agenda'][j])]}"
        if after["exiled"][j] and not before["exiled"][j]:
            lines.append(f"player_{j} is exiled and reveals their agenda: {agenda}")
        for w in after["wound_list"][j, int(before["wound_n"][j]): int(after["wound_n"][j])]:
            lines.append(f"player_{j} takes a wound: "
                         f"{WOUND_NAMES[w] if w < len(WOUND_NAMES) else 'blank'}")
        if not after["alive"][j] and before["alive"][j]:
            shown = f"; their agenda: {agenda}" if after["revealed"][j] else ""
            lines.append(f"player_{j} is killed{shown}")
    for track in ("oxygen", "energy"):
        if after[track] != before[track]:
            lines.append(f"{track.capitalize()} {int(before[track])} -> {int(after[track])}")
    if after["round"] != before["round"]:
        lines.append(f"round {int(after['round'])} begins; mission leader "
                     f"player_{int(after['mission_leader'])}")
    return lines
