"""The network's pass over one turn's results: first-layer sums shared by the turn, changes per
result.

The results of one roll differ from each other only on the points their plays
touched, and the opponent's checkers do not move during the mover's turn.  So
`turn_sums` runs the first layer once per turn on a reference board (one of
the results) and keeps its global and feature inputs; `result_probs` then adds,
per result, only the rows of the inputs that differ from the reference's: the
point units its play changed and the few globals and features it moved (most
results of a roll have the same pips, the same checkers off, the opponent's
terms never change).  The sums are the full pass's (`neural.board_probs`) added
in another order: in double precision they agree to about 1e-15.  A network of
input version 2 (W1 with `N_INPUTS_BLOCKS` rows) has its block and timing inputs
among the dense ones; a version-1 network's pass skips them.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel, leaf
from .blocks import N_BLOCK, block_terms
from .board import IN_PLAY, end_status
from .features import N_FEATURES, feature_terms
from .neural import (BLOCK_INPUTS, G_BACK, G_CONTACT, G_HOME, G_OFF, G_OUT, G_PIP_DIFF, G_PIPS,
                     N_GLOBALS, POINT_INPUTS, accumulate, accumulate_from, allowed_classes, encode,
                     equity_of, exact_probs, output, point_changes, reads_blocks)

# the inputs after the point units, kept dense per board (the block inputs: input version 2 only)
N_DENSE = N_GLOBALS + N_FEATURES + N_BLOCK


@leaf
def turn_sums(net, ref, mover_white, opp, feats, idx, val, sums, dense):
    """sums = the first layer's sums (before the ReLU) of `ref`; dense = its global and feature
    inputs.

    `net` is (W1, b1, W2, b2) (`neural.layers` or `neural.single_precision`),
    `ref` one result of the turn (mover-relative, before the turn passes) and
    `opp` the opponent's terms (`features.opponent_terms`); `feats`, `idx`,
    `val` are `neural.encode`'s scratch.
    """
    w1, b1, _, _ = net
    for j in range(sums.shape[0]):
        sums[j] = b1[j]
    m = encode(ref, mover_white, opp, feats, idx, val, reads_blocks(w1.shape[0]))
    accumulate(w1, idx, val, m, sums)
    for g in range(N_DENSE):
        dense[g] = 0.0
    for k in range(m):
        if idx[k] >= POINT_INPUTS:
            dense[idx[k] - POINT_INPUTS] = val[k]


@kernel(inline="always")
def _change(idx, val, m, dense, g, x):
    """Append dense input `g`'s change to value `x` when it differs from the reference's; return the
    count."""
    d = x - dense[g]
    # written whether or not it counts: a branch on the change would mispredict for most inputs
    idx[m] = POINT_INPUTS + g
    val[m] = d
    return m + (d != 0.0)


@kernel(inline="always")
def result_probs(net, last_roll, sums, dense, ref, board, mover_white, opp, feats, idx, val, mask,
                 hidden, probs):
    """`neural.board_probs` of `board`, a result of the turn whose `turn_sums(net, ref, ...)` are
    sums, dense.

    A finished game is scored exactly; otherwise the rows of the inputs that
    differ from the reference's are added to a copy of `sums` in `hidden` (of
    `sums`' dtype) and the masked softmax is taken.  It is compiled into its
    callers' loops: a call would cost a sixth of a result.
    """
    opp_pips, opp_on, opp_out, opp_back = opp[0], opp[1], opp[2], opp[3] != 0
    # the heuristic features (inputs too) and the mover's terms in one scan
    pips, on, out, back = feature_terms(board, feats, opp)
    # the game is over (`board.status_after`, from the counts at hand), or Black's last roll is
    # all that is left (R8)
    if on == 0 or end_status(opp_on, on, not mover_white, opp_out == 0, last_roll) != IN_PLAY:
        exact_probs(board, mover_white, last_roll, probs)
        return
    allowed_classes(on, back, opp_on, opp_back, last_roll, mask)
    # the mover's globals (`neural.encode_globals`); the opponent's and the colour are the
    # reference's
    m = 0
    m = _change(idx, val, m, dense, G_OFF, (15 - on) / 15.0)
    m = _change(idx, val, m, dense, G_PIPS, pips / 100.0)
    m = _change(idx, val, m, dense, G_OUT, out / 15.0)
    m = _change(idx, val, m, dense, G_BACK, back)
    m = _change(idx, val, m, dense, G_CONTACT,
                1.0 if (back or opp_back) and on > 0 and opp_on > 0 else 0.0)
    m = _change(idx, val, m, dense, G_HOME, 1.0 if out == 0 else 0.0)
    m = _change(idx, val, m, dense, G_PIP_DIFF, (opp_pips - pips) / 50.0)
    # the game goes on, so the mover has checkers on board and `feats` is filled
    for j in range(N_FEATURES):
        m = _change(idx, val, m, dense, N_GLOBALS + j, feats[j] / 4.0)
    w1, _, w2, b2 = net
    if reads_blocks(w1.shape[0]):
        terms = block_terms(board, pips, on, opp)
        for k in range(N_BLOCK):
            m = _change(idx, val, m, dense, BLOCK_INPUTS + k, terms[k])
    m = point_changes(ref, board, idx, val, m)
    accumulate_from(w1, idx, val, m, sums, hidden)
    output(w2, b2, mask, hidden, probs)


@kernel(stage=True)
def turn_scores(net, last_roll, values, boards, n, mover_white, opp, feats, idx, val, mask, hidden,
                probs, scores):
    """scores[i] = the network's value of boards[i] (i < n), the results of one roll, for the side
    playing them.

    The first layer runs once on boards[0], then per result only on the inputs
    that changed (`result_probs`); `hidden` has `net`'s dtype and `values` is
    `Valuation.kernel_values()`.
    """
    sums = np.empty(net[1].shape[0], dtype=hidden.dtype)
    dense = np.empty(N_DENSE, dtype=np.float64)
    scores_of_turn(net, last_roll, values, boards, n, mover_white, opp, feats, idx, val, mask,
                   hidden, sums, dense, probs, scores)


@leaf
def scores_of_turn(net, last_roll, values, boards, n, mover_white, opp, feats, idx, val, mask,
                   hidden, sums, dense, probs, scores):
    """`turn_scores` with its sums and dense inputs as scratch: a leaf, so the arrays each result
    binds are not counted."""
    turn_sums(net, boards[0], mover_white, opp, feats, idx, val, sums, dense)
    for i in range(n):
        result_probs(net, last_roll, sums, dense, boards[0], boards[i], mover_white, opp, feats,
                     idx, val, mask, hidden, probs)
        scores[i] = equity_of(values, mover_white, probs)
