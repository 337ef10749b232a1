"""Users' compiled evaluators as first-class arguments of the game kernel.

A user evaluator is a numba function `score(board) -> float` of the mover-relative
board right after the mover's play (higher is better for the mover).  The game
loop takes each side's evaluator as an argument (`Evaluators`, a named pair of
first-class functions of `EVALUATOR_SIGNATURE`) and, for a side whose kind is
`USER`, picks by it (`best_by`), calling it through its address.  So one
compiled, cached game loop serves the built-ins and every user's function: a
built-in side passes `no_evaluator()`, which is never called, and a user's
function is only compiled for the signature (`first_class`, a few hundredths of
a second on first use in a process).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from numba import cfunc, float64, int8, types

from .jit import kernel

USER = 100   # policy kind of a side that plays by its `Evaluators` entry (built-in kinds are below)

EVALUATOR_SIGNATURE = float64(types.Array(int8, 1, "C"))
"""A user's evaluator as the kernel calls it: one mover-relative board (int8[24], C order) ->
float."""


class Evaluators(NamedTuple):
    """Each side's evaluator for the game loop (`no_evaluator` for a side that plays a built-in)."""

    white: object
    black: object


def _zero(board):
    """The evaluator of a built-in side: never called."""
    return 0.0


@lru_cache(maxsize=1)
def no_evaluator():
    """The evaluator argument of a built-in side (from numba's cache after the first run; made on
    first use, so importing the kernels stays free)."""
    return cfunc(EVALUATOR_SIGNATURE, cache=True)(_zero)


@lru_cache(maxsize=32)
def first_class(evaluator):
    """A user's numba function as the game loop's argument (compiled once per process for the
    signature)."""
    return cfunc(EVALUATOR_SIGNATURE)(evaluator)


@kernel
def best_by(boards, n, evaluator):
    """Index of the first of the best results among boards[:n] by a user's `evaluator`."""
    best = 0
    best_score = -1e300
    for i in range(n):
        s = evaluator(boards[i])
        if s > best_score:
            best_score = s
            best = i
    return best
