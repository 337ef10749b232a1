"""`leaf`: how the kernels compile a function that allocates nothing and returns no array.

numba counts references to every array a compiled function receives or makes
(an atomic increment and decrement each) and prunes the pairs only in simple
control flow.  A rules check with several `return`s, called for every step the
enumerator tries, spent more time on those counts than on the rules: a third of
a random game.  A leaf owns no array, since its caller holds every one it sees,
so it can run without the counts (numba's `_nrt=False`); it may call other leaves
and inline functions, never allocate (numba refuses to compile that) and never
return an array or a view (its reference would not be counted).
"""

from __future__ import annotations

from numba import njit


def leaf(fn=None, **options):
    """`njit(cache=True, **options)` without reference counting; usable bare or with options."""
    def wrap(f):
        return njit(cache=True, _nrt=False, **options)(f)
    return wrap(fn) if fn is not None else wrap
