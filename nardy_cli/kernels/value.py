"""The evaluator's value of a board: probabilities of the 9 result classes, compiled.

`value_probs` answers for the side that has just played (mover-relative board,
the opponent to roll), in result-code order 0..8 (win oin, home-mars, mars,
koks; loss by the same classes; draw).  In order of preference it uses the
finished game's result, the R8 last roll, the bear-off databases (both sides
all home), and otherwise the evaluator: the neural network's own nine classes
for the NEURAL kind, and for every other kind the heuristic's features through
the logistic model of `data/estimate.json` (7 classes; its mars includes
home-mars and goes to mars).

Variance reduction and truncated rollouts use it; it never changes a play.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .board import (DRAW, IN_PLAY, KOKS, LOSE_BASE, MARS, N_POINTS, OIN, WIN_BASE, flip,
                    game_status, on_board, opp_on_board, result_of, status_after)
from .bearoff import N_CLASSES, N_HOME, board_race_probabilities, both_home
from .jit import entry, kernel
from .last_roll import last_roll_probs
from .evaluate import NEURAL, ROLL_HIGH, ROLL_LOW, ROLL_WEIGHT, choice_scratch
from .movegen import enumerate_plays, memo_arrays
from .features import N_FEATURES, features, opponent_terms
from .neural import board_probs

N_MODEL = 7
# result code of each class of the logistic model (win oin, win mars, win koks, lose ..., draw)
MODEL_CODE = np.array([WIN_BASE + OIN, WIN_BASE + MARS, WIN_BASE + KOKS, LOSE_BASE + OIN,
                       LOSE_BASE + MARS, LOSE_BASE + KOKS, DRAW], dtype=np.int64)


class ValueScratch(NamedTuple):
    """Scratch arrays of `value_probs` (`value_scratch`)."""

    flipped: np.ndarray     # int8[24]: the board in the opponent's view
    feats: np.ndarray       # the heuristic features (the logistic model)
    opp: np.ndarray         # the opponent's terms
    counts: np.ndarray      # a home board's counts (the databases)


@kernel
def swap_view(p):
    """Turn result-code probabilities of one side into the other side's, in place."""
    for k in range(4):
        a = p[WIN_BASE + k]
        p[WIN_BASE + k] = p[LOSE_BASE + k]
        p[LOSE_BASE + k] = a


@kernel
def logistic_probs(board, coefs, feats, opp, out):
    """The logistic model's probabilities for the side that just played `board`, as result codes."""
    opponent_terms(board, opp)
    features(board, feats, opp)
    z = np.empty(N_MODEL)
    top = -1e300
    for k in range(N_MODEL):
        s = coefs[k, N_FEATURES]
        for j in range(N_FEATURES):
            s += coefs[k, j] * feats[j]
        z[k] = s
        if s > top:
            top = s
    total = 0.0
    for k in range(N_MODEL):
        z[k] = np.exp(z[k] - top)
        total += z[k]
    for k in range(N_CLASSES):
        out[k] = 0.0
    for k in range(N_MODEL):
        out[MODEL_CODE[k]] += z[k] / total


@kernel
def value_probs(board, mover_white, last_roll, kind, weights, tables, coefs, choice, scratch, out):
    """Probabilities (result codes 0..8) for the side that just played `board` (see the module doc).

    `tables`: the bear-off databases' `bearoff.RaceTables` (empty arrays when
    not loaded); `coefs`: the logistic model; `choice`: the
    scratch of `evaluate.choice_scratch`; `scratch`: from `value_scratch`.
    """
    comp, all_dist, first_dist = tables.comp, tables.all_dist, tables.first_dist
    win2, draw2 = tables.win2, tables.draw2
    flipped, feats, opp, counts = scratch.flipped, scratch.feats, scratch.opp, scratch.counts
    flip(board, flipped)
    status = status_after(board, mover_white, last_roll)
    for k in range(N_CLASSES):
        out[k] = 0.0
    if status != IN_PLAY:
        out[result_of(board, mover_white, status)] = 1.0
        return
    have_db = all_dist.shape[0] > 0
    if on_board(board) == 0:
        # White has just finished; Black, all home, has the R8 last roll (exact, no database)
        last_roll_probs(board, False, out)
        return
    if have_db and both_home(board) and opp_on_board(board) > 0:
        board_race_probabilities(flipped, not mover_white, last_roll, comp, all_dist, first_dist,
                                 win2, draw2, counts, out)
        swap_view(out)
        return
    if kind == NEURAL:
        opponent_terms(board, choice.opp)
        board_probs(weights, board, mover_white, choice.opp, choice.feats, choice.idx, choice.val,
                    choice.mask, choice.hidden, out)
        return
    logistic_probs(board, coefs, feats, opp, out)


