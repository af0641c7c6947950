"""Outside policies (``py:module:attr``) enter every command that takes a policy, identified by
their source file's SHA-256."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import envs
from agents import make_policy
from evaluation.crossplay import cross_play
from evaluation.entrants import resolve

BOT = '''
import numpy as np

class FirstLegal:
    """The lowest legal action, on every row."""
    def act(self, observation, action_mask):
        return np.argmax(action_mask, axis=1)

class Impostor(FirstLegal):
    teams = ("impostor",)

def make(seed):
    return FirstLegal()

first = FirstLegal()
not_a_policy = 3

def broken():
    return object()
'''


@pytest.fixture
def bots(tmp_path, monkeypatch):
    (tmp_path / "outside_bots.py").write_text(BOT)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("outside_bots", None)
    yield tmp_path
    sys.modules.pop("outside_bots", None)


@pytest.mark.parametrize("attr", ["FirstLegal", "make", "first"])
def test_a_class_a_factory_or_an_object_plays(bots, attr):
    spec = envs.registry["amongus"]
    params = spec.resolve()
    policy = make_policy(f"py:outside_bots:{attr}", spec, params, 0)
    mask = np.array([[0, 1, 1], [0, 0, 1]], bool)
    assert policy.act(np.zeros((2, 4), np.float32), mask).tolist() == [1, 2]


def test_an_outside_policy_is_identified_by_its_source_and_declares_its_team(bots):
    spec = envs.registry["amongus"]
    params = spec.resolve()
    e = resolve("mine@py:outside_bots:Impostor", spec, params)
    assert e.roles == ("impostor",) and e.identity.startswith("name:py:outside_bots:Impostor@sha256:")
    (bots / "outside_bots.py").write_text(BOT + "\n# edited\n")
    assert resolve("mine@py:outside_bots:Impostor", spec, params).identity != e.identity


@pytest.mark.parametrize("source,message", [
    ("py:no_such_module_here:X", "cannot import"),
    ("py:outside_bots:Missing", "has no attribute"),
    ("py:outside_bots", "expected py:MODULE:ATTR"),
    ("py:outside_bots:not_a_policy", "neither a policy"),
    ("py:outside_bots:broken", "has no act"),
])
def test_a_bad_outside_policy_is_named(bots, source, message):
    spec = envs.registry["amongus"]
    with pytest.raises(ValueError, match=message):
        resolve(source, spec, spec.resolve())


def test_an_outside_policy_enters_a_cross_play_matrix(bots):
    result = cross_play("amongus", {"crew": ["first@py:outside_bots:FirstLegal", "heuristic"],
                                    "impostor": ["heuristic"]}, 32, seed=0, workers=1)
    rows = {c.sides[0]: c.summary(("crew", "impostor")) for c in result.cells}
    assert set(rows) == {"first", "heuristic"} and rows["first"]["games"] == 32


def test_eval_takes_an_outside_policy_from_the_command_line(bots):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(bots), os.getcwd()])}
    done = subprocess.run([sys.executable, "-m", "evaluation.cli", "eval", "amongus", "--crew",
                           "py:outside_bots:make", "--impostor", "heuristic", "--games", "16",
                           "--workers", "1", "--json"], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["cells"][0]["games"] == 16
