"""Compiled policies: static evaluators and how the game kernel picks a result.

An evaluator scores a mover-relative board right after the mover's play (the
opponent to roll next), higher being better for the mover.  `choose_play`
returns the index of the best result, or a uniform one for the random policy;
with lookahead it averages the opponent's best reply over its 21 rolls.
The neural kind scores a result by the value of its class probabilities under
the valuation's `values` array (float64[2, 9], a row per colour: money points
or match equity, `outcomes.Valuation.kernel_values`); the other kinds ignore it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .jit import counted, kernel, leaf
from .board import IN_PLAY, N_POINTS, flip, opp_on_board, status_after
from .features import (  # noqa: F401
                       F_BLOCK, F_CONTACT, F_HEAD, F_HOME, F_OFF, F_OPP_BLOCKED, F_OPP_HEAD,
                       F_OPP_MOBILITY, F_OWN_BLOCKED, F_OWN_MOBILITY, F_PIPS, F_RACE_OFF,
                       F_RACE_PIPS, F_SPREAD, F_STACK, F_ZONE, N_FEATURES, N_OPP, features, masks,
                       movable_points, opponent_terms)
from .movegen import OVERFLOW, STEP_RECORD, enumerate_plays, record_steps, replay_steps
from .neural import (H_SINGLE, MAX_ACTIVE, N_CLASSES, board_probs, equity_of, float32_layers,
                     layers, single_layers)
from .rng import below, next_random
from .seen import find, keep, new_search, roll_sharing, seen_table
from .static_scores import (TERMINAL, first_best, heuristic_score, heuristic_scores,  # noqa: F401
                            racer_score, racer_scores)
from .turnpass import N_DENSE, result_probs, turn_scores, turn_sums

RANDOM, RACER, HEURISTIC, NEURAL = 0, 1, 2, 3
N_WEIGHTS = 32
MAX_HIDDEN = 512         # largest hidden layer the scratch space holds
LOOKAHEAD_WIDTH = 3      # candidates searched one ply deeper, best first by the static score
# neural lookahead searches only candidates this close (equity) to the 0-ply best
NEURAL_MARGIN = 0.12
NEURAL_WIDTH = 2         # ... and at most this many of them
# a screened reply search scores each roll's best results by the heuristic with the network
SCREEN_WIDTH = 8
NO_SCREEN = np.zeros(0)  # `best_replies`' screen off: the network scores every result
PROVEN = 1e-9            # how far `bounded_replies`' bound must pass its cutoff: far above rounding

# the 21 rolls (high, low) and their weights out of 36
ROLL_HIGH = np.array([h for h in range(6, 0, -1) for l in range(h, 0, -1)], dtype=np.int64)
ROLL_LOW = np.array([l for h in range(6, 0, -1) for l in range(h, 0, -1)], dtype=np.int64)
ROLL_WEIGHT = np.array([1.0 if h == l else 2.0 for h, l in zip(ROLL_HIGH, ROLL_LOW)]) / 36.0
# per roll: its results are looked up in the search's table of scored replies, kept in it
# (`seen`: rolls that move the same total share results)
ROLL_LOOKS, ROLL_KEEPS = roll_sharing(ROLL_HIGH, ROLL_LOW)


class EvalArgs(NamedTuple):
    """One side's built-in evaluator as the choosers take it (`choose_play`, `best_replies`)."""

    kind: int               # RANDOM, RACER, HEURISTIC or NEURAL
    weights: np.ndarray     # float64: its parameters (the heuristic's weights, a network's vector)
    values: np.ndarray      # float64[2, 9]: each colour's values of the result codes
                            # (`Valuation.kernel_values`)


@counted
def static_score(board, kind, weights, values, mover_white, scratch):
    """Score of a result for the side that just played it (`scratch` from `choice_scratch`, opponent
    terms filled)."""
    if kind == RACER:
        return racer_score(board)
    if kind == NEURAL:
        return neural_score(board, weights, values, mover_white, scratch.opp, scratch.feats,
                            scratch.idx, scratch.val, scratch.mask, scratch.hidden, scratch.probs)
    return heuristic_score(board, weights, scratch.feats, scratch.opp)


@kernel
def neural_score(board, weights, values, mover_white, opp, feats, idx, val, mask, hidden, probs):
    """The network's value for the side that just played `board` (the rest: `board_probs`'s
    scratch)."""
    board_probs(weights, board, mover_white, opp, feats, idx, val, mask, hidden, probs)
    return equity_of(values, mover_white, probs)


