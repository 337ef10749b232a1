"""The command line as a real process: Ctrl-C (SIGINT) and the progress bar (stderr, terminal only,
--quiet).

Each test starts `python -m nardy_cli` with stderr on a pseudo-terminal or a pipe.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

from tests.cases import ROOT, default_signals, subprocess_env

pytestmark = pytest.mark.skipif(sys.platform == "win32",
                                reason="needs a pseudo-terminal and SIGINT")

LONG_RUN = ["rollout", "start", "--games", "5000000", "--seed", "1", "--policy", "random"]


def _start(args, stderr_on_terminal: bool, program: tuple[str, ...] = ("-m", "nardy_cli")):
    """Start nardy (or Python running `program`); return (process, terminal master fd or None)."""
    master = slave = None
    if stderr_on_terminal:
        master, slave = pty.openpty()
        # a real terminal has a size; tqdm draws nothing on a 0-column one
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    # SIGINT back to its default in the child: a test run started in the background by a
    # non-interactive shell (`make test &`) ignores SIGINT, and children inherit that.
    proc = subprocess.Popen([sys.executable, *program, *args], cwd=ROOT, env=subprocess_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=slave if stderr_on_terminal else subprocess.PIPE,
                            preexec_fn=default_signals)
    if slave is not None:
        os.close(slave)
    return proc, master


def _read_terminal(master: int, proc, until=lambda text: False, timeout: float = 120.0) -> str:
    """What the process wrote to the terminal, until `until(text)` holds, it exits, or `timeout`."""
    text = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if not ready and proc.poll() is not None:
            break
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:     # the process closed the terminal
                break
            if not chunk:
                break
            text += chunk
            if until(text.decode(errors="replace")):
                break
    return text.decode(errors="replace")


def _has_progress(text: str) -> bool:
    return "games/s" in text or "equity" in text


def _interrupt(args, program: tuple[str, ...] = ("-m", "nardy_cli")) -> tuple[int, bytes, str]:
    """Start a run with stderr on a terminal, press Ctrl-C once its progress bar shows; (exit
    status, stdout, what the terminal showed)."""
    proc, master = _start(args, stderr_on_terminal=True, program=program)
    try:
        seen = _read_terminal(master, proc, until=_has_progress)
        assert _has_progress(seen), f"no progress bar on the terminal: {seen!r}"
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
        seen += _read_terminal(master, proc, timeout=2)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return proc.returncode, out, seen


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_prints_games_so_far_marked_interrupted_and_exits_130(workers):
    """Catches Ctrl-C losing the finished games, a traceback, a wrong exit code, or (with workers)
    a pool that keeps running. The progress bar on the terminal shows the run is under way first."""
    code, out, seen = _interrupt(LONG_RUN + ["--workers", workers, "--format", "json"])
    assert code == 130, seen[-2000:]
    data = json.loads(out)           # stdout holds only the result: the bar went to stderr
    assert data["interrupted"] is True and 0 < data["games"] < 5_000_000
    assert data["games"] % 1296 == 0, "only whole chunks are counted"
    assert "Traceback" not in seen


def test_ctrl_c_exits_even_with_a_thread_left_waiting():
    """Catches an interrupted run that prints its result and then never exits: a pool worker stopped
    while sending its result leaves the pool's reader thread waiting for good, and Python joins
    every such thread at exit. Here a thread that waits forever stands in for it."""
    program = ("-c", "import sys, threading; from nardy_cli.commands.cli import main; "
                     "threading.Thread(target=threading.Event().wait).start(); "
                     "sys.argv = ['nardy', "
                     f"*{LONG_RUN + ['--workers', '1', '--format', 'json']!r}]; main()")
    code, out, _ = _interrupt([], program=program)
    assert code == 130 and json.loads(out)["interrupted"] is True


def test_ctrl_c_table_output_says_interrupted():
    """Catches the table output hiding that the numbers come from an interrupted run."""
    code, out, _ = _interrupt(LONG_RUN + ["--workers", "1"])
    assert code == 130 and "INTERRUPTED" in out.decode().upper()


@pytest.mark.parametrize("case", ["stderr-is-a-pipe", "quiet-on-a-terminal"])
def test_no_progress_bar_off_a_terminal_or_with_quiet(case):
    """Catches a progress bar written into pipes/logs, or --quiet ignored.

    6,480 random games take about two seconds, past the bar's one-second delay.
    """
    args = ["rollout", "start", "--games", "6480", "--workers", "1", "--format", "json",
            "--policy", "random"]
    if case == "quiet-on-a-terminal":
        proc, master = _start(args + ["--quiet"], stderr_on_terminal=True)
        try:
            started = time.monotonic()
            err = _read_terminal(master, proc, timeout=180)
            out, _ = proc.communicate(timeout=60)
        finally:
            os.close(master)
    else:
        started = time.monotonic()
        proc, _ = _start(args, stderr_on_terminal=False)
        out, err_bytes = proc.communicate(timeout=180)
        err = err_bytes.decode()
    assert time.monotonic() - started > 1.5, "the run must outlast the bar's one-second delay"
    assert proc.returncode == 0 and json.loads(out)["games"] == 6480
    assert not _has_progress(err), err[-500:]
