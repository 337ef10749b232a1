"""Legal-play enumeration (R2-R7): every distinct resulting board of one roll.

A turn is enumerated whole, depth first, with make/unmake on one board.  Each
intermediate state (board, steps taken, dice used) is visited once, through a
Zobrist-hashed table with exact board comparison, so plays that reach the same
position by another order are merged and the first step order found (larger
die first, lower points first) is kept as the canonical one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import HOME_START, N_POINTS, forbidden_block

HEAD_FEDERATION, HEAD_643, HEAD_STRICT = 0, 1, 2
BLOCK_STEP, BLOCK_TURN_END, BLOCK_OFF = 0, 1, 2

MEMO_BITS = 14
MEMO_SIZE = 1 << MEMO_BITS
MAX_RESULTS = 4096
OVERFLOW = -1

_rng = np.random.default_rng(20261129)  # fixed constants, not game randomness
ZOBRIST = _rng.integers(1, 2**63 - 1, size=(N_POINTS, 31), dtype=np.int64).astype(np.uint64)
ZOBRIST_DEPTH = _rng.integers(1, 2**63 - 1, size=5, dtype=np.int64).astype(np.uint64)
ZOBRIST_MASK = _rng.integers(1, 2**63 - 1, size=4, dtype=np.int64).astype(np.uint64)
del _rng


class Workspace:
    """Scratch arrays one enumeration needs; reuse one per thread."""

    def __init__(self, max_results: int = MAX_RESULTS) -> None:
        self.boards = np.zeros((max_results, N_POINTS), dtype=np.int8)
        self.step_from = np.zeros((max_results, 4), dtype=np.int8)
        self.step_die = np.zeros((max_results, 4), dtype=np.int8)
        self.memo_keys = np.zeros(MEMO_SIZE, dtype=np.uint64)
        self.memo_stamp = np.zeros(MEMO_SIZE, dtype=np.int64)
        self.memo_boards = np.zeros((MEMO_SIZE, N_POINTS), dtype=np.int8)
        self.stamp = np.zeros(1, dtype=np.int64)

    def arrays(self):
        """The arrays in the order `enumerate_plays` takes them."""
        return (self.boards, self.step_from, self.step_die, self.memo_keys,
                self.memo_stamp, self.memo_boards, self.stamp)


@njit(cache=True)
def board_hash(board):
    """Zobrist hash of a mover-relative board."""
    h = np.uint64(0)
    for p in range(N_POINTS):
        h ^= ZOBRIST[p, board[p] + 15]
    return h


@njit(cache=True)
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


@njit(cache=True)
def step_is_legal(board, src, die, head_moved, limit, outside, opp_off, block_check):
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
            board[src] -= 1
            board[dst] += 1
            bad = forbidden_block(board, opp_off)
            board[src] += 1
            board[dst] -= 1
            if bad:
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


@njit(cache=True)
def _memo_visit(board, key, memo_keys, memo_stamp, memo_boards, stamp):
    """Insert the state; False when it was already there.  Raises on a full table."""
    mask = MEMO_SIZE - 1
    slot = np.int64(key & np.uint64(mask))
    for _ in range(MEMO_SIZE):
        if memo_stamp[slot] != stamp:
            memo_stamp[slot] = stamp
            memo_keys[slot] = key
            memo_boards[slot, :] = board
            return True
        if memo_keys[slot] == key:
            same = True
            for p in range(N_POINTS):
                if memo_boards[slot, p] != board[p]:
                    same = False
                    break
            if same:
                return False
        slot = (slot + 1) & mask
    raise RuntimeError("legal-play state table full")


@njit(cache=True)
def enumerate_plays(board, opp_off, d1, d2, head_rule, block_check,
                    out_boards, out_from, out_die, memo_keys, memo_stamp, memo_boards, stamp_box):
    """Fill the outputs with the distinct legal results; return (count, steps per play).

    `board` is used as scratch and restored.  Count is OVERFLOW when more results
    exist than `out_boards` holds.
    """
    stamp_box[0] += 1
    stamp = stamp_box[0]
    double = d1 == d2
    max_steps = 4 if double else 2
    n_options = N_POINTS if double else 2 * N_POINTS
    limit = head_limit(board, d1, d2, head_rule)
    head0 = board[0]
    outside = 0
    for p in range(HOME_START):
        if board[p] > 0:
            outside += board[p]
    capacity = out_boards.shape[0]

    cursor = np.zeros(5, dtype=np.int64)
    path_from = np.zeros(4, dtype=np.int64)
    path_die = np.zeros(4, dtype=np.int64)
    path_idx = np.zeros(4, dtype=np.int64)
    used = np.zeros(5, dtype=np.int64)  # bit mask of dice used (non-doubles)
    h = board_hash(board)
    hashes = np.zeros(5, dtype=np.uint64)
    hashes[0] = h

    best = 0
    count = 0
    high_seen = False
    overflow = False
    # the root: a pass is the candidate until a step is found
    if not (block_check == BLOCK_TURN_END and forbidden_block(board, opp_off)):
        out_boards[0, :] = board
        count = 1

    k = 0
    cursor[0] = 0
    while k >= 0:
        found = False
        if k < max_steps:
            while cursor[k] < n_options:
                opt = cursor[k]
                cursor[k] += 1
                if double:
                    die_idx = 0
                    die = d1
                else:
                    die_idx = opt // N_POINTS
                    if used[k] & (1 << die_idx):
                        continue
                    die = d1 if die_idx == 0 else d2
                src = opt % N_POINTS
                if not step_is_legal(board, src, die, head0 - board[0], limit, outside, opp_off, block_check):
                    continue
                # make the step
                dst = src + die
                hk = hashes[k] ^ ZOBRIST[src, board[src] + 15]
                board[src] -= 1
                hk ^= ZOBRIST[src, board[src] + 15]
                if dst < N_POINTS:
                    hk ^= ZOBRIST[dst, board[dst] + 15]
                    board[dst] += 1
                    hk ^= ZOBRIST[dst, board[dst] + 15]
                    if src < HOME_START and dst >= HOME_START:
                        outside -= 1
                newmask = used[k] | (1 << die_idx)
                key = hk ^ ZOBRIST_DEPTH[k + 1] ^ ZOBRIST_MASK[newmask]
                if not _memo_visit(board, key, memo_keys, memo_stamp, memo_boards, stamp):
                    # already explored: unmake and try the next option
                    board[src] += 1
                    if dst < N_POINTS:
                        board[dst] -= 1
                        if src < HOME_START and dst >= HOME_START:
                            outside += 1
                    continue
                path_from[k] = src
                path_die[k] = die
                path_idx[k] = die_idx
                hashes[k + 1] = hk
                used[k + 1] = newmask
                depth = k + 1
                # record the node as a candidate play
                if not (block_check == BLOCK_TURN_END and forbidden_block(board, opp_off)):
                    if depth > best:
                        best = depth
                        count = 0
                        high_seen = False
                    if depth == best:
                        if count < capacity:
                            out_boards[count, :] = board
                            for j in range(depth):
                                out_from[count, j] = path_from[j]
                                out_die[count, j] = path_die[j]
                            count += 1
                            if depth == 1 and die_idx == 0:
                                high_seen = True
                        else:
                            overflow = True
                k = depth
                cursor[k] = 0
                found = True
                break
        if not found:
            # unmake the step that led to depth k, then go back up
            k -= 1
            if k >= 0:
                src = path_from[k]
                dst = src + path_die[k]
                board[src] += 1
                if dst < N_POINTS:
                    board[dst] -= 1
                    if src < HOME_START and dst >= HOME_START:
                        outside += 1

    if overflow:
        return OVERFLOW, best
    if not double and best == 1 and high_seen and d1 != d2:
        # R2: only one die can be played, so the larger one must be
        kept = 0
        for i in range(count):
            if out_die[i, 0] == d1:
                if kept != i:
                    out_boards[kept, :] = out_boards[i, :]
                    out_from[kept, 0] = out_from[i, 0]
                    out_die[kept, 0] = out_die[i, 0]
                kept += 1
        count = kept
    return count, best