@leaf
def best_replies(board, mover_white, judge, rules, net, screen, scratch, space, out):
    """out[r] = the result of roll r with the best static score by `judge` (`EvalArgs`) for the side
    to move on `board` (its own view; colour `mover_white`) under `rules` (`KernelRules`), and
    scratch.reply_steps[r] its steps; return the expected best score over the 21 rolls.
    `scratch` is a `ChoiceScratch`, `space` the `movegen.PlaySpace` it enumerates in.

    The neural kind evaluates with `net` (float32 layers: `single_precision` or
    `single_layers` of the weights) by the turn pass with `board` as the
    reference: its first-layer sums once, then per result only the inputs its
    play changed (`reply_score`).
    With heuristic weights in `screen` (not `NO_SCREEN`) it scores only the
    SCREEN_WIDTH results of each roll the heuristic ranks first: the
    luck of a turn the lookahead did not search, for about 60% of the cost.
    """
    kind, weights, values = judge.kind, judge.weights, judge.values
    head_rule, block_check, last_roll = rules.head_rule, rules.block_check, rules.last_roll
    scratch_boards, scratch_from, scratch_die = space.boards, space.step_from, space.step_die
    memo, memo_stamp = space.memo, space.memo_stamp
    opp_off = 15 - opp_on_board(board)
    total = 0.0
    opp = scratch.opp
    opponent_terms(board, opp)
    neural = kind == NEURAL
    sums = scratch.sums32[:net[1].shape[0]]
    if neural:
        reply_sums(net, board, mover_white, scratch, sums)
        new_search(scratch.seen_keys)
    screened = neural and screen.shape[0] > 0
    top, top_score = scratch.top, scratch.top_score
    for r in range(21):
        n, steps = enumerate_plays(board, opp_off, ROLL_HIGH[r], ROLL_LOW[r], head_rule,
                                   block_check, scratch_boards, scratch_from, scratch_die, memo,
                                   memo_stamp)
        use_top = screened and n > SCREEN_WIDTH
        if use_top:
            n = top_results(scratch_boards, n, screen, scratch.feats, opp, top, top_score)
        best = -1e18
        best_i = np.int64(0)   # not a literal 0, which numba would compile record_steps for too
        for c in range(n):
            i = top[c] if use_top else c
            if neural:
                v = seen_score(net, last_roll, values, sums, board, scratch_boards[i],
                               mover_white, scratch, ROLL_LOOKS[r], ROLL_KEEPS[r])
            elif kind == HEURISTIC:
                v = heuristic_score(scratch_boards[i], weights, scratch.feats, opp)
            else:
                v = static_score(scratch_boards[i], kind, weights, values, mover_white, scratch)
            if v > best:
                best = v
                best_i = i
        copy_board(scratch_boards, best_i, out, r)
        record_steps(scratch_from, scratch_die, best_i, steps, scratch.reply_steps[r])
        total += ROLL_WEIGHT[r] * best
    return total


@leaf
def reply_sums(net, board, mover_white, scratch, sums):
    """sums = the first-layer sums of `board` (opponent terms in `scratch.opp`) for `reply_score`
    (float32, of the hidden layer's length); its global and feature inputs in `scratch.dense`."""
    turn_sums(net, board, mover_white, scratch.opp, scratch.feats, scratch.idx, scratch.val, sums,
              scratch.dense)


@kernel(inline="always")
def reply_value(net, last_roll, values, sums, board, reply, mover_white, scratch):
    """The network's value of `reply`, a result of the side to move on `board`, for that side;
    `sums` = `reply_sums(net, board, ...)`.  Compiled into the searches' loops over their
    results (`seen_score`): a call passes the whole scratch and cost a tenth of a search."""
    result_probs(net, last_roll, sums, scratch.dense, board, reply, mover_white, scratch.opp,
                  scratch.feats, scratch.idx, scratch.val, scratch.mask, scratch.hidden32,
                  scratch.probs)
    return equity_of(values, mover_white, scratch.probs)


@leaf
def reply_score(net, last_roll, values, sums, board, reply, mover_white, scratch):
    """`reply_value`, called: for the one result a roll's bound takes (`bounded_replies`), where
    another compiled copy of the turn pass would only lengthen compiling."""
    return reply_value(net, last_roll, values, sums, board, reply, mover_white, scratch)


@kernel(inline="always")
def seen_score(net, last_roll, values, sums, board, reply, mover_white, scratch, looks, keeps):
    """`reply_value`, taken from the search's table when `looks` finds `reply` there, and entered
    in it when `keeps`."""
    keys, table = scratch.seen_keys, scratch.seen_values
    if looks:
        slot = find(keys, reply)
        if slot >= 0:
            return table[slot]
    v = reply_value(net, last_roll, values, sums, board, reply, mover_white, scratch)
    if keeps:
        keep(keys, table, reply, v)
    return v


