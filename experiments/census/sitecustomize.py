"""Every Python process started with this folder on PYTHONPATH and NARDY_COMPILE_CENSUS=FILE set
appends one line per numba compile to FILE: pid, kernel, exclusive CPU seconds (its own compile
without its callees'), inclusive CPU seconds, nesting depth, the process's command line.  CPU
time, not wall time, so a compile waiting on another process's lock (core/compile_lock.py)
counts nothing.  `experiments/compile_census.py FILE` sums it up.  numba is not imported here:
the listener is registered when numba's event module is first imported."""

import os
import sys

_LOG = os.environ.get("NARDY_COMPILE_CENSUS")


def _register() -> None:
    import time

    from numba.core import event
    stack: list[list[float]] = []

    class Census(event.Listener):
        def on_start(self, ev):
            stack.append([time.process_time(), 0.0])

        def on_end(self, ev):
            start, callees = stack.pop()
            total = time.process_time() - start
            if stack:
                stack[-1][1] += total
            func = getattr((ev.data or {}).get("dispatcher"), "py_func", None)
            name = f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', '?')}"
            with open(_LOG, "a") as out:
                out.write(f"{os.getpid()}\t{name}\t{total - callees:.3f}\t{total:.3f}\t"
                          f"{len(stack)}\t{' '.join(sys.argv)[:80]}\n")

    event.register("numba:compile", Census())


if _LOG:
    import importlib.abc
    import importlib.util

    class _AfterNumbaEvents(importlib.abc.MetaPathFinder):
        """Registers the listener right after `numba.core.event` is imported."""

        def find_spec(self, name, path, target=None):
            if name != "numba.core.event":
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(name)
            load = spec.loader.exec_module

            def exec_module(module):
                load(module)
                _register()
            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, _AfterNumbaEvents())
