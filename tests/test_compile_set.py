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

# One process with an empty kernel cache runs three cold rollouts in turn (the kernels the first
# compiled are cached for the next, as on a user's machine): random on two workers, heuristic, and
# the default neural, whose network turn pass is compiled first, alone, as the compile-ahead helper
# compiles it (`games/compile_ahead.py`; the loop then must not compile one of its own). Every
# process (the main one and its forked workers) appends "pid<TAB>kernel<TAB>wrapper" per compile to
# the log, wrapper "py" when the kernel was compiled with numba's Python wrapper, and the main
# process a line "mark<TAB>NAME" as each step starts; each command's stdout goes to NAME.out.
RUNNER = """
import contextlib, io, os, sys
sys.path.insert(0, {root!r})
from numba.core import event
log = {log!r}

def write(line):
    with open(log, "a") as out:
        out.write(line + "\\n")

class Log(event.Listener):
    def on_start(self, ev):
        pass
    def on_end(self, ev):
        f = getattr((ev.data or {{}}).get("dispatcher"), "py_func", None)
        name = getattr(f, "__module__", "?") + "." + getattr(f, "__qualname__", "?")
        options = getattr((ev.data or {{}}).get("dispatcher"), "targetoptions", {{}})
        wrapper = "-" if options.get("no_cpython_wrapper") else "py"
        write(f"{{os.getpid()}}\\t{{name}}\\t{{wrapper}}")

event.register("numba:compile", Log())
from nardy_cli.commands.cli import cli
from nardy_cli.games import compile_ahead, compiled_loop

def turn_pass_first(loop, args):
    found = compile_ahead.plan(args)
    if found is not None:
        compile_ahead.compile_turn_pass(*found)
        write("mark\\tneural-loop")

compiled_loop.start_helper = turn_pass_first
for name, args in {commands!r}:
    write("mark\\t" + name)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        cli(args, standalone_mode=False)
    with open(os.path.join(os.path.dirname(log), name + ".out"), "w") as f:
        f.write(out.getvalue())
"""

POS = "W:1x14,12 B:1x15 b"
COLD_COMMANDS = [
    ("random", ["rollout", POS, "--policy", "random", "--games", "200", "--workers", "2", "-q",
                "--format", "json"]),
    ("heuristic", ["rollout", POS, "--policy", "heuristic", "--games", "40", "--workers", "1",
                   "-q", "--format", "json"]),
    ("neural", ["rollout", POS, "--games", "20", "--workers", "1", "-q", "--format", "json"]),
    ("play", ["play", "random", "heuristic", "--games", "2", "--seed", "4", "--date",
              "2026.12.06"]),
    ("duel", ["duel", "heuristic", "random", "--games", "4", "--workers", "1", "-q", "--format",
              "json"]),
]

# kernels a plain rollout of the random policy has no use for
NOT_FOR_RANDOM = ("evaluate.", "neural.", "turnpass.", "value.", "cube.", "match_cube.",
                  "ply2.", "game.luck_of", "game.roll_replies", "game.add_roll_luck",
                  "pickers.bearoff_pick", "bearoff.", "last_roll.")


# kernels compiled once per constant some caller passes (a specialisation, not a mistake)
LITERAL_SPECIALISED = {"board.loser_class", "last_roll.packed_home", "last_roll.last_roll_probs",
                       "bearoff.home_counts", "bearoff.rank", "neural.accumulate", "runs.add_fixed",
                       "rng.below"}


def cold_runs(tmp_path: Path) -> tuple[dict[str, list[tuple[str, str, str]]], dict[str, str],
                                          str]:
    """Run `COLD_COMMANDS` in one process with an empty kernel cache: ({step: [(pid, kernel,
    wrapper) per compile]}, {command: stdout}, stderr); the steps are the commands and
    "neural-loop", the neural loop's compile after its turn pass."""
    log = tmp_path / "compiles.log"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", RUNNER.format(root=str(ROOT), log=str(log),
                                                               commands=COLD_COMMANDS)],
                          capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    steps: dict[str, list[tuple[str, str, str]]] = {}
    step = "?"
    for line in log.read_text().splitlines():
        pid, name, *wrapper = line.split("\t")
        if pid == "mark":
            step = name
            steps[step] = []
        else:
            steps[step].append((pid, name.replace("nardy_cli.kernels.", ""), *wrapper))
    outputs = {name: (tmp_path / f"{name}.out").read_text() for name, _ in COLD_COMMANDS}
    return steps, outputs, done.stderr