@leaf
def bounded_replies(board, mover_white, judge, rules, net, scratch, space, probes, probe_steps, out,
                    cutoff):
    """`best_replies` of the neural kind (no screen), stopped once its expected best score is proven
    to reach `cutoff` + PROVEN: then it returns that lower bound, else the exact expectation (and
    `out` as `best_replies` fills it).

    The lookahead's second candidate loses to the first whenever its opponent's
    expectation reaches the first's, so most of its search can be skipped.
    Each roll's best score is bounded below by the value of a result that
    leaves the replier's checkers as `probes[r]` does (the first candidate's
    best reply to that roll, whose steps are `probe_steps[r]`), or else of its
    first result: any legal result bounds the best.  The probe's steps are
    replayed on `board` (`movegen.replay_steps`); only a roll whose replay is
    not certainly legal is enumerated for its bound.  Rolls are then searched
    in order, each enumerated when it is reached, until the searched rolls'
    best scores plus the others' bounds reach the cutoff.  With more results
    than `space` holds it searches as `best_replies` does.
    """
    values = judge.values
    head_rule, block_check, last_roll = rules.head_rule, rules.block_check, rules.last_roll
    opp_off = 15 - opp_on_board(board)
    opponent_terms(board, scratch.opp)
    sums = scratch.sums32[:net[1].shape[0]]
    reply_sums(net, board, mover_white, scratch, sums)
    new_search(scratch.seen_keys)
    start, count, bound, probed = scratch.starts, scratch.counts, scratch.bounds, scratch.probed
    boards = space.boards
    at = np.int64(0)   # the results of rolls enumerated for their bound fill space from the
    # start (int64 from the start: numba would compile its callees for a literal 0 too)
    rest = 0.0
    for r in range(21):
        d1, d2 = ROLL_HIGH[r], ROLL_LOW[r]
        count[r] = -1
        probed[r] = -1
        if replay_steps(board, d1, d2, probe_steps[r], opp_off, head_rule, block_check,
                        scratch.replayed):
            bound[r] = reply_score(net, last_roll, values, sums, board, scratch.replayed,
                                   mover_white, scratch)
        else:
            n = enumerate_at(board, opp_off, d1, d2, rules, space, at)
            if n < 0:
                return best_replies(board, mover_white, judge, rules, net, NO_SCREEN, scratch,
                                    space, out)
            start[r], count[r] = at, n
            probed[r] = same_own_checkers(boards, at, n, probes[r])
            bound[r] = reply_score(net, last_roll, values, sums, board, boards[probed[r]],
                                   mover_white, scratch)
            at += n
        rest += ROLL_WEIGHT[r] * bound[r]
    total = 0.0
    for r in range(21):
        if total + rest >= cutoff + PROVEN:
            return total + rest
        if count[r] < 0:      # not enumerated yet: after the others
            n = enumerate_at(board, opp_off, ROLL_HIGH[r], ROLL_LOW[r], rules, space, at)
            if n < 0:
                return best_replies(board, mover_white, judge, rules, net, NO_SCREEN, scratch,
                                    space, out)
            start[r], count[r] = at, n
        best = -1e18
        best_i = 0
        for i in range(start[r], start[r] + count[r]):
            if i == probed[r]:
                v = bound[r]
            else:
                v = seen_score(net, last_roll, values, sums, board, boards[i], mover_white,
                               scratch, ROLL_LOOKS[r], ROLL_KEEPS[r])
            if v > best:
                best = v
                best_i = i
        copy_board(boards, best_i, out, r)
        total += ROLL_WEIGHT[r] * best
        rest -= ROLL_WEIGHT[r] * bound[r]
    return total


@leaf
def enumerate_at(board, opp_off, d1, d2, rules, space, at):
    """`enumerate_plays` of (d1, d2) into space from result `at` on; the count, or OVERFLOW when
    they do not fit (also when none can)."""
    if at >= space.boards.shape[0]:
        return OVERFLOW
    n, _ = enumerate_plays(board, opp_off, d1, d2, rules.head_rule, rules.block_check,
                           space.boards[at:], space.step_from[at:], space.step_die[at:],
                           space.memo, space.memo_stamp)
    return n


@kernel(inline="always")
def copy_board(boards, i, out, r):
    """out[r] = boards[i], point by point: an array assignment would allocate, which a leaf
    cannot."""
    for p in range(N_POINTS):
        out[r, p] = boards[i, p]


