"""The compiled game loop: whole games from a position, aggregated into counts.

Nothing per game is kept: results go into integer count arrays (outcome per
stratum, deficit per side), so sums over chunks are exact and order-free.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import (DRAW, DRAWN, IN_PLAY, LOSE_BASE, N_POINTS, UNFINISHED, WHITE_WON,
                    flip, game_status, loser_class, opp_on_board)
from .evaluate import choice_scratch, choose_play
from .movegen import enumerate_plays, memo_arrays
from .rng import policy_state, roll_index

# deficit array columns, per side
F_ROLLED = 0      # 0..5: steps of face f+1 rolled
F_LOST = 6        # 6..11: steps of face f+1 not played
LOST_PIPS = 12
TURNS = 13
PARTIAL = 14
PASSES = 15
N_DEFICIT = 16

# plies array: total plies over games, total turns
N_STRATA = 36


@njit(cache=True)
def record_turn(deficit, side, d1, d2, nsteps, played_die):
    """Add one turn's deficit figures (RULES.md §8) for `side` (0 White, 1 Black)."""
    deficit[side, TURNS] += 1
    if d1 == d2:
        deficit[side, F_ROLLED + d1 - 1] += 4
        lost = 4 - nsteps
        deficit[side, F_LOST + d1 - 1] += lost
        deficit[side, LOST_PIPS] += lost * d1
        if nsteps == 0:
            deficit[side, PASSES] += 1
        elif lost > 0:
            deficit[side, PARTIAL] += 1
        return
    deficit[side, F_ROLLED + d1 - 1] += 1
    deficit[side, F_ROLLED + d2 - 1] += 1
    if nsteps == 2:
        return
    if nsteps == 0:
        deficit[side, F_LOST + d1 - 1] += 1
        deficit[side, F_LOST + d2 - 1] += 1
        deficit[side, LOST_PIPS] += d1 + d2
        deficit[side, PASSES] += 1
        return
    lost_die = d2 if played_die == d1 else d1
    deficit[side, F_LOST + lost_die - 1] += 1
    deficit[side, LOST_PIPS] += lost_die
    deficit[side, PARTIAL] += 1


