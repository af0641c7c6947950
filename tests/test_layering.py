"""Layering: the engine and the agents never import evaluation or training, and evaluation's
modules never import training; only the commands that join the two (the CLI's ``train``,
``demo``, ``exploit`` and ``exploit-search``'s warm start) reach training, and only when they
run."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
JOINING = {"evaluation.cli", "evaluation.demo", "evaluation.exploit",
           "evaluation.exploit_search"}


def modules(package: str) -> list[str]:
    return sorted(f"{package}.{p.stem}" for p in (ROOT / package).glob("*.py")
                  if p.stem != "__init__")


def imports_without(module: str, forbidden: tuple[str, ...]) -> subprocess.CompletedProcess:
    """Import ``module`` in a fresh interpreter in which importing a forbidden package fails."""
    code = (
        "import importlib, importlib.abc, sys\n"
        f"FORBIDDEN = {forbidden!r}\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in FORBIDDEN:\n"
        "            raise ImportError(f'layering: {name} imported')\n"
        "sys.meta_path.insert(0, Block())\n"
        f"importlib.import_module({module!r})\n"
    )
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("module", [m for m in modules("evaluation") if m not in JOINING])
def test_evaluation_never_imports_training(module):
    done = imports_without(module, ("training",))
    assert done.returncode == 0, done.stderr[-1500:]


@pytest.mark.parametrize("module", modules("agents"))
def test_agents_never_import_evaluation_or_training(module):
    done = imports_without(module, ("training", "evaluation"))
    assert done.returncode == 0, done.stderr[-1500:]
