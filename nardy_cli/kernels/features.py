"""Board features for the compiled evaluators: bit masks, mobility, blocks and the heuristic's
inputs."""

from __future__ import annotations

import numpy as np

from .bits import popcount, trailing_zeros
from .jit import kernel, leaf
from .board import HOME_START, N_POINTS

N_FEATURES = 16
N_OPP = 5 + 24          # length of the opponent-terms array

# feature indices
(F_PIPS, F_OFF, F_BLOCK, F_ZONE, F_HEAD, F_OPP_BLOCKED, F_OPP_MOBILITY, F_OWN_BLOCKED,
 F_STACK, F_HOME, F_SPREAD, F_RACE_PIPS, F_RACE_OFF, F_CONTACT, F_OPP_HEAD,
 F_OWN_MOBILITY) = range(16)

_PRIME = np.array([0.0, 0.0, 1.0, 2.0, 4.0, 7.0, 11.0, 16.0, 22.0, 29.0, 37.0, 46.0, 56.0],
                  dtype=np.float64)


_FULL = (1 << N_POINTS) - 1


@leaf
def movable_points(own, other, face, all_home):
    """Bit mask of `own` points (own numbering) from which a step of `face` is legal, ignoring R6.

    `other` is the other side's points in the same numbering.
    """
    inside = own & ~(other >> face) & ((1 << (N_POINTS - face)) - 1)
    if all_home:
        inside |= own & ~((1 << (N_POINTS - face)) - 1)
    return inside


@leaf
def masks(board):
    """(mover's points, opponent's points in the mover's numbering, both numberings rotated) as bit
    masks."""
    mine = np.int64(0)   # int64 from the start: no second compile of callees for a literal 0
    theirs = np.int64(0)
    for p in range(N_POINTS):
        if board[p] > 0:
            mine |= 1 << p
        elif board[p] < 0:
            theirs |= 1 << p
    return mine, theirs


@leaf
def rotate(mask):
    """The same points in the other side's numbering (12 points round)."""
    return ((mask >> 12) | (mask << 12)) & _FULL


@leaf
def opponent_terms(board, opp):
    """Fill `opp` (29 cells) with the opponent's terms, which do not change during the mover's turn.

    Pips, checkers on board, checkers outside home, whether one is on its points
    1-12, its points as a mask, then per point how many of its checkers are behind.
    """
    pips = 0
    on = 0
    out_home = 0
    back = 0
    mask = 0
    for p in range(N_POINTS):
        c = board[p]
        if c < 0:
            mask |= 1 << p
            q = p - 12 if p >= 12 else p + 12
            pips -= c * (24 - q)
            on -= c
            if q < HOME_START:
                out_home -= c
                if q < 12:
                    back = 1
    opp[0] = pips
    opp[1] = on
    opp[2] = out_home
    opp[3] = back
    opp[4] = mask
    # opp[5 + q]: opponent checkers on its points before q (0-based, its numbering)
    behind = 0
    for q in range(N_POINTS):
        opp[5 + q] = behind
        c = board[q + 12 if q < 12 else q - 12]
        if c < 0:
            behind -= c


@leaf
def features(board, out, opp):
    """Fill `out` with the evaluator's features of a mover-relative board; return the mover's
    checkers on board.

    `opp` holds the opponent's terms from `opponent_terms` for this board.
    """
    return feature_terms(board, out, opp)[1]


@kernel(inline="always")
def feature_terms(board, out, opp):
    """`features` (into `out`), returning the mover's (pips, checkers on board, checkers outside
    home, 1 when one stands on its points 1-12 else 0), as `neural.mover_terms` counts them."""
    for j in range(N_FEATURES):
        out[j] = 0.0
    my_pips = np.int64(0)   # int64 from the start: for a literal 0 numba compiles
    my_on = np.int64(0)     # the callees given these (block_terms, rotate) a second time
    my_out_home = 0
    mine_m = np.int64(0)
    stack = 0
    spread = 0
    home = 0
    zone = 0
    back_count = 0
    # branch-free: which points hold the mover's checkers cannot be predicted
    for p in range(N_POINTS):
        c = max(board[p], 0)
        held = c > 0
        mine_m |= np.int64(held) << p
        my_pips += c * (24 - p)
        my_on += c
        if p < HOME_START:
            my_out_home += c
            if p < 12:
                back_count += c
            else:
                zone += held    # points held in front of the opponent's head (mover's 13-18)
        else:
            home += held
        if p > 0:
            spread += held
            stack += max(c - 3, 0)
    my_back = back_count > 0   # a mover checker on its points 1-12
    opp_pips, opp_on, opp_out_home = opp[0], opp[1], opp[2]
    opp_back = opp[3] != 0
    theirs_m = opp[4]
    terms = (my_pips, my_on, my_out_home, 1 if my_back else 0)
    if my_on == 0:
        return terms
    my_off = 15 - my_on
    opp_off = 15 - opp_on
    if not ((my_back or opp_back) and opp_on > 0):
        out[F_RACE_PIPS] = (opp_pips - my_pips) / 10.0
        out[F_RACE_OFF] = my_off - opp_off
        return terms
    out[F_CONTACT] = 1.0
    out[F_PIPS] = (opp_pips - my_pips) / 10.0
    out[F_OFF] = my_off - opp_off
    # blocks along the opponent's path, worth more the more opponent checkers are behind them
    block = 0.0
    runs = rotate(mine_m)   # the mover's points in the opponent's numbering
    while runs:
        start = trailing_zeros(runs)
        length = trailing_zeros(~(runs >> start))
        runs &= ~(((1 << length) - 1) << start)
        behind = opp[5 + start]
        if length >= 2 and behind > 0:
            block += _PRIME[min(length, 12)] * behind
    out[F_BLOCK] = block / 15.0
    out[F_ZONE] = zone
    out[F_HEAD] = board[0] - 1 if board[0] > 1 else 0
    out[F_OPP_HEAD] = -board[12] - 1 if board[12] < -1 else 0
    opp_own, mine_in_opp = rotate(theirs_m), rotate(mine_m)
    blocked = 0
    total = 0
    own_blocked = 0
    own_total = 0
    for f in range(1, 7):
        m = popcount(movable_points(opp_own, mine_in_opp, f, opp_out_home == 0))
        total += m
        if m == 0:
            blocked += 1
        m2 = popcount(movable_points(mine_m, theirs_m, f, my_out_home == 0))
        own_total += m2
        if m2 == 0:
            own_blocked += 1
    out[F_OPP_BLOCKED] = blocked
    out[F_OPP_MOBILITY] = np.sqrt(total)
    out[F_OWN_BLOCKED] = own_blocked
    out[F_OWN_MOBILITY] = np.sqrt(own_total)
    out[F_STACK] = stack
    out[F_SPREAD] = spread
    out[F_HOME] = home
    return terms
