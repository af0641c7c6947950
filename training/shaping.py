"""Potential-based reward shaping (Ng, Harada and Russell, 1999), for training only.

Each transition of a seat, from its decision ``o`` to the same seat's next decision ``o'`` in
the same chain (``training.gae``), earns on top of the game's reward

    F = coef * (gamma * Phi(o') - Phi(o)),    Phi = 0 after the chain's last decision

(a chain ends at the game's end, or where the seat's team or network changes). Over a seat's
chain the discounted terms telescope to ``-coef * Phi(o_0)``, a constant of the deal: shaping
moves no policy's return relative to another's, so it cannot change what is best; it only says
earlier which way is up. ``Phi`` reads the seat's own observation, through the game's named
pieces, so it knows nothing the seat does not.

The shaped reward reaches only the advantages and the critic's targets. What the trainer
credits and logs (``training.credit``, the progress line, TensorBoard) and every evaluation are
the game's own rewards and wins.

A potential per game (``POTENTIALS``), each seat's progress toward its own side's win:

- **menace**: a Crew seat's ``(Oxygen + Energy) / 40`` as its observation shows them (the Crew
  wins at 20 Energy and loses at 0 Oxygen); a Menace seat's the negative. The Coward counts for
  the side it is on now.
- **amongus**: the share of the task cards of the seat's own colour it holds. A crewmate needs
  all five to Clear, the impostor all five of the impostor's colour to Kill. (The crew's progress
  is not in the impostor's view, so its negative cannot be the impostor's potential.)
- **maniacal** has none: a free-for-all's money and contracts are the game's own score already,
  and no potential of them would say more than the reward does. ``Args.check`` refuses the flag.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import envs
from envs.menace.cards import MENACE, THE_COWARD
from envs.menace.tables import AGENDA_SIDE
from training.gae import per_seat_gae


def menace_potential(pieces: dict[str, np.ndarray]) -> np.ndarray:  # [N]
    """A Crew seat's (Oxygen + Energy) / 40; a Menace seat's, the negative."""
    agenda = pieces["own_agenda"].argmax(-1)
    menace = np.where(agenda == THE_COWARD, pieces["coward_side"][..., MENACE] > 0.5,
                      AGENDA_SIDE[agenda] == MENACE)
    tracks = 0.5 * (pieces["oxygen"][..., 0] + pieces["energy"][..., 0])  # each shown / 20
    return np.where(menace, -tracks, tracks)


def amongus_potential(pieces: dict[str, np.ndarray]) -> np.ndarray:  # [N]
    """The share of the five task cards of the seat's own colour that it holds."""
    return (pieces["own_colour"] * pieces["hand"]).sum(-1)  # hand is shown / 5


POTENTIALS: dict[str, Callable[[dict[str, np.ndarray]], np.ndarray]] = {
    "menace": menace_potential,
    "amongus": amongus_potential,
}


def check_game(game: str) -> None:
    if game not in POTENTIALS:
        raise ValueError(f"shaping_coef: {game} has no shaping potential (games with one: "
                         f"{sorted(POTENTIALS)}); a free-for-all's reward is its own score")


def potential(game: str, params: dict) -> Callable[[np.ndarray], np.ndarray]:
    """``Phi`` of observations ``[..., D]`` of ``game`` with these parameters, ``[...]``."""
    check_game(game)
    layout = envs.registry[game].observation_layout(params)
    return lambda obs: POTENTIALS[game](layout.split(obs)).astype(np.float32)


def shaping_terms(
    potentials: np.ndarray,  # [S, B] Phi of each row's observation
    done: np.ndarray,  # [S, B] bool: the row's chain ends there
    seat: np.ndarray,  # [S, B] int
    valid: np.ndarray,  # [S, B] bool
    num_players: int,
    gamma: float,
) -> np.ndarray:  # [S, B] float32
    """``gamma * Phi(o') - Phi(o)`` per transition, ``Phi(o') = 0`` where the chain ends; 0 on
    rows not yet resolved (their successor comes in a later rollout, and so does their term).

    It is one-step TD of ``Phi`` along each seat's own decisions: ``per_seat_gae`` with no
    reward, ``Phi`` as the values and ``lambda = 0``, so the chains are the advantages' own."""
    terms, _, resolved = per_seat_gae(np.zeros_like(potentials), potentials, done, seat, valid,
                                      num_players, gamma, 0.0)
    return np.where(resolved, terms, 0.0).astype(np.float32)


class Shaping:
    """The shaping rewards of a rollout (``training.rollout.Rollout``), ``coef * F``."""

    def __init__(self, game: str, params: dict, coef: float, gamma: float, num_players: int):
        self.phi, self.coef, self.gamma, self.num_players = (potential(game, params), coef,
                                                             gamma, num_players)

    def __call__(self, buf) -> np.ndarray:  # [S, B]
        phi = self.phi(buf.obs.numpy())
        return self.coef * shaping_terms(phi, buf.done, buf.seat, buf.valid, self.num_players,
                                         self.gamma)
