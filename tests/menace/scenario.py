"""A compact scenario builder: a table set exactly as a test describes it, mid-game.

`table(...)` deals a real game (so every field is consistent), then overwrites agendas,
characters, hands, decks, wounds and tracks, and walks to the first decision of the round.
`act(s, "play Basic Repair")` applies one action by its readable name, checking it is legal.
"""

import numpy as np

from envs.menace import cards as c
from envs.menace import rules
from envs.menace.actions import ACTION_NAMES
from envs.menace.spec import SPEC

DEFAULT_AGENDAS = (c.THE_CONTAGION, c.THE_VENGEANT, c.THE_RESOLUTE, c.THE_WITNESS)
DEFAULT_CHARACTERS = (4, 5, 6, 7)  # Oda, Sela, Ines, Hal: abilities that never interrupt


def table(
    agendas=DEFAULT_AGENDAS,
    characters=DEFAULT_CHARACTERS,
    hands=None,
    decks=None,
    wounds=None,
    oxygen=None,
    energy=0,
    mission_leader=0,
    emma=None,
    seed=0,
    **params,
):
    """One record, its Action Phase about to start; `hands`/`decks`: {seat: [card, ...]}.

    A seat whose deck is not given holds five Raise Morale, so that no one dies of an empty
    deck unless the test says so."""
    n = len(agendas)
    values = SPEC.resolve(num_players=n, random_characters=1, **params)
    states = np.zeros(1, rules.DTYPE)
    for name, value in values.items():
        states[name] = value
    states["rng_key"] = np.uint64(12345 + seed)
    s = states[0]
    rules.reset(s)
    for seat in range(n):
        s["agenda"][seat] = agendas[seat]
        s["character"][seat] = characters[seat]
        s["hand"][seat, :] = 0
        s["hand_n"][seat] = 0
        s["deck_n"][seat] = 0
        for card in (hands or {}).get(seat, ()):
            s["hand"][seat, card] += 1
            s["hand_n"][seat] += 1
        for i, card in enumerate((decks or {}).get(seat, [c.RAISE_MORALE] * 5)):
            s["deck"][seat, i] = card
            s["deck_n"][seat] = i + 1
        for kind in (wounds or {}).get(seat, ()):
            give_wound(s, seat, kind)
    if emma is not None:
        s["emma"][: len(emma)] = emma
        s["emma_n"] = len(emma)
        s["emma_discard_n"] = 0
    s["oxygen"] = n if oxygen is None else oxygen
    s["energy"] = energy
    s["mission_leader"] = mission_leader
    s["round"] = 0
    rules.start_round(s)
    rules.advance(s)
    return states


def picking(num_players, seed=0, **params):
    """One record at setup, its seats about to pick their characters (decisions, in turn
    order from seat 0)."""
    values = SPEC.resolve(num_players=num_players, **params)
    states = np.zeros(1, rules.DTYPE)
    for name, value in values.items():
        states[name] = value
    states["rng_key"] = np.uint64(12345 + seed)
    rules.reset(states[0])
    return states


def give_wound(s, seat, kind):
    """A specific wound card, taken out of the wound deck, without its on-receipt effect."""
    deck = list(s["wound_deck"][: s["wound_deck_n"]])
    deck.remove(kind)
    s["wound_deck"][: len(deck)] = deck
    s["wound_deck_n"] = len(deck)
    s["wound_list"][seat, s["wound_n"][seat]] = kind
    s["wound_n"][seat] += 1
    s["wound_held"][seat, kind] += 1


def next_wound(s, kind):
    """Put wound `kind` on top of the wound deck, so the next Wound dealt is that one."""
    deck = list(s["wound_deck"][: s["wound_deck_n"]])
    deck.remove(kind)
    deck.append(kind)
    s["wound_deck"][: len(deck)] = deck


def legal(s):
    mask = np.zeros(len(ACTION_NAMES), np.bool_)
    rules.legal_actions(s, mask)
    return [ACTION_NAMES[a] for a in np.flatnonzero(mask)]


def act(s, *names):
    """Apply actions by name, each checked against the legal set first."""
    for name in names:
        allowed = legal(s)
        assert name in allowed, f"{name!r} is not legal; legal: {allowed}"
        rules.step(s, ACTION_NAMES.index(name))


def card(name):
    return c.CARD_NAMES.index(name)


def decision(s):
    return int(s["decision"]), int(s["current_seat"])
