"""Running rollout chunks: in this process, on local worker processes, or on a Dask cluster."""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Callable

from .errors import ArgumentError, ExecutorError

EXECUTORS = ("local", "dask")


class _Collector:
    """Folds finished chunks: all of them, and the prefix in chunk order for the stop rule."""

    def __init__(self, n: int, stop: Callable, report: Callable, new_tally: Callable) -> None:
        self.done: dict[int, object] = {}
        self.total = new_tally()
        self.prefix = new_tally()
        self.next = 0
        self.n = n
        self.stop, self.report = stop, report
        self.stopped = False

    def add(self, index: int, tally) -> bool:
        """Record a finished chunk; True when the stop rule is met on the ordered prefix."""
        self.done[index] = tally
        self.total.add(tally)
        while self.next in self.done:
            self.prefix.add(self.done.pop(self.next))
            self.next += 1
            if self.stop(self.prefix):
                self.stopped = True
                return True
        self.report(self.total)
        return False

    def result(self, interrupted: bool):
        """The stopped prefix, everything finished, and whether it was interrupted."""
        return (self.prefix if self.stopped else self.total), interrupted


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run_chunks(spec, ranges: list[tuple[int, int]], *, task: Callable, new_tally: Callable, workers: int = 1,
               executor: str = "local", scheduler: str | None = None, stop: Callable | None = None,
               report: Callable | None = None):
    """Run `task(spec, lo, hi)` on every range (or until `stop`), returning (summed tally, interrupted)."""
    return run_jobs([(spec, lo, hi) for lo, hi in ranges], task=task, new_tally=new_tally, workers=workers,
                    executor=executor, scheduler=scheduler, stop=stop, report=report)


def run_jobs(jobs: list[tuple], *, task: Callable, new_tally: Callable, workers: int = 1, executor: str = "local",
             scheduler: str | None = None, stop: Callable | None = None, report: Callable | None = None):
    """Run `task(*job)` for every job (or until `stop` holds on the jobs finished in order).

    Returns (summed tally, interrupted).  `task` must be a module-level function
    (it is pickled to worker processes); its tallies are summed with `.add`.
    """
    stop = stop or (lambda tally: False)
    report = report or (lambda tally: None)
    if executor not in EXECUTORS:
        raise ArgumentError(f"unknown {{executor}} {executor!r}: choose one of {', '.join(EXECUTORS)}")
    if workers < 1:
        raise ArgumentError(f"{{workers}} must be at least 1, got {workers}")
    collector = _Collector(len(jobs), stop, report, new_tally)
    if executor == "dask":
        return _run_dask(task, jobs, scheduler, collector)
    if scheduler is not None:
        raise ArgumentError("{scheduler} needs {executor} dask")
    if workers == 1 or len(jobs) == 1:
        return _run_inline(task, jobs, collector)
    return _run_processes(task, jobs, workers, collector)


def _describe(job: tuple) -> str:
    """Which games a job plays, for error messages."""
    lo, hi = job[-2], job[-1]
    return f"games {lo}-{hi - 1}"


def _run_inline(task, jobs, collector):
    try:
        for i, job in enumerate(jobs):
            if collector.add(i, task(*job)):
                break
    except KeyboardInterrupt:
        return collector.result(True)
    return collector.result(False)


def _run_processes(task, jobs, workers, collector):
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_sigint)
    pending: dict = {}
    todo = iter(enumerate(jobs))
    interrupted = False
    try:
        for i, job in todo:
            pending[pool.submit(task, *job)] = (i, job)
            if len(pending) >= 2 * workers:
                break
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                i, job = pending.pop(fut)
                try:
                    tally = fut.result()
                except BrokenProcessPool:
                    raise ExecutorError(f"a worker process died while playing {_describe(job)}; "
                                        "no result is reported") from None
                if collector.add(i, tally):
                    pending.clear()
                    break
            else:
                for i, job in todo:
                    pending[pool.submit(task, *job)] = (i, job)
                    if len(pending) >= 2 * workers:
                        break
                continue
            break
    except KeyboardInterrupt:
        interrupted = True
    finally:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        if interrupted:  # stop at once: chunks still running are dropped
            for proc in processes:
                proc.terminate()
        pool.shutdown(wait=not interrupted, cancel_futures=True)
    return collector.result(interrupted)


def _run_dask(task, jobs, scheduler, collector):
    if not scheduler:
        raise ArgumentError("{executor} dask needs {scheduler} ADDRESS (e.g. tcp://127.0.0.1:8786)")
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ExecutorError("the dask executor needs the optional extra: pip install 'nardy[dask]'") from None
    try:
        client = Client(scheduler, timeout="10s")
    except Exception as exc:  # bad address, refused, timed out: all one clear error
        raise ExecutorError(f"cannot reach the Dask scheduler {scheduler!r}: {exc}") from None
    interrupted = False
    try:
        futures = {client.submit(task, *job, pure=False): (i, job) for i, job in enumerate(jobs)}
        try:
            for fut in as_completed(futures):
                i, job = futures[fut]
                try:
                    tally = fut.result()
                except Exception as exc:
                    raise ExecutorError(f"Dask task for {_describe(job)} failed: {exc}") from None
                if collector.add(i, tally):
                    break
        except KeyboardInterrupt:
            interrupted = True
        finally:
            client.cancel(list(futures))
    finally:
        client.close()
    return collector.result(interrupted)
