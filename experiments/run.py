"""`make bench`: speed and memory figures of the engine, rollouts and bots.

Prints legal-play enumerations per second (compiled kernel and Python API) on a
fixed set of (position, roll) pairs from random games, the start-up budgets of
the command line (both sides of each), games per second per policy on one core
and on all cores, the network's evaluations per second (`neural_pass.py`),
and the peak memory of a 1,000,000-game rollout.  `--quick`
skips the million games.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time

import numpy as np
from numba import njit

from nardy_cli import START, legal_plays, outcome
from nardy_cli.core.dice import Dice
from nardy_cli.games import default_workers
from nardy_cli.kernels.movegen import Workspace, enumerate_plays
from nardy_cli.policies.builtin import NEURAL_DOUBLE, lookahead_of
from nardy_cli.analysis.rollout import rollout
from nardy_cli.games.scoring import Scoring
from nardy_cli.match.stakes import Stakes
from neural_pass import bench_network_pass    # experiments/ is the script's folder

N_PAIRS = 2000


def sample_pairs(n: int, seed: int = 2026):
    """`n` (position, roll) pairs met in uniformly random games (fixed seed)."""
    rng = np.random.default_rng(seed)
    pairs, pos = [], START
    while len(pairs) < n:
        a, b = rng.integers(1, 7, size=2)
        dice = Dice(int(max(a, b)), int(min(a, b)))
        pairs.append((pos, dice))
        plays = legal_plays(pos, dice)
        pos = plays[rng.integers(len(plays))].result
        if outcome(pos) is not None:
            pos = START
    return pairs


@njit(cache=True)
def _kernel_loop(boards, offs, d1, d2, reps, out_boards, out_from, out_die, memo, memo_stamp):
    total = 0
    scratch = np.empty(24, dtype=np.int8)
    for _ in range(reps):
        for i in range(boards.shape[0]):
            scratch[:] = boards[i]
            n, _ = enumerate_plays(scratch, offs[i], d1[i], d2[i], 0, 0, out_boards, out_from,
                                   out_die, memo, memo_stamp)
            total += n
    return total


def bench_enumeration() -> None:
    pairs = sample_pairs(N_PAIRS)
    boards = np.array([p.board()[0] for p, _ in pairs])
    offs = np.array([p.board()[2] for p, _ in pairs])
    d1 = np.array([d.high for _, d in pairs])
    d2 = np.array([d.low for _, d in pairs])
    ws = Workspace()
    _kernel_loop(boards, offs, d1, d2, 1, *ws.arrays())
    reps = 20
    t = time.perf_counter()
    _kernel_loop(boards, offs, d1, d2, reps, *ws.arrays())
    dt = time.perf_counter() - t
    print(f"kernel enumerate_plays        {reps * len(pairs) / dt:>12,.0f} enumerations/s "
          f"({len(pairs):,} pairs x {reps}, 1 core)")
    t = time.perf_counter()
    for _ in range(3):
        for pos, dice in pairs:
            legal_plays(pos, dice)
    dt = time.perf_counter() - t
    print(f"Python API legal_plays        {3 * len(pairs) / dt:>12,.0f} calls/s")


def _seconds(argv: list[str]) -> float:
    """Wall time of one fresh process running `argv`."""
    t = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=True)
    return time.perf_counter() - t


# Issue 8's start-up budgets: (command, reference module, allowed multiple of
# `python -c "import <module>"`).
STARTUP_BUDGETS = (
    (["--help"], "click", 5.0),
    (["show", "start"], "numba", 2.5),
    (["moves", "start", "--dice", "6-5"], "numba", 2.5),
)


def bench_startup(runs: int = 9) -> None:
    """Whole-process wall time of short commands against `python -c "import X"`, compiled cache
    warm.

    The command and its reference run alternately, so both see the same machine load;
    the figures are medians over `runs` pairs.
    """
    for args, ref, allowed in STARTUP_BUDGETS:
        command = [sys.executable, "-m", "nardy_cli", *args]
        reference = [sys.executable, "-c", f"import {ref}"]
        _seconds(command)  # fill the compiled cache
        pairs = [(_seconds(command), _seconds(reference)) for _ in range(runs)]
        secs = sorted(c for c, _ in pairs)[runs // 2]
        base = sorted(r for _, r in pairs)[runs // 2]
        ratio = sorted(c / r for c, r in pairs)[runs // 2]
        verdict = "within" if ratio <= allowed else "OVER"
        print(f"{'nardy ' + ' '.join(args):<34}{secs:>6.3f} s   import {ref} {base:.3f} s   "
              f"{ratio:4.1f}x, {verdict} the {allowed:g}x budget  (medians of {runs} "
              "alternating runs)")


PLAIN = Scoring(exact_bearoff=False, vr=False)
"""Whole games, no variance reduction: the figures earlier rounds measured."""


def games_per_second(policy, games: int, workers: int, scoring: Scoring = PLAIN,
                     match=None) -> float:
    """Games per second of wall time (after a run that compiles and loads)."""
    return timed_games(policy, games, workers, scoring, match)[0]


def timed_games(policy, games: int, workers: int, scoring: Scoring = PLAIN,
                match=None, repeats: int = 1) -> tuple[float, float, list[float]]:
    """Games per second of wall time, and of this process's CPU time (the time it ran on a core:
    meaningful on one worker, which plays in this process): the medians of `repeats` runs of the
    same games, and every run's wall figure."""
    stakes = Stakes(match)
    rollout(START, policy, games=min(games, 200), seed=1, workers=1, scoring=scoring, stakes=stakes)
    walls, cpus = [], []
    for _ in range(repeats):
        t, cpu = time.perf_counter(), time.process_time()
        rollout(START, policy, games=games, seed=1, workers=workers, scoring=scoring,
                stakes=stakes)
        walls.append(games / (time.perf_counter() - t))
        cpus.append(games / (time.process_time() - cpu))
    return float(np.median(walls)), float(np.median(cpus)), walls


