"""A user's compiled evaluator and the same bot as a Python object, for the plug-in tests."""

from __future__ import annotations

from numba import njit


@njit
def fewest_pips(board):
    """Fewest pips left for the mover (a compiled evaluator)."""
    pips = 0
    for p in range(24):
        if board[p] > 0:
            pips += board[p] * (24 - p)
    return -float(pips)


class FewestPips:
    """The same choice as a Python object: the first play leaving the fewest pips."""

    def choose(self, position, dice, plays, rng):
        mover = position.turn
        scores = [-p.result.pip_count(mover) for p in plays]
        return scores.index(max(scores))


@njit
def forward_squares(board):
    """The mover's checkers weighted by the square of their distance run (tells apart results of
    equal pips)."""
    s = 0.0
    for p in range(24):
        if board[p] > 0:
            s += board[p] * p * p
    return s


@njit
def returns_the_board(board):
    """Not an evaluator: returns the board itself instead of a number."""
    return board
