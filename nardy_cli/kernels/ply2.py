"""The 2-ply search, compiled: a result valued by the opponent's best replies, each valued at 1-ply.

The value of a result for the side that has just played it (mover-relative
board, the opponent to roll), by depth:

- 0-ply: the evaluator's static score (a finished game: its exact value);
- 1-ply: minus the mean over the opponent's 21 rolls of its best reply's 0-ply
  score (`evaluate.best_replies`, as `lookahead:NAME` searches);
- 2-ply: minus the mean over the opponent's 21 rolls of its best reply's 1-ply
  value, the replies of each roll screened at 0-ply first.

Pruned as GNU Backgammon's move filters prune: at each level only the few best
candidates by the shallower search go on, the best `width` of those within
`margin` of the best.  A filter is a float64 array indexed by the `F_*`
constants: the root's 0-ply and 1-ply filters (`choose_two_ply`) and the
replies' 0-ply filter (every 2-ply value).  The calls into the other kernels
are the four helpers at the top of the module.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .board import N_POINTS, flip, opp_on_board
from .evaluate import (MAX_HIDDEN, NEURAL, NO_SCREEN, ROLL_HIGH, ROLL_LOW, ROLL_WEIGHT, TERMINAL,
                       best_replies, choice_scratch, static_score)
from .features import opponent_terms
from .movegen import MAX_RESULTS, enumerate_plays, memo_arrays
from .neural import (HEADER, H_LAST_ROLL, H_SINGLE, game_over_after, layers, single_layers,
                     single_precision)
from .turnpass import turn_scores

# a filter's cells: the root's 0-ply and 1-ply filters, the opponent's replies' 0-ply filter
(F_ROOT0_WIDTH, F_ROOT0_MARGIN, F_ROOT1_WIDTH, F_ROOT1_MARGIN, F_REPLY_WIDTH,
 F_REPLY_MARGIN) = range(6)
N_FILTER = 6


class SearchScratch(NamedTuple):
    """The search's workspace: the evaluators' scratch and two enumerations (the replies, and the
    1-ply searches below them)."""

    choice: tuple          # `evaluate.choice_scratch()`
    net: tuple             # the network's layers in single precision, for `best_replies`
    flipped: np.ndarray    # a board turned to the opponent's view
    reply_boards: np.ndarray
    reply_from: np.ndarray
    reply_die: np.ndarray
    reply_memo: np.ndarray
    reply_stamp: np.ndarray
    deep_boards: np.ndarray
    deep_from: np.ndarray
    deep_die: np.ndarray
    deep_memo: np.ndarray
    deep_stamp: np.ndarray
    best: np.ndarray       # [roll]: `best_replies`' best results (not used by the search)
    scores: np.ndarray     # the 0-ply scores of one roll's replies
    hidden32: np.ndarray   # the single-precision pass's hidden layer


@njit(cache=True)
def search_scratch(kind, weights):
    """A `SearchScratch` for evaluator `kind` with parameters `weights`."""
    if kind == NEURAL and weights[H_SINGLE] != 0.0:
        net = single_layers(weights)
    else:
        net = single_precision(weights if kind == NEURAL else np.zeros(HEADER))
    memo_r, stamp_r = memo_arrays()
    memo_d, stamp_d = memo_arrays()
    return SearchScratch(choice_scratch(), net, np.empty(N_POINTS, dtype=np.int8),
                         np.zeros((MAX_RESULTS, N_POINTS), dtype=np.int8),
                         np.zeros((MAX_RESULTS, 4), dtype=np.int8),
                         np.zeros((MAX_RESULTS, 4), dtype=np.int8), memo_r, stamp_r,
                         np.zeros((MAX_RESULTS, N_POINTS), dtype=np.int8),
                         np.zeros((MAX_RESULTS, 4), dtype=np.int8),
                         np.zeros((MAX_RESULTS, 4), dtype=np.int8), memo_d, stamp_d,
                         np.zeros((21, N_POINTS), dtype=np.int8),
                         np.empty(MAX_RESULTS, dtype=np.float64),
                         np.empty(MAX_HIDDEN, dtype=np.float32))


# ---------------------------------------------------------------- the calls into the other kernels


@njit(cache=True)
def static_scores(boards, n, mover_white, kind, weights, values, s, out):
    """out[i] = the 0-ply score of boards[i] (i < n), results of one turn, for the side that
    played them."""
    c = s.choice
    opponent_terms(boards[0], c.opp)
    if kind == NEURAL:
        last = weights[H_LAST_ROLL] != 0.0
        if weights[H_SINGLE] != 0.0:
            turn_scores(single_layers(weights), last, values, boards, n, mover_white, c.opp,
                        c.feats, c.idx, c.val, c.mask, s.hidden32, c.probs, out)
        else:
            turn_scores(layers(weights), last, values, boards, n, mover_white, c.opp, c.feats,
                        c.idx, c.val, c.mask, c.hidden, c.probs, out)
        return
    for i in range(n):
        out[i] = static_score(boards[i], kind, weights, values, mover_white, c)


@njit(cache=True)
def finished(board, mover_white, kind, weights, score):
    """True when nothing follows the play of `board` (the game is over; 0-ply `score` is exact)."""
    if kind == NEURAL:
        return game_over_after(board, mover_white, weights[H_LAST_ROLL] != 0.0)
    return score >= TERMINAL


@njit(cache=True)
def replies_of(board, r, head_rule, block_check, boards, step_from, step_die, memo, stamp):
    """The opponent's results of roll r on `board` (its own view) into boards; their count."""
    n, _ = enumerate_plays(board, 15 - opp_on_board(board), ROLL_HIGH[r], ROLL_LOW[r], head_rule,
                           block_check, boards, step_from, step_die, memo, stamp)
    return n


