"""Black's last roll (R8), exact and without the databases: White has borne off its 15th
checker and Black, all home, plays one more turn; it draws when that roll bears off every checker,
else White wins by the class of Black's position after it (R9).

Leaves (no arrays made): a home board is packed in one integer, four bits a point, so the
search of a roll's steps needs no scratch.  `last_roll_probs` is the one copy every evaluator uses:
the bear-off databases, the network's exact scores, the turn pass and `value.value_probs`.
"""

from __future__ import annotations

from .codes import DRAW, HOME_MARS, LOSE_BASE, N_CLASSES, OIN, WIN_BASE
from .jit import leaf

N_HOME = 6
MAX_CHECKERS = 15


@leaf
def packed_home(board, mover):
    """The mover's (mover=True) or the opponent's home board packed in one integer: four bits a
    point, point 19 lowest."""
    packed = 0
    for j in range(N_HOME):
        c = board[18 + j] if mover else -board[6 + j]
        if c > 0:
            packed += int(c) << (4 * j)      # int8 counts: widen before the shift
    return packed


@leaf
def _count(packed, j):
    return (packed >> (4 * j)) & 15


@leaf
def _home_checkers(packed):
    n = 0
    for j in range(N_HOME):
        n += _count(packed, j)
    return n


@leaf
def _packed_step(packed, src, die):
    """A packed home board after one step of `die` from index `src` (R7), or -1 when it is not
    legal."""
    if _count(packed, src) == 0:
        return -1
    dst = src + die
    if dst >= N_HOME:
        if dst > N_HOME:
            for p in range(src):
                if _count(packed, p) > 0:
                    return -1
        return packed - (1 << (4 * src))
    return packed - (1 << (4 * src)) + (1 << (4 * dst))


@leaf
def fewest_left(packed, high, low):
    """The fewest checkers a side all home can have left after its roll (high, low).

    Inside home the side's furthest checker can always take a step, so every
    sequence plays its dice until no checker is left; the steps a roll has left
    then are not lost (RULES.md R8).
    """
    best = _home_checkers(packed)
    if best == 0:
        return 0
    if high != low:
        for order in range(2):
            a = high if order == 0 else low
            b = low if order == 0 else high
            for i in range(N_HOME):
                p1 = _packed_step(packed, i, a)
                if p1 < 0:
                    continue
                if p1 == 0:
                    return 0
                for j in range(N_HOME):
                    p2 = _packed_step(p1, j, b)
                    if p2 >= 0:
                        best = min(best, _home_checkers(p2))
        return best
    for i in range(N_HOME):
        p1 = _packed_step(packed, i, high)
        if p1 < 0:
            continue
        if p1 == 0:
            return 0
        for j in range(N_HOME):
            p2 = _packed_step(p1, j, high)
            if p2 < 0:
                continue
            if p2 == 0:
                return 0
            for k in range(N_HOME):
                p3 = _packed_step(p2, k, high)
                if p3 < 0:
                    continue
                if p3 == 0:
                    return 0
                for m in range(N_HOME):
                    p4 = _packed_step(p3, m, high)
                    if p4 >= 0:
                        best = min(best, _home_checkers(p4))
    return best


@leaf
def last_roll_probs(board, mover, out):
    """Result-code probabilities of Black's last roll (R8) on a mover-relative board, Black being
    the mover (mover=True: Black to roll) or its opponent (White has just borne off its 15th
    checker), for the board's mover.

    Black draws with the rolls that bear off all its checkers; with the others it
    loses, by home-mars when it has 15 checkers and the roll can take none off,
    else by oin.
    """
    packed = packed_home(board, mover)
    on = _home_checkers(packed)
    p_all = 0.0
    p_none = 0.0
    for high in range(6, 0, -1):
        for low in range(high, 0, -1):
            weight = (1.0 if high == low else 2.0) / 36.0
            left = fewest_left(packed, high, low)
            if left == 0:
                p_all += weight
            elif left == on and on == MAX_CHECKERS:
                p_none += weight
    for k in range(N_CLASSES):
        out[k] = 0.0
    base = LOSE_BASE if mover else WIN_BASE
    out[DRAW] = p_all
    out[base + HOME_MARS] = p_none
    out[base + OIN] = max(1.0 - p_all - p_none, 0.0)
