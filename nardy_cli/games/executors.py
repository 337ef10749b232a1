"""Running jobs: in this process, on local worker processes, or on a Dask cluster.

Work crosses to other processes as bytes this module pickles itself, in the
calling thread, before anything is sent: a job that cannot be pickled is a clear
error before any game starts, never an exception inside a queue thread (which
left the pool waiting for ever).  In a worker, every exception becomes a
`NardyError` carrying one line, so receiving it cannot fail either.  Whenever a
run ends early (an error, Ctrl-C, a met stop rule), the worker processes are
stopped at once and reaped: nothing is left behind.  SIGTERM and SIGHUP stop a
run like Ctrl-C once the command line has called `interrupts.interrupt_on_signals`.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Sequence

from ..core.errors import ExecutorError, NardyError, RunConfigError, WorkerError
from ..core.interrupts import held_interrupts, worker_signals

EXECUTORS = ("local", "dask")


class _Collector:
    """Folds finished jobs: all of them, and the prefix in job order for the stop rule."""

    def __init__(self, stop: Callable, report: Callable, new_tally: Callable) -> None:
        self.done: dict[int, object] = {}
        self.total = new_tally()
        self.prefix = new_tally()
        self.next = 0
        self.stop, self.report = stop, report
        self.stopped = False

    def add(self, index: int, tally) -> bool:
        """Record a finished job; True when the stop rule is met on the ordered prefix."""
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


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def check_executor(workers: int, executor: str, scheduler: str | None) -> None:
    """Raise `RunConfigError` for an unknown executor, a worker count below 1, a scheduler without
    Dask or Dask without a scheduler."""
    if executor not in EXECUTORS:
        raise RunConfigError(f"unknown {{executor}} {executor!r}: choose one of "
                             f"{', '.join(EXECUTORS)}")
    if workers < 1:
        raise RunConfigError(f"{{workers}} must be at least 1, got {workers}")
    if executor != "dask" and scheduler is not None:
        raise RunConfigError("{scheduler} needs {executor} dask")
    if executor == "dask" and not scheduler:
        raise RunConfigError("{executor} dask needs {scheduler} ADDRESS "
                             "(e.g. tcp://127.0.0.1:8786)")


def leaves_process(workers: int, executor: str, jobs: int) -> bool:
    """True when `jobs` jobs would run in other processes (and so must be pickled)."""
    return executor == "dask" or (workers > 1 and jobs > 1)


def run_jobs(jobs: Sequence[tuple], *, task: Callable, new_tally: Callable, workers: int = 1,
             executor: str = "local", scheduler: str | None = None, stop: Callable | None = None,
             report: Callable | None = None):
    """Run `task(*job)` for every job (or until `stop` holds on the jobs finished in order).

    `jobs` may be a lazy sequence (`spec.Jobs`): on local workers each job is made and pickled
    when it is sent, so memory does not grow with the number of jobs.
    Returns (summed tally, interrupted).  `task` must be a module-level function
    (it travels to worker processes by reference); its tallies are summed with
    `.add`.  The last two items of a job are its first and last-plus-one game,
    for error messages.
    """
    stop = stop or (lambda tally: False)
    report = report or (lambda tally: None)
    check_executor(workers, executor, scheduler)
    collector = _Collector(stop, report, new_tally)
    try:
        if executor == "dask":
            return _run_dask(task, jobs, scheduler, collector)
        if not leaves_process(workers, executor, len(jobs)):
            return _run_inline(task, jobs, collector)
        return _run_processes(task, jobs, workers, collector)
    except KeyboardInterrupt:       # before an executor took over (each keeps what finished itself)
        return collector.result(True)


def _describe(job: tuple) -> str:
    """Which games a job plays, for error messages."""
    lo, hi = job[-2], job[-1]
    return f"games {lo}-{hi - 1}"


def _payload(task: Callable, job: tuple) -> bytes:
    """The job as bytes for another process; a job that cannot be pickled is an `ExecutorError`."""
    try:
        return pickle.dumps((task, job), protocol=pickle.HIGHEST_PROTOCOL)
    except NardyError:
        raise
    except Exception as exc:
        raise ExecutorError(f"cannot send {_describe(job)} to a worker: "
                            f"{type(exc).__name__}: {exc}") from None


def run_payload(payload: bytes, lo: int, hi: int):
    """In a worker: unpickle a job (games lo..hi-1), run it, and turn any failure into a one-line
    `NardyError`."""
    from ..core.compile_lock import install as lock_compiles
    task, job = None, ()
    lock_compiles()     # a kernel this worker needs while another compiles it: wait and load it
    try:
        task, job = pickle.loads(payload)
        return task(*job)
    except NardyError as exc:  # keep the class when it survives pickling, else its one line
        raise _portable(exc) from None
    except Exception as exc:
        where = f" while playing {_describe(job)}" if job else ""
        raise WorkerError(f"a worker failed{where}: {type(exc).__name__}: {exc}") from None


def _portable(exc: NardyError) -> NardyError:
    """`exc` if it pickles and unpickles, else a plain `NardyError` with its message."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc.with_traceback(None)
    except Exception:
        return NardyError(str(exc))


def _run_inline(task, jobs, collector):
    """Run the jobs here, in order; Ctrl-C (or SIGTERM, SIGHUP) keeps the jobs finished so far."""
    try:
        for i, job in enumerate(jobs):
            if collector.add(i, task(*job)):
                break
    except KeyboardInterrupt:
        return collector.result(True)
    return collector.result(False)


