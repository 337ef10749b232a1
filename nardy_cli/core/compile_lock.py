"""One compile per kernel across processes on one machine, not one per process.

From a cold cache, worker processes that start at once (a run's local workers or a
local Dask cluster's, the test suite's pytest-xdist workers, two commands side by
side) would each compile the same kernels: the same minutes of CPU two or three
times over on two cores. `install()` makes a cache miss take a file lock for that kernel and
signature, next to numba's cache file, and look again once it holds it: a worker
that wanted a kernel another worker was compiling waits for it and loads it from
the cache. The lock is let go when the compile is saved, or when it ends
otherwise (an error). numba's call graph has no cycles, so two workers never each
hold a lock the other waits for.
"""

from __future__ import annotations

import fcntl
import hashlib
import os

from numba.core import caching, dispatcher

_held: dict[tuple[int, str], int] = {}


def _key(cache, sig) -> tuple[int, str]:
    return id(cache), repr(sig)


def _release(key) -> None:
    fd = _held.pop(key, None)
    if fd is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def install() -> None:
    """Wrap numba's disk cache and dispatcher compile with the per-kernel lock (once a process;
    `nardy`'s main process and every worker task call it)."""
    if getattr(caching.Cache, "_nardy_locked", False):
        return
    load, save, compile_ = (caching.Cache.load_overload, caching.Cache.save_overload,
                            dispatcher.Dispatcher.compile)

    def load_overload(self, sig, target_context):
        found = load(self, sig, target_context)
        key = _key(self, sig)
        if found is not None or key in _held:
            return found
        name = hashlib.sha1(f"{self._cache_file._index_name}{sig!r}".encode()).hexdigest()[:16]
        os.makedirs(self._cache_path, exist_ok=True)
        fd = os.open(os.path.join(self._cache_path, f"{name}.lock"), os.O_CREAT | os.O_RDWR)
        fcntl.flock(fd, fcntl.LOCK_EX)
        _held[key] = fd
        found = load(self, sig, target_context)
        if found is not None:
            _release(key)
        return found

    def save_overload(self, sig, data):
        try:
            return save(self, sig, data)
        finally:
            _release(_key(self, sig))

    def compile(self, sig):
        try:
            return compile_(self, sig)
        finally:
            _release(_key(self._cache, sig))

    caching.Cache.load_overload = load_overload
    caching.Cache.save_overload = save_overload
    dispatcher.Dispatcher.compile = compile
    caching.Cache._nardy_locked = True
