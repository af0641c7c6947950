"""One PettingZoo AEC adapter for every game: a thin view over a batch of one record.

It runs the very kernels the batched engine runs (serial loop, no auto-reset), so a seed gives
the same game here as game 0 of ``make_vec(..., seed=seed)``, and a later ``reset()`` without a
seed deals the next game of the same random stream, as the batched engine's auto-reset does.

**Roles for trainers.** ``infos[agent]`` holds, from ``reset`` on and with the same keys at
every step, integers: ``team`` (index into ``spec.teams``, the seat's team as the game stands: a
Menace Coward may change sides), ``role`` (index into ``env.role_names``: its role card where
the game deals one, e.g. a Menace agenda, else its team) and ``winner`` (the winning team's
index once a game is won, else -1). Numbers, not names: TorchRL turns every info value into a
tensor, and Tianshou refuses a column that is missing or ``None`` at some steps. ``env.teams()``
gives every seat's team by name at once. Both are privileged, like ``state()``: ``env.infos``
holds *every* seat's entry, so they are for the trainer's bookkeeping (which policy plays a
seat, per-role returns), never a policy's input. A seat's own role is already in its observation
(its own-team or own-agenda piece).

**Illegal actions.** ``illegal_action="raise"`` (the default) raises a ``ValueError`` naming the
action and the legal ones. ``"lose"`` follows PettingZoo's ``TerminateIllegalWrapper`` for
checkers that step unmasked random actions (SB3's ``check_env``, RLlib's env pre-check): the game
ends at once, every seat of the offending seat's team gets -1 and every other seat +1; in a
two-team game the other team is the winner, in a free-for-all nobody is.
"""

from __future__ import annotations

import importlib

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .engine import (
    GameDef, check_seed, integer, kernels_for, new_records, pickle_by_game_name,
    unpickle_by_game_name,
)

OBSERVATION_HIGH = 2.0  # every observation piece is scaled into [0, 2]
ILLEGAL_ACTION = ("raise", "lose")


def game_hook(game: str, module: str, name: str):
    """``envs.<game>.<module>.<name>`` if the game defines it, else ``None``: optional per-game
    pieces (``spec.role_card``, ``render.public_action``) that a game adds when it has them."""
    try:
        return getattr(importlib.import_module(f"envs.{game}.{module}"), name, None)
    except ModuleNotFoundError:
        return None