def _run_processes(task, jobs, workers, collector):
    # each job is pickled as it is sent, so a long run's jobs take no memory; the first is pickled
    # before any process starts, so a job that cannot be sent is an error before any game
    try:
        first = _payload(task, jobs[0])
    except KeyboardInterrupt:
        return collector.result(True)
    payloads = ((i, job, first if i == 0 else _payload(task, job)) for i, job in enumerate(jobs))
    context = multiprocessing.get_context("fork"
                                          if "fork" in multiprocessing.get_all_start_methods()
                                          else "spawn")
    # no process starts before the first submit, which is inside the `try` below
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=worker_signals)
    pending: dict = {}
    interrupted = False
    finished_cleanly = False

    def refill() -> None:
        # held: the first submit forks the workers, and a KeyboardInterrupt raised inside an at-fork
        # hook (logging's) is swallowed there and leaves its lock taken, so the run hung at exit
        with held_interrupts():
            for i, job, payload in payloads:
                pending[pool.submit(run_payload, payload, *job[-2:])] = (i, job)
                if len(pending) >= 2 * workers:
                    break

    try:
        refill()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            stopped = False
            for fut in done:
                i, job = pending.pop(fut)
                try:
                    tally = fut.result()
                except BrokenProcessPool:
                    raise WorkerError(f"a worker process died while playing {_describe(job)}; "
                                        "no result is reported") from None
                except NardyError:
                    raise
                except Exception as exc:  # a result that could not be sent back
                    raise WorkerError(f"the result of {_describe(job)} could not be received from "
                                      "its worker: "
                                        f"{type(exc).__name__}: {exc}") from None
                if collector.add(i, tally):
                    stopped = True
                    break
            if stopped:
                break
            refill()
        finished_cleanly = not pending
    except KeyboardInterrupt:
        interrupted = True
    except BaseException:
        _close_pool(pool, wait_for_workers=False)
        raise
    try:
        _close_pool(pool, wait_for_workers=finished_cleanly)
    except KeyboardInterrupt:    # a signal held while the workers were stopped
        interrupted = True
    return collector.result(interrupted)


def _close_pool(pool: ProcessPoolExecutor, wait_for_workers: bool) -> None:
    """Shut the pool down; unless every job finished, stop its processes at once and reap them.

    A second Ctrl-C (or SIGTERM) while the workers are being stopped waits until they are gone.
    """
    with held_interrupts():
        _stop_pool(pool, wait_for_workers)


def _stop_pool(pool: ProcessPoolExecutor, wait_for_workers: bool) -> None:
    if wait_for_workers:
        pool.shutdown(wait=True)
        return
    # The pool's own dict of processes: its manager thread may still start a worker after a
    # first look, so the dict is swept again once that thread has ended.
    processes = getattr(pool, "_processes", None) or {}
    manager = getattr(pool, "_executor_manager_thread", None)
    for proc in list(processes.values()):
        proc.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    if manager is not None:
        manager.join(timeout=5)
    for proc in list(processes.values()):
        proc.terminate()
        proc.join(timeout=5)
        if proc.is_alive():  # pragma: no cover - a worker that ignores SIGTERM
            proc.kill()
            proc.join(timeout=5)


CONNECT_SECONDS = 8


def _connect(client_class, scheduler: str):
    """A Dask client of `scheduler` within CONNECT_SECONDS (+1), else an `ExecutorError` for a
    malformed address and a `WorkerError` for one that refuses or does not answer.

    `Client(timeout=...)` alone waits for ever on an address that accepts the
    connection but never answers, so the client is made in a daemon thread and
    given up on after the deadline (the thread dies with the process).
    """
    box: dict = {}

    def connect() -> None:
        try:
            box["client"] = client_class(scheduler, timeout=f"{CONNECT_SECONDS}s")
        except Exception as exc:  # bad address, refused, timed out: all one clear error
            box["error"] = exc

    thread = threading.Thread(target=connect, name="nardy-dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS + 1)
    if "client" in box:
        return box["client"]
    error = box.get("error")
    reason = error or f"no answer within {CONNECT_SECONDS} s"
    # bad input; refused or silent: a runtime failure
    bad_address = isinstance(error, (ValueError, TypeError))
    raise (ExecutorError if bad_address
           else WorkerError)(f"cannot reach the Dask scheduler {scheduler!r}: {reason}")


def _run_dask(task, jobs, scheduler, collector):
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ExecutorError("the dask executor needs the optional extra: "
                            "pip install 'nardy[dask]'") from None
    first = _payload(task, jobs[0])     # a job that cannot be sent: an error before connecting
    client = _connect(Client, scheduler)
    interrupted = False
    # jobs are made, pickled and sent as earlier ones finish, a window of them at a time, so a
    # long run's jobs take no memory (the cluster's worker count sets the window)
    window = max(8, 4 * len(client.scheduler_info().get("workers", {})))
    todo = ((i, job) for i, job in enumerate(jobs))
    futures: dict = {}
    try:
        queue = as_completed()

        def submit(count: int) -> None:
            for i, job in todo:
                payload = first if i == 0 else _payload(task, job)
                fut = client.submit(run_payload, payload, *job[-2:], pure=False)
                futures[fut] = (i, job)
                queue.add(fut)
                count -= 1
                if count <= 0:
                    break
        try:
            submit(window)
            for fut in queue:
                i, job = futures.pop(fut)
                try:
                    tally = fut.result()
                except NardyError as exc:  # raised by run_payload on the worker: already one line
                    raise exc.with_traceback(None) from None
                except Exception as exc:
                    raise WorkerError(f"Dask task for {_describe(job)} failed: "
                                      f"{type(exc).__name__}: {exc}") from None
                if collector.add(i, tally):
                    break
                submit(1)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            client.cancel(list(futures))
    finally:
        client.close()
    return collector.result(interrupted)