# kernels of the searches, the cube, variance reduction's luck and truncation's evaluator
NOT_FOR_DEFAULT_NEURAL = ("ply2.", "cube.", "match_cube.", "cube_race.", "evaluate.choose_play",
                          "evaluate.best_replies", "evaluate.search_candidates", "game.luck_of",
                          "game.roll_replies", "game.add_roll_luck", "value.zero_ply",
                          "value.one_ply", "value.position_probs")


def test_cold_random_heuristic_and_neural_rollouts_compile_what_they_use_once_and_quietly(
        tmp_path):
    """Would catch, for the random rollout: its loop still holding the network, the searches,
    the databases or variance reduction's luck (a type-level branch that does not prune, or a
    picker that is not the random one), two workers each compiling the game loop (the main
    process must compile it before the workers fork), a kernel compiled a second time for a
    literal argument, and an internal kernel compiled with the Python wrapper it never uses.
    For the default neural rollout: the compile-ahead helper's turn pass typed differently from
    the picker's (another `mover_white` or `n` type, other scratch: the loop compiles its own and
    the helper's work is wasted), and a search, the cube, the luck or truncation's evaluator
    compiled. For games played from Python (`nardy play random heuristic`): `choose_play` with
    every kind and the searches compiled for a 0-ply pick. For a duel: a turn loop compiled for
    each colour order. For all of them (the heuristic's picker
    too): numba's internal warnings about the
    inlined pickers (its request for a bug report, 50 lines) reaching a user's first run:
    stderr holds the one notice line."""
    steps, outputs, stderr = cold_runs(tmp_path)

    # the random rollout
    compiles = steps["random"]
    assert json.loads(outputs["random"])["games"] == 200
    names = [name for _, name, _ in compiles]
    assert "runs.play_chunk" in names and "movegen.enumerate_plays" in names
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
    assert wrapped == {"runs.play_chunk", "movegen.enumerate_plays", "movegen.memo_arrays",
                       "board.forbidden_block_span", "board.game_status"}

    # the heuristic rollout, after it
    assert json.loads(outputs["heuristic"])["games"] == 40
    assert "runs.play_chunk" in [name for _, name, _ in steps["heuristic"]]

    # the neural rollout: its loop, compiled after the turn pass alone
    assert json.loads(outputs["neural"])["games"] == 20
    loop = [name for _, name, _ in steps["neural-loop"]]
    assert "runs.play_chunk" in loop
    assert [n for n in loop if n.startswith("turnpass.")] == []
    assert sorted({n for n in loop if n.startswith(NOT_FOR_DEFAULT_NEURAL)}) == []
    assert [n for _, n, _ in steps["neural"]].count("turnpass.turn_scores") == 1

    # games played turn by turn from Python (`nardy play`, the server's bots): a 0-ply pick
    # compiles its own kind's scores, not `choose_play` with every kind and the searches
    assert "2 games, seed 4: White (random) 0 wins, Black (heuristic) 2 wins" in outputs["play"]
    played = sorted({n for _, n, _ in steps["play"]})
    assert "evaluate.random_choice_from_python" in played
    assert "evaluate.scored_choice_from_python" in played
    assert [n for n in played if n.startswith(("evaluate.choose_play", "evaluate.best_replies",
                                               "evaluate.neural", "turnpass.", "neural."))] == []

    # a duel plays A as White, then as Black: one loop for both orders (`SidePolicies.picker_of`),
    # not a turn loop compiled for (heuristic, random) and another for (random, heuristic)
    assert json.loads(outputs["duel"])["games"] == 4
    dueled = [n for _, n, _ in steps["duel"]]
    assert "runs.play_chunk" in dueled
    assert (dueled.count("game.play_one_game"), dueled.count("game.take_turn")) == (1, 1)

    # a user's first runs print nothing but the compile notice on stderr
    assert stderr.startswith("Compiling nardy's kernels for this command, once ")
    assert stderr.count("\n") == 1, stderr[:2000]


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
