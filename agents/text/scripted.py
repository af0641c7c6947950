"""A scripted player that sees nothing but the prompt: the proof that the words are enough.

It reads the view's lines back into the observation vector (``Words.read``) and the numbered
actions back into a legal-action mask (by their names in the game's public action table), asks
the game's heuristic — itself a function of the observation and mask only — for its action,
and replies with that action's number. When it plays as the batched heuristic does on the same
deals (``evaluation.text_check``), the prompt carried the whole observation."""

from __future__ import annotations

import numpy as np

from envs.core.spec import GameSpec

from .. import make_policy
from .player import TextPolicy
from .protocol import sections


class TextHeuristic(TextPolicy):
    """The game's heuristic, fed from the prompt's words."""

    name = "text-heuristic"

    def __init__(self, spec: GameSpec, params: dict, seed: int = 0):
        super().__init__(spec, params, seed)
        self.heuristic = make_policy("heuristic", spec, self.words.params, seed)
        self._action_id = {name: a for a, name in enumerate(spec.action_names)}

    def answer(self, messages: list[dict]) -> str:
        view, numbered = sections(messages[-1]["content"])
        observation = self.words.read(view)
        mask = np.zeros(len(self._action_id), np.bool_)
        number_of = {}
        for number, name in numbered:
            a = self._action_id[name]
            mask[a] = True
            number_of[a] = number
        action = int(self.heuristic.act(observation[None], mask[None])[0])
        return f"Action: {number_of[action]}"
