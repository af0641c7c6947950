"""Who plays the batches: this process, local worker processes, or a Ray cluster.

Whichever it is, a batch's games are the same (``evaluation.harness``), and results come back
to the caller in the order the batches were given, so tables and databases are byte-identical.
Each worker keeps to one thread for numba and torch: workers are the parallelism, and threads
on top of them would only fight over the cores.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from envs.core.jit import announce_first_compile

from .harness import Batch, GameLog, play_batch
from .progress import bar


def _one_thread() -> None:
    import numba
    import torch

    numba.set_num_threads(1)
    torch.set_num_threads(1)


def _quiet_worker() -> None:
    """Ctrl-C reaches every process of the terminal's group: the parent alone answers it (one
    line, ``hiddendeck: interrupted``) and ends the pool; a worker's traceback would be noise."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_in_worker(batch: Batch) -> GameLog:
    _one_thread()
    return play_batch(batch)


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def run_batches(
    batches: list[Batch],
    workers: int | None = None,
    ray_address: str | None = None,
    on_done: Callable[[Batch, GameLog], None] | None = None,
    desc: str = "games",
) -> list[GameLog]:
    """Play every batch; ``on_done(batch, log)`` is called in batch order as results arrive
    (a tournament stores each there, so an interruption loses only the batches in flight).
    A progress bar named ``desc`` counts the games (``evaluation.progress``)."""
    logs = []
    with bar(sum(b.stop - b.start for b in batches), desc) as progress:
        for batch, log in zip(batches, _results(batches, workers, ray_address)):
            if on_done is not None:
                on_done(batch, log)
            logs.append(log)
            progress.update(batch.stop - batch.start)
    return logs


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
    # spawn, not fork: a parent that has run torch's OpenMP threads cannot safely fork
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(min(workers, len(batches)), mp_context=context,
                               initializer=_quiet_worker)
    try:
        futures = [pool.submit(_play_in_worker, b) for b in batches]
        for batch, future in zip(batches, futures):
            try:
                log = future.result()
            except BrokenProcessPool:
                raise ChildProcessError(
                    f"a worker process died (killed, out of memory or crashed) with games "
                    f"{batch.start}-{batch.stop - 1} of {' vs '.join(s.label for s in batch.sides)}"
                    f" not played; the other workers were stopped and games already stored "
                    f"are kept (run the command again to resume)") from None
            yield log
    finally:
        # a pool notices a dead worker at once (unlike multiprocessing.Pool, which waits for
        # it forever); on any way out, the other workers stop now rather than finish
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


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
