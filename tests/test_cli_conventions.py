"""The command line's conventions: the top-level help lists every command, and a policy option
has one name in every subcommand (--policy, --against), old names still working with one
deprecation line."""

import argparse
import re

import pytest

from evaluation.cli import _parser
from evaluation.commands import ffa_sides


def _commands(parser) -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices


def test_top_level_help_lists_every_command():
    parser = _parser()
    text = parser.format_help()
    commands = text.split("  COMMAND\n", 1)[1].split("\noptions:", 1)[0]
    listed = {line.split()[0] for line in commands.splitlines()
              if line.startswith("    ") and not line.startswith("      ")}
    assert listed == set(_commands(parser))
    # and no hand-written list beside it to go stale (it once named 10 of 15 commands)
    assert not re.search(r"\((\w+, ){3,}", parser.description)


def test_no_subcommand_names_a_policy_option_its_own_way():
    """Policy options across subcommands: --policy (the one scored or played), --against (the
    other seats'), --policies (a tournament's entrants), or a team's name (eval)."""
    odd = {"--opponents", "--opponent", "--opponent-policy", "--agent", "--agents"}
    for name, parser in _commands(_parser()).items():
        shown = {s for a in parser._actions if a.help != argparse.SUPPRESS
                 for s in a.option_strings}
        assert not shown & odd, name


def test_play_opponents_is_an_alias_of_against():
    args = _parser().parse_args(["play", "amongus", "--opponents", "random",
                                 "--against", "crew=heuristic"])
    assert args.against == ["random", "crew=heuristic"]
    assert args.deprecated == ["--opponents is deprecated; use --against"]


def test_a_deprecated_name_is_said_in_the_one_line_of_an_error(capsys):
    from evaluation.cli import main

    assert main(["play", "amongus", "--opponents", "nosuch.pt"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no such checkpoint file" in err[0]
    assert err[0].endswith("(--opponents is deprecated; use --against)")


@pytest.mark.parametrize("argv, sides, warned", [
    (["--policy", "random"], ("random", "heuristic"), False),
    (["--policy", "random", "--against", "sellhire"], ("random", "sellhire"), False),
    (["random", "sellhire"], ("random", "sellhire"), True),
])
def test_ffa_takes_policy_and_against(argv, sides, warned):
    args = _parser().parse_args(["ffa", "maniacal", *argv])
    assert ffa_sides(args) == sides
    assert bool(getattr(args, "deprecated", None)) == warned


def test_ffa_without_a_policy_is_one_clear_error():
    with pytest.raises(ValueError, match="--policy is required"):
        ffa_sides(_parser().parse_args(["ffa", "maniacal"]))
