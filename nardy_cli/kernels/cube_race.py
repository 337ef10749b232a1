"""Exact cubeful values of bear-offs at stakes given by the values after the game: a cubeful
recursion over the pairs of home boards, the cube played perfectly by both sides, with redoubles.

Kernels know no match score: the caller gives, for the side on roll (White c = 0, Black c = 1)
and each cube level i (the cube at 2**i), the side's value after it wins (an oin: a race's loser
always has a checker off; a passed double scores the same), after it loses and after a draw.
A cube state s is the centred cube (s = 0, level 0) or level i >= 1 owned by the side on roll
(s = 2i - 1) or by its opponent (s = 2i); the top level is the highest the caller needs (there
the cube is dead: no double).  Values are the side on roll's, before its roll; the other side's
value is one minus it (a match winning chance).
"""

from __future__ import annotations

import numpy as np

from .jit import kernel


def n_states(levels: int) -> int:
    """The number of cube states with `levels` levels (the centred cube, then an owner each)."""
    return 2 * levels - 1


@kernel
def state_level(s):
    """The cube level of state s."""
    return (s + 1) // 2


@kernel
def may_double(s):
    """True when the side on roll may double in state s: the cube is centred or its own."""
    return s == 0 or s % 2 == 1


@kernel
def state_flip(s):
    """State s seen by the other side."""
    if s == 0:
        return 0
    return s + 1 if s % 2 == 1 else s - 1


@kernel
def build_values(succ, nsucc, pairs, weights, last, last_roll, win, lose, draw, can_double, out):
    """Fill out[c, a, b, s]: the value of side c on roll with board a against board b in cube state
    s (see the module doc); `pairs` (a, b), both not empty, ascend by the two boards' pips, so
    every successor is filled before it is read.  `last[b]`: Black's chance to bear off every
    checker of board b in one roll (R8's draw)."""
    total = out.shape[1]
    ns = out.shape[3]
    levels = win.shape[1]
    for a in range(1, total):
        for s in range(ns):
            i = state_level(s)
            out[0, a, 0, s] = lose[0, i]           # Black has borne off: White lost
            if not last_roll:
                out[1, a, 0, s] = lose[1, i]       # White has borne off: it won
                continue
            # Black's last roll: a dead cube, Black may double before it (rules decision 31)
            d = last[a]
            nd = d * draw[1, i] + (1.0 - d) * lose[1, i]
            val = nd
            if can_double and may_double(s) and i + 1 < levels:
                dt = d * draw[1, i + 1] + (1.0 - d) * lose[1, i + 1]
                val = max(nd, min(dt, win[1, i]))
            out[1, a, 0, s] = val
    acc = np.empty(ns)
    best = np.empty(ns)
    for p in range(pairs.shape[0]):
        a = pairs[p, 0]
        b = pairs[p, 1]
        for c in range(2):
            for s in range(ns):
                acc[s] = 0.0
            for r in range(21):
                for s in range(ns):
                    best[s] = 2.0
                for k in range(nsucc[a, r]):
                    a2 = succ[a, r, k]
                    for s in range(ns):
                        t = out[1 - c, b, a2, state_flip(s)]
                        if t < best[s]:
                            best[s] = t
                for s in range(ns):
                    acc[s] += weights[r] * (1.0 - best[s])
            for s in range(ns):
                i = state_level(s)
                val = acc[s]
                if can_double and may_double(s) and i + 1 < levels:
                    dt = acc[2 * (i + 1)]
                    val = max(acc[s], min(dt, win[c, i]))
                out[c, a, b, s] = val
