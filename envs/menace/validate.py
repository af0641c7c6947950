"""Relations of a Menace record around the round's face-down pool, checked by ``set_records``
beside ``limits.check`` (see ``envs/core/limits.py``).

The pool holds the cards played this round, and EmMA's: every card a seat played is in it
(``hands.play_card`` pushes it there) from the Action stage until the pool is cleared at the
end of the Resolution, and it is empty otherwise. The rules never check the pool's room at a
push: its size, 32, is more than one round can put there. A record must therefore leave room
for every push still possible this round: a turn for each seat yet to take one, the Rush plays
and the delegated play pending, and what each unused Above Deck Action could add (Rush two,
Delegate and Emergency Protocol one). ``pool_n=31`` with nothing in the pool (audit N1) broke
both and sent a push past the pool's end into ``pool_seat``.
"""

import numpy as np

from . import cards as c
from .rules import ACTION, POOL, RESOLUTION
from .tables import CHARACTER_ABILITIES

# Cards an Above Deck Action can add to the pool once used (abilities.resolve_ability).
_POOL_CARDS = np.zeros(c.N_ABILITIES, np.int64)
_POOL_CARDS[c.RUSH], _POOL_CARDS[c.DELEGATE], _POOL_CARDS[c.EMERGENCY_PROTOCOL] = 2, 1, 1


def pushes_left(records: np.ndarray, params: dict) -> np.ndarray:  # [B]
    """The most cards the rest of this Action stage can still push onto the pool."""
    n = params["num_players"]
    character = records["character"][:, :n].astype(np.int64)
    abilities = CHARACTER_ABILITIES[np.maximum(character, 0)]  # [B, n, 2]
    unused = (records["used"][:, :n] == 0) & (character >= 0)[..., None]
    in_progress = np.where(records["ab_user"] >= 0, _POOL_CARDS[records["ab_id"]], 0)
    return ((n - records["turn_pos"].astype(np.int64)).clip(0)
            + records["rush_left"] + (records["delegated"] >= 0)
            + (_POOL_CARDS[abilities] * unused).sum((1, 2)) + in_progress)


def check(records: np.ndarray, params: dict):
    """The first ``(record, what is wrong)``, or None."""
    n = params["num_players"]
    stage = records["stage"]
    in_use = (stage == ACTION) | (stage == RESOLUTION)
    count = records["pool_n"].astype(np.int64)
    held = np.arange(POOL) < count[:, None]  # [B, POOL]
    # the pool's cards by seat and type, against what each seat played this round
    by_seat = np.zeros(records["played"][:, :n].shape, np.int64)  # [B, n, T]
    b, k = np.nonzero(held & (records["pool_seat"] >= 0))
    seat, card = records["pool_seat"][b, k].astype(np.int64), records["pool"][b, k]
    inside = seat < n
    np.add.at(by_seat, (b[inside], seat[inside], card[inside]), 1)
    checks = (
        (~in_use & (count > 0), "the pool holds cards outside the Action and Resolution stages"),
        (in_use[:, None] & (held & (records["pool_seat"] >= n)),
         "the pool holds a card of a seat not at the table"),
        (in_use[:, None, None] & (by_seat != records["played"][:, :n]),
         "the pool's cards differ from the cards played this round"),
        ((stage == ACTION) & (count + pushes_left(records, params) > POOL),
         f"the pool has no room for the cards this round can still add (it holds {POOL})"),
    )
    for bad, message in checks:
        bad = bad.reshape(len(records), -1).any(-1)
        if bad.any():
            return int(np.flatnonzero(bad)[0]), message
    return None
