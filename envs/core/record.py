"""The fields every game record shares, so that one engine can drive every game.

Pgx-style public names: the engine reads ``current_seat``, ``terminated``, ``truncated`` and
``rewards`` and never anything game-specific. Parameters live in the record too (a field per
``Param``), so a scalar rule function needs nothing but its record.
"""

import numpy as np

from .spec import GameSpec


def make_dtype(spec: GameSpec, game_fields: list) -> np.dtype:
    common = [
        ("rng_key", np.uint64),
        ("rng_counter", np.uint64),
        ("rewards", np.float32, (spec.max_players,)),
        ("current_seat", np.int64),
        ("decisions", np.int64),
        ("episode", np.int64),
        ("winner", np.int64),  # index into spec.teams once the game is won; -1 otherwise
        ("terminated", np.bool_),
        ("truncated", np.bool_),
    ]
    params = [(p.name, np.int64) for p in spec.params]
    return np.dtype(common + params + game_fields, align=True)
