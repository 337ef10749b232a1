"""Bear-off databases: exact race values once both sides have every checker home.

Once both sides are all home they cannot touch each other (a side's home is the
other's points 7-12), so each side's bear-off is a one-player game on six points.

A *home board* is six counts, index 0 its point 19 (six pips from the exit) to
index 5 its point 24.  Home boards with at most `n` checkers are ranked 0.. by the
combinatorial number system (compositions of `n` into six counts and a slack);
rank 0 is the empty board.

One-sided database (every home board of up to 15 checkers, 54,264 of them):
  `all_dist[r, t]`   P(the side needs exactly t turns to bear off every checker),
                     playing to minimise the expected number of turns;
  `first_dist[r, t]` P(exactly t turns until its first checker is off; t = 0 when
                     one is already off), playing to minimise that expectation.
Two-sided database (both sides at most `N_TWO` checkers): for the side to move,
White (c = 0) or Black (c = 1), `win[c, m, o]` and `draw[c, m, o]` (R8 last roll)
under the play that maximises its equity (ties: the larger win chance); the loser
always has a checker off, so every win is an oin.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .board import DRAW, HOME_MARS, LOSE_BASE, N_POINTS, OIN, WIN_BASE, on_board, opp_on_board
from .codes import N_CLASSES
from .jit import kernel
from .last_roll import last_roll_probs

N_HOME = 6


class RaceTables(NamedTuple):
    """The databases' arrays as the game kernels take them (`bearoff.BearoffTables.arrays()`;
    empty arrays when not loaded)."""

    comp: np.ndarray        # the ranking's compositions (`COMP`)
    all_dist: np.ndarray    # one-sided: turns to bear off every checker
    first_dist: np.ndarray  # one-sided: turns until the first checker is off
    win2: np.ndarray        # two-sided: win and draw chances of the side to move
    draw2: np.ndarray
MAX_CHECKERS = 15
T_MAX = 40          # turn counts 0..T_MAX-1; the build checks no probability falls past the end
N_TWO = 6           # checkers a side covered by the two-sided database

ROLL_HIGH = np.array([h for h in range(6, 0, -1) for l in range(h, 0, -1)], dtype=np.int64)
ROLL_LOW = np.array([l for h in range(6, 0, -1) for l in range(h, 0, -1)], dtype=np.int64)
ROLL_WEIGHT = np.array([1.0 if h == l else 2.0 for h, l in zip(ROLL_HIGH, ROLL_LOW)]) / 36.0


def _compositions() -> np.ndarray:
    """comp[m, k]: ways to write m as an ordered sum of k non-negative counts."""
    from math import comb
    out = np.zeros((MAX_CHECKERS + 1, N_HOME + 2), dtype=np.int64)
    for m in range(MAX_CHECKERS + 1):
        for k in range(1, N_HOME + 2):
            out[m, k] = comb(m + k - 1, k - 1)
    return out


COMP = _compositions()


@kernel
def rank(counts, n, comp):
    """Rank of a home board (six counts, at most n checkers) among all such boards."""
    r = 0
    rem = n
    for j in range(N_HOME):
        parts = N_HOME - j   # counts after this one, slack included
        for a in range(counts[j]):
            r += comp[rem - a, parts]
        rem -= counts[j]
    return r


@kernel
def unrank_all(n, comp):
    """Every home board of at most n checkers, row r holding the board of rank r."""
    total = comp[n, N_HOME + 1]
    out = np.zeros((total, N_HOME), dtype=np.int8)
    cur = np.zeros(N_HOME, dtype=np.int64)
    # enumerate in rank order: lexicographic on (c0, c1, ...) with c0 + ... <= n
    for r in range(total):
        rem = r
        left = n
        for j in range(N_HOME):
            parts = N_HOME - j
            a = 0
            while rem >= comp[left - a, parts]:
                rem -= comp[left - a, parts]
                a += 1
            cur[j] = a
            left -= a
        for j in range(N_HOME):
            out[r, j] = cur[j]
    return out


@kernel
def pips(counts):
    """Pip count of a home board."""
    s = 0
    for j in range(N_HOME):
        s += counts[j] * (N_HOME - j)
    return s


@kernel
def _step(c, src, die):
    """Play one step of `die` from index `src` if legal (R7 inside home); return the destination or
    -1.

    Destination N_HOME means borne off.
    """
    if c[src] == 0:
        return -1
    dst = src + die
    if dst > N_HOME:
        for p in range(src):
            if c[p] > 0:
                return -1
    c[src] -= 1
    if dst < N_HOME:
        c[dst] += 1
    return dst


@kernel
def _unstep(c, src, dst):
    c[src] += 1
    if dst < N_HOME:
        c[dst] -= 1


@kernel
def _record(c, n, comp, out, count, stamp, tag):
    r = rank(c, n, comp)
    if stamp[r] != tag:
        stamp[r] = tag
        out[count] = r
        count += 1
    return count


@kernel
def successors(board, d1, d2, n, comp, out, stamp, tag):
    """Distinct home boards (ranks, at most n checkers) one roll can lead to; their number.

    Every order of the dice and every source point is tried; inside home no step
    is ever blocked, so a sequence stops short only when no checker is left.
    `stamp` (one cell per rank) and a fresh `tag` merge duplicates.
    """
    c = board.copy()
    count = 0
    if d1 != d2:
        for order in range(2):
            a = d1 if order == 0 else d2
            b = d2 if order == 0 else d1
            for i in range(N_HOME):
                di = _step(c, i, a)
                if di < 0:
                    continue
                moved = False
                for j in range(N_HOME):
                    dj = _step(c, j, b)
                    if dj < 0:
                        continue
                    moved = True
                    count = _record(c, n, comp, out, count, stamp, tag)
                    _unstep(c, j, dj)
                if not moved:
                    count = _record(c, n, comp, out, count, stamp, tag)
                _unstep(c, i, di)
        return count
    return _doubles(c, d1, 0, n, comp, out, count, stamp, tag)


@kernel
def _doubles(c, d, depth, n, comp, out, count, stamp, tag):
    """Four steps of `d` (loops, not recursion: numba's cache mishandles recursive functions)."""
    moved1 = False
    for i in range(N_HOME):
        di = _step(c, i, d)
        if di < 0:
            continue
        moved1 = True
        moved2 = False
        for j in range(N_HOME):
            dj = _step(c, j, d)
            if dj < 0:
                continue
            moved2 = True
            moved3 = False
            for k in range(N_HOME):
                dk = _step(c, k, d)
                if dk < 0:
                    continue
                moved3 = True
                moved4 = False
                for m in range(N_HOME):
                    dm = _step(c, m, d)
                    if dm < 0:
                        continue
                    moved4 = True
                    count = _record(c, n, comp, out, count, stamp, tag)
                    _unstep(c, m, dm)
                if not moved4:
                    count = _record(c, n, comp, out, count, stamp, tag)
                _unstep(c, k, dk)
            if not moved3:
                count = _record(c, n, comp, out, count, stamp, tag)
            _unstep(c, j, dj)
        if not moved2:
            count = _record(c, n, comp, out, count, stamp, tag)
        _unstep(c, i, di)
    if not moved1:
        count = _record(c, n, comp, out, count, stamp, tag)
    return count


@kernel
def build_one_sided(comp):
    """(all_dist, first_dist) for every home board of up to 15 checkers (see the module doc)."""
    boards = unrank_all(MAX_CHECKERS, comp)
    total = boards.shape[0]
    pip = np.empty(total, dtype=np.int64)
    on = np.empty(total, dtype=np.int64)
    for r in range(total):
        pip[r] = pips(boards[r])
        on[r] = boards[r].sum()
    order = np.argsort(pip, kind="mergesort")
    all_dist = np.zeros((total, T_MAX), dtype=np.float64)
    first_dist = np.zeros((total, T_MAX), dtype=np.float64)
    all_mean = np.zeros(total, dtype=np.float64)
    first_mean = np.zeros(total, dtype=np.float64)
    out = np.empty(4096, dtype=np.int64)
    stamp = np.zeros(total, dtype=np.int64)
    tag = 0
    for k in range(total):
        r = order[k]
        if on[r] == 0:
            all_dist[r, 0] = 1.0
        if on[r] < MAX_CHECKERS:
            first_dist[r, 0] = 1.0
        if on[r] == 0:
            continue
        for roll in range(21):
            tag += 1
            n = successors(boards[r], ROLL_HIGH[roll], ROLL_LOW[roll], MAX_CHECKERS, comp, out,
                           stamp, tag)
            w = ROLL_WEIGHT[roll]
            best = out[0]
            best_first = out[0]
            for i in range(1, n):
                s = out[i]
                if all_mean[s] < all_mean[best]:
                    best = s
                if first_mean[s] < first_mean[best_first]:
                    best_first = s
            for t in range(T_MAX - 1):
                all_dist[r, t + 1] += w * all_dist[best, t]
            if on[r] == MAX_CHECKERS:
                for t in range(T_MAX - 1):
                    first_dist[r, t + 1] += w * first_dist[best_first, t]
        for t in range(T_MAX):
            all_mean[r] += t * all_dist[r, t]
            first_mean[r] += t * first_dist[r, t]
    return all_dist, first_dist


@kernel
def build_two_sided(comp, all_dist, last_roll):
    """(win, draw) arrays [2, n2, n2] of the two-sided database (see the module doc)."""
    small = unrank_all(N_TWO, comp)
    n2 = small.shape[0]
    full = np.empty(n2, dtype=np.int64)
    pip = np.empty(n2, dtype=np.int64)
    for i in range(n2):
        full[i] = rank(small[i], MAX_CHECKERS, comp)
        pip[i] = pips(small[i])
    # successor lists per (board, roll), as small ranks
    starts = np.zeros(n2 * 21 + 1, dtype=np.int64)
    succ = np.empty(n2 * 21 * 64, dtype=np.int64)
    out = np.empty(4096, dtype=np.int64)
    stamp = np.zeros(n2, dtype=np.int64)
    tag = 0
    pos = 0
    for i in range(n2):
        for roll in range(21):
            tag += 1
            n = successors(small[i], ROLL_HIGH[roll], ROLL_LOW[roll], N_TWO, comp, out, stamp, tag)
            if pos + n > succ.shape[0]:
                grown = np.empty(succ.shape[0] * 2, dtype=np.int64)
                grown[:pos] = succ[:pos]
                succ = grown
            succ[pos:pos + n] = out[:n]
            pos += n
            starts[i * 21 + roll + 1] = pos
    win = np.zeros((2, n2, n2), dtype=np.float64)
    draw = np.zeros((2, n2, n2), dtype=np.float64)
    # pairs in order of total pips: every successor state has fewer
    key = np.empty(n2 * n2, dtype=np.int64)
    for m in range(n2):
        for o in range(n2):
            key[m * n2 + o] = pip[m] + pip[o]
    order = np.argsort(key, kind="mergesort")
    for k in range(n2 * n2):
        m = order[k] // n2
        o = order[k] % n2
        if m == 0 or o == 0:
            if o == 0 and m > 0 and last_roll:
                # White is off and Black, all home, takes its last roll: a draw if it bears off
                # every checker in it, else White wins
                draw[1, m, 0] = all_dist[full[m], 1]
            continue
        last = all_dist[full[o], 1] if last_roll else 0.0   # Black bears off all in its last roll
        for c in range(2):
            w_acc = 0.0
            d_acc = 0.0
            for roll in range(21):
                best_eq = -2.0
                best_w = 0.0
                best_d = 0.0
                for j in range(starts[m * 21 + roll], starts[m * 21 + roll + 1]):
                    s = succ[j]
                    if s == 0:
                        if c == 0:
                            w, d = 1.0 - last, last
                        else:
                            w, d = 1.0, 0.0
                    else:
                        ow = win[1 - c, o, s]
                        od = draw[1 - c, o, s]
                        w, d = 1.0 - ow - od, od
                    eq = w - (1.0 - w - d)
                    if eq > best_eq or (eq == best_eq and w > best_w):
                        best_eq, best_w, best_d = eq, w, d
                w_acc += ROLL_WEIGHT[roll] * best_w
                d_acc += ROLL_WEIGHT[roll] * best_d
            win[c, m, o] = w_acc
            draw[c, m, o] = d_acc
    return win, draw


# ---- lookups inside the game loop (boards mover-relative, see kernels/__init__) ----

@kernel
def home_counts(board, mover, out):
    """The mover's (mover=True) or the opponent's home board as six counts into `out`."""
    for j in range(N_HOME):
        if mover:
            out[j] = board[18 + j] if board[18 + j] > 0 else 0
        else:
            c = board[6 + j]
            out[j] = -c if c < 0 else 0


@kernel
def both_home(board):
    """True when every checker of both sides on the board is in its own home."""
    for p in range(18):
        if board[p] > 0:
            return False
    for p in range(N_POINTS):
        if board[p] < 0 and not 6 <= p < 12:
            return False
    return True


@kernel
def race_probabilities(m_full, o_full, m_small, o_small, mover_white, last_roll, all_dist,
                       first_dist, win2, draw2, out):
    """Result-code probabilities (0..8, for the side to move) of a both-home race; True when exact.

    With both sides in the two-sided database (`*_small` >= 0) the values are
    exact; otherwise the one-sided distributions are combined as if the two
    sides' turn counts were independent (the near-exact convolution).
    """
    for k in range(N_CLASSES):
        out[k] = 0.0
    if m_small >= 0 and o_small >= 0 and win2.shape[1] > 0:
        c = 0 if mover_white else 1
        w = win2[c, m_small, o_small]
        d = draw2[c, m_small, o_small]
        out[WIN_BASE + OIN] = w
        out[DRAW] = d
        out[LOSE_BASE + OIN] = max(1.0 - w - d, 0.0)
        return True
    a = all_dist[m_full]
    fa = first_dist[m_full]
    b = all_dist[o_full]
    fb = first_dist[o_full]
    # survival functions P(T > t)
    sa = np.empty(T_MAX + 2)
    sfa = np.empty(T_MAX + 2)
    sb = np.empty(T_MAX + 2)
    sfb = np.empty(T_MAX + 2)
    ra = 1.0
    rfa = 1.0
    rb = 1.0
    rfb = 1.0
    for t in range(T_MAX + 2):
        if t < T_MAX:
            ra -= a[t]
            rfa -= fa[t]
            rb -= b[t]
            rfb -= fb[t]
        sa[t] = max(ra, 0.0)
        sfa[t] = max(rfa, 0.0)
        sb[t] = max(rb, 0.0)
        sfb[t] = max(rfb, 0.0)
    for t in range(1, T_MAX):
        if mover_white:
            # mover finishes at its turn t; Black has had t - 1 turns (+1 with the last roll)
            played = t if last_roll else t - 1
            p_win = a[t] * sb[played]
            p_hm = a[t] * min(sfb[played], sb[played])
            out[WIN_BASE + HOME_MARS] += p_hm
            out[WIN_BASE + OIN] += p_win - p_hm
            if last_roll:
                out[DRAW] += a[t] * b[t]
            # Black finishes at its turn t, after the mover's t turns
            p_lose = b[t] * sa[t]
            p_lhm = b[t] * min(sfa[t], sa[t])
            out[LOSE_BASE + HOME_MARS] += p_lhm
            out[LOSE_BASE + OIN] += p_lose - p_lhm
        else:
            # mover (Black) finishes at its turn t: White has had t - 1 turns
            p_win = a[t] * sb[t - 1]
            p_hm = a[t] * min(sfb[t - 1], sb[t - 1])
            out[WIN_BASE + HOME_MARS] += p_hm
            out[WIN_BASE + OIN] += p_win - p_hm
            # White finishes at its turn t, after the mover's t turns; then the mover's last roll
            played = t + 1 if last_roll else t
            p_lose = b[t] * sa[played]
            p_lhm = b[t] * min(sfa[played], sa[played])
            out[LOSE_BASE + HOME_MARS] += p_lhm
            out[LOSE_BASE + OIN] += p_lose - p_lhm
            if last_roll and t + 1 < T_MAX:
                out[DRAW] += b[t] * a[t + 1]
    return False


@kernel
def board_race_probabilities(board, mover_white, last_roll, comp, all_dist, first_dist, win2, draw2,
                             scratch, out):
    """`race_probabilities` of a mover-relative board with both sides all home; True when exact.

    An opponent with no checker left has finished: the mover, Black, takes its R8 last roll
    (`last_roll_probs`, exact), or without it has lost.
    """
    if opp_on_board(board) == 0:
        if last_roll and not mover_white:
            last_roll_probs(board, True, out)
        else:
            for k in range(N_CLASSES):
                out[k] = 0.0
            out[LOSE_BASE + (HOME_MARS if on_board(board) == MAX_CHECKERS else OIN)] = 1.0
        return True
    home_counts(board, True, scratch)
    m_on = scratch.sum()
    m_full = rank(scratch, MAX_CHECKERS, comp)
    m_small = rank(scratch, N_TWO, comp) if m_on <= N_TWO else -1
    home_counts(board, False, scratch)
    o_on = scratch.sum()
    o_full = rank(scratch, MAX_CHECKERS, comp)
    o_small = rank(scratch, N_TWO, comp) if o_on <= N_TWO else -1
    return race_probabilities(m_full, o_full, m_small, o_small, mover_white, last_roll, all_dist,
                              first_dist, win2, draw2, out)