@leaf
def same_own_checkers(boards, at, n, like):
    """The index among boards[at:at + n] whose own (positive) checkers stand as `like`'s do, or else
    `at` (the first)."""
    for i in range(at, at + n):
        same = True
        for p in range(N_POINTS):
            a = boards[i, p]
            b = like[p]
            if (a if a > 0 else 0) != (b if b > 0 else 0):
                same = False
                break
        if same:
            return i
    return at


@leaf
def top_results(boards, n, weights, feats, opp, top, top_score):
    """top[:K] = the indices of the K = len(top) results among boards[:n] with the highest heuristic
    scores, best first (ties: the earlier result); return K."""
    k = top.shape[0]
    m = 0
    for i in range(n):
        s = heuristic_score(boards[i], weights, feats, opp)
        if m < k:
            m += 1
        elif s <= top_score[k - 1]:
            continue
        j = m - 1
        while j > 0 and top_score[j - 1] < s:
            top_score[j] = top_score[j - 1]
            top[j] = top[j - 1]
            j -= 1
        top_score[j] = s
        top[j] = i
    return m


class ChoiceScratch(NamedTuple):
    """Scratch arrays of `choose_play` and the evaluators (one per game loop)."""

    feats: np.ndarray      # the heuristic features of one board
    scores: np.ndarray     # each result's 0-ply score
    opp: np.ndarray        # the opponent's terms (`opponent_terms`)
    idx: np.ndarray        # the network's active inputs ...
    val: np.ndarray        # ... and their values
    mask: np.ndarray       # the classes the rules allow
    hidden: np.ndarray     # the network's hidden layer
    probs: np.ndarray      # the network's class probabilities
    # [j, roll]: the opponent's best reply to the j-th searched result (lookahead)
    replies: np.ndarray
    # [0]: j of the chosen result in `replies`, or -1 when it was not searched
    searched: np.ndarray
    hidden32: np.ndarray   # the single-precision passes' hidden layer
    sums32: np.ndarray     # the reply search's first-layer sums (`reply_sums`) ...
    dense: np.ndarray      # ... and its reference's global and feature inputs
    top: np.ndarray        # a screened roll's results (`top_results`) ...
    top_score: np.ndarray  # ... and their heuristic scores
    # per roll, `bounded_replies`: where its results start in the search space, how many, the
    # lower bound of its best score and the result that gave it
    starts: np.ndarray
    counts: np.ndarray
    bounds: np.ndarray
    probed: np.ndarray
    # per roll, `best_replies`: the best result's steps (`movegen.STEP_RECORD` rows)
    reply_steps: np.ndarray
    replayed: np.ndarray   # `bounded_replies`: a probe's steps replayed on its board
    # the reply search's scored results (`seen.seen_table`): keys and stamps, scores
    seen_keys: np.ndarray
    seen_values: np.ndarray


@kernel
def choice_scratch():
    """Scratch arrays for `choose_play` (a `ChoiceScratch`)."""
    seen_keys, seen_values = seen_table()
    return ChoiceScratch(np.empty(N_FEATURES, dtype=np.float64), np.empty(4096, dtype=np.float64),
                         np.empty(N_OPP, dtype=np.int64), np.empty(MAX_ACTIVE, dtype=np.int64),
                         np.empty(MAX_ACTIVE, dtype=np.float64), np.ones(N_CLASSES, dtype=np.bool_),
                         np.empty(MAX_HIDDEN, dtype=np.float64),
                         np.empty(N_CLASSES, dtype=np.float64),
                         np.zeros((LOOKAHEAD_WIDTH, 21, N_POINTS), dtype=np.int8),
                         np.full(1, -1, dtype=np.int64), np.empty(MAX_HIDDEN, dtype=np.float32),
                         np.empty(MAX_HIDDEN, dtype=np.float32),
                         np.empty(N_DENSE, dtype=np.float64),
                         np.empty(SCREEN_WIDTH, dtype=np.int64),
                         np.empty(SCREEN_WIDTH, dtype=np.float64), np.empty(21, dtype=np.int64),
                         np.empty(21, dtype=np.int64), np.empty(21, dtype=np.float64),
                         np.empty(21, dtype=np.int64), np.zeros((21, STEP_RECORD), dtype=np.int8),
                         np.empty(N_POINTS, dtype=np.int8), seen_keys, seen_values)


