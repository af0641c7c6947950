"""A person at the terminal, as a Policy: the same interface the trained and scripted players use."""

from __future__ import annotations

from typing import Callable, TextIO

import numpy as np

from .policy import Policy

COMMANDS = """commands:
  NUMBER or the words of a move   make that move
  help (or ?)                     these commands and the game's rules in short
  card NAME                       the text of a card, ability or agenda by its name
  table                           the table again, as your seat sees it"""


class HumanPolicy(Policy):
    """Shows the table as the person's seat sees it and reads a legal action by number or by
    name; between moves, ``help``, ``card NAME`` and ``table`` answer without acting.

    ``words(action)``, when given, is how the menu names a legal action to a person (absolute
    seats, cards by name: the game's ``render.action_words``); the action table's own names
    (``vote +1``) are still accepted as typed. ``rules`` is the game's short reminder for
    ``help``; ``card_text(NAME)`` the game's card text, raising ``ValueError`` for an
    unknown name."""

    name = "human"

    def __init__(
        self,
        action_names: tuple[str, ...],
        describe: Callable[[], str],
        read: Callable[[str], str] = input,
        out: TextIO | None = None,
        words: Callable[[int], str] | None = None,
        rules: str = "",
        card_text: Callable[[str], str] | None = None,
    ):
        self.action_names = action_names
        self.describe = describe
        self.read = read
        self.out = out
        self.words = words or (lambda a: action_names[a])
        self.rules = rules
        self.card_text = card_text

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        if action_mask.shape[0] != 1:
            raise ValueError("a person decides one game at a time")
        legal = [int(a) for a in np.flatnonzero(action_mask[0])]
        menu = [self.words(a) for a in legal]
        self._show(self.describe())
        for i, text in enumerate(menu):
            self._show(f"  [{i}] {text}")
        while True:
            answer = self.read("your move: ").strip()
            if answer.isdigit() and int(answer) < len(legal):
                return np.array([legal[int(answer)]])
            for names in (menu, [self.action_names[a] for a in legal]):
                if answer.lower() in (n.lower() for n in names):
                    return np.array([legal[[n.lower() for n in names].index(answer.lower())]])
            if not self._command(answer):
                self._show(f"  not a legal move: {answer!r}; give a number from 0 to "
                           f"{len(legal) - 1}, or type help")

    def _command(self, answer: str) -> bool:
        """Answers ``help``, ``card NAME`` or ``table``; False if ``answer`` is none of them."""
        word, _, rest = answer.partition(" ")
        if word.lower() in ("help", "?"):
            self._show("\n".join(filter(None, [COMMANDS, self.rules])))
        elif word.lower() == "card" and self.card_text is not None:
            try:
                self._show(self.card_text(rest.strip()))
            except ValueError as err:
                self._show(f"  {err}")
        elif word.lower() == "table":
            self._show(self.describe())
        else:
            return False
        return True

    def _show(self, text: str) -> None:
        print(text, file=self.out)
