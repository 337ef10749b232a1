"""Interrupts: Ctrl-C (SIGINT), SIGTERM and SIGHUP all stop a run the same way, as a
KeyboardInterrupt.

The command line calls `interrupt_on_signals()` once at start, so a `kill` or a
closed terminal stops a run exactly like Ctrl-C: the games finished so far are
reported, marked interrupted, and the worker processes are stopped and reaped.
`held_interrupts()` holds those signals over a stretch that must not be cut in
two (a compiled game loop, the bookkeeping of a round, stopping the workers)
and delivers them at its end.  Worker processes ignore SIGINT and SIGHUP (a
terminal sends both to the whole process group; the main process stops the
workers itself) and die on SIGTERM, which is how they are stopped.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator

# the signals that interrupt a run, where the platform has them
SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                if hasattr(signal, name))


_received: list[int] = []


def _raise_interrupt(signum, frame) -> None:
    _received.append(signum)
    raise KeyboardInterrupt(signal.Signals(signum).name)


def received() -> bool:
    """True once an interrupting signal came (after `interrupt_on_signals`), even one whose
    KeyboardInterrupt a library swallowed: numba's compiler, cut in a ctypes callback, ignores it
    and fails later with a `RuntimeError` of its own."""
    return bool(_received)


def interrupt_on_signals() -> None:
    """Make SIGINT, SIGTERM and SIGHUP raise KeyboardInterrupt in the main thread, and be
    remembered (`received`) (for the CLI)."""
    for sig in SIGNALS:
        # `nohup` keeps SIGHUP ignored; a SIGINT ignored by the shell (`cmd &`) stays ignored
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _raise_interrupt)


@contextmanager
def held_interrupts() -> Iterator[None]:
    """Hold the interrupting signals over the block, then deliver any that came (once each).

    Only signals with a Python handler are held (a default SIGTERM still ends the
    process at once, as it would without nardy), and only in the main thread,
    the one Python runs handlers in.  A Python handler, not a blocked signal: a
    signal blocked in the main thread is delivered to any other thread (Dask's,
    tqdm's), and Python raises it in the main thread all the same.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {}
    for sig in SIGNALS:
        handler = signal.getsignal(sig)
        if callable(handler):
            previous[sig] = signal.signal(sig, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(caught):
            signal.raise_signal(sig)


def worker_signals() -> None:
    """In a worker process: ignore SIGINT and SIGHUP, die on SIGTERM (the main process stops its
    workers)."""
    for sig in SIGNALS:
        signal.signal(sig,
                      signal.SIG_DFL if sig == getattr(signal, "SIGTERM", None) else signal.SIG_IGN)
