"""Feedback on long work: one tqdm bar on stderr, with rate and ETA, for every command that plays
or trains for more than a moment (eval, ffa, beliefs, exploit, tournament, training's warm
start). It is drawn as soon as the work starts, before any kernel compiles or worker spawns, so
a command is never silent for more than a moment. ``hiddendeck --quiet`` (``set_quiet``) turns
every bar off; ``--json`` output on stdout is never touched.

tqdm rather than the hand-written ``\\r k/N`` lines it replaces: rate, ETA, terminal width and
plain-log output (CI) come with it, the same on every command.
"""

from __future__ import annotations

import sys

from tqdm import tqdm

_quiet = False


def set_quiet(quiet: bool) -> None:
    """Every bar from now on in this process is off (``True``) or shown (``False``)."""
    global _quiet
    _quiet = bool(quiet)


def enabled() -> bool:
    """Whether progress is shown: for work that reports it its own way (the trainer's line)."""
    return not _quiet


def bar(total: int, desc: str, unit: str = "game", show: bool = True) -> tqdm:
    """A bar of ``total`` ``unit``s, drawn at once unless ``show`` is off or every bar is
    (``set_quiet``); ``update(n)`` as work is done, ``close()`` (or a ``with`` block) at the end."""
    return tqdm(total=total, desc=desc, unit=unit, disable=_quiet or not show, file=sys.stderr,
                dynamic_ncols=True, mininterval=0.5, smoothing=0.1)
