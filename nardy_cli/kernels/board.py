"""Board primitives for the kernels: flipping, off counts, blocks (R6), outcome (R8, R9)."""

from __future__ import annotations

from numba import njit

N_POINTS = 24
HOME_START = 18  # 0-based index of point 19, the first point of home

# Outcome codes (kernels/codes.py): classes from the winner's view, and game-result codes for the root side.
from .codes import DRAW, HOME_MARS, KOKS, LOSE_BASE, MARS, N_RESULTS, OIN, UNFINISHED, WIN_BASE  # noqa: F401

# Game status codes returned by `game_status`.
IN_PLAY, WHITE_WON, BLACK_WON, DRAWN = 0, 1, 2, 3


@njit(cache=True)
def on_board(board):
    """Number of the mover's checkers on the board."""
    n = 0
    for p in range(N_POINTS):
        if board[p] > 0:
            n += board[p]
    return n


@njit(cache=True)
def bears_off_last(boards, n):
    """True when one of the first `n` result boards has none of the mover's checkers left (RULES.md §8: the
    steps a roll has left once the last checker is off are not lost; rules decision 18)."""
    for i in range(n):
        if on_board(boards[i]) == 0:
            return True
    return False


@njit(cache=True)
def opp_on_board(board):
    """Number of the opponent's checkers on the board."""
    n = 0
    for p in range(N_POINTS):
        if board[p] < 0:
            n -= board[p]
    return n


@njit(cache=True)
def flip(board, out):
    """Write into `out` the same board seen by the other side."""
    for p in range(N_POINTS):
        out[p] = -board[(p + 12) % N_POINTS]


@njit(cache=True)
def furthest_opponent(board):
    """The opponent's most advanced point in its own numbering (0-based), -1 if none."""
    far = -1
    for q in range(N_POINTS):
        if board[(q + 12) % N_POINTS] < 0:
            far = q
    return far


@njit(cache=True)
def forbidden_block_span(board, opp_off):
    """First and last point (opponent's numbering, 0-based) of a forbidden block (R6), or (-1, -1)."""
    if opp_off > 0:
        return -1, -1
    far = furthest_opponent(board)
    run = 0
    for q in range(N_POINTS):
        if board[(q + 12) % N_POINTS] > 0:
            run += 1
            if run >= 6 and q > far:
                end = q
                while end + 1 < N_POINTS and board[(end + 13) % N_POINTS] > 0:
                    end += 1
                return q - run + 1, end
        else:
            run = 0
    return -1, -1


@njit(cache=True)
def forbidden_block(board, opp_off):
    """True when the mover holds six in a row (opponent's path) with no opponent checker past it (R6)."""
    return forbidden_block_span(board, opp_off)[0] >= 0


@njit(cache=True)
def loser_class(board):
    """Outcome class (R9) of the mover as loser: oin, home-mars, mars or koks."""
    n = on_board(board)
    if n < 15:
        return OIN
    home = 0
    for p in range(HOME_START, N_POINTS):
        if board[p] > 0:
            home += board[p]
    if home == 15:
        return HOME_MARS
    for p in range(12):
        if board[p] > 0:
            return KOKS
    return MARS


@njit(cache=True)
def all_home(board):
    """True when every mover checker still on the board is in its home."""
    for p in range(HOME_START):
        if board[p] > 0:
            return False
    return True


@njit(cache=True)
def game_status(board, mover_is_white, last_roll):
    """IN_PLAY, WHITE_WON, BLACK_WON or DRAWN for a mover-relative board (R8)."""
    mine = on_board(board)
    theirs = opp_on_board(board)
    white_left = mine if mover_is_white else theirs
    black_left = theirs if mover_is_white else mine
    if white_left == 0 and black_left == 0:
        return DRAWN
    if black_left == 0:
        return BLACK_WON
    if white_left == 0:
        # White finished.  Black gets the last roll when it is Black's turn,
        # the option is on, and every Black checker on the board is home.
        if last_roll and not mover_is_white and all_home(board):
            return IN_PLAY
        return WHITE_WON
    return IN_PLAY
