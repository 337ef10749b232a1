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

from .bits import trailing_zeros
from .board import N_POINTS
from .features import rotate
from .jit import kernel, leaf

N_BLOCK = 10
# the inputs, in `block_terms`' order
(B_LENGTH, B_HELD, B_ESCAPE, B_TIMING, B_OPP_LENGTH, B_OPP_HELD, B_OPP_ESCAPE, B_OPP_TIMING,
 B_LEAD, B_CRACKS) = range(N_BLOCK)
MIN_BLOCK = 2           # points in the shortest run that counts as a block
LEAD_SCALE = 5.0


@kernel(inline="always")
def _keepers_room(board, mover, length, start, trap_length, trap_start):
    """The room (points each could still move) of one side's checkers that must stay: one on each
    point of its longest block (`length` points from `start`, in the other side's numbering) and
    one on its head; its points before `trap_start` (the other side's longest block, of
    `trap_length` points, in its own numbering) have room only to the point before it."""
    total = 0
    head = board[0] > 0 if mover else board[12] < 0
    for k in range(length + 1):
        if k < length:
            t = start + k
            s = t + 12 if t < 12 else t - 12      # the block point in the side's own numbering
        elif head and not (length > 0 and start <= 12 < start + length):
            s = 0                                 # the head, when it is not a block point
        else:
            break
        total += trap_start - 1 - s if trap_length > 0 and s < trap_start else N_POINTS - 1 - s
    return total


@leaf
def block_terms(board, pips, on, opp):
    """The N_BLOCK block and timing inputs of a mover-relative board (the side that just moved
    positive) whose mover has `pips` and `on` checkers left, as a tuple of floats; `opp` holds the
    opponent's terms (`features.opponent_terms`).

    One scan of the board finds the mover's points and the opponent's longest block (its runs
    are `opp`'s mask), the mover's block is found among the runs of its points, and each
    side's timing is its pips to its point 24 less the room its trapped checkers lose and the
    room of the checkers that stay (`_keepers_room`).
    """
    opp_pips, opp_on, theirs = opp[0], opp[1], opp[4]
    starts = theirs & ~(theirs << 1)        # where a run of the opponent's points begins
    mine = np.int64(0)   # int64 from the start (a literal 0 compiles rotate twice)
    behind = 0          # the mover's checkers on points before p ...
    weighted = 0        # ... and the sum of their points
    opp_length = 0
    opp_start = 0
    opp_held = 0
    opp_escape = 0
    for p in range(N_POINTS):
        if (starts >> p) & 1:
            n = trailing_zeros(~(theirs >> p))
            if n >= MIN_BLOCK and behind > 0 and n >= opp_length:
                opp_length = n
                opp_start = p
                opp_held = behind
                opp_escape = behind * (p + n) - weighted
        c = max(np.int64(board[p]), 0)
        mine |= np.int64(c > 0) << p
        behind += c
        weighted += c * p
    # the mover's block on the opponent's way (the opponent's numbering); opp[5 + q] is the
    # opponent's checkers before its point q
    runs = rotate(mine)
    length = 0
    start = 0
    held = 0
    while runs:
        q = trailing_zeros(runs)
        n = trailing_zeros(~(runs >> q))
        runs &= ~(((1 << n) - 1) << q)
        if n >= MIN_BLOCK and opp[5 + q] > 0 and n >= length:
            length = n
            start = q
            held = opp[5 + q]
    total = pips + opp_pips
    lead = LEAD_SCALE * (opp_pips - pips) / total if total > 0 else 0.0
    lead = min(max(lead, -1.0), 1.0)
    if length == 0 and opp_length == 0:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, lead, 0.0)
    escape = 0
    for q in range(start):
        c = -np.int64(board[q + 12 if q < 12 else q - 12])
        if c > 0:
            escape += c * (start + length - q)
    # pips to point 24: pips - checkers; a checker behind the other side's block loses the room
    # beyond it
    mine_t = pips - on - _keepers_room(board, True, length, start, opp_length, opp_start)
    if opp_length > 0:
        mine_t -= opp_held * (N_POINTS - opp_start)
    theirs_t = opp_pips - opp_on - _keepers_room(board, False, opp_length, opp_start, length,
                                                 start)
    if length > 0:
        theirs_t -= held * (N_POINTS - start)
    cracks = 1.0 if theirs_t < mine_t else (-1.0 if mine_t < theirs_t else 0.0)
    return (length / 6.0, held / 15.0, escape / 100.0, mine_t / 100.0,
            opp_length / 6.0, opp_held / 15.0, opp_escape / 100.0, theirs_t / 100.0, lead, cracks)
