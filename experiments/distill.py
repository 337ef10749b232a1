"""An experiment for issue 25's stronger network: teach the 0-ply network its own 1-ply search.

`python experiments/distill.py --games N [--out DIR] [--lr LR] [--seed S] [--starts FILE
[--start-share X]]` starts from the shipped network (or DIR's checkpoint, to resume)
and plays games of `neural` self-play at 0-ply by the network being trained (the
student), from `start` or, with `--starts`, a share 1 - X of them from the file's
positions in turn (as `nardy train --starts` does).  After
each play it takes one cross-entropy gradient step of the student towards the
1-ply class probabilities of the fixed shipped network (the teacher): the mean
over the opponent's 21 rolls of the classes after the opponent's best reply by
the teacher's equity (the search `lookahead:neural` makes for each candidate).
Finished games need no target.  The teacher's 1-ply search is the better player
on the benchmark (docs/strength.md), so the student may learn to see at 0-ply
some of what the search sees.

Game g's dice come from the counter-based stream (seed, g, ply), as in `nardy
train`, and every chunk of games ends with a checkpoint in DIR
(`checkpoint.npz`, its `meta["distill_games"]` the next game), so a run resumes
where it stopped and ends with the same weights.  `experiments/network_benchmark.py`
then puts the checkpoint to the benchmark database (docs/training.md).
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from nardy_cli.core.errors import NardyError
from nardy_cli.kernels import drop_stale_cache
from nardy_cli.kernels.board import IN_PLAY, N_POINTS, flip, game_status, kernel_rules, opp_on_board
from nardy_cli.kernels.evaluate import (NEURAL, NO_SCREEN, ROLL_WEIGHT, EvalArgs, best_replies,
    choice_scratch, choose_play)
from nardy_cli.kernels.features import opponent_terms
from nardy_cli.kernels.game import game_dice
from nardy_cli.kernels.movegen import enumerate_plays, play_space
from nardy_cli.kernels.neural import (H_INPUTS, MAX_ACTIVE, N_CLASSES, board_probs, class_mask,
    encode, exact_probs, reads_blocks, single_precision)
from nardy_cli.kernels.value import swap_view
from nardy_cli.policies.network import Network, default_network, load_network, save_network
from nardy_cli.core.outcomes import money_valuation
from nardy_cli.core.rules import PRESETS
from nardy_cli.core.positions_file import format_position, read_positions
from nardy_cli.training.td import MAX_PLIES, root_of_game, sgd_step
from nardy_cli.training.trainer import training_roots

drop_stale_cache(Path(__file__).parent)

RUNS = Path(__file__).parent / "training-runs"


@njit(cache=True)
def one_ply_target(chosen, mover_white, teacher, net32, values, rules, scratch, space, replies,
                   flipped, p, target):
    """target = the teacher's 1-ply class probabilities for the side that just played `chosen`."""
    flip(chosen, flipped)
    best_replies(flipped, not mover_white, EvalArgs(NEURAL, teacher, values), rules, net32,
                 NO_SCREEN, scratch, space, replies)
    for c in range(N_CLASSES):
        target[c] = 0.0
    for r in range(21):
        reply = replies[r]
        if not exact_probs(reply, not mover_white, rules.last_roll, p):
            opponent_terms(reply, scratch.opp)
            board_probs(teacher, reply, not mover_white, scratch.opp, scratch.feats, scratch.idx,
                        scratch.val, scratch.mask, scratch.hidden, p)
        swap_view(p)        # the replier's classes, as the side that played `chosen` has them
        for c in range(N_CLASSES):
            target[c] += ROLL_WEIGHT[r] * p[c]


