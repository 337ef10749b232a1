"""The network's passes over a turn's results: evaluations per second and the choices they make.

Plays `neural` self-play turns from the start (the compiled chooser, fixed
dice), keeps every turn's results, then times three ways of scoring them: the
full forward pass per result (`neural.board_probs`, what the chooser did before
issue 25), the turn pass in double precision (`turnpass.turn_scores`: the first
layer once per turn, then only the inputs each play changes; `NEURAL_DOUBLE`) and
in single precision (`neural.with_single`: what `neural` plays).  It also counts the
turns where each turn pass picks another result than the full pass.  Times
are this process's CPU time, steadier than the clock on a shared machine.
Run: `python experiments/neural_pass.py [--turns N]`; `make bench` prints it too.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
from numba import njit

from nardy_cli import kernels
from nardy_cli.kernels import drop_stale_cache
from nardy_cli.kernels import neural as kn
from nardy_cli.kernels.board import IN_PLAY, KernelRules, flip, game_status, opp_on_board
from nardy_cli.kernels.evaluate import NEURAL, EvalArgs, choice_scratch, choose_play
from nardy_cli.kernels.features import opponent_terms
from nardy_cli.kernels.movegen import PlaySpace, memo_arrays, enumerate_plays
from nardy_cli.kernels.turnpass import turn_scores
from nardy_cli.policies.network import default_network
from nardy_cli.core.outcomes import money_valuation
from nardy_cli.core.rules import PRESETS

# this folder's cached loops call the kernels: recompile them when a kernel changes
drop_stale_cache(Path(__file__).parent, also=(Path(kernels.__file__).parent,))


@njit(cache=True)
def self_play_turns(params, values, n_turns, seed):
    """(results of every turn as one array, results per turn, mover is White per turn) of n_turns
    turns."""
    boards = np.zeros((4096, 24), np.int8)
    frm = np.zeros((4096, 4), np.int8)
    die = np.zeros((4096, 4), np.int8)
    s_boards, s_from, s_die = (np.zeros((4096, 24), np.int8), np.zeros((4096, 4), np.int8),
                               np.zeros((4096, 4), np.int8))
    memo, stamp = memo_arrays()
    s_memo, s_stamp = memo_arrays()
    choice = choice_scratch()
    rstate = np.zeros(1, np.uint64)
    judge, rules = EvalArgs(NEURAL, params, values), KernelRules(0, 0, True)
    search = PlaySpace(s_boards, s_from, s_die, s_memo, s_stamp)
    np.random.seed(seed)
    results = np.zeros((n_turns * 24, 24), np.int8)
    counts = np.zeros(n_turns, np.int64)
    white = np.zeros(n_turns, np.bool_)
    board = np.zeros(24, np.int8)
    board[0], board[12] = 15, -15
    mover_white = True
    k = 0
    j = 0
    while k < n_turns:
        if game_status(board, mover_white, True) != IN_PLAY:
            board[:] = 0
            board[0], board[12] = 15, -15
            mover_white = True
            continue
        d1, d2 = np.random.randint(1, 7), np.random.randint(1, 7)
        n, _ = enumerate_plays(board, 15 - opp_on_board(board), max(d1, d2), min(d1, d2), 0, 0,
                               boards, frm, die, memo, stamp)
        if j + n > results.shape[0]:
            break
        results[j:j + n] = boards[:n]
        counts[k], white[k] = n, mover_white
        j += n
        k += 1
        pick = 0 if n == 1 else choose_play(boards, n, judge, False, rstate, mover_white, rules,
                                            search, choice)
        flip(boards[pick], board)
        mover_white = not mover_white
    return results[:j], counts[:k], white[:k]


@njit(cache=True)
def score_turns(way, params, net, values, results, counts, white, picks):
    """Score every turn's results (way 0: the full pass, 1: the turn pass with `net`); picks[k] =
    the best."""
    s = choice_scratch()
    hidden = np.zeros(net[1].shape[0], dtype=net[1].dtype)
    scores = np.zeros(4096)
    j = 0
    for k in range(counts.shape[0]):
        n = counts[k]
        b = results[j:j + n]
        opponent_terms(b[0], s.opp)
        if way == 0:
            for i in range(n):
                kn.board_probs(params, b[i], white[k], s.opp, s.feats, s.idx, s.val, s.mask,
                               s.hidden, s.probs)
                scores[i] = kn.equity_of(values, white[k], s.probs)
        else:
            turn_scores(net, params[kn.H_LAST_ROLL] != 0.0, values, b, n, white[k], s.opp, s.feats,
                        s.idx, s.val, s.mask, hidden, s.probs, scores)
        best = 0
        for i in range(1, n):
            if scores[i] > scores[best]:
                best = i
        picks[k] = best
        j += n


def bench_network_pass(n_turns: int = 20000) -> None:
    """Print evaluations per second of each pass and the turns where a turn pass chooses
    differently."""
    rules = PRESETS["federation"]
    params = default_network().kernel_params(rules)
    values = money_valuation(rules).kernel_values()
    results, counts, white = self_play_turns(params, values, n_turns, 25)
    ways = (("full pass, double (before)", 0, kn.layers(params)),
            ("turn pass, double (neural-double)", 1, kn.layers(params)),
            ("turn pass, single (neural)", 1, kn.single_layers(kn.with_single(params))))
    picks = {}
    for name, way, net in ways:
        p = np.zeros(counts.size, np.int64)
        # compile
        score_turns(way, params, net, values, results[:counts[0]], counts[:1], white, p)
        best = np.inf
        for _ in range(3):
            t = time.process_time()
            score_turns(way, params, net, values, results, counts, white, p)
            best = min(best, time.process_time() - t)
        picks[name] = p
        print(f"{name:<34}{results.shape[0] / best:>12,.0f} evaluations/s "
              f"({best / results.shape[0] * 1e6:.2f} us, "
              f"CPU time of one core, best of 3; load {os.getloadavg()[0]:.2f})")
    chosen = counts > 1
    full = picks[ways[0][0]]
    for name, _, _ in ways[1:]:
        differ = int((picks[name] != full)[chosen].sum())
        print(f"{name:<34}{differ:>12,} of {int(chosen.sum()):,} turns with a choice pick "
              "another result "
              f"than the full pass")
    print(f"{'':<34}({results.shape[0]:,} results, {results.shape[0] / counts.size:.1f} a turn, of "
          f"{counts.size:,} neural self-play turns)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--turns", type=int, default=20000,
                    help="self-play turns to score (default 20000)")
    bench_network_pass(ap.parse_args().turns)


if __name__ == "__main__":
    main()
