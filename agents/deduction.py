"""Agent-side deduction: counts an agent makes from its own observation, fed to its network
beside the observation (issue 41).

The environment's observation holds what a seat saw and remembers, never conclusions drawn
under a model of the other players: inference is the agent's job. Some inferences are out of a
flat network's reach, though. The Among Us impostor's sabotage names every other seat's colour,
and the likeliest colour is a count over every way the unseen colours could have been dealt (a
matrix permanent): a 256-256 MLP fitted to the heuristic's guesses gets 0.572 of whole
sabotages right where the count gets 0.861 (``shared/audits/turn4/learning.md``). An agent may
count for itself, as DeepRole's deduction does, and a recipe that does so names it
(``deduction``): the policy, not the game, holds the model of the other players.

A deduction is a function of the observation alone, so a trained policy plays from its own
seat's observation, as every policy does. Its width is added to the actor's input; the critic
reads what it read before.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from envs.amongus.counting import PRIOR, impostor_counts, impostor_odds
from envs.amongus.pieces import DECIDING_SEAT, IS_IMPOSTOR, PHASE
from envs.amongus.rules import END_OF_TURN
from envs.amongus.spec import observation_layout as amongus_layout
from envs.core.jit import njit
from envs.menace import cards as menace_cards
from envs.menace.observe import OWN_AGENDA
from envs.menace.spec import SPEC as MENACE
from envs.menace.spec import observation_layout as menace_layout

from .menace_heuristic import on_menace_side, suspicion


@njit
def _amongus_counts(obs, off, n, out):
    """Among Us's counts, as ``assist=1`` lays them out (``envs/amongus/spec.py``): the
    impostor's chance that a sabotage now guesses every colour and the odds of the guessed
    seat's colour, at each of its decisions; a crewmate's odds that each seat is the impostor,
    at its own end of turn. Counted under the same prior the heuristic counts under."""
    for i in range(obs.shape[0]):
        row = obs[i]
        if row[off[IS_IMPOSTOR]] > 0.5:
            out[i, 0] = impostor_counts(row, off, n, PRIOR, out[i, 1 : 1 + n])
        elif row[off[PHASE] + END_OF_TURN] > 0.5 and row[off[DECIDING_SEAT]] > 0.5:
            impostor_odds(row, off, n, PRIOR, out[i, 1 + n : 1 + 2 * n])


class _AmongUsCounts:
    game = "amongus"

    def __init__(self, params: dict):
        layout = amongus_layout({**params, "assist": 0})
        self.size = layout.size
        self.off = layout.offsets
        self.n = params["num_players"]
        self.width = 1 + 2 * self.n

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        out = np.zeros((obs.shape[0], self.width), np.float32)
        _amongus_counts(obs, self.off, self.n, out)
        return out


SUSPICION_SCALE = 10.0
"""a revealed agenda moves the heuristic's score by 10: one such reveal reads as 1.0"""


@njit
def _menace_suspicion(obs, off, n, out):
    """The Menace heuristic's reading of the public record and of what the observer saw
    (``agents.menace_heuristic.suspicion``: Bad cards a seat was seen with, ballots against
    seats shown to be Crew, Brawls, revealed agendas, accusations), from the observer's side:
    column ``r`` seat ``r`` places clockwise (the observer's own column 0), the score / 10
    clipped to [-3, 3]; column ``n + r`` 1 where seat ``r`` can still be suspected (alive and
    not the observer), the score being 0 where it cannot."""
    scores = np.empty(n, np.float64)
    for i in range(obs.shape[0]):
        row = obs[i]
        agenda = np.argmax(row[off[OWN_AGENDA] : off[OWN_AGENDA] + menace_cards.N_AGENDAS])
        suspicion(row, off, n, not on_menace_side(row, off, agenda), scores)
        for r in range(n):
            if scores[r] > -1e8:
                out[i, r] = min(3.0, max(-3.0, scores[r] / SUSPICION_SCALE))
                out[i, n + r] = 1.0


class _MenaceSuspicion:
    game = "menace"

    def __init__(self, params: dict):
        layout = menace_layout(MENACE.resolve(**params))
        self.size = layout.size
        self.off = layout.offsets
        self.n = params["num_players"]
        self.width = 2 * self.n

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        out = np.zeros((obs.shape[0], self.width), np.float32)
        _menace_suspicion(obs, self.off, self.n, out)
        return out


DEDUCTIONS = {"amongus-counts": _AmongUsCounts, "menace-suspicion": _MenaceSuspicion}


class Deduction(nn.Module):
    """The first step of an actor that deduces: ``[N, D] -> [N, D + width]``, the observation
    followed by the counts made from it. No parameters: counted on the CPU from the rows as
    they come, wherever the network sits. ``params`` are the game's (the table size fixes the
    observation's layout)."""

    def __init__(self, name: str, params: dict, observation_size: int):
        super().__init__()
        if name not in DEDUCTIONS:
            raise ValueError(f"unknown deduction {name!r}; known: {sorted(DEDUCTIONS)}")
        if not isinstance(params, dict) or not isinstance(params.get("num_players"), int):
            raise ValueError(f"deduction {name!r} needs the game's parameters with "
                             f"'num_players', got {params!r}")
        self.name, self.params = name, dict(params)
        self.count = DEDUCTIONS[name](self.params)
        if self.count.size != observation_size:
            raise ValueError(f"deduction {name!r} reads {self.count.game}'s raw observation of "
                             f"{self.count.size} floats at these parameters, the network's is "
                             f"{observation_size} (a game or an assist=1 observation?)")
        self.width = self.count.width

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        rows = observation.detach().to("cpu", torch.float32).contiguous().numpy()
        counts = torch.from_numpy(self.count(rows)).to(observation.device, observation.dtype)
        return torch.cat([observation, counts], -1)

    def extra_repr(self) -> str:
        return f"{self.name}, width={self.width}"
