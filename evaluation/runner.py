"""Who plays the batches: this process, local worker processes, or a Ray cluster.

Whichever it is, a batch's games are the same (``evaluation.harness``), and results come back
to the caller in the order the batches were given, so tables and databases are byte-identical.
Each worker keeps to one thread for numba and torch: workers are the parallelism, and threads
on top of them would only fight over the cores.

Local workers are this module's own processes, one pipe each, rather than a
``concurrent.futures`` pool: a pool's result thread waits forever for the rest of a result
whose sender was stopped halfway (Ctrl-C while a batch's games were arriving), because the
parent holds the other write end of the shared pipe. Here a worker that is stopped takes its
pipe with it, and whatever way the parent leaves (Ctrl-C, a signal, a dead worker, a failing
``on_done``), it stops and reaps every worker without waiting on anything they send.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from multiprocessing.connection import wait

from envs.core.jit import announce_first_compile

from .harness import Batch, GameLog, play_batch
from .progress import bar


def _one_thread() -> None:
    import numba
    import torch

    numba.set_num_threads(1)
    torch.set_num_threads(1)


def _play_in_worker(batch: Batch) -> GameLog:
    _one_thread()
    return play_batch(batch)


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def _keep_whole(log: GameLog) -> GameLog:
    return log


def run_batches(
    batches: list[Batch],
    workers: int | None = None,
    ray_address: str | None = None,
    on_done: Callable[[Batch, GameLog], None] | None = None,
    desc: str = "games",
    keep: Callable[[GameLog], object] | None = _keep_whole,
) -> list:
    """Play every batch; ``on_done(batch, log)`` is called in batch order as results arrive
    (a tournament stores each there, so an interruption loses only the batches in flight).
    Returns ``keep(log)`` for every batch, in order: by default the whole log; a caller that
    needs less keeps less (``keep=None``: nothing, for one that stored each batch in
    ``on_done``), so this process does not grow with the games played.
    A progress bar named ``desc`` counts the games (``evaluation.progress``)."""
    kept = []
    with bar(sum(b.stop - b.start for b in batches), desc) as progress, \
            closing(_results(batches, workers, ray_address)) as results:
        for log, batch in zip(results, batches):  # results first: they run to their end
            if on_done is not None:
                on_done(batch, log)
            if keep is not None:
                kept.append(keep(log))
            progress.update(batch.stop - batch.start)
    return kept


def _results(batches, workers, ray_address) -> Iterator[GameLog]:
    if not batches:
        return
    for game in {b.game for b in batches}:  # workers compile, but only this process may say so
        announce_first_compile(game)
    if ray_address is not None:
        yield from _on_ray(batches, ray_address)
        return
    workers = default_workers() if workers is None else workers
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if workers == 1 or len(batches) == 1:
        yield from play_here(batches)
        return
    yield from _in_workers(batches, min(workers, len(batches)))


class WorkerTraceback(Exception):
    """Where a worker's error was raised: the worker's own traceback, as text, set as the
    ``__cause__`` of the error raised again here (``hiddendeck --debug`` shows it)."""

    def __str__(self) -> str:
        return "\n" + self.args[0]


def _in_workers(batches: list[Batch], workers: int) -> Iterator[GameLog]:
    """The batches on ``workers`` processes, each given its next batch as it sends one back;
    results are yielded in batch order. A batch's error is raised at its turn (the batches
    before it are yielded first, as a tournament stores them); a dead worker ends it at once."""
    # spawn, not fork: a parent that has run torch's OpenMP threads cannot safely fork
    context = multiprocessing.get_context("spawn")
    pool = []  # (process, this process's end of its pipe)
    finished = False
    try:
        for _ in range(workers):
            here, there = context.Pipe()
            process = context.Process(target=_serve, args=(there, os.getpid()), daemon=True)
            process.start()
            there.close()  # the worker's end lives in the worker alone: its death reads as EOF
            pool.append((process, here))
        waiting = iter(range(len(batches)))
        given: dict = {}  # pipe -> number of the batch its worker plays
        arrived: dict[int, tuple] = {}
        failed = False

        def give(pipe) -> None:
            number = next(waiting, None)
            if number is not None:
                try:
                    pipe.send(batches[number])
                except OSError:  # a broken pipe: the worker died while idle
                    raise _died(batches[number]) from None
                given[pipe] = number

        for _, pipe in pool:
            give(pipe)
        for number in range(len(batches)):
            while number not in arrived:
                for pipe in wait(list(given)):
                    k = given.pop(pipe)
                    arrived[k] = _receive(pipe, batches[k])
                    failed = failed or arrived[k][0] == "error"
                    if not failed:  # after an error no batch is begun that could be stored
                        give(pipe)
            reply = arrived.pop(number)
            if reply[0] == "error":
                _, error, text = reply
                raise error from WorkerTraceback(text)
            yield reply[1]
        finished = True
    finally:
        # on any way out, the workers stop now rather than finish: closing its pipe ends an
        # idle worker (all of them, when every batch came back); the others are terminated
        for process, pipe in pool:
            pipe.close()
            if not finished:
                process.terminate()
        for process, _ in pool:
            process.join(5)
            if process.exitcode is None:  # a policy that catches SIGTERM
                process.kill()
                process.join()


def _receive(pipe, batch: Batch) -> tuple:
    try:
        return pipe.recv()
    except (EOFError, OSError):  # the worker died, maybe halfway through sending
        raise _died(batch) from None


def _died(batch: Batch) -> ChildProcessError:
    return ChildProcessError(
        f"a worker process died (killed, out of memory or crashed) with games "
        f"{batch.start}-{batch.stop - 1} of {' vs '.join(s.label for s in batch.sides)}"
        f" not played; the other workers were stopped and games already stored "
        f"are kept (run the command again to resume)")


def _serve(pipe, parent: int) -> None:
    """A worker: plays each batch its pipe brings and sends back its games (or the error that
    stopped it) until the pipe closes. Ctrl-C reaches every process of the terminal's group:
    the parent alone answers it (one line, ``hiddendeck: interrupted``) and stops the workers;
    a worker's traceback would be noise. A worker ends with its parent, even one killed
    outright, so that nothing of a command outlives it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with(parent)
    while True:
        try:
            batch = pipe.recv()
        except EOFError:
            return
        try:
            reply = ("games", _play_in_worker(batch))
        except Exception as error:  # noqa: BLE001 - any error is the parent's to report
            text = traceback.format_exc()
            try:
                pickle.dumps(error)
            except Exception:  # noqa: BLE001 - an error that cannot travel travels as text
                error = RuntimeError(f"{type(error).__name__}: {error}")
            reply = ("error", error, text)
        pipe.send(reply)


