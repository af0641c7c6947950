"""A person at the terminal, as a Policy: the same interface the trained and scripted players use."""

from __future__ import annotations

from typing import Callable, TextIO

import numpy as np

from .policy import Policy


class HumanPolicy(Policy):
    """Shows the table as the person's seat sees it and reads a legal action by number or name."""

    name = "human"

    def __init__(
        self,
        action_names: tuple[str, ...],
        describe: Callable[[], str],
        read: Callable[[str], str] = input,
        out: TextIO | None = None,
    ):
        self.action_names = action_names
        self.describe = describe
        self.read = read
        self.out = out

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        if action_mask.shape[0] != 1:
            raise ValueError("a person decides one game at a time")
        legal = np.flatnonzero(action_mask[0])
        print(self.describe(), file=self.out)
        for i, a in enumerate(legal):
            print(f"  [{i}] {self.action_names[a]}", file=self.out)
        while True:
            answer = self.read("your move: ").strip()
            if answer.isdigit() and int(answer) < len(legal):
                return np.array([legal[int(answer)]])
            if answer in self.action_names and self.action_names.index(answer) in legal:
                return np.array([self.action_names.index(answer)])
            print(f"  not a legal move: {answer!r}; give a number from 0 to {len(legal) - 1}", file=self.out)
