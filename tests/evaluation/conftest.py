import pytest
import torch

import envs
from agents.checkpoint import game_metadata, save_policy
from agents.neural import ActorCritic


def make_checkpoint(path, game: str, team: str, hidden=(32,), seed: int = 0, kind: str = "mlp",
                    beliefs: bool = False, **params):
    """An untrained policy checkpoint for ``team``, as the trainer would write it (``beliefs``:
    with the role head)."""
    spec = envs.registry[game]
    resolved = spec.resolve(**params)
    meta = game_metadata(game, resolved)
    size = spec.observation_layout(resolved).size
    config = {"kind": kind, "observation_size": size, "num_actions": spec.num_actions,
              "critic_input_size": size, "hidden": list(hidden)}
    if beliefs:
        config["belief_seats"] = resolved["num_players"] - 1
    torch.manual_seed(seed)
    model = ActorCritic(config)
    meta.update(team=team, teams=list(spec.teams), steps=0, seed=seed, model=config)
    return save_policy(path, meta, model.state_dict())


@pytest.fixture
def checkpoint(tmp_path):
    def make(game="amongus", team="crew", name=None, **params):
        return str(make_checkpoint(tmp_path / (name or f"{game}-{team}.pt"), game, team,
                                   **params))
    return make
