"""The parent process of ``eval`` and ``tournament`` does not grow with the games played: its
resident memory is sampled every second through a long match (issue 42, L8: it once kept every
game's actions, about 100 MB a million Among Us games).

    python -m tests.reliability.parent_memory eval --games 1000000
    python -m tests.reliability.parent_memory tournament --games 1000000

Random against random on Among Us (the fastest games there are), 2 workers; the tournament
plays two labels of it (four pairings, a quarter of the games each). Growth is measured while
games are played; what the command does after the last game (a tournament rates every game
stored, reading them back from its database) is reported apart. Prints the parent's
RSS once the first batch is in, at the end and at its highest, and the growth in percent.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from tempfile import TemporaryDirectory

ROOT = Path(__file__).resolve().parents[2]


def rss_mb(pid: int) -> float | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    found = re.search(r"VmRSS:\s+(\d+)", status)  # none once it has exited
    return int(found.group(1)) / 1024 if found else None


def measure(command: str, games: int, workers: int) -> dict:
    with TemporaryDirectory() as tmp:
        argv = {  # games in all: one pairing in eval, four in the tournament (two labels)
            "eval": ["eval", "amongus", "--crew", "random", "--impostor", "random", "--games",
                     str(games)],
            "tournament": ["tournament", "amongus", "--policies", "random,r2@random", "--db",
                           str(Path(tmp) / "results.sqlite"), "--games", str(games // 4)],
        }[command]
        proc = subprocess.Popen(
            [sys.executable, "-m", "evaluation.cli", *argv, "--workers", str(workers)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT), "HIDDENDECK_PROGRESS": "1"})
        done = [0]

        def follow() -> None:  # the progress bar's "k/N": games played so far
            text = ""
            for chunk in iter(lambda: proc.stderr.read1(4096).decode(errors="replace"), ""):
                text = (text + chunk)[-200:]
                counts = re.findall(r"(\d+)/(\d+)", text)
                if counts:
                    done[0] = int(counts[-1][0])
                if not chunk:
                    break

        reader = threading.Thread(target=follow, daemon=True)
        reader.start()
        samples = []  # (games played, parent RSS in MB)
        started = time.monotonic()
        while proc.poll() is None:
            rss = rss_mb(proc.pid)
            if rss is not None and done[0] > 0:
                samples.append((done[0], rss))
            time.sleep(1.0)
        reader.join(5)
    if proc.returncode != 0 or not samples:
        raise SystemExit(f"{command} failed (status {proc.returncode}) or ended before a sample")
    playing = [s for s in samples if s[0] < games] or samples[:1]
    first, last = playing[0], playing[-1]
    return {"command": command, "games": games, "workers": workers,
            "seconds": round(time.monotonic() - started), "start": first, "end": last,
            "peak_mb": max(r for _, r in playing),
            "after_mb": max((r for n, r in samples if n >= games), default=float("nan")),
            "growth_percent": round(100 * (last[1] - first[1]) / first[1], 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.reliability.parent_memory",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["eval", "tournament"])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    r = measure(args.command, args.games, args.workers)
    print(f"{r['command']} amongus random vs random, {r['games']:,} games, {r['workers']} "
          f"workers, {r['seconds']} s: parent RSS {r['start'][1]:.0f} MB after "
          f"{r['start'][0]:,} games, {r['end'][1]:.0f} MB after {r['end'][0]:,}, peak "
          f"{r['peak_mb']:.0f} MB while playing; growth {r['growth_percent']:+.1f}%; after "
          f"the last game (the table, a tournament's ratings of every stored game): peak "
          f"{r['after_mb']:.0f} MB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