@njit(cache=True)
def game_dice(seed, game, turn, stratify, root_d1, root_d2):
    """(high, low, stratum) of `turn`: given dice first, then stratified, then free rolls."""
    if root_d1 > 0:
        if turn == 0:
            return root_d1, root_d2, 0
        turn -= 1
    if stratify and turn == 0:
        r = game % 36
    elif stratify and turn == 1:
        r = (game // 36) % 36
    else:
        r = roll_index(seed, game, turn)
    a = r // 6 + 1
    b = r % 6 + 1
    return max(a, b), min(a, b), game % 36 if stratify else 0


@njit(cache=True)
def final_result(board, mover_white, root_white, status):
    """Result code for the root side: win/loss by class, or DRAW."""
    if status == DRAWN:
        return DRAW
    winner_white = status == WHITE_WON
    if winner_white == mover_white:
        loser = np.empty(N_POINTS, dtype=np.int8)
        flip(board, loser)
    else:
        loser = board
    cls = loser_class(loser)
    return cls if winner_white == root_white else LOSE_BASE + cls


@njit(cache=True)
def workspace():
    """Scratch arrays of one game loop: the play list and, for lookahead, a second one for replies."""
    memo, memo_stamp = memo_arrays()
    s_memo, s_stamp = memo_arrays()
    return (np.zeros((4096, N_POINTS), dtype=np.int8), np.zeros((4096, 4), dtype=np.int8),
            np.zeros((4096, 4), dtype=np.int8), memo, memo_stamp,
            np.zeros((4096, N_POINTS), dtype=np.int8), np.zeros((4096, 4), dtype=np.int8),
            np.zeros((4096, 4), dtype=np.int8), s_memo, s_stamp,
            np.empty(N_POINTS, dtype=np.int8), np.zeros(1, dtype=np.uint64)) + choice_scratch()


@njit(cache=True)
def play_one_game(root_board, root_white, root_d1, root_d2, game, seed, stratify, head_rule, block_check,
                  last_roll, policy_kind, policy_weights, policy_lookahead, max_plies, deficit, ws):
    """Play game number `game` to its end; return (result code for the root side, plies, stratum).

    `policy_kind[s]`, `policy_weights[s]`, `policy_lookahead[s]` choose side s's plays (0 White,
    1 Black); deficit figures are added into `deficit[side]`.
    """
    (out_boards, out_from, out_die, memo, memo_stamp, s_boards, s_from, s_die, s_memo, s_stamp, board, rstate,
     feats, scores, opp) = ws
    board[:] = root_board
    mover_white = root_white
    rstate[0] = policy_state(seed, game)
    stratum = 0
    turn = 0
    while True:
        status = game_status(board, mover_white, last_roll)
        if status != IN_PLAY:
            return final_result(board, mover_white, root_white, status), turn, stratum
        if turn >= max_plies:
            return UNFINISHED, turn, stratum
        d1, d2, s = game_dice(seed, game, turn, stratify, root_d1, root_d2)
        if turn == 0 or (root_d1 > 0 and turn == 1):
            stratum = s
        opp_off = 15 - opp_on_board(board)
        n, nsteps = enumerate_plays(board, opp_off, d1, d2, head_rule, block_check,
                                    out_boards, out_from, out_die, memo, memo_stamp)
        side = 0 if mover_white else 1
        record_turn(deficit, side, d1, d2, nsteps, out_die[0, 0])
        if n == 1:
            pick = 0
        else:
            pick = choose_play(out_boards, n, policy_kind[side], policy_weights[side],
                               policy_lookahead[side], rstate, head_rule, block_check,
                               s_boards, s_from, s_die, s_memo, s_stamp, feats, scores, opp)
        flip(out_boards[pick], board)
        mover_white = not mover_white
        turn += 1


@njit(cache=True)
def play_games(root_board, root_white, root_d1, root_d2, game_lo, game_hi, seed, stratify,
               head_rule, block_check, last_roll, policy_kind, policy_weights, policy_lookahead, max_plies,
               counts, deficit, plies):
    """Play games game_lo..game_hi-1 and add counts[stratum, result], deficits and plies."""
    ws = workspace()
    for game in range(game_lo, game_hi):
        result, turns, stratum = play_one_game(root_board, root_white, root_d1, root_d2, game, seed, stratify,
                                               head_rule, block_check, last_roll, policy_kind, policy_weights,
                                               policy_lookahead, max_plies, deficit, ws)
        counts[stratum, result] += 1
        plies[0] += turns


@njit(cache=True)
def play_duel(root_board, root_white, root_d1, root_d2, game_lo, game_hi, seed, stratify,
              head_rule, block_check, last_roll, policy_kind, policy_weights, policy_lookahead, max_plies,
              joint, deficit, plies):
    """Duplicate games: each dice sequence with side 0's policy (A) as White, then as Black.

    joint[r1, r2] counts pairs by the root side's results: r1 with A on the root side,
    r2 with B there; `policy_*` hold A at index 0 and B at 1.
    """
    ws = workspace()
    # per-side policy arrays (index 0 White) with A, then B, playing the root side
    by_side = (policy_kind, policy_weights, policy_lookahead)
    swapped = (policy_kind[::-1].copy(), policy_weights[::-1].copy(), policy_lookahead[::-1].copy())
    a_first = by_side if root_white else swapped
    b_first = swapped if root_white else by_side
    for game in range(game_lo, game_hi):
        r1, t1, _ = play_one_game(root_board, root_white, root_d1, root_d2, game, seed, stratify, head_rule,
                                  block_check, last_roll, a_first[0], a_first[1], a_first[2], max_plies,
                                  deficit, ws)
        r2, t2, _ = play_one_game(root_board, root_white, root_d1, root_d2, game, seed, stratify, head_rule,
                                  block_check, last_roll, b_first[0], b_first[1], b_first[2], max_plies,
                                  deficit, ws)
        joint[r1, r2] += 1
        plies[0] += t1 + t2


@njit(cache=True)
def play_games_each(root_board, root_white, root_d1, root_d2, game_lo, game_hi, seed, stratify,
                    head_rule, block_check, last_roll, policy_kind, policy_weights, policy_lookahead, max_plies,
                    results, deficit, plies):
    """Like `play_games`, but write each game's result code into results[game - game_lo]."""
    ws = workspace()
    for game in range(game_lo, game_hi):
        result, turns, _ = play_one_game(root_board, root_white, root_d1, root_d2, game, seed, stratify,
                                         head_rule, block_check, last_roll, policy_kind, policy_weights,
                                         policy_lookahead, max_plies, deficit, ws)
        results[game - game_lo] = result
        plies[0] += turns
