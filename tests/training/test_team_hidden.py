"""Per-team network widths (``Args.team_hidden``): each team's learner, league snapshots and
checkpoints have its own widths, resume holds them, and bad settings are named."""

import dataclasses

import pytest
import torch

from agents.checkpoint import CheckpointError, load_checkpoint
from agents.neural import load_policy
from training.ppo import Args, train

from .conftest import TINY

WIDE_CREW = dict(TINY, hidden=(16,), team_hidden={"crew": (32, 24)}, imitate="heuristic",
                 imitation_steps=512)


@pytest.fixture(scope="module")
def wide_crew_run(tmp_path_factory):
    args = Args(out=str(tmp_path_factory.mktemp("wide_crew")), **WIDE_CREW)
    return args, train(args)


def test_each_team_plays_with_its_own_widths_and_saves_them(wide_crew_run):
    args, paths = wide_crew_run
    for team, widths in (("crew", [32, 24]), ("impostor", [16])):
        checkpoint = load_checkpoint(paths[team])
        assert checkpoint["metadata"]["model"]["hidden"] == widths
        assert checkpoint["model"]["actor.0.weight"].shape[0] == widths[0]
        policy = load_policy(paths[team], "amongus", team=team, num_players=4)
        assert policy.metadata["model"]["hidden"] == widths


def test_league_snapshots_and_anchors_keep_their_teams_widths(wide_crew_run):
    args, paths = wide_crew_run
    pool = torch.load(paths["crew"].parent / "trainer.pt", weights_only=True)["pool"]
    for team, width in (("crew", 32), ("impostor", 16)):
        snapshots = pool[team]["anchors"] + pool[team]["recent"]
        assert len(pool[team]["anchors"]) == 1 and len(snapshots) >= 2
        assert all(s["0.weight"].shape[0] == width for s in snapshots)


def test_resume_keeps_the_widths_and_refuses_changed_ones(wide_crew_run, tmp_path):
    args, paths = wide_crew_run
    more = dataclasses.replace(args, out=str(tmp_path / "more"), total_steps=args.total_steps
                               + 64 * 8, resume=str(paths["crew"].parent.parent.parent))
    assert load_checkpoint(train(more)["crew"])["metadata"]["model"]["hidden"] == [32, 24]
    with pytest.raises(CheckpointError, match="hidden sizes"):
        train(dataclasses.replace(more, out=str(tmp_path / "narrow"), team_hidden={}))


@pytest.mark.parametrize("change,message", [
    ({"team_hidden": {"menace": (8,)}}, "teams are"),
    ({"team_hidden": {"crew": ()}}, "positive widths"),
    ({"team_hidden": {"crew": (8, 0)}}, "positive widths"),
    ({"team_hidden": {"crew": (8,)}, "shared_policy": True}, "team game"),
    ({"team_hidden": {"crew": (8,)}, "game": "maniacal"}, "team game"),
    ({"team_hidden": {"crew": (8,)}, "fixed_teams": {"crew": "heuristic"}}, "a fixed team"),
])
def test_settings_that_cannot_work_are_named(change, message):
    with pytest.raises(ValueError, match=message):
        Args(**{**TINY, **change}).check()
