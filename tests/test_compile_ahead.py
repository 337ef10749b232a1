"""The second core's share of a cold compile (issue 49): the network's turn pass, compiled by a
helper process (`games/compile_ahead.py`) while the game loop compiles here.  That the loop then
loads the helper's turn pass, in a cold process, is checked with the other cold rollouts
(`tests/test_compile_set.py`)."""

from __future__ import annotations

import os
import pickle
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


def test_a_cold_network_loop_starts_a_helper_with_its_plan_and_it_is_ended(monkeypatch):
    """Would catch a cold loop that starts no helper, a helper sent another plan than the loop's
    (another picker, another signature), or a helper left running after the loop compiled."""
    args = _loop_args("heuristic", "neural")
    sent = []

    class Helper:
        stdin = type("Pipe", (), {"write": lambda self, b: sent.append(b),
                                  "close": lambda self: None})()
        ended = False

        def poll(self):
            return None

        def terminate(self):
            Helper.ended = True

        def wait(self):
            return 0

    monkeypatch.setenv("NARDY_COMPILE_AHEAD", "1")
    monkeypatch.setattr(compile_ahead.os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(compile_ahead, "is_cached", lambda loop, a: False)
    monkeypatch.setattr(compile_ahead.subprocess, "Popen", lambda *a, **k: Helper())
    helper = compile_ahead.start_helper(runs.play_chunk, args)
    assert isinstance(helper, Helper)
    assert pickle.loads(sent[0]) == compile_ahead.plan(args)
    assert pickle.loads(sent[0])[0] == "NeuralPick"
    compile_ahead.stop_helper(helper)
    assert Helper.ended


def test_no_helper_when_disabled_on_one_core_or_cached(monkeypatch):
    """Would catch a helper process started on every warm run (a second Python for nothing), on a
    single core (where it only competes), or despite NARDY_COMPILE_AHEAD=0."""
    args = _loop_args("neural", "neural")
    started = []
    monkeypatch.setattr(compile_ahead.subprocess, "Popen",
                        lambda *a, **k: started.append(a) or None)
    monkeypatch.setattr(compile_ahead, "is_cached", lambda loop, a: True)
    assert compile_ahead.start_helper(runs.play_chunk, args) is None
    monkeypatch.setattr(compile_ahead, "is_cached", lambda loop, a: False)
    monkeypatch.setenv("NARDY_COMPILE_AHEAD", "0")
    assert compile_ahead.start_helper(runs.play_chunk, args) is None
    monkeypatch.delenv("NARDY_COMPILE_AHEAD")
    monkeypatch.setattr(compile_ahead.os, "sched_getaffinity", lambda pid: {0})
    assert compile_ahead.start_helper(runs.play_chunk, args) is None
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