class RawEnv(AECEnv):
    """Agents ``player_0 .. player_{n-1}``; observations ``{"observation", "action_mask"}``."""

    def __init__(self, game: GameDef, render_mode: str | None = None,
                 illegal_action: str = "raise", god_view: bool = False, **params):
        """``god_view``: ``render()`` without a seat shows every hand and role. Off by default in
        both modes: a rendered table, printed for a person or logged as text, must not give the
        other seats away unless the caller asks for the whole table."""
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTION:
            raise ValueError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        if not isinstance(god_view, bool):
            raise ValueError(f"god_view must be True or False, got {god_view!r}")
        self.illegal_action = illegal_action
        self.god_view = god_view
        self._role_card = game_hook(game.spec.name, "spec", "role_card")
        self.role_names = (game_hook(game.spec.name, "spec", "ROLE_CARDS") if self._role_card
                           else game.spec.teams)
        self.game = game
        self.spec = game.spec
        self.params = game.spec.resolve(**params)
        self.render_mode = render_mode
        self.metadata = {
            "name": f"{game.spec.name}_v{game.spec.version}",
            "render_modes": ["ansi", "human"],
            "is_parallelizable": False,
        }
        n = self.params["num_players"]
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_layout = game.spec.observation_layout(self.params)
        self.state_layout = game.spec.state_layout(self.params)
        self._obs_offsets = self.observation_layout.offsets
        self._state_offsets = self.state_layout.offsets
        A, D = game.spec.num_actions, self.observation_layout.size
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBSERVATION_HIGH, (D,), np.float32),
                "action_mask": spaces.Box(0, 1, (A,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(A) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, OBSERVATION_HIGH, (self.state_layout.size,), np.float32)
        self._k = kernels_for(game)
        self._layout = self._k.layout_id(n, self._obs_offsets)
        self._obs = np.zeros((1, D), np.float32)
        self._mask = np.zeros((1, A), np.bool_)
        self._seat = np.zeros(1, np.int64)
        self._rewards = np.zeros((1, n), np.float32)
        self._term = np.zeros(1, np.bool_)
        self._trunc = np.zeros(1, np.bool_)
        self._winner = np.full(1, -1, np.int64)
        self._action = np.zeros(1, np.int64)
        self._teams = np.zeros((1, n), np.int64)
        self._records = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _require_reset(self, what: str) -> None:
        """``raw_env()`` has no PettingZoo guard: a call before ``reset()`` would read a blank
        record (an all-zero observation, no error) or fail deep in the kernels."""
        if self._records is None:
            raise RuntimeError(f"{self.metadata['name']}: call reset() before {what}")

    def _agent(self, agent) -> int:
        if agent not in self._index:
            raise ValueError(f"no agent {agent!r}; agents are {self.possible_agents}")
        return self._index[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            seed = check_seed(seed)  # before anything changes: a bad seed leaves the env as it was
        if seed is None and self._records is None:
            seed = int(np.random.SeedSequence().entropy % 2**63)
        if seed is not None:
            self._records = new_records(self.game, 1, seed, self.params)
        else:
            self._records["episode"] += 1
        self._k.reset_serial(
            self._records, self._obs, self._mask, self._seat, self._obs_offsets, self._layout
        )
        self._term[0] = self._trunc[0] = False
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._update_infos(-1)
        self.agent_selection = self.possible_agents[int(self._seat[0])]

    def observe(self, agent):
        self._require_reset("observe()")
        seat = self._agent(agent)
        live = not (self._term[0] or self._trunc[0]) and seat == self._seat[0]
        if live:
            obs = self._obs[0].copy()
            mask = self._mask[0].astype(np.int8)
        else:
            out = np.zeros((1, self._obs.shape[1]), np.float32)
            self._k.observe_seats(self._records, np.array([seat]), out, self._obs_offsets)
            obs = out[0]
            mask = np.zeros(self._mask.shape[1], np.int8)
        return {"observation": obs, "action_mask": mask}

    def teams(self) -> dict[str, str]:
        """Each agent's team as the game stands: privileged (hidden roles), for centralised
        training and bookkeeping only, like ``state()``."""
        self._require_reset("teams()")
        self._k.teams(self._records, self._teams)
        return {a: self.spec.teams[int(t)] for a, t in zip(self.possible_agents, self._teams[0])}

    def _update_infos(self, winner: int) -> None:
        self._k.teams(self._records, self._teams)
        record = self._records[0]
        self.infos = {
            a: {"team": int(t),
                "role": int(self._role_card(record, i)) if self._role_card else int(t),
                "winner": winner}
            for i, (a, t) in enumerate(zip(self.possible_agents, self._teams[0]))
        }

    def state(self) -> np.ndarray:
        self._require_reset("state()")
        out = np.zeros((1, self.state_layout.size), np.float32)
        self._k.god_views(self._records, out, self._state_offsets)
        return out[0]

    def step(self, action) -> None:
        self._require_reset("step()")
        if not self.agents:
            raise RuntimeError(f"{self.metadata['name']}: the game is over; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
            action = action[()]  # what SB3's predict returns for one observation
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"{agent}: action must be an integer, got {action!r}")
        a = int(action)
        if not 0 <= a < self._mask.shape[1]:
            raise ValueError(f"{agent}: action {a} is out of range [0, {self._mask.shape[1]})")
        if not self._mask[0, a]:
            if self.illegal_action == "lose":
                self._lose(agent)
                return
            legal = [self.spec.action_names[i] for i in np.flatnonzero(self._mask[0])]
            raise ValueError(
                f"{agent}: action {a} ({self.spec.action_names[a]}) is illegal; legal: {legal}"
            )
        self._action[0] = a
        self._cumulative_rewards[agent] = 0.0
        self._k.step_serial(
            self._records, self._action, self._obs, self._mask, self._seat, self._rewards,
            self._term, self._trunc, self._winner, self._obs_offsets, self._layout, False,
        )
        rewards = self._rewards[0]
        for i, name in enumerate(self.agents):
            self.rewards[name] = float(rewards[i])
        if self._term[0] or self._trunc[0]:
            done = self.terminations if self._term[0] else self.truncations
            for name in self.agents:
                done[name] = True
            self._update_infos(int(self._winner[0]) if self._term[0] else -1)
        else:
            self.agent_selection = self.possible_agents[int(self._seat[0])]
            self._update_infos(-1)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _lose(self, agent: str) -> None:
        """``illegal_action="lose"``: the game ends now and ``agent``'s team loses it."""
        teams = self.teams()
        losers = teams[agent]
        self._cumulative_rewards[agent] = 0.0
        for name in self.agents:
            self.rewards[name] = -1.0 if teams[name] == losers else 1.0
            self.terminations[name] = True
        self._term[0] = True
        two = len(self.spec.teams) == 2
        self._update_infos(1 - self.spec.teams.index(losers) if two else -1)
        self._accumulate_rewards()

    def render(self, seat: int | None = None) -> str | None:
        """What ``seat`` sees, or the whole table. Without a seat it shows the deciding seat's view
        unless the env was made with ``god_view=True`` (PettingZoo's classic games render the
        public board, never a hidden hand); ``human`` mode prints the text, ``ansi`` returns it."""
        if self.render_mode is None:
            return None
        self._require_reset("render()")
        if seat is not None:
            seat = integer(seat, "seat", 0, len(self.possible_agents) - 1)
        elif not self.god_view:
            seat = self._index[self.agent_selection]
        text = self.game.render(self._records[0], seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def last(self, observe: bool = True):
        self._require_reset("last()")
        return super().last(observe)

    def agent_iter(self, max_iter: int = 2**63):
        self._require_reset("agent_iter()")
        return super().agent_iter(max_iter)

    def __getstate__(self) -> dict:
        return pickle_by_game_name(self)

    def __setstate__(self, state: dict) -> None:
        unpickle_by_game_name(self, state)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's guard, counting a ``reset`` only once it has succeeded: a first reset that
    raises (a bad seed) leaves the env refusing calls as before, not half-initialised."""

    def reset(self, seed=None, options=None) -> None:
        self.env.reset(seed=seed, options=options)
        self._has_reset = True
        self._has_updated = True


def make_env(game: GameDef, render_mode: str | None = None, **params):
    """The raw env behind PettingZoo's guard against out-of-order calls. PettingZoo's
    ``AssertOutOfBoundsWrapper`` is left out: ``RawEnv.step`` already rejects a bad action with
    a ``ValueError`` that names it (an ``assert`` vanishes under ``python -O``), and every
    wrapper layer costs a Python attribute lookup on each of the dozen attributes a step
    touches. ``params``: the game's, and ``RawEnv``'s ``illegal_action`` and ``god_view``."""
    return OrderEnforcing(RawEnv(game, render_mode=render_mode, **params))
