"""Board primitives for the kernels: flipping, off counts, blocks (R6), the rules' codes, end of
game and outcome (R8, R9).

The end of game and the outcome class are written once, here: `end_status` (R8) from the
checkers each side has left, seen before a roll (`game_status`) or right after a play
(`status_after`); `loser_class` (R9) of either side of a board; `result_of` and `final_result`
the result code of a finished game.
"""

from __future__ import annotations

from typing import NamedTuple


N_POINTS = 24
HOME_START = 18  # 0-based index of point 19, the first point of home

# Outcome codes (kernels/codes.py): classes from the winner's view, and game-result codes for the
# root side.
from .jit import kernel, leaf
from .codes import (DRAW, HOME_MARS, KOKS, LOSE_BASE, MARS, N_RESULTS, OIN,  # noqa: F401
                    UNFINISHED, WIN_BASE)
from .codes import roll_steps as _roll_steps

# Game status codes returned by `game_status`.
IN_PLAY, WHITE_WON, BLACK_WON, DRAWN = 0, 1, 2, 3

# the steps a roll gives (`codes.roll_steps`, compiled into the kernels that call it)
roll_steps = kernel(inline="always")(_roll_steps)


class KernelRules(NamedTuple):
    """The rules as the kernels read them (`kernel_rules` makes it from a `Rules`)."""

    head_rule: int      # `movegen.HEAD_*`: `Rules.head_code`
    block_check: int    # `movegen.BLOCK_*`: `Rules.block_code`
    last_roll: bool     # R8's last roll


def kernel_rules(rules) -> KernelRules:
    """The kernels' `KernelRules` of a `rules.Rules` value."""
    return KernelRules(int(rules.head_code), int(rules.block_code), bool(rules.last_roll))


@leaf
def on_board(board):
    """Number of the mover's checkers on the board."""
    n = 0
    for p in range(N_POINTS):
        if board[p] > 0:
            n += board[p]
    return n


@leaf
def bears_off_last(boards, n):
    """True when one of the first `n` result boards has none of the mover's checkers left (RULES.md
    §8: the steps a roll has left once the last checker is off are not lost; rules decision 18)."""
    for i in range(n):
        if on_board(boards[i]) == 0:
            return True
    return False


@leaf
def opp_on_board(board):
    """Number of the opponent's checkers on the board."""
    n = 0
    for p in range(N_POINTS):
        if board[p] < 0:
            n -= board[p]
    return n


@leaf
def flip(board, out):
    """Write into `out` the same board seen by the other side."""
    for p in range(N_POINTS):
        out[p] = -board[(p + 12) % N_POINTS]


@leaf
def furthest_opponent(board):
    """The opponent's most advanced point in its own numbering (0-based), -1 if none."""
    far = -1
    for q in range(N_POINTS):
        if board[(q + 12) % N_POINTS] < 0:
            far = q
    return far


@leaf(entry=True)
def forbidden_block_span(board, opp_off):
    """First and last point (opponent's numbering, 0-based) of a forbidden block (R6), or (-1,
    -1)."""
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


@leaf
def forbidden_block(board, opp_off):
    """True when the mover holds six in a row (opponent's path) with no opponent checker past it
    (R6)."""
    return forbidden_block_span(board, opp_off)[0] >= 0


@leaf
def loser_class(board, sign=1):
    """Outcome class (R9) as a loss of the side whose checkers have sign `sign` on a mover-relative
    board (1: the mover, -1: its opponent): oin, home-mars, mars or koks."""
    on = 0
    home = 0
    back = False
    for p in range(N_POINTS):
        c = board[p] * sign
        if c > 0:
            q = p if sign > 0 else (p - 12 if p >= 12 else p + 12)    # the side's own numbering
            on += c
            if q >= HOME_START:
                home += c
            elif q < 12:
                back = True
    if on < 15:
        return OIN
    if home == 15:
        return HOME_MARS
    return KOKS if back else MARS


@leaf
def all_home(board):
    """True when every mover checker still on the board is in its home."""
    for p in range(HOME_START):
        if board[p] > 0:
            return False
    return True


@kernel(inline="always")
def end_status(left, other_left, white, home, last_roll):
    """IN_PLAY, WHITE_WON, BLACK_WON or DRAWN (R8) from the checkers left on the board by the side
    to roll (`left`; White when `white`; `home`: all of them are in its home) and by the other."""
    white_left = left if white else other_left
    black_left = other_left if white else left
    if white_left == 0 and black_left == 0:
        return DRAWN
    if black_left == 0:
        return BLACK_WON
    if white_left == 0:
        # White finished.  Black gets the last roll when it is Black's turn,
        # the option is on, and every Black checker on the board is home.
        if last_roll and not white and home:
            return IN_PLAY
        return WHITE_WON
    return IN_PLAY


@leaf(entry=True)
def game_status(board, mover_is_white, last_roll):
    """IN_PLAY, WHITE_WON, BLACK_WON or DRAWN for a mover-relative board, the mover to roll (R8)."""
    return end_status(on_board(board), opp_on_board(board), mover_is_white, all_home(board),
                      last_roll)


@leaf
def status_after(board, mover_white, last_roll):
    """`game_status` of a mover-relative board right after the mover's play (the opponent to roll
    next)."""
    on = 0
    opp_on = 0
    opp_out = 0
    for p in range(N_POINTS):
        c = board[p]
        if c > 0:
            on += c
        elif c < 0:
            opp_on -= c
            q = p - 12 if p >= 12 else p + 12
            if q < HOME_START:
                opp_out -= c
    return end_status(opp_on, on, not mover_white, opp_out == 0, last_roll)


@leaf
def result_of(board, white, status):
    """The result code of a finished game (`status`) for the side whose checkers are positive on
    `board` (White when `white`): a win or a loss by its class (R9), or DRAW."""
    if status == DRAWN:
        return DRAW
    if (status == WHITE_WON) == white:
        return WIN_BASE + loser_class(board, -1)
    return LOSE_BASE + loser_class(board, 1)


@leaf
def final_result(board, mover_white, root_white, status):
    """The result code of a finished game for the root side (colour `root_white`), `board`
    mover-relative."""
    result = result_of(board, mover_white, status)
    if mover_white == root_white or result == DRAW:
        return result
    return result + LOSE_BASE if result < LOSE_BASE else result - LOSE_BASE