def _end_with(parent: int) -> None:
    """This process is killed when ``parent`` dies: by the kernel on Linux
    (``PR_SET_PDEATHSIG``), elsewhere by a thread that sees it become another's child."""
    if sys.platform.startswith("linux"):
        import ctypes

        PR_SET_PDEATHSIG = 1
        if ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0:
            if os.getppid() != parent:  # it died before the call
                os._exit(1)
            return
    threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()


def _orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def play_here(batches) -> Iterator[GameLog]:
    """In this process, with one thread each for numba and torch as in a worker (torch's
    results may differ in the last bit with the thread count), restored afterwards."""
    import numba
    import torch

    saved = numba.get_num_threads(), torch.get_num_threads()
    try:
        _one_thread()
        for batch in batches:
            yield play_batch(batch)
    finally:
        numba.set_num_threads(saved[0])
        torch.set_num_threads(saved[1])


@contextmanager
def ray_session(address: str):
    """Ray, connected: ``local`` starts an instance on this machine, else a cluster's address
    (its workers must import this package and see the files they are given); an instance
    started here is shut down on the way out."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'hiddendeck[ray]'") from None
    started = not ray.is_initialized()
    if started:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = {"env_vars": {"PYTHONPATH": os.pathsep.join(
            p for p in (root, os.environ.get("PYTHONPATH")) if p)}}
        ray.init(address=None if address == "local" else address, runtime_env=env,
                 include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def _on_ray(batches, address: str) -> Iterator[GameLog]:
    with ray_session(address) as ray:
        remote = ray.remote(num_cpus=1)(_play_in_worker)
        pending = [remote.remote(b) for b in batches]
        for ref in pending:
            yield ray.get(ref)
