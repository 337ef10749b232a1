"""Janowski's cube model in match winning chances, compiled: the one copy of the match cube model.

`match/cube_table.GameCube` (the cubeful match table, `cube_decision` at a score) and the compiled
cube loop's match mode (`cube.cube_turn`) both call `match_equities` / `equity_at` here, and
decide by `cube.decide_code`.  A
game at a score is seen by the roller, A: its nine result probabilities and a value table
tab[level, column] (`match/cube_table.value_table`) per cube level k (cube value c = 2**k):

- columns `WINS`..`WINS`+3: A's match chance after A wins each class at cube c;
- `LOSSES`..`LOSSES`+3: A's chance after B wins each class;
- `DRAWN`: A's chance after a draw at cube c;
- `CASH_A`, `CASH_B`: A's own and B's own chance after it wins c points by a drop.

The live cube's cash points come bottom-up from the top level (a side's cash point at cube c is
one minus its opponent's take point at 2c, or 1 once a cash of 2c points ends the match either
way, a dead cube); the cubeful chance is (1 - x) x the cubeless chance + x x the live one (no
cube at all in the Crawford game).  Owners are relative to A (`cube.CENTRE`, `ROLLER`,
`OPPONENT`).
"""

from __future__ import annotations

import numpy as np

from .codes import OPPONENT, ROLLER
from .jit import entry, kernel

WINS, LOSSES, DRAWN, CASH_A, CASH_B = 0, 4, 8, 9, 10
N_COLUMNS = 11
PRE, CRAWFORD, POST = 0, 1, 2                 # the kinds of game (`cube_table.game_kind`)
KIND_CODE = {"pre": PRE, "crawford": CRAWFORD, "post": POST}
# the model's per-level figures: A's (p, W, L), each side's cash point and value at it
M_P, M_W, M_L, M_CP, M_PV = 0, 1, 2, 3, 5
N_MODEL = 7


def levels_for(max_need: int, top: int = 0) -> int:
    """The number of cube levels a table needs: every level up to a dead cube (2**(L-1) >= 2 x the
    larger need, in half points) and up to level `top`."""
    n = 1
    while (1 << (n - 1)) < 2 * max_need or n <= top:
        n += 1
    return n


@kernel
def win_loss(probs, tab, k):
    """(p, W, L) of A at level k: its winning chance (a draw half) and the average match chances
    after its wins and its losses (a draw half each)."""
    pw = probs[0] + probs[1] + probs[2] + probs[3]
    pl = probs[4] + probs[5] + probs[6] + probs[7]
    pd = probs[8]
    p = pw + pd / 2.0
    q = pl + pd / 2.0
    sw = 0.0
    sl = 0.0
    for c in range(4):
        sw += probs[c] * tab[k, WINS + c]
        sl += probs[4 + c] * tab[k, LOSSES + c]
    w = (sw + pd / 2.0 * tab[k, DRAWN]) / p if p > 0 else tab[k, WINS]
    lo = (sl + pd / 2.0 * tab[k, DRAWN]) / q if q > 0 else tab[k, LOSSES]
    return p, w, lo


@entry
def cubeless(probs, tab, k):
    """A's cubeless chance at level k."""
    p, w, lo = win_loss(probs, tab, k)
    return p * w + (1.0 - p) * lo


@kernel
def side_wl(model, side, k):
    """(p, W, L) of `side` (0: A, 1: B) at level k, in its own chances."""
    p, w, lo = model[k, M_P], model[k, M_W], model[k, M_L]
    if side == 0:
        return p, w, lo
    return 1.0 - p, 1.0 - lo, 1.0 - w


@kernel
def cash(tab, side, k):
    """`side`'s own chance after it wins 2**k points by a drop."""
    return tab[k, CASH_A] if side == 0 else tab[k, CASH_B]


@kernel
def take_point(model, tab, side, k):
    """`side`'s least winning chance to take a double to level k, owning it with a fully live
    cube."""
    _, _, lo = side_wl(model, side, k)
    cp, v = model[k, M_CP + side], model[k, M_PV + side]
    passed = 1.0 - cash(tab, 1 - side, k - 1)
    if v <= lo:
        return 0.0
    return min(1.0, max(0.0, cp * (passed - lo) / (v - lo)))


@kernel
def solve(probs, tab, max_need, model):
    """Fill model[k] for every level of `tab`: A's (p, W, L), each side's cash point (1 for a dead
    cube) and its chance there (the cash, or a sure win's W when it never doubles)."""
    n = tab.shape[0]
    for k in range(n):
        p, w, lo = win_loss(probs, tab, k)
        model[k, M_P], model[k, M_W], model[k, M_L] = p, w, lo
    for k in range(n - 1, -1, -1):
        dead = 2 * (1 << k) >= max_need
        for side in range(2):
            cp = 1.0 if dead else 1.0 - take_point(model, tab, 1 - side, k + 1)
            model[k, M_CP + side] = cp
            model[k, M_PV + side] = (cash(tab, side, k) if cp < 1.0
                                     else side_wl(model, side, k)[1])


@kernel
def live(model, k, owner):
    """A's chance with a fully live cube at level k owned by `owner` (relative to A)."""
    p, w, lo = model[k, M_P], model[k, M_W], model[k, M_L]
    ca, va = model[k, M_CP], model[k, M_PV]
    low, low_value = 1.0 - model[k, M_CP + 1], 1.0 - model[k, M_PV + 1]
    if owner == ROLLER:
        return va if p >= ca else lo + (va - lo) * p / ca
    if p <= low:
        return low_value
    if owner == OPPONENT:
        return low_value + (w - low_value) * (p - low) / (1.0 - low) if low < 1.0 else w
    if p >= ca:
        return va
    return low_value + (va - low_value) * (p - low) / (ca - low)


@kernel
def dead_chance(model, k):
    """A's cubeless chance at level k."""
    p, w, lo = model[k, M_P], model[k, M_W], model[k, M_L]
    return p * w + (1.0 - p) * lo


@kernel
def model_equity(model, k, owner, kind, x):
    """A's cubeful chance at level k: (1 - x) x dead + x x live (the dead chance in the Crawford
    game)."""
    if kind == CRAWFORD:
        return dead_chance(model, k)
    return (1.0 - x) * dead_chance(model, k) + x * live(model, k, owner)


@kernel
def match_equities(probs, tab, max_need, kind, x, k, owner, model):
    """(no double, double/take, double/pass) of A at level k (owner relative to A), for
    `cube.decide_code`; NaN double values in the Crawford game or with B owning the cube."""
    solve(probs, tab, max_need, model)
    nd = model_equity(model, k, owner, kind, x)
    if kind == CRAWFORD or owner == OPPONENT:
        return nd, np.nan, np.nan
    return nd, model_equity(model, k + 1, OPPONENT, kind, x), tab[k, CASH_A]


@entry
def equity_at(probs, tab, max_need, kind, x, k, owner, model):
    """A's cubeful chance at level k (`model_equity` after `solve`)."""
    solve(probs, tab, max_need, model)
    return model_equity(model, k, owner, kind, x)


@entry
def model_scratch(levels):
    """The per-level figures of `solve` for a table of `levels` levels."""
    return np.empty((levels, N_MODEL))
