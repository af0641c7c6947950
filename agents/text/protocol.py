"""One decision as text, for a language model, and its reply read back as an action.

A prompt is written from what the ``Policy`` interface gives a player — the seat's observation
and legal-action mask — and nothing else, so it holds exactly the facts the engine guarantees
leak-free (the re-deal probes test the observation). It has four parts: the game's rules in
brief, the seat's view in words (``view_in_words``: every non-zero entry of every named
observation piece, labelled by the piece's own doc string, cards and decisions by name), the
public events so far (they are the observation's history pieces: this round's plays, ballots and
reveals, the past rounds' and the whole game's counts, all inside the view), and the legal
actions numbered from 1 by their readable names (``spec.action_names``).

``agents.text.scripted`` rebuilds the observation vector from the view's words alone and plays
the game's heuristic on it: equal play on paired deals (``evaluation.text_check``) shows the
words carry the whole observation.

``read_reply`` accepts the forms models answer in: ``3``, ``Action: 3``, ``I choose 3.``,
``{"action": 3}``, the action's name, or one number on the last line.
"""

from __future__ import annotations

import json
import re

import numpy as np

from envs.core.spec import GameSpec

RULES = {
    "menace": (
        "The Menace Among Us. Each player holds a secret agenda: most are Crew, a few are the "
        "Menace (some agendas are neutral, with goals of their own). The ship has two tracks: "
        "Oxygen (the Crew lose when it runs out) and Energy (the Crew win when it is full). "
        "Each round players pick characters, then take turns: draw a card, play a Below Deck "
        "card face down, or use their character's Above Deck Actions (costing Oxygen). At the "
        "end of the round the face-down cards are shuffled and revealed: repairs add Energy, "
        "sabotage (Airlock Breach, Reactor Leak, Explosion ...) hurts the ship or wounds "
        "players. Players may call a vote to exile a suspect. The Crew want the Menace found "
        "and the ship repaired; the Menace want the Oxygen gone without being caught."
    ),
    "amongus": (
        "Among Us, the card game. One player's character card is the impostor's; the rest are "
        "crewmates. Players hold task cards of the players' colours; on their turn they show a "
        "colour, offer a card to another player (who may accept or refuse the trade), vote "
        "once in the game against a suspect, or clear themselves. After a card is turned face "
        "up the impostor may sabotage in a short window by guessing a player's colour, and may "
        "kill. The crew win by finding the impostor (a correct vote) or finishing their tasks; "
        "the impostor wins by sabotage, kills or a wrong vote."
    ),
    "maniacal": (
        "MANIACAL. Every player is a supervillain, each for themself; the highest Infamy after "
        "three rounds wins. Each round starts with a hidden draft of room cards for the "
        "player's base (hands pass round the table), then henchmen are hired by Attraction. "
        "In the Contract Phase players spend weeks on a time track to attempt face-down "
        "contracts on the continents: they send a team of henchmen, roll trait dice against the "
        "contract's Target, and others may play Schemes against them; success brings Infamy "
        "and money, failure may get henchmen captured or injured. Clean-up pays henchmen."
    ),
}

VIEW_HEADER = "Your view"
ACTIONS_HEADER = "Legal actions"


def _labels(game: str) -> dict[str, tuple[str, ...]]:
    """Names for the last axis of a piece, where the game has a name table for it: a model
    reads ``hand = {Command: 0.25}`` where it could not read ``hand = {2: 0.25}``."""
    if game == "menace":
        from envs.menace.cards import AGENDA_NAMES, CARD_NAMES, CHARACTER_NAMES
        from envs.menace.spec import DECISION_NAMES

        cards = ("hand", "own_played", "revealed", "being_revealed", "bloodwork_card",
                 "surveilled_cards", "intercepted_card", "seen_emma_top", "seen_hand",
                 "accused_card", "past_revealed", "past_own_played", "past_accused_card",
                 "game_revealed", "game_own_played", "game_bloodwork", "game_surveilled",
                 "game_intercepted")
        table = {p: CARD_NAMES for p in cards}
        table.update({p: CHARACTER_NAMES for p in ("character_offer", "character")})
        table.update({p: AGENDA_NAMES for p in ("own_agenda", "agenda_revealed")})
        table["decision"] = DECISION_NAMES
        return table
    if game == "maniacal":
        from envs.maniacal.spec import DECISION_NAMES, PHASE_NAMES, SUBJECT_NAMES

        return {"decision": DECISION_NAMES, "phase": PHASE_NAMES, "subject": SUBJECT_NAMES}
    return {}