@kernel
def value_scratch():
    """Scratch arrays of `value_probs` (a `ValueScratch`)."""
    return ValueScratch(np.empty(N_POINTS, dtype=np.int8), np.empty(N_FEATURES, dtype=np.float64),
                        np.empty(5 + N_POINTS, dtype=np.int64), np.empty(N_HOME, dtype=np.int64))


@kernel
def position_probs(board, mover_white, last_roll, kind, weights, tables, coefs, choice, scratch,
                   flipped2, out):
    """Probabilities (result codes) for the side TO MOVE on `board`: the static evaluation of a
    position."""
    flip(board, flipped2)
    value_probs(flipped2, not mover_white, last_roll, kind, weights, tables, coefs, choice, scratch,
                out)
    swap_view(out)


@kernel
def equity_of_probs(p, values, white):
    """Value of result-code probabilities of White (or Black) under `values` (float64[2, 9], a row
    per colour)."""
    row = values[0] if white else values[1]
    e = 0.0
    for k in range(N_CLASSES):
        e += row[k] * p[k]
    return e


@entry
def zero_ply(boards, n, mover_white, rules, kind, weights, tables, coefs, values, out):
    """out[i]: the evaluator's value (by `values`, a row per colour) for the mover after result i
    (0-ply), under `rules` (`board.KernelRules`)."""
    last_roll = rules.last_roll
    choice = choice_scratch()
    scratch = value_scratch()
    p = np.zeros(N_CLASSES)
    for i in range(n):
        value_probs(boards[i], mover_white, last_roll, kind, weights, tables, coefs, choice,
                    scratch, p)
        out[i] = equity_of_probs(p, values, mover_white)


@entry
def one_ply(boards, n, mover_white, rules, kind, weights, tables, coefs, values, out):
    """out[i]: the mover's equity after result i, one ply deeper: the mean over the opponent's 21
    rolls of its best reply by the evaluator's equity (a finished game or a bear-off keeps its exact
    value), under `rules` (`board.KernelRules`)."""
    last_roll, head_rule, block_check = rules.last_roll, rules.head_rule, rules.block_check
    choice = choice_scratch()
    scratch = value_scratch()
    p = np.zeros(N_CLASSES)
    flipped = np.empty(N_POINTS, dtype=np.int8)
    r_boards = np.zeros((4096, N_POINTS), dtype=np.int8)
    r_from = np.zeros((4096, 4), dtype=np.int8)
    r_die = np.zeros((4096, 4), dtype=np.int8)
    memo, memo_stamp = memo_arrays()
    have_db = tables.all_dist.shape[0] > 0
    for i in range(n):
        board = boards[i]
        flip(board, flipped)
        if (game_status(flipped, not mover_white, last_roll) != IN_PLAY or on_board(board) == 0
                or (have_db and both_home(board))):
            value_probs(board, mover_white, last_roll, kind, weights, tables, coefs, choice,
                        scratch, p)
            out[i] = equity_of_probs(p, values, mover_white)
            continue
        opp_off = 15 - opp_on_board(flipped)
        total = 0.0
        for r in range(21):
            m, _ = enumerate_plays(flipped, opp_off, ROLL_HIGH[r], ROLL_LOW[r], head_rule,
                                   block_check, r_boards, r_from, r_die, memo, memo_stamp)
            best = -1e300
            for j in range(m):
                value_probs(r_boards[j], not mover_white, last_roll, kind, weights, tables, coefs,
                            choice, scratch, p)
                e = equity_of_probs(p, values, not mover_white)
                if e > best:
                    best = e
            total += ROLL_WEIGHT[r] * best
        out[i] = -total
