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

from .board import IN_PLAY, N_POINTS, flip, opp_on_board, status_after
from .evaluate import (NEURAL, NO_SCREEN, ROLL_HIGH, ROLL_LOW, ROLL_WEIGHT, TERMINAL,
                       best_replies, choice_scratch, static_score)
from .features import opponent_terms
from .jit import kernel
from .movegen import MAX_RESULTS, PlaySpace, enumerate_plays, play_space
from .neural import H_SINGLE, float32_layers, layers, single_layers
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
    reply: PlaySpace       # the opponent's replies of one roll
    deep: PlaySpace        # the 1-ply searches below them (`best_replies`' enumeration)
    best: np.ndarray       # [roll]: `best_replies`' best results (not used by the search)
    scores: np.ndarray     # the 0-ply scores of one roll's replies


@kernel
def search_scratch(kind, weights):
    """A `SearchScratch` for evaluator `kind` with parameters `weights`."""
    net = float32_layers(kind == NEURAL, weights)
    return SearchScratch(choice_scratch(), net, np.empty(N_POINTS, dtype=np.int8), play_space(),
                         play_space(), np.zeros((21, N_POINTS), dtype=np.int8),
                         np.empty(MAX_RESULTS, dtype=np.float64))


# ---------------------------------------------------------------- the calls into the other kernels


@kernel
def static_scores(boards, n, mover_white, judge, rules, s, out):
    """out[i] = the 0-ply score by `judge` (`EvalArgs`) of boards[i] (i < n), results of one turn,
    for the side that played them."""
    kind, weights, values = judge.kind, judge.weights, judge.values
    c = s.choice
    opponent_terms(boards[0], c.opp)
    if kind == NEURAL:
        last = rules.last_roll
        if weights[H_SINGLE] != 0.0:
            turn_scores(single_layers(weights), last, values, boards, n, mover_white, c.opp,
                        c.feats, c.idx, c.val, c.mask, c.hidden32, c.probs, out)
        else:
            turn_scores(layers(weights), last, values, boards, n, mover_white, c.opp, c.feats,
                        c.idx, c.val, c.mask, c.hidden, c.probs, out)
        return
    for i in range(n):
        out[i] = static_score(boards[i], kind, weights, values, mover_white, c)


@kernel
def finished(board, mover_white, judge, rules, score):
    """True when nothing follows the play of `board` (the game is over; 0-ply `score` is exact)."""
    if judge.kind == NEURAL:
        return status_after(board, mover_white, rules.last_roll) != IN_PLAY
    return score >= TERMINAL


@kernel
def replies_of(board, r, rules, space):
    """The opponent's results of roll r on `board` (its own view) into `space`; their count."""
    n, _ = enumerate_plays(board, 15 - opp_on_board(board), ROLL_HIGH[r], ROLL_LOW[r],
                           rules.head_rule, rules.block_check, space.boards, space.step_from,
                           space.step_die, space.memo, space.memo_stamp)
    return n


@kernel
def one_ply(board, mover_white, score, judge, rules, s):
    """The 1-ply value of `board` for the side that just played it (`score`: its 0-ply score)."""
    if finished(board, mover_white, judge, rules, score):
        return score
    flip(board, s.flipped)
    return -best_replies(s.flipped, not mover_white, judge, rules, s.net, NO_SCREEN, s.choice,
                         s.deep, s.best)


# ---------------------------------------------------------------- the search


@kernel
def kept(scores, order, n, width, margin):
    """How many of the results `order` ranks (best first by `scores`) a filter keeps: the best
    `width` of those within `margin` of the best (at least one)."""
    k = 1
    top = scores[order[0]]
    while k < n and k < width and scores[order[k]] >= top - margin:
        k += 1
    return k


@kernel
def two_ply(board, mover_white, score, judge, rules, filt, s):
    """The 2-ply value of `board` for the side that just played it (`score`: its 0-ply score):
    minus the mean over the opponent's rolls of its best reply by 1-ply, among the replies its
    0-ply filter keeps."""
    if finished(board, mover_white, judge, rules, score):
        return score
    opp_view = np.empty(N_POINTS, dtype=np.int8)
    flip(board, opp_view)
    width = filt[F_REPLY_WIDTH]
    margin = filt[F_REPLY_MARGIN]
    total = 0.0
    for r in range(21):
        n = replies_of(opp_view, r, rules, s.reply)
        replies = s.reply.boards
        static_scores(replies, n, not mover_white, judge, rules, s, s.scores)
        sc = s.scores
        order = np.argsort(-sc[:n], kind="mergesort")
        best = -1e18
        for j in range(kept(sc, order, n, width, margin)):
            i = order[j]
            v = one_ply(replies[i], not mover_white, sc[i], judge, rules, s)
            if v > best:
                best = v
        total += ROLL_WEIGHT[r] * best
    return -total


@kernel
def two_ply_values(boards, n, white, judge, rules, filt, out):
    """out[i] = the 2-ply value by `judge` (`EvalArgs`) under `rules` (`KernelRules`) of boards[i]
    for the side that just played it (White when white[i])."""
    s = search_scratch(judge.kind, judge.weights)
    one = np.empty(1, dtype=np.float64)
    for i in range(n):
        # not a literal 1: `static_scores` (and the turn pass under it) would compile again for it
        static_scores(boards[i:i + 1], np.int64(1), white[i], judge, rules, s, one)
        out[i] = two_ply(boards[i], white[i], one[0], judge, rules, filt, s)


@kernel
def choose_two_ply(boards, n, mover_white, judge, rules, filt, depth, value):
    """Index of the best of the results boards[:n] by the pruned 2-ply search: every result at
    0-ply, the root's 0-ply filter's survivors at 1-ply, its 1-ply filter's at 2-ply.  depth[i] =
    the deepest ply result i was valued at, value[i] that value."""
    s = search_scratch(judge.kind, judge.weights)
    s0 = np.empty(n, dtype=np.float64)
    static_scores(boards, n, mover_white, judge, rules, s, s0)
    for i in range(n):
        depth[i] = 0
        value[i] = s0[i]
    order = np.argsort(-s0, kind="mergesort")
    if n == 1 or finished(boards[order[0]], mover_white, judge, rules, s0[order[0]]):
        return order[0]
    k0 = kept(s0, order, n, filt[F_ROOT0_WIDTH], filt[F_ROOT0_MARGIN])
    s1 = np.full(n, -1e18)
    for j in range(k0):
        i = order[j]
        s1[i] = one_ply(boards[i], mover_white, s0[i], judge, rules, s)
        depth[i] = 1
        value[i] = s1[i]
    order1 = np.argsort(-s1, kind="mergesort")
    k1 = kept(s1, order1, k0, filt[F_ROOT1_WIDTH], filt[F_ROOT1_MARGIN])
    pick = order1[0]
    best = -1e18
    for j in range(k1):
        i = order1[j]
        v = two_ply(boards[i], mover_white, s0[i], judge, rules, filt, s)
        depth[i] = 2
        value[i] = v
        if v > best:
            best = v
            pick = i
    return pick
