"""Docs that run: every fenced block marked ``<!-- docs-test -->`` in the README and docs/*.md
is executed, line by line, at the small sizes the marker names
(``<!-- docs-test: --games 2000 -> --games 16; ... -->``). ``hiddendeck`` runs this checkout's
CLI; ``step_N`` is the newest checkpoint of that run directory; a command that waits for a
person (``play``, ``replay``) gets the first legal move, or Enter, at every prompt.

Every other documented command (the published runs' reproduction commands, hours of compute
each) is parsed by the very argument parser it names, so a renamed command, option or choice
fails here; only its files and its run time go unchecked."""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shlex
import string
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"<!-- docs-test(?::(?P<subs>.*?))? -->\n```(?:sh|bash)\n(?P<body>.*?)```",
                    re.S)


def runnable_blocks() -> list[tuple[str, list[str]]]:
    """``(where, commands)`` of every marked block, the marker's substitutions applied."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text()
        for k, m in enumerate(MARKER.finditer(text)):
            subs = [part.split("->") for part in (m["subs"] or "").split(";") if part.strip()]
            commands = []
            for line in m["body"].splitlines():
                command = line.split("  #")[0].strip()
                for old, new in subs:
                    command = command.replace(old.strip(), new.strip())
                if command:
                    commands.append(command)
            found.append((f"{path.relative_to(ROOT)}#{k}", commands))
    return found


def _newest_step(command: str, cwd: Path) -> str:
    def newest(m: re.Match) -> str:
        steps = sorted((cwd / m[1] / "checkpoints").glob("step_*"))
        assert steps, f"no checkpoint under {m[1]} for {command!r}"
        return str(steps[-1].relative_to(cwd))
    return re.sub(r"([^\s,@=]+)/checkpoints/step_N", newest, command)


BLOCKS = runnable_blocks()
ON_THEIR_OWN = ("README.md", "docs/evaluation.md")
"""docs whose blocks take minutes: each runs from a test file of its own (``test_docs_readme``,
``test_docs_evaluation``), so that pytest-xdist's ``--dist loadfile``, which keeps a file's
tests on one worker, can run them on different workers"""


def blocks_of(doc: str | None = None) -> list:
    """The blocks of ``doc``; None: those of every doc not ``ON_THEIR_OWN``."""
    if doc is None:
        return [b for b in BLOCKS if b[0].split("#")[0] not in ON_THEIR_OWN]
    return [b for b in BLOCKS if b[0].split("#")[0] == doc]


def test_the_readme_names_each_games_version_as_the_registry_does():
    """The one place versions are named (the README's first lines) follows the code."""
    import envs

    head = (ROOT / "README.md").read_text().split("---")[0]
    named = dict(re.findall(r"\(`(\w+)`,\s+version (\d+)", head))
    modules = dict(re.findall(r"`envs\.(\w+)_v(\d+)`", head))
    for name, spec in envs.registry.items():
        assert named.get(name) == str(spec.version), f"README names {name} v{named.get(name)}"
        assert modules.get(name) == str(spec.version), f"README names envs.{name}_v{modules[name]}"


def test_each_doc_on_its_own_has_its_test_file_and_every_block_runs_once():
    for doc in ON_THEIR_OWN:
        assert blocks_of(doc), f"{doc} has no runnable block: take it out of ON_THEIR_OWN"
        assert (ROOT / "tests" / f"test_docs_{Path(doc).stem.lower()}.py").exists(), doc
    split = blocks_of() + [b for doc in ON_THEIR_OWN for b in blocks_of(doc)]
    assert sorted(w for w, _ in split) == sorted(w for w, _ in BLOCKS)


def test_the_readme_has_a_runnable_block():
    assert any(where.startswith("README.md") for where, _ in BLOCKS)


def documented_commands_test(doc: str | None = None):
    """The test that runs ``blocks_of(doc)``, each line of a block in a fresh directory, as
    its marker sized it."""
    blocks = blocks_of(doc)

    @pytest.mark.parametrize("where,commands", blocks, ids=[w for w, _ in blocks])
    def test_documented_commands_run(where, commands, tmp_path):
        run_documented(where, commands, tmp_path)
    return test_documented_commands_run


def run_documented(where: str, commands: list[str], tmp_path: Path) -> None:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "PYTHONPATH": path, "MPLBACKEND": "Agg"}
    cli = f"{sys.executable} -m evaluation.cli"
    for command in commands:
        line = _newest_step(re.sub(r"^hiddendeck\b", cli, command), tmp_path)
        done = subprocess.run(line, shell=True, cwd=tmp_path, env=env, input="0\n" * 20_000,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{where}: {command}\n{done.stderr[-2000:]}"


test_documented_commands_run = documented_commands_test()


FENCE = re.compile(r"```(?:sh|bash)?\n(.*?)```", re.S)
ASSIGNMENTS = re.compile(r"^[A-Z_]+=\S+( [A-Z_]+=\S+)*$")
COMMAND = re.compile(r"^(?:[A-Z_]+=\S+ )*(hiddendeck|python -m (?:evaluation|training)\.\w+)\b")


def documented_commands() -> list[tuple[str, list[str]]]:
    """``(where, argv)`` of every ``hiddendeck`` or ``python -m evaluation|training.X`` line in a
    fenced block of the README and docs (continuations joined, comments and variables kept as
    text)."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for block in FENCE.findall(path.read_text()):
            variables: dict[str, str] = {}  # VAR=value lines set what $VAR means below them
            for line in block.replace("\\\n", " ").splitlines():
                line = line.split("  #")[0].strip()
                if ASSIGNMENTS.match(line):
                    variables.update(part.split("=", 1) for part in line.split())
                    continue
                line = string.Template(line).safe_substitute(variables)
                m = COMMAND.match(line)
                if m:
                    argv = shlex.split(line[m.start(1):])
                    found.append((f"{path.relative_to(ROOT)}: {line[:70]}", argv))
    return found


class Parsed(Exception):
    """Raised in place of running a command whose arguments parsed."""


@pytest.mark.parametrize("where,argv", documented_commands(),
                         ids=[w for w, _ in documented_commands()])
def test_every_documented_command_parses(where, argv, monkeypatch):
    real = argparse.ArgumentParser.parse_args

    def parse_only(self, args=None, namespace=None):
        raise Parsed(real(self, args, namespace))

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_only)
    if argv[0] == "hiddendeck":
        main, args = importlib.import_module("evaluation.cli").main, argv[1:]
    else:
        main, args = importlib.import_module(argv[2]).main, argv[3:]
    try:
        code = main(args)
    except Parsed:
        return
    except SystemExit as e:
        code = e.code
    pytest.fail(f"{where}: did not parse (exit {code})")
