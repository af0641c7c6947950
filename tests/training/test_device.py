"""``--device``: where the networks learn. No GPU is available where these run, so they check
the CPU side of the path: the flag reaches the trainer and the exploiter, ``auto`` falls back to
the CPU with the same run, and ``cuda`` without a GPU is one clear error."""

import argparse

import pytest
import torch

from agents.neural import load_policy, resolve_device
from evaluation.commands import register as register_evaluation
from training.cli import args_from_namespace, args_from_recipe, main, register
from training.ppo import Args, train

from .conftest import TINY

no_gpu = pytest.mark.skipif(torch.cuda.is_available(), reason="a GPU is present here")


def parse(register_commands, argv):
    parser = argparse.ArgumentParser()
    register_commands(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_device_reaches_the_trainer_and_the_exploiter():
    assert args_from_namespace(parse(register, ["train", "amongus", "--device", "auto"])
                               ).device == "auto"
    assert args_from_recipe(parse(register, ["train", "--recipe", "tiny", "--seed", "1",
                                             "--device", "auto"])).device == "auto"
    assert args_from_namespace(parse(register, ["train", "amongus"])).device == "cpu"
    exploit = parse(register_evaluation, ["exploit", "menace", "--against", "heuristic",
                                          "--steps", "10", "--device", "auto"])
    assert exploit.device == "auto"


@no_gpu
def test_auto_without_a_gpu_is_the_same_run_as_cpu(tmp_path):
    weights = {}
    for device in ("cpu", "auto"):
        paths = train(Args(out=str(tmp_path / device), device=device, **TINY))
        weights[device] = load_policy(paths["crew"]).model.state_dict()
    for name, tensor in weights["cpu"].items():
        assert torch.equal(tensor, weights["auto"][name]), name


@no_gpu
def test_cuda_without_a_gpu_is_one_clear_error(capsys, tmp_path):
    assert main(["train", "amongus", "--device", "cuda", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "device 'cuda'" in err and "no GPU" in err
    assert not list(tmp_path.iterdir())  # refused before anything was written


def test_unknown_device_is_named(tiny_run):
    _, paths = tiny_run
    with pytest.raises(ValueError, match="device must be one of"):
        resolve_device("tpu")
    with pytest.raises(ValueError, match="device must be one of"):
        load_policy(paths["crew"], device="gpu")
    with pytest.raises(ValueError, match="device must be one of"):
        Args(device="gpu").check()


def test_a_loaded_policy_runs_where_it_is_put(tiny_run):
    _, paths = tiny_run
    policy = load_policy(paths["crew"], device="auto")
    assert next(policy.model.parameters()).device == resolve_device("auto")
    D, A = policy.model.config["observation_size"], policy.model.config["num_actions"]
    actions = policy.act(torch.zeros((3, D)).numpy(), torch.ones((3, A), dtype=torch.bool).numpy())
    assert actions.shape == (3,)  # the actions come back to the CPU as numpy
