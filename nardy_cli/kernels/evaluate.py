"""Compiled policies: static evaluators and how the game kernel picks a result.

An evaluator scores a mover-relative board right after the mover's play (the
opponent to roll next), higher being better for the mover.  `choose_play`
returns the index of the best result, or a uniform one for the random policy;
with lookahead it averages the opponent's best reply over its 21 rolls.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import HOME_START, N_POINTS
from .movegen import enumerate_plays
from .rng import below, next_random

RANDOM, RACER, HEURISTIC = 0, 1, 2
N_WEIGHTS = 32
N_FEATURES = 16
N_OPP = 5 + 24          # length of the opponent-terms array
LOOKAHEAD_WIDTH = 3      # candidates searched one ply deeper, best first by the static score
TERMINAL = 1000.0        # score of a play that bears off the last checker

# feature indices
F_PIPS, F_OFF, F_BLOCK, F_ZONE, F_HEAD, F_OPP_BLOCKED, F_OPP_MOBILITY, F_OWN_BLOCKED, \
    F_STACK, F_HOME, F_SPREAD, F_RACE_PIPS, F_RACE_OFF, F_CONTACT, F_OPP_HEAD, F_OWN_MOBILITY = range(16)

# the 21 rolls (high, low) and their weights out of 36
ROLL_HIGH = np.array([h for h in range(6, 0, -1) for l in range(h, 0, -1)], dtype=np.int64)
ROLL_LOW = np.array([l for h in range(6, 0, -1) for l in range(h, 0, -1)], dtype=np.int64)
ROLL_WEIGHT = np.array([1.0 if h == l else 2.0 for h, l in zip(ROLL_HIGH, ROLL_LOW)]) / 36.0

_PRIME = np.array([0.0, 0.0, 1.0, 2.0, 4.0, 7.0, 11.0, 16.0, 22.0, 29.0, 37.0, 46.0, 56.0], dtype=np.float64)


_FULL = (1 << N_POINTS) - 1


@njit(cache=True)
def popcount(x):
    """Number of set bits of a non-negative int64."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101 & 0xFFFFFFFFFFFFFFFF) >> 56


@njit(cache=True)
def movable_points(own, other, face, all_home):
    """Bit mask of `own` points (own numbering) from which a step of `face` is legal, ignoring R6.

    `other` is the other side's points in the same numbering.
    """
    inside = own & ~(other >> face) & ((1 << (N_POINTS - face)) - 1)
    if all_home:
        inside |= own & ~((1 << (N_POINTS - face)) - 1)
    return inside


@njit(cache=True)
def masks(board):
    """(mover's points, opponent's points in the mover's numbering, both numberings rotated) as bit masks."""
    mine = 0
    theirs = 0
    for p in range(N_POINTS):
        if board[p] > 0:
            mine |= 1 << p
        elif board[p] < 0:
            theirs |= 1 << p
    return mine, theirs


@njit(cache=True)
def rotate(mask):
    """The same points in the other side's numbering (12 points round)."""
    return ((mask >> 12) | (mask << 12)) & _FULL


@njit(cache=True)
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


@njit(cache=True)
def features(board, out, opp):
    """Fill `out` with the evaluator's features of a mover-relative board; return the mover's checkers on board.

    `opp` holds the opponent's terms from `opponent_terms` for this board.
    """
    for j in range(N_FEATURES):
        out[j] = 0.0
    my_pips = 0
    my_on = 0
    my_out_home = 0
    my_back = False   # a mover checker on its points 1-12
    mine_m = 0
    stack = 0
    spread = 0
    home = 0
    zone = 0
    for p in range(N_POINTS):
        c = board[p]
        if c > 0:
            mine_m |= 1 << p
            my_pips += c * (24 - p)
            my_on += c
            if p < HOME_START:
                my_out_home += c
                if p < 12:
                    my_back = True
                elif p < 18:
                    zone += 1   # points held in front of the opponent's head (mover's 13-18)
            else:
                home += 1
            if p > 0:
                spread += 1
                if c > 3:
                    stack += c - 3
    opp_pips, opp_on, opp_out_home = opp[0], opp[1], opp[2]
    opp_back = opp[3] != 0
    theirs_m = opp[4]
    if my_on == 0:
        return 0
    my_off = 15 - my_on
    opp_off = 15 - opp_on
    if not ((my_back or opp_back) and opp_on > 0):
        out[F_RACE_PIPS] = (opp_pips - my_pips) / 10.0
        out[F_RACE_OFF] = my_off - opp_off
        return my_on
    out[F_CONTACT] = 1.0
    out[F_PIPS] = (opp_pips - my_pips) / 10.0
    out[F_OFF] = my_off - opp_off
    # blocks along the opponent's path, worth more the more opponent checkers are behind them
    block = 0.0
    runs = rotate(mine_m)   # the mover's points in the opponent's numbering
    while runs:
        start = popcount((runs & -runs) - 1)
        length = popcount(((~(runs >> start)) & -(~(runs >> start))) - 1)
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
    return my_on


