"""Exit codes (issue 26, item 6): 2 only for bad input, 1 for a runtime failure, 130 for an
interrupt.

A runtime failure is a worker that died or an output folder the system will not let nardy write;
its message is one `Error: ...` line like a bad input's, but its code says "try again", not "fix
the command".  (Ctrl-C's 130 is tested with real signals in test_cli_signals.py.)
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.core.errors import (NardyError, NotAReportError, OutputError, RunError, WorkerError,
    WriteError)
from tests.cases import subprocess_env
from tests.test_cli_inputs import read_only


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_bad_input_exits_2():
    """Catches bad input reported as a runtime failure (exit 1): the user must fix the command."""
    out = run("rollout", "W:1x16 B:1x15 w", "--games", "10")
    assert out.exit_code == 2
    assert out.output.startswith("Error: ") and out.output.count("\n") == 1, out.output


def test_a_dead_worker_exits_1_with_one_line():
    """Catches a worker process that died reported as bad input (exit 2), or as a traceback."""
    proc = subprocess.run([sys.executable, "-m", "nardy_cli", "rollout", "start", "--policy",
                           "tests.bots.simple:DiesInWorker", "--workers", "2", "--games", "1300",
                           "--quiet"],
                          env=subprocess_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("Error: a worker process died while playing games "), proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr


def test_an_output_folder_that_cannot_be_written_exits_1(tmp_path):
    """Catches a read-only output folder (the system's refusal, not the command's fault) exiting
    with 2."""
    folder = tmp_path / "report"
    folder.mkdir()
    (folder / "results.json").write_text("{}")
    with read_only(folder):
        out = run("rollout", "start", "--games", "10", "--output", str(folder))
    assert out.exit_code == 1
    assert out.output.startswith(f"Error: cannot write to output directory '{folder}': ")
    assert out.output.count("\n") == 1, out.output


def test_an_output_folder_of_other_files_is_bad_input(tmp_path):
    """Catches a folder of someone else's files (fixed by --force or another folder) exiting with
    1."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    out = run("rollout", "start", "--games", "10", "--output", str(folder))
    assert out.exit_code == 2
    assert out.output == (f"Error: output folder '{folder}' holds files that are not a nardy "
                          "report; choose another folder or allow replacing it (--force)\n")


@pytest.mark.parametrize("cls, runtime",
                         [(WriteError, True), (WorkerError, True), (NotAReportError, False),
                          (OutputError, False)])
def test_error_classes_say_what_kind_of_failure_they_are(cls, runtime):
    """Catches a runtime error class that is not a `RunError` (so it would exit 2), or a bad-input
    class that is."""
    assert issubclass(cls, NardyError)
    assert issubclass(cls, RunError) is runtime


@pytest.mark.parametrize("args", [
    ["met", "--length", "3", "--chart", "x.bmp"],
    ["rollout", "start", "--points", "koks=1e308", "--games", "10"],
    ["openings", "--rolls", "65", "--reply-games", "100"],
    ["chart", "results.json", "--kind", "outcomes", "-o", "x.png"],
])
def test_issue_41_bad_inputs_exit_2_with_one_line_in_a_real_process(args, tmp_path):
    """Catches the cases issue 41 met as a traceback with exit 0 (`met --chart x.bmp`), a silently
    ignored option, unchecked points or a KeyError from a malformed results.json coming back in a
    real `python -m nardy_cli` process."""
    (tmp_path / "results.json").write_text('{"kind": "rollout", "results": [{"games": 1}]}')
    proc = subprocess.run([sys.executable, "-m", "nardy_cli", *args], cwd=tmp_path,
                          env=subprocess_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("Error: ") and proc.stderr.count("\n") == 1, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.json"]
