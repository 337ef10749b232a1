"""Measure the race cube efficiency x: Janowski's model against the exact cubeful bear-off database.

Every bear-off with 1-5 checkers a side (both colours to roll): the model's
centred-cube decision from the exact cubeless chances, at x = 0, 0.05, ..., 1,
against the exact cubeful values.  Reported per x: how often the decisions agree
(double or not, take or pass) among positions in the doubling window (the
roller's cubeless winning chance 55-95%), and the mean equity (per cube) the
model's decisions lose there, the doubler's and the taker's errors together.
Run with `python experiments/cube_efficiency.py`.
"""

from __future__ import annotations

import numpy as np

from nardy_cli.policies import bearoff
from nardy_cli.match import cube_bearoff
from nardy_cli.match.cube import money_equity, race_efficiency
from nardy_cli.kernels import bearoff as kb

N = cube_bearoff.CUBE_N


def exact_no_double(eq: np.ndarray, succ: np.ndarray) -> np.ndarray:
    """nd[c, m, o]: the roller's exact equity playing on with the cube centred."""
    total = eq.shape[2]
    nd = np.zeros((2, total, total))
    o = np.arange(total)
    for c in range(2):
        after = eq[1 - c, 0]
        for m in range(1, total):
            for roll in range(21):
                nd[c, m] += kb.ROLL_WEIGHT[roll] * (-after[o[:, None],
                                                           succ[m, roll][None, :]]).max(axis=1)
    return nd


def main() -> None:
    eq = cube_bearoff.cubeful_tables()
    succ = cube_bearoff.successor_table(N)
    nd = exact_no_double(eq, succ)
    dt = 2.0 * eq[:, 2]
    boards = kb.unrank_all(N, kb.COMP)
    r6 = np.array([kb.rank(b.astype(np.int64), kb.N_TWO, kb.COMP) for b in boards])
    two = bearoff.two_sided(True)
    win = two["win"][:, r6][:, :, r6]
    draw = two["draw"][:, r6][:, :, r6]
    lose = 1.0 - win - draw
    keep = np.ones_like(win, dtype=bool)
    keep[:, 0, :] = keep[:, :, 0] = False
    p = win + draw / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(p > 0, win / p, 1.0)
        lo = np.where(1 - p > 0, lose / (1 - p), 1.0)
    window = keep & (win >= 0.55) & (win <= 0.95)
    best = np.maximum(nd, np.minimum(dt, 1.0))
    pips = (boards * np.arange(6, 0, -1)).sum(axis=1)
    roller_pips = np.broadcast_to(pips[None, :, None], win.shape)
    bands = [(1, 6), (7, 12), (13, 18), (19, 30)]
    losses = {}
    print(f"bear-offs of 1-{N} checkers a side: {int(keep.sum()):,} positions, "
          f"{int(window.sum()):,} in the "
          "doubling window (cubeless win 55-95%)")
    print("   x   decisions agree   mean loss per cube (window)   worst loss")
    rule = np.vectorize(race_efficiency)(roller_pips)
    for x in [*np.round(np.arange(0.0, 1.0001, 0.05), 2), "rule"]:
        xv = rule if x == "rule" else x
        nd_m = money_equity(p, w, lo, "centre", xv)
        dt_m = 2.0 * money_equity(p, w, lo, "opponent", xv)
        take_m, take_x = dt_m <= 1.0, dt <= 1.0
        double_m = np.minimum(dt_m, 1.0) > nd_m
        double_x = np.minimum(dt, 1.0) > nd
        got = np.where(double_m, np.minimum(dt, 1.0), nd)          # the opponent answers right
        # the taker follows the model
        taker = np.where(double_x & (take_m != take_x), np.abs(dt - 1.0), 0.0)
        loss = (best - got) + taker
        agree = (double_m == double_x) & (~double_x | (take_m == take_x))
        if x == "rule":
            print(f"nardy's rule race_efficiency(pips): agree {agree[window].mean():.2%}, mean "
                  "loss "
                  f"{loss[window].mean():.5f}, worst {loss[window].max():.4f}")
            continue
        print(f"{x:4.2f}   {agree[window].mean():14.2%}   {loss[window].mean():27.5f}   "
              f"{loss[window].max():.4f}")
        losses[x] = [loss[window & (roller_pips >= a) & (roller_pips <= b)].mean() for a,
                     b in bands]
    print("the best x by the roller's pips (mean loss per cube in the window):")
    for i, (a, b) in enumerate(bands):
        x = min(losses, key=lambda k: losses[k][i])
        n = int((window & (roller_pips >= a) & (roller_pips <= b)).sum())
        print(f"  pips {a:2d}-{b:2d}: x = {x:.2f}  (loss {losses[x][i]:.5f}; {n:,} positions)")


if __name__ == "__main__":
    main()
