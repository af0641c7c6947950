"""Per-team schedules (``Args.team_teacher_final``, ``team_teacher_until``,
``team_train_until``): what each team's teacher weight and learning are at each share of the
budget, and what a run does with them; and a run from before league exploiters were removed,
which resume refuses on one line."""

import dataclasses

import pytest
import torch

from agents.checkpoint import CheckpointError, load_checkpoint
from training.ppo import Args, Schedule, build_run, train

from .conftest import TINY


def _initial(args):
    run = build_run(dataclasses.replace(args, resume=None))
    return {group: model.state_dict() for group, model in zip(run.groups, run.models)}


def test_resume_refuses_a_run_trained_with_league_exploiters(tiny_run, tmp_path):
    args, paths = tiny_run
    step = paths["crew"].parent
    old = tmp_path / "old" / "checkpoints" / step.name
    old.mkdir(parents=True)
    for file in step.iterdir():
        (old / file.name).write_bytes(file.read_bytes())
    trainer = torch.load(old / "trainer.pt", weights_only=True)
    trainer["exploiter_start"] = {"crew_exploiter": {}}  # what such a run saved
    torch.save(trainer, old / "trainer.pt")
    with pytest.raises(CheckpointError, match="league exploiters"):
        train(dataclasses.replace(args, out=str(tmp_path / "x"), resume=str(old),
                                  total_steps=args.total_steps + 64 * 8))


@pytest.mark.parametrize("change,message", [
    ({"team_teacher_final": {"menace": 0.0}}, "teams are"),
    ({"team_teacher_final": {"crew": -1.0}}, "team_teacher_final"),
    ({"team_teacher_final": {"crew": 0.0}, "game": "maniacal"}, "team game"),
    ({"team_teacher_until": {"menace": 0.5}}, "teams are"),
    ({"team_teacher_until": {"crew": 1.5}}, "team_teacher_until"),
    ({"team_teacher_until": {"crew": 0.0}}, "team_teacher_until"),
    ({"team_teacher_until": {"crew": 0.5}, "game": "maniacal"}, "team game"),
    ({"team_train_until": {"crew": 0.0}}, "team_train_until"),
    ({"team_train_until": {"crew": 0.5}, "fixed_teams": {"crew": "heuristic"}}, "fixed"),
])
def test_settings_that_cannot_work_are_named(change, message):
    with pytest.raises(ValueError, match=message):
        Args(**{**TINY, **change}).check()


def test_a_team_teacher_weight_replaces_the_final_one_for_that_team_only():
    args = Args(**dict(TINY, teacher_coef=1.0, teacher_until=0.5, teacher_final=0.25,
                       team_teacher_final={"impostor": 0.0}))
    early = Schedule.at(args, 0.25, True, ["crew", "impostor"])
    late = Schedule.at(args, 0.75, True, ["crew", "impostor"])
    assert early.teacher_coef == pytest.approx({"crew": 0.625, "impostor": 0.5})
    assert late.teacher_coef == pytest.approx({"crew": 0.25, "impostor": 0.0})
    assert late.teaching
    gone = dataclasses.replace(args, team_teacher_final={"impostor": 0.0, "crew": 0.0})
    assert not Schedule.at(gone, 0.75, True, ["crew", "impostor"]).teaching
    assert not Schedule.at(args, 0.1, False, ["crew", "impostor"]).teaching


def test_a_team_teacher_span_replaces_the_shared_one_for_that_team_only():
    args = Args(**dict(TINY, teacher_coef=1.0, teacher_until=0.25, teacher_final=0.0,
                       team_teacher_until={"impostor": 0.5}))
    args.check()
    early = Schedule.at(args, 0.125, True, ["crew", "impostor"])
    middle = Schedule.at(args, 0.375, True, ["crew", "impostor"])
    late = Schedule.at(args, 0.5, True, ["crew", "impostor"])
    assert early.teacher_coef == pytest.approx({"crew": 0.5, "impostor": 0.75})
    assert middle.teacher_coef == pytest.approx({"crew": 0.0, "impostor": 0.25})
    assert middle.teaching
    assert not late.teaching


def test_a_team_past_its_train_until_keeps_playing_unchanged_while_the_others_learn(tmp_path):
    args = Args(out=str(tmp_path), **dict(TINY, total_steps=64 * 8 * 3,
                                          team_train_until={"crew": 0.3}))
    assert Schedule.at(args, 0.2, False, ["crew", "impostor"]).learning == {
        "crew": True, "impostor": True}
    assert Schedule.at(args, 1.0, False, ["crew", "impostor"]).learning == {
        "crew": False, "impostor": True}  # an update begun once the clock ran out still counts
    late = Schedule.at(args, 0.3, True, ["crew", "impostor"])
    assert late.learning == {"crew": False, "impostor": True}
    assert late.teacher_coef["crew"] == 0.0  # no labels for a team that no longer learns
    train(args)
    steps = sorted((tmp_path / "checkpoints").glob("step_*"))
    assert len(steps) == 3  # updates at 0, 1/3 and 2/3 of the budget: the crew learns in one
    weights = {team: [load_checkpoint(step / f"{team}.pt")["model"] for step in steps]
               for team in ("crew", "impostor")}
    key = next(k for k in weights["crew"][0] if k.startswith("actor"))
    assert torch.equal(weights["crew"][0][key], weights["crew"][2][key])
    assert not torch.equal(weights["impostor"][1][key], weights["impostor"][2][key])
    assert not torch.equal(weights["crew"][0][key], _initial(args)["crew"][key])
