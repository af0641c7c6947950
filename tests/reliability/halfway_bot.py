"""A bot whose worker stops halfway through sending a batch's games: the moment at which a
stopped worker once left ``eval`` and ``tournament`` waiting forever (issue 42, M1).

It plays the first legal action. Imported in a worker (``py:tests.reliability.halfway_bot:
FirstLegal``), it changes how that worker sends: the first half of its first result goes down
the pipe, the time is written to the file ``HALFWAY_STAMP`` names, and then, if ``HALFWAY`` is
``interrupt``, Ctrl-C goes to the process group, as a terminal sends it; the worker then stalls,
so the parent is still reading that result when the signal comes. Used by
``tests/test_progress.py``, ``tests/reliability/test_signals.py`` and the trials of
``tests/reliability/signal_trials.py``.
"""

import multiprocessing
import os
import signal
import struct
import time
from multiprocessing.connection import Connection

import numpy as np


class FirstLegal:
    def act(self, observation, action_mask):
        return np.argmax(action_mask, axis=1)


def _halfway(pipe, data) -> None:
    size = len(data)
    pipe._send(struct.pack("!i", size))
    pipe._send(data[: size // 2])
    with open(os.environ["HALFWAY_STAMP"], "w") as f:
        f.write(repr(time.time()))
    if os.environ.get("HALFWAY") == "interrupt":
        os.killpg(0, signal.SIGINT)
    time.sleep(600)


if multiprocessing.parent_process() is not None and "HALFWAY_STAMP" in os.environ:
    Connection._send_bytes = _halfway
