"""The 0-ply scores of the heuristic and the racer, and the best of a turn's scores: the scoring
the game loops' pickers (`pickers.py`) and `evaluate.choose_play` share."""

from __future__ import annotations


from .jit import kernel, leaf
from .board import HOME_START, N_POINTS
from .features import N_FEATURES, features, masks, movable_points

TERMINAL = 1000.0        # score of a play that bears off the last checker


@leaf
def racer_score(board):
    """Fewest pips left and most borne off first, then the fewest own blocked faces."""
    pips = 0
    on = 0
    out_home = 0
    for p in range(N_POINTS):
        if board[p] > 0:
            pips += board[p] * (24 - p)
            on += board[p]
            if p < HOME_START:
                out_home += board[p]
    if on == 0:
        return TERMINAL
    mine, theirs = masks(board)
    blocked = 0
    for f in range(1, 7):
        if movable_points(mine, theirs, f, out_home == 0) == 0:
            blocked += 1
    return -pips + 4.0 * (15 - on) - 0.5 * blocked


@kernel(inline="always")
def heuristic_score(board, weights, feats, opp):
    """The heuristic's score: its features (into `feats`; `opp`: opponent terms) times the
    weights."""
    if features(board, feats, opp) == 0:
        return TERMINAL
    s = 0.0
    for j in range(N_FEATURES):
        s += weights[j] * feats[j]
    return s


@kernel(inline="always")
def heuristic_scores(boards, n, weights, scores, feats, opp):
    """scores[i] = the heuristic's score of boards[i] (`opp`: the opponent's terms, filled)."""
    for i in range(n):
        scores[i] = heuristic_score(boards[i], weights, feats, opp)


@kernel(inline="always")
def racer_scores(boards, n, scores):
    """scores[i] = the racer's score of boards[i]."""
    for i in range(n):
        scores[i] = racer_score(boards[i])


@kernel(inline="always")
def first_best(scores, n):
    """The index of the first of the highest of scores[:n]."""
    best = 0
    for i in range(1, n):
        if scores[i] > scores[best]:
            best = i
    return best
