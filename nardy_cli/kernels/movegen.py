"""Legal-play enumeration (R2-R7): every distinct resulting board of one roll.

A turn is enumerated whole, depth first, with make/unmake on one board.  Each
intermediate state (board, steps taken, dice used) is visited once: the board is
kept packed exactly in two 64-bit words (5 bits a point) and updated step by
step, and a small open-addressing table of those words merges plays that reach
the same position by another order.  The first step order found (larger die
first, lower points first) is kept as the canonical one.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .bits import trailing_zeros
from .jit import counted, entry, kernel, leaf
from .board import HOME_START, N_POINTS, forbidden_block, furthest_opponent, roll_steps

HEAD_FEDERATION, HEAD_643, HEAD_STRICT = 0, 1, 2
BLOCK_STEP, BLOCK_TURN_END, BLOCK_OFF = 0, 1, 2

MEMO_BITS = 13
MEMO_SIZE = 1 << MEMO_BITS
SMALL_MASK = (1 << 11) - 1  # non-doubles visit at most ~500 states
MAX_RESULTS = 4096
OVERFLOW = -1

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_SHIFT_TAG = np.uint64(60)


@entry
def memo_arrays():
    """The state table and its stamps; the tails hold the enumerator's per-depth scratch."""
    return np.zeros((MEMO_SIZE + 5, 2), dtype=np.uint64), np.zeros(MEMO_SIZE + 19, dtype=np.int64)


class PlaySpace(NamedTuple):
    """One enumeration's outputs and state table: `enumerate_plays`' last five arguments, in
    their order."""

    boards: np.ndarray      # int8[capacity, 24]: the distinct results
    step_from: np.ndarray   # int8[capacity, 4]: each result's steps, their points ...
    step_die: np.ndarray    # ... and dice
    memo: np.ndarray        # the state table (`memo_arrays`)
    memo_stamp: np.ndarray


@kernel
def play_space():
    """An empty `PlaySpace` of MAX_RESULTS results (the kernels' loops make theirs with this)."""
    memo, memo_stamp = memo_arrays()
    return PlaySpace(np.zeros((MAX_RESULTS, N_POINTS), dtype=np.int8),
                     np.zeros((MAX_RESULTS, 4), dtype=np.int8),
                     np.zeros((MAX_RESULTS, 4), dtype=np.int8), memo, memo_stamp)


class Workspace:
    """Scratch arrays one enumeration needs, held from Python; reuse one per thread."""

    def __init__(self, max_results: int = MAX_RESULTS) -> None:
        self.boards = np.zeros((max_results, N_POINTS), dtype=np.int8)
        self.step_from = np.zeros((max_results, 4), dtype=np.int8)
        self.step_die = np.zeros((max_results, 4), dtype=np.int8)
        self.memo, self.memo_stamp = memo_arrays()

    def arrays(self) -> PlaySpace:
        """The arrays as the kernels' `PlaySpace` (in the order `enumerate_plays` takes them)."""
        return PlaySpace(self.boards, self.step_from, self.step_die, self.memo, self.memo_stamp)


@leaf
def pack(board):
    """The board as two words, 5 bits a point (count + 15): an exact, incremental key."""
    lo = np.uint64(0)
    hi = np.uint64(0)
    for p in range(12):
        lo |= np.uint64(board[p] + 15) << np.uint64(5 * p)
        hi |= np.uint64(board[p + 12] + 15) << np.uint64(5 * p)
    return lo, hi


UNITS = np.array([1 << (5 * (p % 12)) for p in range(N_POINTS)], dtype=np.uint64)
"""The packed-word increment of one checker on point p (low word for p < 12, else high)."""


