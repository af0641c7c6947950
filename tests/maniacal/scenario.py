"""A compact scenario builder: a table set exactly as a test describes it, mid-game.

``table(n)`` deals a real game (so every field is consistent); the helpers then overwrite
henchmen, money, bases, Schemes, the map and the Time track, and ``act(s, "pass")`` applies
one action by its readable name, checking that it is legal. ``dice(s, ...)`` injects the next
faces to roll, so no outcome depends on the seed.
"""

import numpy as np

from envs.maniacal import cards as c
from envs.maniacal import rules
from envs.maniacal.actions import ACTION_NAMES, NUM_ACTIONS
from envs.maniacal.spec import SPEC
from envs.maniacal.tables import FIRST_LACKEY, FIRST_MERCENARY, N_HENCHMEN

ROOM = {r.name: k for k, r in enumerate(c.ROOMS)}
SCHEME = {x.name: k for k, x in enumerate(c.SCHEMES)}
POWER = {p.name: k for k, p in enumerate(c.POWERS)}
CONTINENT = {name: k for k, name in enumerate(c.CONTINENT_NAMES)}


def henchman(name: str) -> int:
    """A henchman's card id by name (recruits, Mercenaries, Lackeys)."""
    for i, h in enumerate(c.HENCHMEN):
        if h.name == name:
            return i
    for i, m in enumerate(c.MERCENARIES):
        if m.name == name:
            return FIRST_MERCENARY + i
    for i, lk in enumerate(c.LACKEYS):
        if lk.name == name:
            return FIRST_LACKEY + i
    raise KeyError(name)


def lackey_of(s, seat) -> int:
    return FIRST_LACKEY + c.SUPERVILLAINS[int(s["villain"][seat])].lackey


def table(n: int = 3, seed: int = 0, villains=None, **params) -> np.ndarray:
    """One dealt game at its first draft pick; ``villains``: the Supervillain of each seat."""
    values = SPEC.resolve(num_players=n, **params)
    states = np.zeros(1, rules.DTYPE)
    for name, value in values.items():
        states[name] = value
    states["rng_key"] = np.uint64(777 + seed)
    states["winner"] = -1
    s = states[0]
    rules.reset(s)
    if villains is not None:
        for seat, v in enumerate(villains):
            old = lackey_of(s, seat)
            s["owner"][old] = -1
            s["where"][old] = rules.FACE_DOWN
            s["villain"][seat] = v
        for seat in range(n):
            give(s, seat, lackey_of(s, seat))
    return states


def give(s, seat, h, injuries=0, exhausted=False, powers=()):
    s["owner"][h] = seat
    s["where"][h] = rules.OWNED
    s["injuries"][h] = injuries
    s["exhausted"][h] = exhausted
    for p in powers:
        attach_power(s, h, POWER[p] if isinstance(p, str) else p)


def attach_power(s, h, p):
    """Power ``p`` taken out of the Power deck and put on ``h``."""
    deck = [int(x) for x in s["power_deck"][: s["power_deck_n"]] if x != p]
    s["power_deck"][: len(deck)] = deck
    s["power_deck_n"] = len(deck)
    s["power_holder"][p] = h
    s["bonus"][h] += np.array(c.POWERS[p].bonus, np.int8)
    s["powers"][h] += 1


def strip_henchmen(s):
    """No one owns a henchman (Lackeys included)."""
    for h in range(N_HENCHMEN):
        if s["where"][h] == rules.OWNED:
            s["owner"][h] = -1
            s["where"][h] = rules.REMOVED


def set_schemes(s, seat, kinds=()):
    s["schemes"][seat, :] = 0
    for k in kinds:
        s["schemes"][seat, SCHEME[k] if isinstance(k, str) else k] += 1
    s["scheme_count"][seat] = len(kinds)


def scheme_on_top(s, kind):
    """The next Scheme drawn is ``kind``."""
    s["scheme_deck"][s["scheme_deck_n"] - 1] = SCHEME[kind] if isinstance(kind, str) else kind


def contract_phase(
    states, order=None, rnd=1, spent=None, map_=None, money=None, bases=None, schemes=None
):
    """The Contract Phase of round ``rnd`` about to ask its first decision. ``map_``:
    {continent name: contract id}, every other continent empty; ``spent``: {seat: weeks}, the
    tokens arriving in Player Order (the 1st player on top of any shared space)."""
    s = states[0]
    n = int(s["num_players"])
    s["round"] = rnd
    s["hand"][:, :] = 0
    order = list(range(n)) if order is None else list(order)
    s["order"][:n] = order
    if map_ is not None:
        s["map"][:] = -1
        for name, k in map_.items():
            s["map"][CONTINENT[name]] = k
    for seat, amount in (money or {}).items():
        s["money"][seat] = amount
    for seat, rooms in (bases or {}).items():
        s["base"][seat, :] = 0
        for r in rooms:
            s["base"][seat, ROOM[r]] += 1
    for seat in range(n):
        set_schemes(s, seat, (schemes or {}).get(seat, ()))
    s["phase"] = rules.CONTRACT_PHASE
    s["used"][:, :] = 0
    s["finished"][:] = False
    s["spent"][:] = 0
    for i, seat in enumerate(order):
        s["arrival"][seat] = n - i
    s["arrivals"] = n
    s["next_order"][:] = -1
    s["next_order_n"] = 0
    for seat, weeks in (spent or {}).items():
        s["spent"][seat] = weeks
    rules.next_turn(s)
    rules.settle(s)
    return states


def dice(s, *faces):
    """The next dice rolled show these faces (0, 1 or 2 successes), in order."""
    s["dice_queue"][: len(faces)] = faces
    s["dice_queue_n"] = len(faces)
    s["dice_queue_pos"] = 0


def legal(s) -> list[str]:
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    rules.legal_actions(s, mask)
    return [ACTION_NAMES[a] for a in np.flatnonzero(mask)]


def action(name: str) -> int:
    """An action by its readable name; a unique prefix will do ("henchman 48")."""
    if name in ACTION_NAMES:
        return ACTION_NAMES.index(name)
    hits = [i for i, a in enumerate(ACTION_NAMES) if a.startswith(name)]
    if len(hits) != 1:
        raise KeyError(f"{name!r} names {len(hits)} actions")
    return hits[0]


def act(s, name: str):
    a = action(name)
    options = legal(s)
    assert ACTION_NAMES[a] in options, f"{ACTION_NAMES[a]!r} is not legal; legal: {options}"
    rules.step(s, a)


def decision(s) -> str:
    from envs.maniacal.spec import DECISION_NAMES

    return DECISION_NAMES[int(s["decision"])]


def kept_to_hide_cards(records: np.ndarray) -> np.ndarray:
    """Slots whose pending decision P-44 asks even with one legal action, because whether it
    has one depends on hidden cards: a draft, a Scheme window, or the turn or a roll window of
    a seat holding Schemes (version 2)."""
    d = records["decision"]
    holds = records["scheme_count"][np.arange(len(records)), records["current_seat"]] > 0
    return (np.isin(d, (rules.DRAFT, rules.AFTER_ACTION, rules.NEGATIVE_SCHEME))
            | (np.isin(d, (rules.TURN, rules.BEFORE, rules.AFTER)) & holds))
