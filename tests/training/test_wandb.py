"""train --wandb PROJECT: an optional Weights & Biases run beside TensorBoard, loaded only when
asked for (wandb is not installed here: a stand-in module plays it)."""

import argparse
import sys
import types

import pytest

import training.cli


def _namespace(*argv):
    return training.cli.register(argparse.ArgumentParser().add_subparsers()).parse_args(argv)


def test_wandb_mirrors_tensorboard_for_the_whole_run(monkeypatch, tmp_path):
    calls = []
    fake = types.ModuleType("wandb")
    fake.init = lambda **kwargs: calls.append(kwargs) or types.SimpleNamespace(
        finish=lambda: calls.append("finish"))
    monkeypatch.setitem(sys.modules, "wandb", fake)
    monkeypatch.setattr(training.cli, "train", lambda args: calls.append("train") or {})
    ns = _namespace("amongus", "--wandb", "hd", "--out", str(tmp_path / "run"), "--eval-every", "0")
    assert training.cli.run(ns) == 0
    init, *rest = calls
    assert rest == ["train", "finish"]
    assert init["project"] == "hd" and init["sync_tensorboard"] is True
    assert init["config"]["game"] == "amongus"


def test_without_wandb_installed_one_clear_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "wandb", None)  # import wandb fails
    ns = _namespace("amongus", "--wandb", "hd", "--out", str(tmp_path / "run"))
    with pytest.raises(ValueError, match=r"--wandb needs the wandb package"):
        training.cli.run(ns)


def test_wandb_needs_the_tensorboard_logs(tmp_path):
    ns = _namespace("amongus", "--wandb", "hd", "--no-tensorboard", "--out", str(tmp_path))
    with pytest.raises(ValueError, match="drop --no-tensorboard"):
        training.cli.run(ns)
