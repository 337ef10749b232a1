"""How the kernels are compiled: `kernel` and `entry`, `leaf` and `counted`.

**Wrappers.**  numba gives every compiled function two wrappers besides its
code: one that unboxes Python arguments so Python can call it, and one that
makes it a C callback.  Each is lowered, optimized and emitted at its
function's compile, and most kernels are only ever called by other kernels:
the wrappers were a quarter of a cold random rollout's compile (16.1 s of CPU,
11.8 s without them).  So a `kernel` has neither.  Called from Python, it
compiles (once per machine: cached) a twin of itself with the wrapper and runs
that (numba alone would call a null pointer), so tests and the package's
Python side may call any kernel.  An `entry` keeps the Python wrapper: a kernel
one command calls both from Python and from compiled code, so it compiles once.
No kernel is a C callback (users' evaluators are made with `cfunc`, user.py).
Only what Python calls is emitted as machine code (lazy_code.py).

**Stages.**  numba links each callee's code into its caller and optimizes the
whole again, so every level of a game loop (`play_one_game`, `take_turn`, the
turn pass) re-optimized all the levels below it.  A `stage` is optimized once,
in its own library, and linked into its callers as it is; it is never inlined
(nor would LLVM inline a function that size), its own callees still are.  The
searches' levels are not: made stages, `lookahead:neural` ran 15% slower warm
(LLVM no longer specialised them for the arguments their callers pass).

**Leaves.**  numba counts references to every array a compiled function
receives or makes (an atomic increment and decrement each) and prunes the
pairs only in simple control flow.  A rules check with several `return`s,
called for every step the enumerator tries, spent more time on those counts
than on the rules: a third of a random game.  A leaf owns no array, since its
caller holds every one it sees, so it can run without the counts (numba's
`_nrt=False`); it may call other leaves and inline functions, never allocate
(numba refuses to compile that) and never return an array or a view (its
reference would not be counted).

numba compiles a callee with its caller's `_nrt` unless the callee sets it.  So
a kernel a leaf calls that is not a leaf itself is `counted`: compiled first
for a leaf, it would otherwise lose its counts and fail to compile (the order
of compiling depends on which command ran first from an empty cache).
"""

from __future__ import annotations

import types

from numba import njit
from numba.core.registry import CPUDispatcher

from . import lazy_code

lazy_code.install()


class KernelDispatcher(CPUDispatcher):
    """A kernel compiled without a Python wrapper, for compiled callers.  Called from Python (a
    test, an experiment, the package's Python side), it runs its `python_twin` instead."""

    def __call__(self, *args, **kwargs):
        return self.python_twin()(*args, **kwargs)

    def python_twin(self):
        """This kernel's code compiled again with a Python wrapper, on its first call from Python
        (cached like any kernel, under its own name: `<name>_from_python`)."""
        twin = self.__dict__.get("_twin")
        if twin is None:
            f = self.py_func
            copy = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__,
                                      f.__closure__)
            copy.__qualname__ = f"{f.__qualname__}_from_python"
            copy.__module__, copy.__doc__ = f.__module__, f.__doc__
            options = {k: v for k, v in self.targetoptions.items()
                       if k not in ("nopython", "no_cpython_wrapper", "no_cfunc_wrapper")}
            twin = self._twin = _compile(copy, True, options)
        return twin


def _compile(fn, entry: bool, options: dict):
    """`fn` as a cached dispatcher without a C-callback wrapper (and without a Python one unless
    `entry`)."""
    dispatcher = njit(cache=True, no_cfunc_wrapper=True, no_cpython_wrapper=not entry,
                      **options)(fn)
    if not entry and type(dispatcher) is CPUDispatcher:   # not under NUMBA_DISABLE_JIT
        dispatcher.__class__ = KernelDispatcher
    return dispatcher


def _decorator(fn, entry: bool, options: dict, stage: bool = False):
    """Usable bare (`@kernel`) or with options (`@kernel(inline="always")`)."""
    def wrap(f):
        if stage:
            lazy_code.STAGES.add(f.__qualname__)
        return _compile(f, entry, options)
    return wrap(fn) if fn is not None else wrap


def kernel(fn=None, stage: bool = False, **options):
    """A function called only by other kernels: no Python wrapper.  `stage=True` for a level of a
    game loop (see above): optimized once, linked into its callers as it is."""
    return _decorator(fn, False, options, stage)


def entry(fn=None, **options):
    """A kernel Python calls too (`njit(cache=True)` without the C-callback wrapper)."""
    return _decorator(fn, True, options)


def leaf(fn=None, entry: bool = False, **options):
    """A kernel without reference counting (see above); `entry=True` if Python calls it."""
    return _decorator(fn, entry, {"_nrt": False, **options})


def counted(fn=None, entry: bool = False):
    """A kernel a leaf calls that allocates or binds arrays: reference counting set explicitly."""
    return _decorator(fn, entry, {"_nrt": True})
