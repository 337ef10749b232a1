"""Compiled policies: how the game kernel picks one of the distinct legal results."""

from __future__ import annotations

from numba import njit

from .rng import below, next_random

RANDOM = 0


@njit(cache=True)
def choose_play(boards, n, opp_off, mover_white, kind, weights, rstate):
    """Index of the chosen result among boards[:n] (mover-relative, before the turn passes)."""
    return below(next_random(rstate), n)