class Words:
    """How one game's observation is written and read back: per piece, its name, doc, shape
    and the labels of each axis (a name table for the last axis where one fits, else the
    index; seat axes are the observation's relative seats, 0 being the reader)."""

    def __init__(self, spec: GameSpec, params: dict):
        self.spec = spec
        self.params = spec.resolve(**params)
        self.layout = spec.observation_layout(self.params)
        self.offsets = self.layout.offsets
        self.size = int(self.offsets[-1])
        names = _labels(spec.name)
        self.axes: list[list[tuple[str, ...]]] = []
        for piece in self.layout.pieces:
            axes = [tuple(str(i) for i in range(k)) for k in piece.shape]
            table = names.get(piece.name)
            if axes and table is not None and len(table) == piece.shape[-1]:
                axes[-1] = tuple(table)
            self.axes.append(axes)
        # every entry's key, written once: ``3``, ``Command`` or ``1, Command``
        self._keys = [[", ".join(axes[a][k] for a, k in enumerate(at))
                       for at in np.ndindex(*piece.shape)] if len(piece.shape) else [""]
                      for piece, axes in zip(self.layout.pieces, self.axes)]
        self._index = {p.name: i for i, p in enumerate(self.layout.pieces)}
        self._flat = [{key: k for k, key in enumerate(keys)} for keys in self._keys]
        self._scalar = [p.size == 1 and len(p.shape) <= 1 for p in self.layout.pieces]
        self._values: dict[float, str] = {}

    def number(self, x: np.float32) -> str:
        """The shortest decimal that reads back as the same float32."""
        text = self._values.get(x)
        if text is None:
            text = np.format_float_positional(np.float32(x), unique=True, trim="-")
            self._values[x] = text
        return text

    def write(self, observation: np.ndarray) -> str:  # [D] float32
        """One line per piece with a non-zero entry: ``name = value`` for a single number,
        ``name = {key: value; ...}`` otherwise, then the piece's doc after ``#``."""
        nz = np.flatnonzero(observation)
        piece_of = np.searchsorted(self.offsets, nz, side="right") - 1
        lines = []
        entries: list[str] = []
        for n, (flat, i) in enumerate(zip(nz.tolist(), piece_of.tolist())):
            value = self.number(observation[flat])
            if self._scalar[i]:
                lines.append(f"{self.layout.pieces[i].name} = {value}{self._doc(i)}")
                continue
            entries.append(f"{self._keys[i][flat - self.offsets[i]]}: {value}")
            if n + 1 == len(nz) or piece_of[n + 1] != i:
                lines.append(f"{self.layout.pieces[i].name} = {{{'; '.join(entries)}}}"
                             f"{self._doc(i)}")
                entries = []
        return "\n".join(lines)

    def _doc(self, i: int) -> str:
        doc = self.layout.pieces[i].doc
        return f"   # {doc}" if doc else ""

    def read(self, text: str) -> np.ndarray:  # -> [D] float32
        """The observation back from ``write``'s lines (what the scripted text player does)."""
        out = np.zeros(self.size, np.float32)
        for line in text.splitlines():
            name, sep, rest = line.partition(" = ")
            i = self._index.get(name)
            if not sep or i is None:
                raise ValueError(f"not a line of the view: {line!r}")
            body = rest.split("   # ", 1)[0]
            if not body.startswith("{"):
                out[self.offsets[i]] = np.float32(body)
                continue
            for entry in body[1:-1].split("; "):
                key, _, value = entry.rpartition(": ")
                out[self.offsets[i] + self._flat[i][key]] = np.float32(value)
        return out


def view_in_words(words: Words, observation: np.ndarray) -> str:
    """The seat's view as a model reads it: the one place to change how a view is worded."""
    return words.write(observation)


