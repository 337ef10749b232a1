"""The kernels' one-time compile, announced before it starts.

numba compiles each kernel on its first call and keeps the machine code on disk
(`kernels/__init__.py` drops it when a kernel source changed). From a cold or stale
cache the first command compiles the kernels it needs: a minute or more on two
cores, silent unless someone says so. `announce_compiling(callback)` has
`callback()` called once, just before the first of nardy's own functions starts
compiling, in this process or in a worker process forked from it (the game loops
compile in the workers); a run whose kernels all come from the cache never calls
it. Compiles of other packages' functions (a plugin's numba evaluator) do not count.
"""

from __future__ import annotations

from typing import Callable

_state: dict = {}


def announce_compiling(callback: Callable[[], None]) -> None:
    """Call `callback()` once, before nardy's first kernel compile in this process or a worker
    forked from it; a second registration in the same process keeps the first callback."""
    if _state:
        return
    import multiprocessing

    from numba.core import event

    # one flag for the process and the workers it forks: two workers start compiling at once
    done = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods()
                                       else "spawn").Value("b", 0)

    class _FirstCompile(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            dispatcher = (ev.data or {}).get("dispatcher")
            module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
            if not module.startswith("nardy_cli."):
                return
            with done.get_lock():
                if done.value:
                    return
                done.value = 1
            callback()

        def on_end(self, ev: event.Event) -> None:
            pass

    _state["listener"] = _FirstCompile()
    event.register("numba:compile", _state["listener"])
