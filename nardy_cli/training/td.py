"""TD(lambda) self-play in compiled code: the network plays both sides and learns from each game.

Each game is played greedily at 0-ply by the current network (the dice give
the exploration), or by a fixed player network: then the trained network only
learns the values of that player's play (policy evaluation).  After the game
the forward-view lambda-returns of every position reached are computed from the
network's own values and the final outcome, and each position takes one
cross-entropy gradient step towards its return.  Values are always for the side
that just moved, so one position's target is the next position's value with
wins and losses swapped.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import kernels
from ..kernels import drop_stale_cache
from ..kernels.board import IN_PLAY, N_POINTS, flip, game_status, opp_on_board
from ..kernels.evaluate import choice_scratch, neural_choice
from ..kernels.game import game_dice
from ..kernels.movegen import enumerate_plays, play_space
from ..kernels.neural import (H_INPUTS, MAX_ACTIVE, N_CLASSES, class_mask, encode, exact_probs,
                              forward, layers, reads_blocks)
from ..kernels.jit import kernel
from ..kernels.value import swap_view

# numba checks only this file for its cached loop, which has the kernels' choosers compiled in
drop_stale_cache(Path(__file__).parent, also=(Path(kernels.__file__).parent,))

MAX_PLIES = 600
# stats cells
S_GAMES, S_PLIES, S_UPDATES, S_LOSS = 0, 1, 2, 3
N_STATS = 4


@kernel
def sgd_step(params, idx, val, m, mask, target, lr, hidden, probs, dh):
    """One cross-entropy gradient step of the network towards `target` on one encoded position;
    return the loss."""
    forward(params, idx, val, m, mask, hidden, probs)
    w1, b1, w2, b2 = layers(params)
    nh = b1.shape[0]
    loss = 0.0
    for j in range(nh):
        dh[j] = 0.0
    for c in range(N_CLASSES):
        if not mask[c]:
            continue
        if target[c] > 0.0:
            loss -= target[c] * np.log(max(probs[c], 1e-300))
        g = probs[c] - target[c]
        row = w2[c]
        for j in range(nh):
            dh[j] += g * row[j]
            row[j] -= lr * g * hidden[j]
        b2[c] -= lr * g
    for j in range(nh):
        if hidden[j] <= 0.0:
            dh[j] = 0.0
    for k in range(m):
        row = w1[idx[k]]
        v = lr * val[k]
        for j in range(nh):
            row[j] -= v * dh[j]
    for j in range(nh):
        b1[j] -= lr * dh[j]
    return loss


GOLDEN = 0.6180339887498949


@kernel
def root_of_game(game, n_roots, start_share):
    """Which root game `game` starts from: 0 for a share `start_share` of the games (spread evenly
    by the golden-ratio sequence), else roots 1..n_roots-1 in turn."""
    if n_roots == 1 or (game * GOLDEN) % 1.0 < start_share:
        return 0
    return 1 + game % (n_roots - 1)


@kernel
def train_games(params, player, values, roots, roots_white, start_share, game_lo, game_hi, seed, lr,
                lam, rules, stats):
    """Play games game_lo..game_hi-1 and train `params` in place.

    The plays are the 0-ply choices of `player` by the money `values`
    (`Valuation.kernel_values`): `params` itself for self-play,
    or another network's parameters, which stay fixed.  Game g starts from
    roots[root_of_game(g, ...)] (mover-relative; White to move when roots_white
    says so): roots[0] is normally the starting position.  `rules` is the
    kernels' `KernelRules`.
    """
    space = play_space()
    out_boards, out_from, out_die = space.boards, space.step_from, space.step_die
    memo, memo_stamp = space.memo, space.memo_stamp
    head_rule, block_check, last_roll = rules.head_rule, rules.block_check, rules.last_roll
    scratch = choice_scratch()
    feats, opp, hidden, probs = scratch.feats, scratch.opp, scratch.hidden, scratch.probs
    nh = np.int64(params[2])
    blocks = reads_blocks(params[H_INPUTS])     # input version 2
    dh = np.zeros(nh, dtype=np.float64)
    st_idx = np.zeros((MAX_PLIES, MAX_ACTIVE), dtype=np.int64)
    st_val = np.zeros((MAX_PLIES, MAX_ACTIVE), dtype=np.float64)
    st_m = np.zeros(MAX_PLIES, dtype=np.int64)
    st_mask = np.zeros((MAX_PLIES, N_CLASSES), dtype=np.bool_)
    st_value = np.zeros((MAX_PLIES, N_CLASSES), dtype=np.float64)
    st_exact = np.zeros(MAX_PLIES, dtype=np.bool_)
    targets = np.zeros((MAX_PLIES, N_CLASSES), dtype=np.float64)
    g = np.zeros(N_CLASSES, dtype=np.float64)
    mix = np.zeros(N_CLASSES, dtype=np.float64)
    board = np.empty(N_POINTS, dtype=np.int8)
    for game in range(game_lo, game_hi):
        r = root_of_game(game, roots.shape[0], start_share)
        board[:] = roots[r]
        mover_white = roots_white[r]
        t = 0
        while t < MAX_PLIES:
            if game_status(board, mover_white, last_roll) != IN_PLAY:
                break
            d1, d2, _ = game_dice(seed, game, t, False, 0, 0)
            opp_off = 15 - opp_on_board(board)
            n, _ = enumerate_plays(board, opp_off, d1, d2, head_rule, block_check, out_boards,
                                   out_from, out_die, memo, memo_stamp)
            # the 0-ply neural choice (`choose_play`'s for a network without lookahead); it also
            # leaves this roll's opponent terms in `opp` for `encode`
            best = neural_choice(out_boards, n, player, values, mover_white, last_roll, scratch)
            chosen = out_boards[best]
            if exact_probs(chosen, mover_white, last_roll, probs):
                st_exact[t] = True
            else:
                st_exact[t] = False
                st_m[t] = encode(chosen, mover_white, opp, feats, st_idx[t], st_val[t], blocks)
                class_mask(chosen, last_roll, st_mask[t])
                forward(params, st_idx[t], st_val[t], st_m[t], st_mask[t], hidden, probs)
            for c in range(N_CLASSES):
                st_value[t, c] = probs[c]
            flip(chosen, board)
            mover_white = not mover_white
            t += 1
        plies = t
        stats[S_GAMES] += 1
        stats[S_PLIES] += plies
        if plies == 0:
            continue
        # lambda-returns, last position first; an unfinished (over-long) game bootstraps from its
        # last value
        for c in range(N_CLASSES):
            g[c] = st_value[plies - 1, c]
            targets[plies - 1, c] = g[c]
        for t in range(plies - 2, -1, -1):
            for c in range(N_CLASSES):
                mix[c] = (1.0 - lam) * st_value[t + 1, c] + lam * g[c]
            g[:] = mix
            swap_view(g)
            for c in range(N_CLASSES):
                targets[t, c] = g[c]
        for t in range(plies):
            if st_exact[t]:
                continue
            stats[S_LOSS] += sgd_step(params, st_idx[t], st_val[t], st_m[t], st_mask[t], targets[t],
                                      lr, hidden, probs, dh)
            stats[S_UPDATES] += 1
