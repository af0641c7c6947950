"""The card tables of `cards.py` as numpy arrays, the form the compiled rules read."""

import numpy as np

from . import cards as c


def _expand(card_list, size: int) -> np.ndarray:
    """A {card type: copies} list as `size` card types in a row."""
    row = [card for card, copies in card_list.items() for _ in range(copies)]
    assert len(row) == size
    return np.array(row, np.int8)


CARD_OXYGEN = np.array([card.oxygen for card in c.BELOW_DECK_CARDS], np.int64)
CARD_ENERGY = np.array([card.energy for card in c.BELOW_DECK_CARDS], np.int64)
CARD_REPLICABLE = np.array([card.replicable for card in c.BELOW_DECK_CARDS], np.bool_)
CARD_CATEGORY = np.array([card.category for card in c.BELOW_DECK_CARDS], np.int64)

AGENDA_SIDE = np.array([a.side for a in c.AGENDAS], np.int64)
AGENDA_GOAL = np.array([a.goal for a in c.AGENDAS], np.int64)
AGENDA_EXILED_OXYGEN = np.array([a.exiled_oxygen for a in c.AGENDAS], np.int64)
AGENDA_KILLED_OXYGEN = np.array([a.killed_oxygen for a in c.AGENDAS], np.int64)
AGENDA_DECK = np.stack([_expand(a.cards, c.AGENDA_CARDS) for a in c.AGENDAS])  # [10, 13]
CREW_AGENDAS = np.array(c.CREW_AGENDAS, np.int64)

CHARACTER_ABILITIES = np.array([ch.abilities for ch in c.CHARACTERS], np.int64)  # [16, 2]
CHARACTER_DECK = np.stack([_expand(ch.cards, c.CHARACTER_CARDS) for ch in c.CHARACTERS])

ABILITY_OXYGEN = np.array([a.oxygen_cost for a in c.ABOVE_DECK_ACTIONS], np.int64)
ABILITY_ENERGY = np.array([a.energy_cost for a in c.ABOVE_DECK_ACTIONS], np.int64)
ABILITY_DISCARDS = np.array([a.discard_cost for a in c.ABOVE_DECK_ACTIONS], np.int64)
ABILITY_WOUNDS = np.array([a.wound_cost for a in c.ABOVE_DECK_ACTIONS], np.int64)
ABILITY_TARGET = np.array([a.target for a in c.ABOVE_DECK_ACTIONS], np.int64)

EMMA_CARDS = _expand(c.EMMA_DECK, c.EMMA_DECK_SIZE)
