"""Trials of a command stopped at its worst moment: a worker halfway through sending a batch's
games (``halfway_bot``), with 2 or 4 workers (issue 42, M1 and M2).

    python -m tests.reliability.signal_trials ctrl-c --trials 50 --workers 2
    python -m tests.reliability.signal_trials term --trials 20
    python -m tests.reliability.signal_trials kill --trials 20

``ctrl-c``: the worker sends Ctrl-C to the process group, as a terminal does; the command must
end within 5 s with exit status 130 and the one line ``hiddendeck: interrupted``. ``term`` and
``kill``: SIGTERM or SIGKILL to the command's process alone; 5 s later no process of its
session may be alive (workers, resource tracker), and SIGTERM must end it with status 143 and
one line. Each trial prints one line; the last line counts them. The tests run a trial each
(``tests/test_progress.py``, ``tests/reliability/test_signals.py``).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from tempfile import TemporaryDirectory

ROOT = Path(__file__).resolve().parents[2]
BOT = "halfway@py:tests.reliability.halfway_bot:FirstLegal"
GRACE = 5.0  # seconds a stopped command has to be gone, workers and all
EXPECTED = {"ctrl-c": (130, "hiddendeck: interrupted"), "term": (143, "hiddendeck: terminated"),
            "kill": (-signal.SIGKILL, "")}


def start(workers: int, stamp: Path, mode: str) -> subprocess.Popen:
    """``eval`` with the halfway bot, one batch per worker at least, in a session of its own
    (so that the group's Ctrl-C reaches it and nothing else)."""
    command = [sys.executable, "-m", "evaluation.cli", "eval", "amongus", "--crew", BOT,
               "--impostor", "random", "--players", "4", "--games", str(1024 * workers),
               "--workers", str(workers)]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HALFWAY_STAMP": str(stamp),
           "HALFWAY": "interrupt" if mode == "ctrl-c" else "stall", "HIDDENDECK_PROGRESS": "0",
           "PYTHONFAULTHANDLER": "1"}
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_answers_ctrl_c)


def _answers_ctrl_c() -> None:
    """Ctrl-C as a terminal's foreground job has it: a job started in the background by a
    shell (``command &``) inherits SIGINT ignored, and Python then never raises it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def alive_in_session(session: int) -> list[int]:
    """Processes of that session still running (zombies waiting to be reaped are not)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # state, ppid, pgrp, session, ...
        if int(fields[3]) == session and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _where(pid: int) -> str:
    try:
        return (f"{Path(f'/proc/{pid}/cmdline').read_text().replace(chr(0), ' ')[-80:]} "
                f"waits in {Path(f'/proc/{pid}/wchan').read_text()}")
    except OSError:
        return "gone"


def trial(mode: str, workers: int, timeout: float = 600) -> dict:
    """One command, stopped once a worker is halfway through sending; what became of it."""
    with TemporaryDirectory() as tmp:
        stamp = Path(tmp) / "halfway"
        proc = start(workers, stamp, mode)
        begun = time.monotonic()
        while not stamp.exists() or not stamp.read_text():
            if proc.poll() is not None or time.monotonic() - begun > timeout:
                proc.kill()
                return {"mode": mode, "ok": False, "why": "never halfway",
                        "stderr": proc.communicate()[1][-500:]}
            time.sleep(0.05)
        if mode == "ctrl-c":
            sent = float(stamp.read_text())  # the worker sent it
        else:
            sent = time.time()
            os.kill(proc.pid, signal.SIGTERM if mode == "term" else signal.SIGKILL)
        heard = []  # (time, line): when the command said what
        reader = threading.Thread(target=lambda: heard.extend((time.time(), text)
                                                              for text in proc.stderr))
        reader.start()
        reader.join(60)  # stderr ends when every process holding it (workers too) is gone
        took = time.time() - sent
        err = "".join(text for _, text in heard)
        if reader.is_alive():  # where each process of it waits, then kill it
            left = alive_in_session(proc.pid)
            states = {pid: _where(pid) for pid in left}
            os.kill(proc.pid, signal.SIGABRT)  # faulthandler prints the command's stacks
            time.sleep(2)
            os.killpg(proc.pid, signal.SIGKILL)
            reader.join()
            return {"mode": mode, "ok": False, "why": "hang (60 s)", "processes": states,
                    "stderr": "".join(text for _, text in heard)[-3000:]}
        proc.wait()
        said = [t - sent for t, text in heard if text.strip()]
        left = alive_in_session(proc.pid)
        while left and time.time() - sent < GRACE:
            time.sleep(0.1)
            left = alive_in_session(proc.pid)
        for pid in left:  # clean up after a failed trial
            os.kill(pid, signal.SIGKILL)
        rc, line = EXPECTED[mode]
        lines = err.strip().splitlines()
        ok = (proc.returncode == rc and lines == ([line] if line else []) and not left
              and took < GRACE)
        return {"mode": mode, "ok": ok, "rc": proc.returncode, "seconds": round(took, 2),
                "said_at": round(said[0], 2) if said else None, "left": len(left),
                "stderr": err.strip()[-500:]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.reliability.signal_trials",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=list(EXPECTED))
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    results = []
    for k in range(args.trials):
        r = trial(args.mode, args.workers)
        results.append(r)
        print(f"{k}: {r}", flush=True)
    times = [r["seconds"] for r in results if "seconds" in r]
    said = [r["said_at"] for r in results if r.get("said_at") is not None]
    hangs = sum(r.get("why", "").startswith("hang") for r in results)
    print(f"{args.mode}, {args.workers} workers: {sum(r['ok'] for r in results)}/{len(results)} "
          f"ok, {hangs} hangs, processes left 5 s later: "
          f"{sum(r.get('left', 0) for r in results)}; seconds from the signal to the exit: "
          f"median {statistics.median(times) if times else float('nan'):.2f}, "
          f"max {max(times, default=float('nan')):.2f} (its line, said once the workers were "
          f"reaped: median {statistics.median(said) if said else float('nan'):.2f}, max "
          f"{max(said, default=float('nan')):.2f}; the rest is the interpreter's own exit)",
          flush=True)
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
