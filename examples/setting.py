"""Where every outside-trainer example learns, and how it is judged.

**Where.** Among Us at 5 players, the crew against a fixed impostor, ``hider`` (the heuristic
impostor that sabotages only when cornered or in the last round; ``agents.amongus_styles``).
Self-play cannot show learning here: a random crew beats a random impostor 998 times in 1,000,
so both sides' returns are the random baseline from the first game. Against ``hider`` a random
crew wins 47% and the heuristic crew 87% (1,000 paired deals, seed 1000003), so a crew that
learns anything has room to show it. ``Opponents`` plays the impostor's seats inside the
PettingZoo AEC game, so each library sees an ordinary AEC env whose deciding seat is always a
crew seat (which seats are the crew's changes with every deal; ``infos[agent]["team"]`` says).

**How judged.** ``judge`` enters the trained policy through ``py:`` in hiddendeck's own
``eval`` (``evaluation.crossplay``), beside a random crew on the same numbered deals, against the
impostor it trained against, on deals no trainer draws (the benchmark's scoring seed), and
prints the gain over random with its paired 95% interval. The same command from a shell, after
an example has saved its policy::

    hiddendeck eval amongus --players 5 --crew random,ENTRANT \\
        --impostor hider@py:agents.amongus_styles:AmongUsHider --games 2000 --seed 1000003
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import torch
from pettingzoo.utils import BaseWrapper

import envs
from agents import make_policy
from agents.policy import choose
from envs import amongus_v6
from evaluation.benchmark import SCORING_SEED
from evaluation.crossplay import cross_play
from evaluation.entrants import resolve

GAME, TEAM, PLAYERS = "amongus", "crew", 5
AGAINST = "hider@py:agents.amongus_styles:AmongUsHider"


class Opponents(BaseWrapper):
    """The AEC game with every seat outside ``team`` played by a hiddendeck policy, so that
    the deciding seat is always one of ``team``'s (or the game is over). A deal in which
    ``team`` never decides is skipped: the next deal of the same stream is played instead."""

    def __init__(self, env, team: str = TEAM, against: str = AGAINST, seed: int = 0):
        super().__init__(env)
        raw = env.unwrapped
        self.team = raw.spec.teams.index(team)  # infos give a team as its index
        self.others = opponent(raw.params, against, seed)

    def reset(self, seed=None, options=None):
        self.env.reset(seed=seed, options=options)
        while not self._play_others():
            self.env.reset()

    def step(self, action):
        self.env.step(action)
        self._play_others()

    def _play_others(self) -> bool:
        """Play the other teams until ``team`` decides (True) or the game ends (False)."""
        env = self.env
        while True:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                return False
            if env.infos[agent]["team"] == self.team:
                return True
            obs = env.observe(agent)
            seat = env.possible_agents.index(agent)
            action = choose(self.others, obs["observation"][None],
                            obs["action_mask"][None].astype(bool), np.array([[0, seat]]))
            env.step(int(action[0]))


def opponent(params: dict, against: str = AGAINST, seed: int = 0):
    """The policy ``against`` (``LABEL@SOURCE`` or a name) names, for this game's ``params``."""
    spec = envs.registry[GAME]
    return make_policy(resolve(against, spec, params).source, spec, params, seed)


def env(team: str = TEAM, against: str = AGAINST, seed: int = 0, **params):
    """The AEC game of ``GAME`` at ``PLAYERS`` seats with ``against`` in the other seats."""
    return Opponents(amongus_v6.env(**{"num_players": PLAYERS, **params}), team, against, seed)


def judge(entrant: str, games: int = 2000, team: str = TEAM, against: str = AGAINST,
          players: int = PLAYERS) -> dict:
    """``entrant`` (``LABEL@py:MODULE:ATTR``) and a random player of ``team`` on the same
    held-out deals against ``against``; prints the cross-play table and returns the paired
    difference (``difference``, ``interval95``) of their win rates."""
    spec = envs.registry[GAME]
    other = next(t for t in spec.teams if t != team)
    matrix = cross_play(GAME, {team: ["random", entrant], other: [against]}, games,
                        seed=SCORING_SEED, workers=1, replays=False, num_players=players)
    print(matrix.format_table())
    gain = matrix.paired_differences()[0]
    lo, hi = gain["interval95"]
    print(f"gain over a random {team}: {gain['difference']:+.3f} [{lo:+.3f}, {hi:+.3f}] "
          f"(paired over {games} held-out deals)")
    return gain


def mlp(observation_size: int, num_actions: int, hidden: int = 64) -> torch.nn.Sequential:
    """The examples' actor network (observation to action logits), as ``SavedCrew`` loads it."""
    return torch.nn.Sequential(torch.nn.Linear(observation_size, hidden), torch.nn.Tanh(),
                               torch.nn.Linear(hidden, num_actions))


class Saved:
    """A trained crew kept at the file the environment variable ``variable`` names (else
    ``default``), for hiddendeck's evaluation to load through ``py:``."""

    teams = (TEAM,)
    variable: str
    default: str

    @classmethod
    def path(cls) -> Path:
        return Path(os.environ.get(cls.variable, cls.default))

    def existing(self, what: str) -> Path:
        """The file, or one line saying it is missing and how to make it."""
        path = self.path()
        if not path.is_file():
            raise ValueError(f"{path}: no {what}; run the example first or set {self.variable}")
        return path


class SavedCrew(Saved):
    """A crew actor saved as an ``mlp``'s ``state_dict``, playing greedily for hiddendeck's
    evaluation: its most likely legal action in each row. An example subclasses it with its own
    file, and the subclass is what ``py:`` names."""

    def __init__(self):
        weights = torch.load(self.existing("saved crew"))
        hidden, size = weights["0.weight"].shape
        self.net = mlp(size, weights["2.weight"].shape[0], hidden)
        self.net.load_state_dict(weights)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits = self.net(torch.as_tensor(observation, dtype=torch.float32))
        legal = torch.as_tensor(action_mask, dtype=torch.bool)
        return logits.masked_fill(~legal, -torch.inf).argmax(-1).numpy()

    @classmethod
    def save(cls, net: torch.nn.Sequential) -> Path:
        path = cls.path()
        path.parent.mkdir(parents=True, exist_ok=True)
        torch.save(net.state_dict(), path)
        return path
