"""The part every text player shares: one prompt per decision, the reply read back, bounded
re-asks, a stated fallback, and (where asked) every prompt and reply kept in a transcript."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from envs.core.spec import GameSpec

from ..policy import Policy
from .protocol import Words, prompt, read_reply, reask

SYSTEM = ("You are playing a board game as one of its players. Each message shows what you "
          "know and your legal actions, numbered. Answer with the number of the action you "
          "take, for example 'Action: 2'.")
FALLBACKS = ("first", "random")


class TextPolicy(Policy):
    """Decides each row by a conversation: the prompt, then up to ``reasks`` corrections after
    an unreadable or illegal reply; after that the ``fallback`` (``first`` legal action or a
    ``random`` one) plays and the decision is counted as fallen back (``counts``, and the
    transcript line's ``outcome``). Rows are decided one after another: a text player is
    sequential, whatever the batch."""

    remembers = True  # told (game slot, seat) of each row, for the transcript
    # what a text player says and reads back is written here and in the protocol: both are
    # part of its identity in a results database (evaluation.entrants.code_digest)
    code_modules = ("agents.text.player", "agents.text.protocol")

    def __init__(self, spec: GameSpec, params: dict, seed: int = 0, reasks: int = 2,
                 fallback: str = "first", transcripts: str | Path | None = None):
        if fallback not in FALLBACKS:
            raise ValueError(f"fallback must be one of {FALLBACKS}, got {fallback!r}")
        if isinstance(reasks, bool) or not isinstance(reasks, int) or reasks < 0:
            raise ValueError(f"reasks must be a non-negative integer, got {reasks!r}")
        self.words = Words(spec, params)
        self.reasks = reasks
        self.fallback = fallback
        self.seed = seed
        self._rng = np.random.default_rng(seed)
        self.transcripts = Path(transcripts) if transcripts is not None else None
        self._file = None
        self._game_in_slot: dict[int, int] = {}
        self.counts = {"decisions": 0, "reasked": 0, "fallbacks": 0}

    def answer(self, messages: list[dict]) -> str:
        """The reply to a conversation (``[{"role", "content"}]``, the last one the user's)."""
        raise NotImplementedError

    def describe(self) -> dict:
        """Who answers, for the transcript."""
        return {"player": type(self).__name__}

    def act(self, observation: np.ndarray, action_mask: np.ndarray,
            who: np.ndarray | None = None) -> np.ndarray:
        out = np.empty(observation.shape[0], np.int64)
        for r in range(observation.shape[0]):
            out[r] = self._decide(observation[r], action_mask[r],
                                  None if who is None else who[r])
        return out

    def _decide(self, observation: np.ndarray, mask: np.ndarray, who) -> int:
        text, legal = prompt(self.words, observation, mask)
        names = [self.words.spec.action_names[a] for a in legal]
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": text}]
        number = None
        for attempt in range(self.reasks + 1):
            reply = self.answer(messages)
            messages.append({"role": "assistant", "content": reply})
            number, why = read_reply(reply, names)
            if number is not None:
                break
            if attempt < self.reasks:
                messages.append({"role": "user", "content": reask(why, len(names))})
        self.counts["decisions"] += 1
        if number is None:
            outcome = "fallback"
            self.counts["fallbacks"] += 1
            number = 1 if self.fallback == "first" else int(self._rng.integers(len(legal))) + 1
        else:
            outcome = "reasked" if len(messages) > 3 else "answered"
            self.counts["reasked"] += outcome == "reasked"
        action = int(legal[number - 1])
        if self.transcripts is not None:
            self._keep(messages, who, action, number, outcome)
        return action

    def _keep(self, messages, who, action: int, number: int, outcome: str) -> None:
        if self._file is None:
            self.transcripts.mkdir(parents=True, exist_ok=True)
            path = self.transcripts / f"{self.words.spec.name}-{os.getpid()}.jsonl"
            self._file = open(path, "a", encoding="utf-8")
        slot = -1 if who is None else int(who[0])
        line = {
            **self.describe(), "label": self.name, "game": self.words.spec.name,
            "version": self.words.spec.version, "params": self.words.params,
            "batch_seed": self.seed, "slot": slot,
            "game_in_slot": self._game_in_slot.get(slot, 0),
            "seat": -1 if who is None else int(who[1]), "messages": messages,
            "action": action, "action_name": self.words.spec.action_names[action],
            "number": number, "outcome": outcome, "fallback": self.fallback,
        }
        self._file.write(json.dumps(line) + "\n")
        self._file.flush()

    def game_over(self, slots: np.ndarray) -> None:
        for slot in slots:
            self._game_in_slot[int(slot)] = self._game_in_slot.get(int(slot), 0) + 1