@leaf
def head_limit(board, d1, d2, head_rule):
    """How many checkers may leave the head this turn (R4, R5)."""
    if d1 != d2 or board[0] != 15 or head_rule == HEAD_STRICT:
        return 1
    if head_rule == HEAD_643:
        return 2 if (d1 == 6 or d1 == 4 or d1 == 3) else 1
    # federation: a lone runner's four steps are stopped by the opponent's head
    for j in range(1, 5):
        t = j * d1
        if t >= N_POINTS:
            return 1
        if board[t] < 0:
            return 2 if t == 12 else 1
    return 1


@leaf
def makes_forbidden_block(board, src, dst, far):
    """True when moving src -> dst (dst empty) completes a forbidden block (R6).

    Only the run through dst can be new; `far` is the opponent's most advanced
    point in its numbering (the opponent does not move during the turn).
    """
    q = (dst + 12) % N_POINTS
    vacated = (src + 12) % N_POINTS if board[src] == 1 else -1
    lo = q
    while lo > 0 and lo - 1 != vacated and board[(lo + 11) % N_POINTS] > 0:
        lo -= 1
    hi = q
    while hi < N_POINTS - 1 and hi + 1 != vacated and board[(hi + 13) % N_POINTS] > 0:
        hi += 1
    return hi - lo + 1 >= 6 and hi > far


@leaf
def step_is_legal(board, src, die, head_moved, limit, outside, opp_off, block_check, far):
    """True when one checker may step `die` pips from `src` (R1, R4, R6, R7)."""
    if board[src] <= 0:
        return False
    if src == 0 and head_moved >= limit:
        return False
    dst = src + die
    if dst < N_POINTS:
        if board[dst] < 0:
            return False
        if block_check == BLOCK_STEP and board[dst] == 0 and opp_off == 0:
            if makes_forbidden_block(board, src, dst, far):
                return False
        return True
    if outside > 0:
        return False
    if dst == N_POINTS:
        return True
    for p in range(HOME_START, src):
        if board[p] > 0:
            return False
    return True


@leaf
def undo_step(board, src, dst, outside, own):
    """Take back the step src -> dst; return the mover's checkers outside home and its points as
    bits (`own`) after it."""
    board[src] += 1
    own |= np.int64(1) << src
    if dst < N_POINTS:
        board[dst] -= 1
        if board[dst] == 0:
            own &= ~(np.int64(1) << dst)
        if src < HOME_START and dst >= HOME_START:
            outside += 1
    return outside, own


@leaf
def _memo_visit(lo, hi, memo, memo_stamp, stamp, mask):
    """Insert the state (lo, hi); False when it was already there.  Raises on a full table."""
    slot = np.int64(((lo + hi * _GOLDEN) * _GOLDEN) >> np.uint64(40)) & mask
    for _ in range(mask + 1):
        if memo_stamp[slot] != stamp:
            memo_stamp[slot] = stamp
            memo[slot, 0] = lo
            memo[slot, 1] = hi
            return True
        if memo[slot, 0] == lo and memo[slot, 1] == hi:
            return False
        slot = (slot + 1) & mask
    raise RuntimeError("legal-play state table full")


