"""Playing chunks of games, here or on workers: the one entry point every analysis uses."""

from __future__ import annotations

from typing import Callable, Hashable, Sequence

from .compiled_loop import play_compiled
from .cube_loop import play_cube
from .executors import leaves_process, run_jobs
from .python_loop import play_python
from .spec import MAX_PLIES, GameSpec, Jobs, ensure_portable
from .tally import RESULTS, VALUES, Tally


def play_chunk(spec: GameSpec, mode: str, key: Hashable, lo: int, hi: int,
               max_plies: int = MAX_PLIES) -> Tally:
    """Games lo..hi-1 of `spec` as a `mode` tally: in the compiled loop, or the Python loop for
    Python bots.

    In `RESULTS` mode the per-game codes are kept under (key, lo), in `VALUES` mode the per-game
    values.
    """
    tally = Tally(mode)
    (play_cube if spec.with_cube else play_compiled if spec.in_kernel else play_python)(
        spec, lo, hi, max_plies, tally)
    if mode == RESULTS:
        tally.results = {(key, lo): codes for lo, codes in tally.results.items()}
    elif mode == VALUES:
        tally.values = {(key, lo): arrays for lo, arrays in tally.values.items()}
    return tally


def compile_first(jobs: Sequence[tuple[GameSpec, Hashable, int, int]], mode: str) -> None:
    """Compile (or load) the game loop of the first job here, before any worker starts: its loop
    called for no game.  Forked workers inherit it, and other processes on this machine (a local
    Dask cluster's) load it from the cache this process wrote; a run's other specs play the same
    policies and options, and a loop they still lack is compiled by one process while the others
    wait for it (`core/compile_lock.py`)."""
    if len(jobs):
        spec, key, lo, _ = jobs[0]
        play_chunk(spec, mode, key, lo, lo)


def run_games(jobs: Sequence[tuple[GameSpec, Hashable, int, int]], mode: str, *, workers: int = 1,
              executor: str = "local", scheduler: str | None = None, stop: Callable | None = None,
              report: Callable | None = None) -> tuple[Tally, bool]:
    """Play every (spec, key, lo, hi) job (or until `stop` holds on the jobs finished in order).

    `jobs` may be a lazy sequence (`Jobs`): each job is made when it is sent.
    Returns (summed `mode` tally, interrupted).  The result never depends on the
    workers, the executor or the order jobs finish in.  Policies that cannot be
    sent to other processes are refused before any game starts.
    """
    if leaves_process(workers, executor, len(jobs)):
        ensure_portable({id(p): p for spec, *_ in jobs for p in (spec.white, spec.black)}.values())
        try:
            compile_first(jobs, mode)
        except KeyboardInterrupt:
            return Tally(mode), True
    return run_jobs(Jobs(jobs, lambda job: (job[0], mode, *job[1:])), task=play_chunk,
                    new_tally=lambda: Tally(mode), workers=workers, executor=executor,
                    scheduler=scheduler, stop=stop, report=report)