@kernel
def search_candidates(scores, n, kind):
    """The results the lookahead searches among scores[:n] (0-ply scores), best first: at most
    LOOKAHEAD_WIDTH; for the network at most NEURAL_WIDTH, only those within NEURAL_MARGIN of
    the best (one left: nothing to search)."""
    order = np.argsort(-scores[:n])
    if kind != NEURAL:
        return order[:min(n, LOOKAHEAD_WIDTH)]
    width = min(n, NEURAL_WIDTH)
    close = 1
    while close < width and scores[order[close]] >= scores[order[0]] - NEURAL_MARGIN:
        close += 1
    return order[:close]


@kernel
def neural_scores(boards, n, weights, values, mover_white, last_roll, scratch):
    """scratch.scores[i] = the network's value of boards[i] for the mover, in one turn pass (single
    precision when the weights carry `neural.with_single`'s copy); `scratch.opp` filled."""
    if weights[H_SINGLE] != 0.0:
        turn_scores(single_layers(weights), last_roll, values, boards, n, mover_white, scratch.opp,
                    scratch.feats, scratch.idx, scratch.val, scratch.mask, scratch.hidden32,
                    scratch.probs, scratch.scores)
    else:
        turn_scores(layers(weights), last_roll, values, boards, n, mover_white, scratch.opp,
                    scratch.feats, scratch.idx, scratch.val, scratch.mask, scratch.hidden,
                    scratch.probs, scratch.scores)


@kernel
def random_choice(rstate, n):
    """A uniform index below `n` from the random policy's stream `rstate` (`rng.policy_state`)."""
    return below(next_random(rstate), n)


@kernel
def scored_choice(boards, n, kind, weights, scratch):
    """Index of the first best of boards[:n] by the heuristic's (kind HEURISTIC) or else the
    racer's 0-ply score (`scratch.scores`, `scratch.opp` filled)."""
    opponent_terms(boards[0], scratch.opp)
    if kind == HEURISTIC:
        heuristic_scores(boards, n, weights, scratch.scores, scratch.feats, scratch.opp)
    else:
        racer_scores(boards, n, scratch.scores)
    return first_best(scratch.scores, n)


@kernel
def neural_choice(boards, n, weights, values, mover_white, last_roll, scratch):
    """Index of the first best of boards[:n] by the network's 0-ply value (`scratch.scores`,
    `scratch.opp` filled)."""
    opponent_terms(boards[0], scratch.opp)
    neural_scores(boards, n, weights, values, mover_white, last_roll, scratch)
    return first_best(scratch.scores, n)


@kernel
def choose_play(boards, n, judge, lookahead, rstate, mover_white, rules, search, scratch):
    """Index of the chosen result among boards[:n] (mover-relative, before the turn passes) by
    `judge` (`EvalArgs`), one ply deeper with `lookahead`, under `rules` (`KernelRules`).

    `rstate` is the random policy's stream (`rng.policy_state`), `search` a
    second `movegen.PlaySpace` (for the lookahead's replies) and `scratch` comes
    from `choice_scratch`.  The game loops call it only for a lookahead side
    (`pickers.SearchPick`); a 0-ply side picks by its own kind's scores alone.
    """
    scratch.searched[0] = -1
    kind, weights, values = judge.kind, judge.weights, judge.values
    if kind == RANDOM:
        return random_choice(rstate, n)
    last_roll = rules.last_roll
    if kind == NEURAL:
        best = neural_choice(boards, n, weights, values, mover_white, last_roll, scratch)
    else:       # HEURISTIC or RACER (users' evaluators are not chosen here)
        best = scored_choice(boards, n, kind, weights, scratch)
    scores = scratch.scores
    if not lookahead or n == 1 or scores[best] >= TERMINAL:
        return best
    order = search_candidates(scores, n, kind)
    width = order.shape[0]
    if width == 1:
        return best
    flipped = np.empty(N_POINTS, dtype=np.int8)
    best_value = -1e18
    pick = order[0]
    net = float32_layers(kind == NEURAL, weights)
    for j in range(width):
        i = order[j]
        searched = -1
        if kind == NEURAL and status_after(boards[i], mover_white, last_roll) != IN_PLAY:
            v = scores[i]
        else:
            flip(boards[i], flipped)      # the opponent to roll, in its own view
            if kind == NEURAL and j > 0 and scratch.searched[0] == 0:
                # only a value above the best so far matters: prove it cannot be and stop
                v = -bounded_replies(flipped, not mover_white, judge, rules, net, scratch, search,
                                     scratch.replies[0], scratch.reply_steps, scratch.replies[j],
                                     -best_value)
            else:
                v = -best_replies(flipped, not mover_white, judge, rules, net, NO_SCREEN, scratch,
                                  search, scratch.replies[j])
            searched = j
        if v > best_value:
            best_value = v
            pick = i
            scratch.searched[0] = searched
    return pick