@njit(cache=True)
def one_ply(board, mover_white, score, head_rule, block_check, kind, weights, values, s):
    """The 1-ply value of `board` for the side that just played it (`score`: its 0-ply score)."""
    if finished(board, mover_white, kind, weights, score):
        return score
    flip(board, s.flipped)
    return -best_replies(s.flipped, not mover_white, head_rule, block_check, kind, weights, values,
                         s.net, NO_SCREEN, s.choice, s.deep_boards, s.deep_from, s.deep_die,
                         s.deep_memo, s.deep_stamp, s.best)


# ---------------------------------------------------------------- the search


@njit(cache=True)
def kept(scores, order, n, width, margin):
    """How many of the results `order` ranks (best first by `scores`) a filter keeps: the best
    `width` of those within `margin` of the best (at least one)."""
    k = 1
    top = scores[order[0]]
    while k < n and k < width and scores[order[k]] >= top - margin:
        k += 1
    return k


@njit(cache=True)
def two_ply(board, mover_white, score, head_rule, block_check, kind, weights, values, filt, s):
    """The 2-ply value of `board` for the side that just played it (`score`: its 0-ply score):
    minus the mean over the opponent's rolls of its best reply by 1-ply, among the replies its
    0-ply filter keeps."""
    if finished(board, mover_white, kind, weights, score):
        return score
    opp_view = np.empty(N_POINTS, dtype=np.int8)
    flip(board, opp_view)
    width = filt[F_REPLY_WIDTH]
    margin = filt[F_REPLY_MARGIN]
    total = 0.0
    for r in range(21):
        n = replies_of(opp_view, r, head_rule, block_check, s.reply_boards, s.reply_from,
                       s.reply_die, s.reply_memo, s.reply_stamp)
        static_scores(s.reply_boards, n, not mover_white, kind, weights, values, s, s.scores)
        sc = s.scores
        order = np.argsort(-sc[:n], kind="mergesort")
        best = -1e18
        for j in range(kept(sc, order, n, width, margin)):
            i = order[j]
            v = one_ply(s.reply_boards[i], not mover_white, sc[i], head_rule, block_check, kind,
                        weights, values, s)
            if v > best:
                best = v
        total += ROLL_WEIGHT[r] * best
    return -total


@njit(cache=True)
def two_ply_values(boards, n, white, head_rule, block_check, kind, weights, values, filt, out):
    """out[i] = the 2-ply value of boards[i] for the side that just played it (White when
    white[i])."""
    s = search_scratch(kind, weights)
    one = np.empty(1, dtype=np.float64)
    for i in range(n):
        static_scores(boards[i:i + 1], 1, white[i], kind, weights, values, s, one)
        out[i] = two_ply(boards[i], white[i], one[0], head_rule, block_check, kind, weights, values,
                         filt, s)


@njit(cache=True)
def choose_two_ply(boards, n, mover_white, head_rule, block_check, kind, weights, values, filt,
                   depth, value):
    """Index of the best of the results boards[:n] by the pruned 2-ply search: every result at
    0-ply, the root's 0-ply filter's survivors at 1-ply, its 1-ply filter's at 2-ply.  depth[i] =
    the deepest ply result i was valued at, value[i] that value."""
    s = search_scratch(kind, weights)
    s0 = np.empty(n, dtype=np.float64)
    static_scores(boards, n, mover_white, kind, weights, values, s, s0)
    for i in range(n):
        depth[i] = 0
        value[i] = s0[i]
    order = np.argsort(-s0, kind="mergesort")
    if n == 1 or finished(boards[order[0]], mover_white, kind, weights, s0[order[0]]):
        return order[0]
    k0 = kept(s0, order, n, filt[F_ROOT0_WIDTH], filt[F_ROOT0_MARGIN])
    s1 = np.full(n, -1e18)
    for j in range(k0):
        i = order[j]
        s1[i] = one_ply(boards[i], mover_white, s0[i], head_rule, block_check, kind, weights,
                        values, s)
        depth[i] = 1
        value[i] = s1[i]
    order1 = np.argsort(-s1, kind="mergesort")
    k1 = kept(s1, order1, k0, filt[F_ROOT1_WIDTH], filt[F_ROOT1_MARGIN])
    pick = order1[0]
    best = -1e18
    for j in range(k1):
        i = order1[j]
        v = two_ply(boards[i], mover_white, s0[i], head_rule, block_check, kind, weights, values,
                    filt, s)
        depth[i] = 2
        value[i] = v
        if v > best:
            best = v
            pick = i
    return pick
