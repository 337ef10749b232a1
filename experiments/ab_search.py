"""The lookahead's two searches from two checkouts' kernels, timed in one process by turns.

`python experiments/ab_search.py BEFORE AFTER [--turns 2000] [--rounds 6] [--chunk 100]`
copies each checkout's `nardy_cli/kernels` (which imports only itself) into a
temporary folder as its own package, draws the self-play turns of this checkout
where `lookahead:neural` searches two candidates, and times both checkouts'
searches of them (`best_replies` of the first candidate, `bounded_replies` of
the second) by chunks of turns, alternately, in CPU time.  Pairing chunk by
chunk in one process keeps the machine's drift out of the ratio, which a run of
whole games per checkout (`ab_trees.py`) cannot.  It prints both times per
turn, the ratio of the totals, the chunks' median ratio with its quartiles, and
whether the two searches returned the same values.  Both kernels compile from an
empty cache: allow a few minutes.  A count below 1 or a folder without
`nardy_cli/kernels` is a one-line error (exit code 2); Ctrl-C or SIGTERM stops it
with one line and exit code 130, the temporary copies removed.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

from nardy_cli.kernels import neural as kn
from nardy_cli.kernels.board import IN_PLAY, flip, status_after
from nardy_cli.kernels.evaluate import NEURAL, choice_scratch, search_candidates
from nardy_cli.kernels.features import opponent_terms
from nardy_cli.kernels.turnpass import turn_scores
from nardy_cli.policies.network import default_network
from nardy_cli.core.outcomes import money_valuation
from nardy_cli.core.rules import PRESETS
from neural_pass import self_play_turns    # experiments/ is the script's folder


@njit(cache=True)
def searched_pairs(params, values, results, counts, white):
    """(first candidates, second candidates, replier is White) of the turns with two candidates
    to search, each candidate as its opponent sees it."""
    s = choice_scratch()
    scores = np.zeros(4096)
    hidden = np.zeros(kn.layers(params)[1].shape[0])
    firsts = np.zeros((counts.shape[0], 24), np.int8)
    seconds = np.zeros((counts.shape[0], 24), np.int8)
    repliers = np.zeros(counts.shape[0], np.bool_)
    m = 0
    j = 0
    for k in range(counts.shape[0]):
        n = counts[k]
        b = results[j:j + n]
        j += n
        if n < 2:
            continue
        opponent_terms(b[0], s.opp)
        turn_scores(kn.layers(params), True, values, b, n, white[k], s.opp, s.feats, s.idx, s.val,
                    s.mask, hidden, s.probs, scores)
        order = search_candidates(scores, n, NEURAL)
        if order.shape[0] < 2:
            continue
        if (status_after(b[order[0]], white[k], True) != IN_PLAY
                or status_after(b[order[1]], white[k], True) != IN_PLAY):
            continue
        flip(b[order[0]], firsts[m])
        flip(b[order[1]], seconds[m])
        repliers[m] = not white[k]
        m += 1
    return firsts[:m], seconds[:m], repliers[:m]


def searches_of(package: str):
    """A compiled loop over turns lo..hi running `package`'s two searches into out[k]."""
    ev = importlib.import_module(f"{package}.evaluate")
    bo = importlib.import_module(f"{package}.board")
    mg = importlib.import_module(f"{package}.movegen")
    best_replies, bounded_replies, scratch_of = (ev.best_replies, ev.bounded_replies,
                                                 ev.choice_scratch)
    no_screen, neural, eval_args = ev.NO_SCREEN, ev.NEURAL, ev.EvalArgs
    kernel_rules = bo.KernelRules
    play_space = mg.play_space

    @njit
    def run(params, net, values, firsts, seconds, repliers, out, lo, hi):
        s, space = scratch_of(), play_space()
        rules = kernel_rules(0, 0, True)
        judge = eval_args(neural, params, values)
        for k in range(lo, hi):
            v1 = best_replies(firsts[k], repliers[k], judge, rules, net, no_screen, s, space,
                              s.replies[0])
            out[k, 0] = v1
            out[k, 1] = bounded_replies(seconds[k], repliers[k], judge, rules, net, s, space,
                                        s.replies[0], s.reply_steps, s.replies[1], v1)
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--turns", type=int, default=2000, help="self-play turns drawn (default 2000)")
    ap.add_argument("--rounds", type=int, default=6, help="passes over the turns (default 6)")
    ap.add_argument("--chunk", type=int, default=100, help="turns timed at a time (default 100)")
    args = ap.parse_args()
    for name, value in (("--turns", args.turns), ("--rounds", args.rounds),
                        ("--chunk", args.chunk)):
        if value < 1:
            ap.error(f"{name} must be at least 1, got {value}")
    for tree in (args.before, args.after):
        if not (Path(tree) / "nardy_cli" / "kernels").is_dir():
            ap.error(f"no nardy_cli/kernels in '{tree}'")
    for sig in (signal.SIGINT, signal.SIGTERM):     # a SIGTERM stops as Ctrl-C does
        signal.signal(sig, signal.default_int_handler)
    try:
        compare(args)
    except KeyboardInterrupt:
        print("interrupted: nothing measured is printed", file=sys.stderr)
        sys.exit(130)


def compare(args: argparse.Namespace) -> None:
    """Time both checkouts' searches and print the figures (the copies removed at the end)."""
    folder = Path(tempfile.mkdtemp(prefix="ab_search_"))
    try:
        for package, tree in (("kbefore", args.before), ("kafter", args.after)):
            shutil.copytree(Path(tree) / "nardy_cli" / "kernels", folder / package,
                            ignore=shutil.ignore_patterns("__pycache__"))
        sys.path.insert(0, str(folder))
        rules = PRESETS["federation"]
        params = default_network().kernel_params(rules)
        values = money_valuation(rules).kernel_values()
        results, counts, white = self_play_turns(params, values, args.turns, 25)
        firsts, seconds, repliers = searched_pairs(params, values, results, counts, white)
        net = kn.single_precision(params)
        runs = [searches_of("kbefore"), searches_of("kafter")]
        n = firsts.shape[0]
        outs = [np.zeros((n, 2)) for _ in runs]
        for run, out in zip(runs, outs):
            run(params, net, values, firsts, seconds, repliers, out, 0, min(n, 5))
        totals, ratios = [0.0, 0.0], []
        for rnd in range(args.rounds):
            for lo in range(0, n, args.chunk):
                hi = min(n, lo + args.chunk)
                took = [0.0, 0.0]
                for j in ((0, 1) if (lo // args.chunk + rnd) % 2 == 0 else (1, 0)):
                    start = time.process_time()
                    runs[j](params, net, values, firsts, seconds, repliers, outs[j], lo, hi)
                    took[j] = time.process_time() - start
                totals[0] += took[0]
                totals[1] += took[1]
                ratios.append(took[1] / took[0])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    per = [t / (args.rounds * n) * 1e6 for t in totals]
    q1, median, q3 = np.percentile(ratios, [25, 50, 75])
    print(f"{n:,} turns with two candidates, {args.rounds} rounds, CPU time")
    print(f"before {per[0]:.1f} us a turn, after {per[1]:.1f} us: after/before "
          f"{totals[1] / totals[0]:.3f}; by chunk median {median:.3f} "
          f"(quartiles {q1:.3f}-{q3:.3f})")
    print("the same values" if np.array_equal(outs[0], outs[1]) else
          "the values differ (a bounded search may stop at another bound: only its pick is exact)")


if __name__ == "__main__":
    main()
