"""The second core's share of a cold compile (issue 49): the network's turn pass, compiled by a
helper process (`games/compile_ahead.py`) while the game loop compiles here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from nardy_cli.core.outcomes import money_valuation
from nardy_cli.core.position import parse_position
from nardy_cli.core.rules import make_rules
from nardy_cli.games import compile_ahead
from nardy_cli.games.compiled_loop import game_setup, kernel_pickers, kernel_policies
from nardy_cli.games.spec import MAX_PLIES, GameSpec
from nardy_cli.kernels import runs
from nardy_cli.policies.registry import get_policy

ROOT = Path(__file__).resolve().parents[1]

# In a process with an empty kernel cache: the turn pass compiled first, alone, as the helper
# compiles it; then a default neural rollout. Prints the kernels compiled after the turn pass and
# how many signatures `turn_scores` ended with.
SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
from numba.core import event
names = []

class Log(event.Listener):
    def on_start(self, ev):
        pass
    def on_end(self, ev):
        f = getattr((ev.data or {{}}).get("dispatcher"), "py_func", None)
        names.append(getattr(f, "__module__", "?") + "." + getattr(f, "__qualname__", "?"))

event.register("numba:compile", Log())
from nardy_cli.games import compile_ahead, compiled_loop
from nardy_cli.kernels import turnpass
marks = []

def start(loop, args):
    compile_ahead.compile_turn_pass(*compile_ahead.plan(args))
    marks.append(len(names))

compiled_loop.start_helper = start
from nardy_cli.commands.cli import cli
cli(["rollout", "W:1x14,12 B:1x15 b", "--games", "20", "--workers", "1", "-q", "--format",
     "json"], standalone_mode=False)
after = names[marks[0]:]
print(json.dumps({{"after": after, "turn_scores": len(turnpass.turn_scores.signatures)}}))
"""

# kernels of the searches, the cube, variance reduction's luck and truncation's evaluator
NOT_FOR_DEFAULT_NEURAL = ("kernels.ply2.", "kernels.cube.", "kernels.match_cube.",
                          "kernels.cube_race.", "kernels.evaluate.choose_play",
                          "kernels.evaluate.best_replies", "kernels.evaluate.search_candidates",
                          "kernels.game.luck_of", "kernels.game.roll_replies",
                          "kernels.game.add_roll_luck", "kernels.value.zero_ply",
                          "kernels.value.one_ply", "kernels.value.position_probs")


def test_the_loop_loads_the_turn_pass_the_helper_compiled_and_no_search_cube_or_luck(tmp_path):
    """Would catch: the helper's turn pass typed differently from the picker's (another
    `mover_white` or `n` type, other scratch: the loop compiles its own and the helper's work is
    wasted), and a default neural rollout compiling a search, the cube, the luck or truncation's
    evaluator; or numba's warnings about the inlined picker on a first neural rollout's stderr."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(root=str(ROOT))],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    after = [n.replace("nardy_cli.", "") for n in report["after"]]
    assert "kernels.runs.play_games" in after
    assert [n for n in after if n.startswith("kernels.turnpass.")] == []
    assert report["turn_scores"] == 1
    assert sorted({n for n in after if n.startswith(NOT_FOR_DEFAULT_NEURAL)}) == []
    # and a user's first neural rollout prints nothing but the compile notice on stderr
    assert done.stderr.startswith("Compiling nardy's kernels for this command, once ")
    assert done.stderr.count("\n") == 1, done.stderr[:2000]


def _loop_args(white: str, black: str) -> tuple:
    """The arguments a game loop gets that the plan reads: the setup, the sides, the pickers."""
    rules = make_rules("federation")
    w, b = get_policy(white), get_policy(black)
    spec = GameSpec(parse_position("W:1x14,12 B:1x15 b"), rules, w, b, 1, True)
    sides, evaluators = kernel_policies(w, b, rules, money_valuation(rules))
    return (game_setup(spec, MAX_PLIES), sides, evaluators, kernel_pickers(w, b, sides))


def test_a_helper_is_planned_for_a_network_side_only():
    """Would catch a helper started for loops without a network (the random policy's, the
    heuristic's), or a plan naming the wrong precision's turn pass."""
    assert compile_ahead.plan(_loop_args("random", "heuristic")) is None
    picker, sig = compile_ahead.plan(_loop_args("random", "neural"))
    assert picker == "NeuralPick" and len(sig) == 4
    assert str(sig[3]) == "bool"


def test_no_helper_when_disabled_on_one_core_or_cached(monkeypatch):
    """Would catch a helper process started on every warm run (a second Python for nothing), on a
    single core (where it only competes), or despite NARDY_COMPILE_AHEAD=0."""
    args = _loop_args("neural", "neural")
    started = []
    monkeypatch.setattr(compile_ahead.subprocess, "Popen",
                        lambda *a, **k: started.append(a) or None)
    monkeypatch.setattr(compile_ahead, "is_cached", lambda loop, a: True)
    assert compile_ahead.start_helper(runs.play_games, args) is None
    monkeypatch.setattr(compile_ahead, "is_cached", lambda loop, a: False)
    monkeypatch.setenv("NARDY_COMPILE_AHEAD", "0")
    assert compile_ahead.start_helper(runs.play_games, args) is None
    monkeypatch.delenv("NARDY_COMPILE_AHEAD")
    monkeypatch.setattr(compile_ahead.os, "sched_getaffinity", lambda pid: {0})
    assert compile_ahead.start_helper(runs.play_games, args) is None
    assert started == []


def test_is_cached_reads_memory_and_the_kernel_cache(tmp_path):
    """Would catch a cold loop taken for cached (no helper ever) or a warm one for cold."""
    module = tmp_path / "tiny_kernel.py"
    module.write_text("from numba import njit\n\n@njit(cache=True)\ndef f(x):\n    return x + 1\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    probe = ("from nardy_cli.games.compile_ahead import is_cached\n"
             "import tiny_kernel, numpy as np\n"
             "print(is_cached(tiny_kernel.f, (np.int64(1),)), end=' ')\n"
             "tiny_kernel.f(np.int64(1))\n"
             "print(is_cached(tiny_kernel.f, (np.int64(1),)), is_cached(tiny_kernel.f, (1.5,)))\n")
    first = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                           timeout=300)
    second = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            env=env, timeout=300)
    assert first.stdout.split() == ["False", "True", "False"], first.stderr[-2000:]
    assert second.stdout.split() == ["True", "True", "False"]