@njit(cache=True)
def distill_games(student, teacher, values, roots, roots_white, start_share, rules, game_lo,
                  game_hi, seed, lr, stats):
    """Play games game_lo..game_hi-1 by `student` at 0-ply, game g from roots[root_of_game(g)],
    and step it towards the teacher's 1-ply targets after every play; stats += (games, plies,
    updates, loss)."""
    space, search = play_space(), play_space()
    choice, teach = choice_scratch(), choice_scratch()
    net32 = single_precision(teacher)
    player = EvalArgs(NEURAL, student, values)
    rstate = np.zeros(1, dtype=np.uint64)
    replies = np.zeros((21, N_POINTS), dtype=np.int8)
    board = np.empty(N_POINTS, dtype=np.int8)
    flipped = np.empty(N_POINTS, dtype=np.int8)
    idx = np.zeros(MAX_ACTIVE, dtype=np.int64)
    val = np.zeros(MAX_ACTIVE, dtype=np.float64)
    mask = np.ones(N_CLASSES, dtype=np.bool_)
    p = np.zeros(N_CLASSES)
    target = np.zeros(N_CLASSES)
    dh = np.zeros(np.int64(student[2]))
    for game in range(game_lo, game_hi):
        r = root_of_game(game, roots.shape[0], start_share)
        board[:] = roots[r]
        mover_white = roots_white[r]
        t = 0
        while t < MAX_PLIES and game_status(board, mover_white, rules.last_roll) == IN_PLAY:
            d1, d2, _ = game_dice(seed, game, t, False, 0, 0)
            n, _ = enumerate_plays(board, 15 - opp_on_board(board), d1, d2, rules.head_rule,
                                   rules.block_check, space.boards, space.step_from,
                                   space.step_die, space.memo, space.memo_stamp)
            best = choose_play(space.boards, n, player, False, rstate, mover_white, rules, space,
                               choice)
            chosen = space.boards[best]
            if not exact_probs(chosen, mover_white, rules.last_roll, p):
                one_ply_target(chosen, mover_white, teacher, net32, values, rules, teach, search,
                               replies, flipped, p, target)
                # `choose_play` left this roll's opponent terms in choice.opp (the teacher's
                # search has its own scratch)
                m = encode(chosen, mover_white, choice.opp, choice.feats, idx, val,
                           reads_blocks(student[H_INPUTS]))
                class_mask(chosen, rules.last_roll, mask)
                stats[3] += sgd_step(student, idx, val, m, mask, target, lr, choice.hidden,
                                     choice.probs, dh)
                stats[2] += 1
            flip(chosen, board)
            mover_white = not mover_white
            t += 1
        stats[0] += 1
        stats[1] += t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, required=True, help="games in all (resumes to this)")
    ap.add_argument("--out", type=Path, default=RUNS / "distill-1ply")
    ap.add_argument("--lr", type=float, default=0.0002)
    ap.add_argument("--seed", type=int, default=51)
    ap.add_argument("--chunk", type=int, default=200, help="games between checkpoints")
    ap.add_argument("--starts", type=Path, default=None, help="a positions file of more starts")
    ap.add_argument("--start-share", type=float, default=None,
                    help="with --starts: the share of games from start (default 0.5)")
    args = ap.parse_args()
    if args.games <= 0 or args.chunk <= 0 or args.lr <= 0:
        ap.error(f"--games, --chunk and --lr must be positive, got {args.games}, {args.chunk}, "
                 f"{args.lr}")
    if args.start_share is not None and not 0.0 <= args.start_share <= 1.0:
        ap.error(f"--start-share must be between 0 and 1, got {args.start_share}")
    for sig in (signal.SIGINT, signal.SIGTERM):     # a SIGTERM stops as Ctrl-C does
        signal.signal(sig, signal.default_int_handler)
    try:
        run(args)
    except NardyError as exc:       # a starts file that cannot be read or holds a finished game
        print(f"Error: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        # the chunk in progress is dropped; the checkpoint holds every finished one
        print(f"interrupted: {args.out / 'checkpoint.npz'} holds the games finished before; "
              "run the same command to resume", file=sys.stderr)
        sys.exit(130)


def run(args: argparse.Namespace) -> None:
    """Distil until `args.games` games, resuming from the checkpoint in `args.out`."""
    rules = PRESETS["federation"]
    shipped = default_network()
    ckpt = args.out / "checkpoint.npz"
    starts = (tuple(format_position(e.position) for e in read_positions(args.starts))
              if args.starts else ())
    share = args.start_share if args.start_share is not None else (0.5 if starts else 1.0)
    net = load_network(ckpt) if ckpt.exists() else Network.from_flat(
        shipped.flat(), dict(shipped.meta, distill={"lr": args.lr, "seed": args.seed,
                                                    "teacher": "the shipped network at 1-ply",
                                                    "starts": list(starts),
                                                    "start_share": share}))
    done = int(net.meta.get("distill_games", 0))
    saved = net.meta["distill"]
    # a resumed run keeps its own starts (a run made before --starts had none)
    starts, share = tuple(saved.get("starts", ())), float(saved.get("start_share", 1.0))
    roots, roots_white = training_roots(starts, rules)
    student = net.kernel_params(rules)
    teacher = shipped.kernel_params(rules)
    values = money_valuation(rules).kernel_values()
    args.out.mkdir(parents=True, exist_ok=True)
    while done < args.games:
        stats = np.zeros(4)
        t0 = time.perf_counter()
        distill_games(student, teacher, values, roots, roots_white, share, kernel_rules(rules),
                      done, done + args.chunk, np.uint64(args.seed), args.lr, stats)
        done += args.chunk
        meta = dict(net.meta, distill_games=done)
        save_network(Network.from_flat(student, meta), ckpt)
        print(f"{done} games, {stats[2] / (time.perf_counter() - t0):,.0f} updates/s, "
              f"loss {stats[3] / max(stats[2], 1):.5f}", flush=True)


if __name__ == "__main__":
    main()
