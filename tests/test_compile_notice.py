"""The first run says it is compiling (issue 41, item 2): one line on stderr before nardy's kernels
first compile, in the process or in one of its forked workers, and none when every kernel comes
from the cache."""

from __future__ import annotations

import subprocess
import sys

from tests.cases import ROOT, subprocess_env

PROBE = r'''
import multiprocessing, os, sys
from numba import njit
from nardy_cli.core.compiling import announce_compiling

log = sys.argv[1]

def said():
    with open(log, "a") as f:
        f.write(f"compiling {os.getpid()}\n")

def kernel(module):
    def f(x):
        return x + 1
    f.__module__ = module
    return njit(f)

announce_compiling(said)
announce_compiling(lambda: None)         # a second registration keeps the first
kernel("some_plugin")(1)                 # another package's compile: not announced
if sys.argv[2] == "fork":                # the workers compile first, at once: one line
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=kernel("nardy_cli.probe"), args=(1,)) for _ in range(2)]
    [p.start() for p in procs]
    [p.join() for p in procs]
kernel("nardy_cli.probe")(1)
kernel("nardy_cli.probe")(2)
'''


def _announced(tmp_path, mode):
    log = tmp_path / f"{mode}.log"
    subprocess.run([sys.executable, "-c", PROBE, str(log), mode], env=subprocess_env(),
                   check=True, timeout=300)
    return log.read_text().splitlines() if log.exists() else []


def test_the_first_compile_is_announced_once_in_a_process_and_its_workers(tmp_path):
    """Catches a notice printed for each compiled function (or each worker), for another
    package's numba function, or not at all."""
    lines = _announced(tmp_path, "here")
    assert len(lines) == 1
    lines = _announced(tmp_path, "fork")
    assert len(lines) == 1


def test_a_cold_cache_says_so_once_on_stderr_and_a_warm_one_says_nothing(tmp_path):
    """Catches the first run's silent minute of compiling (or a notice on stdout, which would
    corrupt piped output, or on every run)."""
    env = subprocess_env(NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    args = [sys.executable, "-m", "nardy_cli", "moves", "W:1x14,12 B:1x15 b", "--dice", "6-6",
            "--format", "json"]
    cold = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, timeout=900)
    warm = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert cold.returncode == warm.returncode == 0, cold.stderr
    assert cold.stderr.startswith("Compiling nardy's kernels for this command, once ")
    assert cold.stderr.count("\n") == 1
    assert warm.stderr == "" and cold.stdout == warm.stdout != ""