def prompt(words: Words, observation: np.ndarray, mask: np.ndarray) -> tuple[str, np.ndarray]:
    """The prompt for one decision and its legal actions in the order numbered (``[K]``)."""
    spec, n = words.spec, words.params["num_players"]
    legal = np.flatnonzero(mask)
    numbered = "\n".join(f"{k}. {spec.action_names[a]}" for k, a in enumerate(legal, 1))
    text = (
        f"You are a player in a game of {spec.name} (version {spec.version}) with {n} players.\n"
        f"Rules in brief: {RULES[spec.name]}\n\n"
        "How to read your view: seats are counted from you: seat 0 is you, seat 1 the next "
        "player clockwise, and so on; actions name other players the same way (+1 = next "
        "clockwise). Each line is one piece of what you know, written as name = value or "
        "name = {key: value; ...}, with what it means after '#'; pieces and entries not "
        "listed are 0. The public events of the game so far are in the pieces named this "
        "round's, past_ (the last rounds, most recent first) and game_ (the whole game).\n\n"
        f"{VIEW_HEADER}:\n{view_in_words(words, observation)}\n\n"
        f"{ACTIONS_HEADER} (reply with the number of one of them, e.g. 'Action: 1'):\n"
        f"{numbered}\n"
    )
    return text, legal


def sections(text: str) -> tuple[str, list[tuple[int, str]]]:
    """A prompt's view lines and its numbered actions ``[(number, name)]``."""
    view = text.split(f"\n{VIEW_HEADER}:\n", 1)[1].split("\n\n", 1)[0]
    listed = text.split(f"\n{ACTIONS_HEADER} ", 1)[1].split("\n", 1)[1]
    actions = []
    for line in listed.splitlines():
        number, _, name = line.partition(". ")
        actions.append((int(number), name))
    return view, actions


_JSON = re.compile(r"\{[^{}]*\}")
_LABELLED = re.compile(r"\b(?:action|choice|answer|move)\b\s*(?:number|no\.?|#)?\s*[:=#]?\s*"
                       r"(\d+)", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])(\d+)(?![\w]|\.\d)")


def read_reply(reply: str, names: list[str]) -> tuple[int | None, str]:
    """The chosen number (1-based, in ``1..len(names)``) from a reply, or ``None`` and why it
    could not be read. ``names`` are the legal actions' names in the order numbered."""
    k = len(names)
    text = (reply or "").strip()
    if not text:
        return None, "the reply was empty"
    found = None
    for blob in _JSON.findall(text):
        try:
            value = json.loads(blob).get("action")
        except (ValueError, AttributeError):
            continue
        if isinstance(value, bool) or value is None:
            continue
        found = str(value)
    if found is None:
        labelled = _LABELLED.findall(text)
        if labelled:
            found = labelled[-1]
    if found is None:
        lowered = text.lower().strip(" .!'\"`*")
        exact = [i for i, name in enumerate(names, 1) if name.lower() == lowered]
        if exact:
            return exact[0], ""
        named = [i for i, name in enumerate(names, 1) if name.lower() in text.lower()]
        longest = max((len(names[i - 1]) for i in named), default=0)
        named = [i for i in named if len(names[i - 1]) == longest]
        if len(named) == 1:
            return named[0], ""
    if found is None:
        last = [line for line in text.splitlines() if line.strip()][-1]
        numbers = _NUMBER.findall(last)
        if len(set(numbers)) == 1:
            found = numbers[0]
    if found is None:
        return None, "no action number or action name could be read from the reply"
    lowered = found.strip().lower()
    if not lowered.isdigit():
        exact = [i for i, name in enumerate(names, 1) if name.lower() == lowered]
        if exact:
            return exact[0], ""
        return None, f"{found!r} is not the name of a legal action"
    number = int(lowered)
    if not 1 <= number <= k:
        return None, f"{number} is not one of the legal actions 1 to {k}"
    return number, ""


def reask(why: str, k: int) -> str:
    """The message sent back after a reply that could not be used."""
    return (f"I could not use that reply: {why}. Reply with the number of one legal action, "
            f"1 to {k}, for example 'Action: 1'.")
