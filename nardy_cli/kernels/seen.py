"""A search's table of the replies it has scored: a result met again under another roll is not
scored twice.

Within one reply search (`evaluate.best_replies`, `evaluate.bounded_replies`)
every reply is scored against the same reference, so a result's score depends
on the result alone, and the same result can come from different rolls: every
full play of a roll moves the same number of pips, and two rolls with the same
total (6-1, 5-2 and 4-3; 6-2, 5-3 and 2-2; ...) share every result that moves
one checker the whole way, and others.  About a tenth of a search's replies
repeat an earlier roll's.  The table keeps the scores of the rolls that share
their total with a later roll, keyed by the whole board, and the rolls that
share it with an earlier one look their results up: a score taken from the
table is the one the pass would compute, so the search's choices are the same.

The table is `SLOTS` rows of (board as three words, stamp) plus a last row
whose first cell is the search's stamp; `values` holds the scores.  A new
search only moves the stamp on.  A full neighbourhood drops the insert: the
table is a saving, never needed for the result.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel, leaf

SLOTS = 1024            # a power of two above a search's kept replies (a few hundred)
PROBES = 8              # slots tried from a key's own before an insert is dropped
_SHIFT = np.uint64(64 - 10)         # 2 ** 10 = SLOTS
_K0 = np.uint64(0x9E3779B97F4A7C15)
_K1 = np.uint64(0xC2B2AE3D27D4EB4F)
_K2 = np.uint64(0x165667B19E3779F9)


def roll_sharing(high: np.ndarray, low: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per roll of the order (high, low): (an earlier roll moves the same total, a later one
    does): which rolls look up and which keep their results."""
    total = [4 * h if h == lo else h + lo for h, lo in zip(high.tolist(), low.tolist())]
    earlier = np.array([t in total[:r] for r, t in enumerate(total)], dtype=np.bool_)
    later = np.array([t in total[r + 1:] for r, t in enumerate(total)], dtype=np.bool_)
    return earlier, later


@kernel
def seen_table():
    """An empty table: (keys and stamps, scores)."""
    return np.zeros((SLOTS + 1, 4), dtype=np.int64), np.zeros(SLOTS, dtype=np.float64)


@leaf
def new_search(keys):
    """Forget every entry (the stamp moves on)."""
    keys[SLOTS, 0] += 1


@kernel(inline="always")
def _key(keys, board):
    """`board` (24 int8 cells) as its three words, the search's stamp and the key's own slot."""
    w = board.view(np.int64)
    w0, w1, w2 = w[0], w[1], w[2]
    h = (np.uint64(w0) * _K0) ^ (np.uint64(w1) * _K1) ^ (np.uint64(w2) * _K2)
    return w0, w1, w2, keys[SLOTS, 0], np.int64(h >> _SHIFT)


@kernel(inline="always")
def find(keys, board):
    """The slot holding `board` (24 int8 cells) in this search, or -1."""
    w0, w1, w2, stamp, slot = _key(keys, board)
    for _ in range(PROBES):
        if keys[slot, 3] != stamp:
            return -1
        if keys[slot, 0] == w0 and keys[slot, 1] == w1 and keys[slot, 2] == w2:
            return slot
        slot = (slot + 1) & (SLOTS - 1)
    return -1


@kernel(inline="always")
def keep(keys, values, board, value):
    """Enter `board`'s score (when a free slot is near its own)."""
    w0, w1, w2, stamp, slot = _key(keys, board)
    for _ in range(PROBES):
        if keys[slot, 3] != stamp:
            keys[slot, 0], keys[slot, 1], keys[slot, 2], keys[slot, 3] = w0, w1, w2, stamp
            values[slot] = value
            return
        slot = (slot + 1) & (SLOTS - 1)
