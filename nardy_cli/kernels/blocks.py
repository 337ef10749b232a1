"""Blocks and timing of a mover-relative board: the inputs a network of input version 2 adds.

A *block* is a run of at least two consecutive points held by one side on the
other side's way, counted in the other side's numbering (where its checkers
still have to pass: the blocking side's point 24 and point 1 are neighbours
there).  A side's *longest block* is its longest run with at least one of the
other side's checkers behind it (of two as long, the one further along, which
holds more); a run nobody is behind blocks nothing.  `block_terms` gives, for
the side that has just moved (the mover) and then for its opponent:

- the points of the side's longest block, / 6;
- the other side's checkers behind it, / 15;
- the pips those checkers need to pass it (each to the first point beyond it), / 100;
- the side's timing, / 100: the pips it can play before it must break that
  block or its head.  Each of its checkers counts the points it can still move
  forward (to its point 24; one behind the other side's longest block only to
  the point before that block), except one checker on each point of its longest
  block and one on its head (point 1), which stay;

then two for the pair:

- the race lead: the mover's pip lead over both sides' pips together, times 5,
  clipped to [-1, 1] (a lead of a fifth of all the pips counts in full);
- who cracks first: +1 when the opponent's timing is the shorter (it must break
  first), -1 when the mover's is, 0 when they are equal or neither side has a
  longest block (timings are then 0 too).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import trailing_zeros
from .board import N_POINTS
from .features import masks, rotate
from .jit import leaf

N_BLOCK = 10
# the inputs, in `block_terms`' order
(B_LENGTH, B_HELD, B_ESCAPE, B_TIMING, B_OPP_LENGTH, B_OPP_HELD, B_OPP_ESCAPE, B_OPP_TIMING,
 B_LEAD, B_CRACKS) = range(N_BLOCK)
MIN_BLOCK = 2           # points in the shortest run that counts as a block
LEAD_SCALE = 5.0


@njit(cache=True, inline="always")
def _count(board, trapped_is_mover, q):
    """Checkers of the trapped side on its own point `q` (0-based)."""
    if trapped_is_mover:
        c = np.int64(board[q])
    else:
        c = -np.int64(board[q + 12 if q < 12 else q - 12])
    return c if c > 0 else 0


@njit(cache=True, inline="always")
def longest_block(runs, board, trapped_is_mover):
    """(points, first point, checkers behind, pips they need to pass it) of the longest block in
    `runs` (the blocking side's points as a mask in the trapped side's numbering); all 0 when no
    run of MIN_BLOCK points has a trapped checker behind it."""
    best_len = 0
    best_start = 0
    best_held = 0
    best_escape = 0
    held = 0        # trapped checkers on points before q ...
    weighted = 0    # ... and the sum of their points
    q = 0
    while runs:
        start = trailing_zeros(runs)
        length = trailing_zeros(~(runs >> start))
        runs &= ~(((1 << length) - 1) << start)
        while q < start:
            c = _count(board, trapped_is_mover, q)
            held += c
            weighted += c * q
            q += 1
        if length >= MIN_BLOCK and held > 0 and length >= best_len:
            best_len = length
            best_start = start
            best_held = held
            best_escape = held * (start + length) - weighted
    return best_len, best_start, best_held, best_escape


@njit(cache=True, inline="always")
def timing(board, mover, length, start, trap_length, trap_start):
    """The pips one side (the mover when `mover`) can play before it must break its longest block
    (`length` points from `start`, in the other side's numbering) or its head; its checkers
    before `trap_start` (its own numbering: the other side's longest block, of `trap_length`
    points) move only to the point before that block."""
    total = 0
    for s in range(N_POINTS):
        c = _count(board, mover, s)
        if c == 0:
            continue
        t = s + 12 if s < 12 else s - 12       # the point in the other side's numbering
        keep = 1 if s == 0 or (length > 0 and start <= t < start + length) else 0
        room = trap_start - 1 - s if trap_length > 0 and s < trap_start else N_POINTS - 1 - s
        if c > keep and room > 0:
            total += (c - keep) * room
    return total


@leaf
def block_terms(board, pips, opp_pips):
    """The N_BLOCK block and timing inputs of a mover-relative board (the side that just moved
    positive), whose sides have `pips` and `opp_pips` left, as a tuple of floats."""
    mine, theirs = masks(board)
    # the mover's block on the opponent's way (the opponent's numbering), and the opponent's
    length, start, held, escape = longest_block(rotate(mine), board, False)
    opp_length, opp_start, opp_held, opp_escape = longest_block(theirs, board, True)
    total = pips + opp_pips
    lead = LEAD_SCALE * (opp_pips - pips) / total if total > 0 else 0.0
    lead = min(max(lead, -1.0), 1.0)
    if length == 0 and opp_length == 0:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, lead, 0.0)
    mine_t = timing(board, True, length, start, opp_length, opp_start)
    theirs_t = timing(board, False, opp_length, opp_start, length, start)
    cracks = 1.0 if theirs_t < mine_t else (-1.0 if mine_t < theirs_t else 0.0)
    return (length / 6.0, held / 15.0, escape / 100.0, mine_t / 100.0,
            opp_length / 6.0, opp_held / 15.0, opp_escape / 100.0, theirs_t / 100.0, lead, cracks)
