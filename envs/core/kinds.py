"""The kind of each pending decision, read from the one-hot piece of the observation that names
it (every seat observes what it is being asked): what a search by decision kind
(``hiddendeck exploit-search``) routes on. Each game says which piece that is and names its
kinds in its own ``kinds`` module (``PIECE``, ``NAMES``), taken from the game's own tables."""

from __future__ import annotations

import importlib
import re

import numpy as np

from .spec import GameSpec


def slug(name: str) -> str:
    """A kind's name as a command line takes it: ``brawl: choose whom to wound`` ->
    ``brawl-choose-whom-to-wound``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


class DecisionKinds:
    """One game's decision kinds at one table: ``of(observation [N, D]) -> [N]`` kind index."""

    def __init__(self, spec: GameSpec, params: dict):
        table = importlib.import_module(f"envs.{spec.name}.kinds")
        layout = spec.observation_layout(spec.resolve(**params))
        k = layout.index(table.PIECE)
        self.start, self.stop = int(layout.offsets[k]), int(layout.offsets[k + 1])
        if self.stop - self.start != len(table.NAMES):
            raise ValueError(f"{spec.name}: piece {table.PIECE!r} has {self.stop - self.start} "
                             f"columns for {len(table.NAMES)} kinds")
        self.names = tuple(table.NAMES)
        self.slugs = tuple(slug(n) for n in self.names)

    def of(self, observation: np.ndarray) -> np.ndarray:  # [N, D] -> [N] int64
        return np.argmax(observation[:, self.start:self.stop], axis=1)

    def lookup(self, text: str) -> int:
        """A kind by its slug or a prefix that names only it; anything else is refused on one
        line that lists the kinds."""
        if text in self.slugs:
            return self.slugs.index(text)
        found = [k for k, s in enumerate(self.slugs) if s.startswith(text)]
        if len(found) == 1 and text:
            return found[0]
        why = "names several kinds" if found else "is not a decision kind"
        raise ValueError(f"{text!r} {why} here; the kinds are {', '.join(self.slugs)}")
