"""Feedback on long work: one tqdm bar on stderr, with rate and ETA, for every command that plays
or trains for more than a moment (eval, ffa, beliefs, exploit, tournament, training's warm
start). It is drawn as soon as the work starts, before any kernel compiles or worker spawns, so
a command is never silent for more than a moment. Bars are drawn on a terminal, or anywhere
with ``HIDDENDECK_PROGRESS=1`` (a log file or a captured stream otherwise stays free of them, so
an error there is still one line); ``hiddendeck --quiet`` (``set_quiet``) turns every bar off;
``--json`` output on stdout is never touched.

tqdm rather than the hand-written ``\\r k/N`` lines it replaces: rate, ETA, terminal width and
plain-log output (CI) come with it, the same on every command.
"""

from __future__ import annotations

import os
import sys

from tqdm import tqdm

_quiet = False


def set_quiet(quiet: bool) -> None:
    """Every bar from now on in this process is off (``True``) or shown (``False``)."""
    global _quiet
    _quiet = bool(quiet)


def enabled() -> bool:
    """Whether progress is shown (a terminal or ``HIDDENDECK_PROGRESS=1``, and not ``--quiet``);
    also for work that reports it its own way (the trainer's line)."""
    wanted = os.environ.get("HIDDENDECK_PROGRESS") == "1" or sys.stderr.isatty()
    return wanted and not _quiet


def bar(total: int, desc: str, unit: str = "game", show: bool = True) -> tqdm:
    """A bar of ``total`` ``unit``s, drawn at once unless ``show`` is off or progress is
    (``enabled``); ``update(n)`` as work is done, ``close()`` (or a ``with`` block) at the end."""
    return tqdm(total=total, desc=desc, unit=unit, disable=not (show and enabled()),
                file=sys.stderr, dynamic_ncols=True, mininterval=0.5, smoothing=0.1)