@counted(entry=True)
def enumerate_plays(board, opp_off, d1, d2, head_rule, block_check,
                    out_boards, out_from, out_die, memo, memo_stamp):
    """Fill the outputs with the distinct legal results; return (count, steps per play).

    `d1` is the larger die.  `board` is used as scratch and restored.  Count is
    OVERFLOW when more results exist than `out_boards` holds.
    """
    memo_stamp[MEMO_SIZE] += 1
    stamp = memo_stamp[MEMO_SIZE]
    double = d1 == d2
    max_steps = roll_steps(d1, d2)
    n_options = N_POINTS if double else 2 * N_POINTS
    table_mask = MEMO_SIZE - 1 if double else SMALL_MASK
    limit = head_limit(board, d1, d2, head_rule)
    head0 = board[0]
    outside = np.int64(0)   # not a literal 0, which numba would compile step_is_legal for too
    for p in range(HOME_START):
        if board[p] > 0:
            outside += board[p]
    capacity = out_boards.shape[0]
    far = furthest_opponent(board)
    check_end = block_check == BLOCK_TURN_END
    own = np.int64(0)       # bit p: the mover has a checker on point p, kept step by step
    for p in range(N_POINTS):
        if board[p] > 0:
            own |= np.int64(1) << p

    # per-depth scratch, kept in the stamp array's tail to avoid allocations
    cursor = memo_stamp[MEMO_SIZE + 1:MEMO_SIZE + 6]
    path_from = memo_stamp[MEMO_SIZE + 6:MEMO_SIZE + 10]
    path_die = memo_stamp[MEMO_SIZE + 10:MEMO_SIZE + 14]
    used = memo_stamp[MEMO_SIZE + 14:MEMO_SIZE + 19]  # bit mask of dice used (non-doubles)
    los = memo[MEMO_SIZE:MEMO_SIZE + 5, 0]
    his = memo[MEMO_SIZE:MEMO_SIZE + 5, 1]
    cursor[0] = 0
    used[0] = 0
    los[0], his[0] = pack(board)

    best = 0
    count = 0
    high_seen = False
    overflow = False
    # the root: a pass is the candidate until a step is found
    if not (check_end and forbidden_block(board, opp_off)):
        count = 1

    k = 0
    while k >= 0:
        found = False
        if k < max_steps:
            opt = cursor[k]
            while opt < n_options:
                src = opt % N_POINTS
                die_idx = opt // N_POINTS
                # on to the next point holding a checker of the mover (`own`), or the next die
                rest = own >> src
                if rest == 0:
                    opt = (die_idx + 1) * N_POINTS
                    continue
                src += trailing_zeros(rest)
                opt = die_idx * N_POINTS + src + 1
                if double:
                    die = d1
                else:
                    if used[k] & (1 << die_idx):
                        continue
                    die = d1 if die_idx == 0 else d2
                if not step_is_legal(board, src, die, head0 - board[0], limit, outside, opp_off,
                                     block_check, far):
                    continue
                # make the step, keeping the packed words in step
                dst = src + die
                lo, hi = los[k], his[k]
                if src < 12:
                    lo -= UNITS[src]
                else:
                    hi -= UNITS[src]
                board[src] -= 1
                if board[src] == 0:
                    own &= ~(np.int64(1) << src)
                if dst < N_POINTS:
                    if dst < 12:
                        lo += UNITS[dst]
                    else:
                        hi += UNITS[dst]
                    board[dst] += 1
                    own |= np.int64(1) << dst
                    if src < HOME_START and dst >= HOME_START:
                        outside -= 1
                newmask = used[k] | (1 << die_idx)
                depth = k + 1
                # states one step deep are distinct by construction; deeper ones may repeat
                if depth > 1:
                    tag_lo = lo | (np.uint64(depth) << _SHIFT_TAG)
                    tag_hi = hi | (np.uint64(newmask) << _SHIFT_TAG)
                    if not _memo_visit(tag_lo, tag_hi, memo, memo_stamp, stamp, table_mask):
                        outside, own = undo_step(board, src, dst, outside, own)
                        continue
                path_from[k] = src
                path_die[k] = die
                los[depth] = lo
                his[depth] = hi
                used[depth] = newmask
                # record the node as a candidate play
                if not (check_end and forbidden_block(board, opp_off)):
                    if depth > best:
                        best = depth
                        count = 0
                        high_seen = False
                    if depth == best:
                        if count < capacity:
                            for j in range(depth):
                                out_from[count, j] = path_from[j]
                                out_die[count, j] = path_die[j]
                            count += 1
                            if depth == 1 and die_idx == 0:
                                high_seen = True
                        else:
                            overflow = True
                if depth == max_steps:
                    # a leaf: unmake at once instead of descending
                    outside, own = undo_step(board, src, dst, outside, own)
                    continue
                cursor[k] = opt
                k = depth
                # a non-double's second step can only use the die not yet used
                cursor[k] = N_POINTS if (not double and newmask == 1) else 0
                found = True
                break
        if not found:
            # unmake the step that led to depth k, then go back up
            k -= 1
            if k >= 0:
                src = path_from[k]
                dst = src + path_die[k]
                outside, own = undo_step(board, src, dst, outside, own)

    if overflow:
        return OVERFLOW, best
    # the boards of the kept plays, rebuilt from the root and their steps
    for i in range(count):
        row = out_boards[i]
        for p in range(N_POINTS):
            row[p] = board[p]
        for j in range(best):
            src = out_from[i, j]
            row[src] -= 1
            dst = src + out_die[i, j]
            if dst < N_POINTS:
                row[dst] += 1
    if not double and best == 1 and high_seen:
        # R2: only one die can be played, so the larger one must be
        kept = 0
        for i in range(count):
            if out_die[i, 0] == d1:
                if kept != i:
                    for q in range(N_POINTS):   # a loop: slice assignment compiles numba's
                        out_boards[kept, q] = out_boards[i, q]   # error formatting (1.9 s)
                    out_from[kept, 0] = out_from[i, 0]
                    out_die[kept, 0] = out_die[i, 0]
                kept += 1
        count = kept
    return count, best


