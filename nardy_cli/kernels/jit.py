"""`leaf`: how the kernels compile a function that allocates nothing and returns no array.

numba counts references to every array a compiled function receives or makes
(an atomic increment and decrement each) and prunes the pairs only in simple
control flow.  A rules check with several `return`s, called for every step the
enumerator tries, spent more time on those counts than on the rules: a third of
a random game.  A leaf owns no array, since its caller holds every one it sees,
so it can run without the counts (numba's `_nrt=False`); it may call other leaves
and inline functions, never allocate (numba refuses to compile that) and never
return an array or a view (its reference would not be counted).

numba compiles a callee with its caller's `_nrt` unless the callee sets it.  So
a kernel a leaf calls that is not a leaf itself is `counted`: compiled first
for a leaf, it would otherwise lose its counts and fail to compile (the order
of compiling depends on which command ran first from an empty cache).
"""

from __future__ import annotations

from numba import njit


def leaf(fn=None, **options):
    """`njit(cache=True, **options)` without reference counting; usable bare or with options."""
    def wrap(f):
        return njit(cache=True, _nrt=False, **options)(f)
    return wrap(fn) if fn is not None else wrap


def counted(fn):
    """`njit(cache=True)` with reference counting set explicitly: for a kernel a leaf calls that
    allocates or binds arrays."""
    return njit(cache=True, _nrt=True)(fn)
