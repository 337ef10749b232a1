"""What a command compiles (issue 49): only the kernels it uses, and each once on the machine.

The game loops are specialised by the types of their pickers and options
(`kernels/pickers.py`, `game.ScoringArgs`): a branch the types rule out is never
compiled. These tests run a cold command (an empty kernel cache of its own) in a
subprocess and read numba's compile events, in the main process and in its
forked workers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from nardy_cli.core.outcomes import money_valuation
from nardy_cli.core.rules import make_rules
from nardy_cli.games.compiled_loop import kernel_pickers, kernel_policies
from nardy_cli.games.scoring import Scoring, bearoff_db, kernel_arguments
from nardy_cli.kernels.pickers import NeuralPick, RandomPick, SearchPick
from nardy_cli.policies.registry import get_policy

ROOT = Path(__file__).resolve().parents[1]

# every process (the main one and its forked workers) appends "pid<TAB>kernel<TAB>wrapper" per
# compile, wrapper "py" when the kernel was compiled with numba's Python wrapper
RUNNER = """
import os, sys
sys.path.insert(0, {root!r})
from numba.core import event
log = {log!r}

class Log(event.Listener):
    def on_start(self, ev):
        pass
    def on_end(self, ev):
        f = getattr((ev.data or {{}}).get("dispatcher"), "py_func", None)
        name = getattr(f, "__module__", "?") + "." + getattr(f, "__qualname__", "?")
        options = getattr((ev.data or {{}}).get("dispatcher"), "targetoptions", {{}})
        wrapper = "-" if options.get("no_cpython_wrapper") else "py"
        with open(log, "a") as out:
            out.write(f"{{os.getpid()}}\\t{{name}}\\t{{wrapper}}\\n")

event.register("numba:compile", Log())
from nardy_cli.commands.cli import main
sys.argv = ["nardy"] + {args!r}
main()
"""

# kernels a plain rollout of the random policy has no use for
NOT_FOR_RANDOM = ("evaluate.", "neural.", "turnpass.", "value.", "cube.", "match_cube.",
                  "ply2.", "game.luck_of", "game.roll_replies", "game.add_roll_luck",
                  "pickers.bearoff_pick", "bearoff.", "last_roll.")


# kernels compiled once per constant some caller passes (a specialisation, not a mistake)
LITERAL_SPECIALISED = {"board.loser_class", "last_roll.packed_home", "last_roll.last_roll_probs",
                       "bearoff.home_counts", "bearoff.rank", "neural.accumulate", "runs.add_fixed",
                       "rng.below"}


def cold_compiles(tmp_path: Path, args: list[str]) -> tuple[list[tuple[str, str, str]], str]:
    """Run `nardy ARGS` with an empty kernel cache; ((pid, kernel, wrapper) per compile, stdout)."""
    log = tmp_path / "compiles.log"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", RUNNER.format(root=str(ROOT), log=str(log),
                                                               args=args)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = log.read_text().splitlines() if log.exists() else []
    rows = [tuple(line.split("\t")) for line in lines]
    return [(pid, name.replace("nardy_cli.kernels.", ""), wrapper)
            for pid, name, wrapper in rows], done.stdout


def test_a_random_rollout_compiles_no_evaluator_search_or_option_and_each_kernel_once(tmp_path):
    """Would catch: the random policy's loop still holding the network, the searches, the
    databases or variance reduction's luck (a type-level branch that does not prune, or a picker
    that is not the random one), two workers each compiling the game loop (the main process
    must compile it before the workers fork), a kernel compiled a second time for a literal
    argument, and an internal kernel compiled with the Python wrapper it never uses."""
    compiles, out = cold_compiles(tmp_path, ["rollout", "W:1x14,12 B:1x15 b", "--policy",
                                             "random", "--games", "200", "--workers", "2", "-q",
                                             "--format", "json"])
    assert json.loads(out)["games"] == 200
    names = [name for _, name, _ in compiles]
    assert "runs.play_games" in names and "movegen.enumerate_plays" in names
    # the loops' scratch (`game.workspace`, `score_workspace`) is allocated whatever the policy
    unwanted = sorted({n for n in names if n.startswith(NOT_FOR_RANDOM)}
                      - {"evaluate.choice_scratch", "value.value_scratch"})
    assert unwanted == []
    by_kernel: dict[str, set[str]] = {}
    for pid, name, _ in compiles:
        by_kernel.setdefault(name, set()).add(pid)
    assert {n: p for n, p in by_kernel.items() if len(p) > 1} == {}
    assert len({pid for pid, _, _ in compiles}) == 1      # all in the main process, before the fork
    # one signature each, but for the calls that pass a constant (numba compiles a kernel again
    # for a literal 0 that a variable starts from: `np.int64(0)` prevents it)
    repeated = {n for n in names if names.count(n) > 1 and not n.startswith("numba.")}
    assert repeated <= LITERAL_SPECIALISED, sorted(repeated - LITERAL_SPECIALISED)
    # only the entry points Python calls carry numba's Python wrapper (jit.kernel vs jit.entry)
    wrapped = {name for _, name, wrapper in compiles
               if wrapper == "py" and name.startswith(("board.", "movegen.", "runs.", "game.",
                                                         "features.", "pickers.", "rng."))}
    assert wrapped == {"runs.play_games", "movegen.enumerate_plays", "movegen.memo_arrays",
                       "board.forbidden_block_span", "board.game_status"}


def test_a_neural_rollout_with_default_options_is_given_no_search_luck_or_truncation():
    """Would catch: the default rollout's loop typed with a lookahead picker or with variance
    reduction or truncation on (each compiles the 1-ply search, the luck or the evaluator's
    value of a position into the loop), or without its bear-off options."""
    rules = make_rules("federation")
    neural = get_policy("neural")
    scoring = Scoring().resolved(neural, neural)
    args = kernel_arguments(scoring, rules)
    assert args.truncate is None and args.vr is None and args.exact is not None
    sides, _ = kernel_policies(neural, neural, rules, money_valuation(rules))
    pickers = kernel_pickers(neural, neural, sides, bearoff_db(scoring, rules))
    assert [type(p) for p in pickers] == [NeuralPick, NeuralPick]
    assert all(p.db is not None for p in pickers)
    look = get_policy("lookahead:neural")
    assert type(kernel_pickers(look, look, sides)[0]) is SearchPick
    random = get_policy("random")
    assert kernel_pickers(random, random, sides, bearoff_db(scoring, rules)) == (RandomPick(),
                                                                                 RandomPick())


def test_a_cold_heuristic_rollout_prints_only_the_compile_notice(tmp_path):
    """Would catch numba's internal warnings about the inlined pickers (its request for a bug
    report, 50 lines) reaching a user's first run: stderr holds the one notice line."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "nardy_cli", "rollout", "W:1x14,12 B:1x15 b",
                           "--policy", "heuristic", "--games", "40", "--workers", "1", "-q",
                           "--format", "json"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr.startswith("Compiling nardy's kernels for this command, once ")
    assert done.stderr.count("\n") == 1, done.stderr[:2000]