@leaf(entry=True)
def face_mobility(board, opp_off, face, block_check):
    """Mover checkers that can legally take one step of `face` now (one from the head, R4)."""
    outside = np.int64(0)   # not a literal 0, which numba would compile step_is_legal for too
    for p in range(HOME_START):
        if board[p] > 0:
            outside += board[p]
    far = furthest_opponent(board)
    n = 0
    for src in range(N_POINTS):
        if step_is_legal(board, src, face, 0, 1, outside, opp_off, block_check, far):
            n += 1 if src == 0 else board[src]
    return n


STEP_RECORD = 9     # a play's steps as one int8 row: count, then 4 points, then 4 dice


@leaf
def replay_steps(board, d1, d2, steps, opp_off, head_rule, block_check, out):
    """Play `steps` (a `STEP_RECORD` row, found legal on another board) on `board` into `out`;
    return True when it is a legal play of (d1, d2) there, False (out then undefined) when that
    is not certain.

    Certain means: the play uses every die (so no longer play exists and R2's
    larger-die rule does not apply), each step passes `step_is_legal` in its
    order, and the end passes R6 when the rules check the block at turn end.
    Then `enumerate_plays` finds the same result, since it tries every order of
    legal steps.  A play found by another order alone is reported uncertain.
    """
    n = np.int64(steps[0])
    if n != roll_steps(d1, d2):
        return False
    for p in range(N_POINTS):
        out[p] = board[p]
    limit = head_limit(board, d1, d2, head_rule)
    outside = np.int64(0)   # not a literal 0, which numba would compile step_is_legal for too
    for p in range(HOME_START):
        if board[p] > 0:
            outside += board[p]
    far = furthest_opponent(board)
    for j in range(n):
        src = np.int64(steps[1 + j])
        die = np.int64(steps[5 + j])
        if not step_is_legal(out, src, die, board[0] - out[0], limit, outside, opp_off,
                             block_check, far):
            return False
        out[src] -= 1
        dst = src + die
        if dst < N_POINTS:
            out[dst] += 1
            if src < HOME_START and dst >= HOME_START:
                outside -= 1
    return not (block_check == BLOCK_TURN_END and forbidden_block(out, opp_off))


@leaf
def record_steps(step_from, step_die, i, n, record):
    """record = result i's n steps (`enumerate_plays`' outputs) as a `STEP_RECORD` row."""
    record[0] = n
    for j in range(4):
        record[1 + j] = step_from[i, j] if j < n else 0
        record[5 + j] = step_die[i, j] if j < n else 0