@njit(cache=True)
def racer_score(board):
    """Fewest pips left and most borne off first, then the fewest own blocked faces."""
    pips = 0
    on = 0
    out_home = 0
    for p in range(N_POINTS):
        if board[p] > 0:
            pips += board[p] * (24 - p)
            on += board[p]
            if p < HOME_START:
                out_home += board[p]
    if on == 0:
        return TERMINAL
    mine, theirs = masks(board)
    blocked = 0
    for f in range(1, 7):
        if movable_points(mine, theirs, f, out_home == 0) == 0:
            blocked += 1
    return -pips + 4.0 * (15 - on) - 0.5 * blocked


@njit(cache=True)
def static_score(board, kind, weights, feats, opp):
    """Score of a result for the side that just played it (`opp`: see `opponent_terms`)."""
    if kind == RACER:
        return racer_score(board)
    if features(board, feats, opp) == 0:
        return TERMINAL
    s = 0.0
    for j in range(N_FEATURES):
        s += weights[j] * feats[j]
    return s


@njit(cache=True)
def _reply_value(board, head_rule, block_check, kind, weights, feats, scratch_boards, scratch_from,
                 scratch_die, memo, memo_stamp, flipped):
    """Expected best score the opponent reaches from `board` (mover-relative, the mover just played)."""
    for p in range(N_POINTS):
        flipped[p] = -board[(p + 12) % N_POINTS]
    opp_off = 15
    for p in range(N_POINTS):
        if flipped[p] < 0:
            opp_off += flipped[p]
    total = 0.0
    opp = np.empty(N_OPP, dtype=np.int64)
    opponent_terms(flipped, opp)
    for r in range(21):
        n, _ = enumerate_plays(flipped, opp_off, ROLL_HIGH[r], ROLL_LOW[r], head_rule, block_check,
                               scratch_boards, scratch_from, scratch_die, memo, memo_stamp)
        best = -1e18
        for i in range(n):
            v = static_score(scratch_boards[i], kind, weights, feats, opp)
            if v > best:
                best = v
        total += ROLL_WEIGHT[r] * best
    return total


@njit(cache=True)
def choice_scratch():
    """Scratch arrays for `choose_play`: features, scores, opponent terms."""
    return np.empty(N_FEATURES, dtype=np.float64), np.empty(4096, dtype=np.float64), np.empty(N_OPP, dtype=np.int64)


@njit(cache=True)
def choose_play(boards, n, kind, weights, lookahead, rstate, head_rule, block_check, scratch_boards,
                scratch_from, scratch_die, memo, memo_stamp, feats, scores, opp):
    """Index of the chosen result among boards[:n] (mover-relative, before the turn passes).

    `scratch_*`, `memo*` are a second enumeration workspace (for the lookahead);
    `feats`, `scores`, `opp` come from `choice_scratch`.
    """
    if kind == RANDOM:
        return below(next_random(rstate), n)
    opponent_terms(boards[0], opp)
    best = 0
    for i in range(n):
        scores[i] = static_score(boards[i], kind, weights, feats, opp)
        if scores[i] > scores[best]:
            best = i
    if not lookahead or n == 1 or scores[best] >= TERMINAL:
        return best
    order = np.argsort(-scores[:n])
    flipped = np.empty(N_POINTS, dtype=np.int8)
    best_value = -1e18
    pick = order[0]
    for j in range(min(n, LOOKAHEAD_WIDTH)):
        i = order[j]
        v = -_reply_value(boards[i], head_rule, block_check, kind, weights, feats, scratch_boards,
                          scratch_from, scratch_die, memo, memo_stamp, flipped)
        if v > best_value:
            best_value = v
            pick = i
    return pick