def one_core(label: str, policy, games: int, scoring: Scoring = PLAIN, match=None,
             note: str = "", repeats: int = 1) -> float:
    """Print a policy's games per second on one worker, by wall and by CPU time (the medians of
    `repeats` runs, and their range); return wall's."""
    wall, cpu, walls = timed_games(policy, games, 1, scoring, match, repeats)
    spread = (f"; median of {repeats} runs, {min(walls):,.1f}-{max(walls):,.1f}"
              if repeats > 1 else "")
    print(f"{label:<30}{wall:>12,.1f} games/s ({cpu:,.1f} by CPU time{spread}{note})")
    return wall


def bench_matches() -> None:
    """Score-aware rollouts (another values array, the same kernel) beside money ones, and
    `nardy met`."""
    from nardy_cli.match.state import match_state
    from nardy_cli.core.rules import PRESETS
    state = match_state(7, "4-6", PRESETS["federation"])
    for name, games in (("neural", 6000), ("lookahead:neural", 100)):
        (money, money_cpu, _), (at_score, at_score_cpu, _) = (
            timed_games(name, games, 1), timed_games(name, games, 1, match=state))
        print(f"{name + ', money / at 4-6 to 7':<30}{money:>12,.1f} / {at_score:,.1f} games/s "
              f"({at_score / money:.2f}x, 1 core; by CPU time {money_cpu:,.1f} / "
              f"{at_score_cpu:,.1f})")
    secs = _seconds([sys.executable, "-m", "nardy_cli", "met", "--length", "17", "--format",
                     "json"])
    print(f"{'nardy met --length 17':<30}{secs:>12.3f} s (whole command, shipped distribution)")


class FirstPlay:
    """A trivial Python policy."""

    def choose(self, position, dice, plays, rng):
        return plays[0]


def bench_games() -> None:
    cores = default_workers()
    one = one_core("random rollouts, 1 core", "random", 30000)
    many = games_per_second("random", 120000, cores)
    print(f"random rollouts, {cores} workers    {many:>12,.0f} games/s  "
          f"({many / one:.2f}x one worker)")
    for name, games in (("racer", 10000), ("heuristic", 10000), ("lookahead:heuristic", 120),
                        ("neural", 6000), ("lookahead:neural", 100), (NEURAL_DOUBLE, 6000),
                        (lookahead_of(NEURAL_DOUBLE, "lookahead:neural-double"), 100)):
        label = name if isinstance(name, str) else name.name
        # a lookahead's 100 games take 3-4 s, within one swing of this machine's speed: 3 runs
        one_core(label + " rollouts, 1 core", name, games,
                 repeats=3 if label.startswith("lookahead") else 1)
    for name, games in (("heuristic", 2000), ("neural", 1000)):
        one_core(name + " default scoring", name, games, Scoring(),
                 note="; the defaults: exact bear-offs, VR off, 1 core")
    one_core("Python-object policy, 1 core", (FirstPlay(), FirstPlay()), 300,
             note="; both sides, trivial choice")


def _rollout_in_child(games: int) -> tuple[float, float]:
    """Seconds and peak RSS (MiB, largest of the parent and its workers) of a fresh rollout
    process."""
    code = ("import resource, time; from nardy_cli import START; from nardy_cli.analysis.rollout "
            "import rollout; from nardy_cli.games import default_workers; t = time.perf_counter(); "
            f"rollout(START, 'random', games={games}, seed=1, workers=default_workers()); "
            "rss = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "
            "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
            "print(round(time.perf_counter() - t, 1), rss / 1024)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    secs, rss = out.stdout.split()
    return float(secs), float(rss)


def bench_memory() -> None:
    for games in (100_000, 1_000_000):
        secs, rss = _rollout_in_child(games)
        print(f"{games:>9,} random games      {secs:>8.1f} s on {default_workers()} workers; "
              f"peak RSS {rss:,.0f} MiB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="skip the 1,000,000-game memory run")
    args = ap.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; load average {os.getloadavg()[0]:.2f} at start")
    bench_enumeration()
    bench_startup()
    bench_games()
    bench_network_pass()
    bench_matches()
    if not args.quick:
        bench_memory()
    print(f"load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
