"""Python bots on worker processes and Dask workers (issue 13): by name, never a hang, never a stray
process.

Every run that could hang runs in a subprocess with a timeout, in its own session,
so a test can also check that no process of that session outlived it.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nardy_cli import START
from nardy_cli.core.errors import PolicyError
from nardy_cli.reports.render import to_json
from nardy_cli.analysis.rollout import rollout
from tests.bots.lockbot import Bot
from tests.cases import subprocess_env

TIMEOUT = 300          # seconds: far above the slowest run here, far below a hang
GAMES = 240            # with --workers 2 a short run is cut into a job per worker: a pool runs


def _session_processes(sid: int) -> list[int]:
    """Processes still alive in session `sid` (a subprocess started with start_new_session)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getsid(int(entry.name)) == sid:
                    alive.append(int(entry.name))
            except (ProcessLookupError, PermissionError):
                pass
    return alive


def _nardy(*args: str, env: dict | None = None) -> tuple[subprocess.CompletedProcess, list[int]]:
    """Run `nardy ARGS` in its own session; return the result and the session's leftover
    processes."""
    proc = subprocess.Popen([sys.executable, "-m", "nardy_cli", *args], env=env or subprocess_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        pytest.fail(f"nardy {' '.join(args)} hung for {TIMEOUT} s")
    return (subprocess.CompletedProcess(proc.args, proc.returncode, out, err),
            _session_processes(proc.pid))


@pytest.mark.parametrize("name", ["tests.bots.lockbot:policy", "tests.bots.lockbot:Bot"])
def test_lock_holding_bot_by_name_on_two_workers_same_json(name, tmp_path):
    """Catches a named Python bot pickled into the workers (`cannot pickle '_thread.lock'`, or the
    hang of issue 13), results that change with the worker count, and a pool that never really ran
    (both chunks in one process): the bot notes every process it chose in, and there must be two,
    neither the CLI's own."""
    args = ["rollout", "start", "--white-policy", name, "--black-policy", "random", "--games",
            str(GAMES), "--seed", "5", "--format", "json", "--quiet"]
    one, left1 = _nardy(*args, "--workers", "1")
    pids = tmp_path / "pids"
    pids.mkdir()
    two, left2 = _nardy(*args, "--workers", "2", env=subprocess_env(NARDY_TEST_PID_DIR=str(pids)))
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert json.loads(one.stdout) == json.loads(two.stdout) and one.stdout == two.stdout
    workers = {int(p.name) for p in pids.iterdir()}
    assert len(workers) == 2, f"the games ran in {len(workers)} process(es), not on two workers"
    assert left1 == [] and left2 == []


def test_unpicklable_bot_object_is_refused_before_any_game(tmp_path, monkeypatch):
    """Catches an unpicklable object handed to the library with workers=2 failing late (a traceback
    from a queue thread, or a hang) instead of a `PolicyError` before any game: the bot must never
    be asked."""
    monkeypatch.setenv("NARDY_TEST_PID_DIR", str(tmp_path))
    with pytest.raises(PolicyError,
                       match=r"policy 'Bot' cannot be sent to worker processes.*by "
                             r"name.*workers=1"):
        rollout(START, (Bot(), "random"), games=GAMES, seed=5, workers=2)
    assert list(tmp_path.iterdir()) == []
    assert multiprocessing.active_children() == []
    # the same object is fine in this process
    assert rollout(START, (Bot(), "random"), games=30, seed=5, workers=1).games == 30


def test_bot_raising_on_a_worker_is_one_line_naming_it():
    """Catches a bot's exception inside a worker process that is lost, turned into a traceback,
    hangs the run or leaves workers behind: the CLI must print one line naming the bot and its
    exception, exit 2."""
    res, left = _nardy("rollout", "start", "--white-policy", "tests.bots.lockbot:Failing",
                       "--games", str(GAMES), "--workers", "2", "--quiet")
    assert res.returncode == 2, res.stderr
    lines = [line for line in res.stderr.strip().splitlines()
             if not line.startswith("Compiling nardy's")]      # a cold cache's notice
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    assert ("'tests.bots.lockbot:Failing'" in lines[0]
            and "ConnectionError: model server went away" in lines[0])
    assert left == []


def test_errors_sending_or_receiving_work_end_the_run_promptly():
    """Catches the executor's hang of issue 13: a job that cannot be pickled, or a result that
    cannot come back, must end the run with an `ExecutorError` (not wait for ever, not leave
    processes running)."""
    code = """
import threading, multiprocessing
from nardy_cli.core.errors import ExecutorError
from nardy_cli.games.executors import run_jobs
from tests.bots.tasks import Count, count_games, unsendable_result
for task, payload, expected in ((count_games, threading.Lock(), "cannot send games 0-9"),
                                (unsendable_result, None, "could not be received")):
    try:
        run_jobs([(payload, 0, 10), (payload, 10, 20), (payload, 20, 30)], task=task,
        new_tally=Count, workers=2)
    except ExecutorError as exc:
        assert expected in str(exc), str(exc)
        print("ok")
    assert multiprocessing.active_children() == []
"""
    proc = subprocess.Popen([sys.executable, "-c", code], env=subprocess_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        pytest.fail("the executor hung on a job it could not send or a result it could not receive")
    assert proc.returncode == 0 and out.split() == ["ok", "ok"], err
    assert _session_processes(proc.pid) == []


@pytest.fixture(scope="class")
def cluster():
    """A Dask LocalCluster of two worker processes, started before any test module of ours is
    written."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=40) as c:
        yield c


class TestDask:
    """The same guarantees on a Dask LocalCluster."""

    def test_bot_module_missing_on_the_workers_is_one_line_naming_it(self, cluster, tmp_path,
                                                                     monkeypatch):
        """Catches a worker's failure to import a bot's module that surfaces as a pickling
        traceback, a hang, or a message that does not say which module: the workers started before
        this module existed."""
        (tmp_path / "ghostbot_13.py").write_text("class Bot:\n    def choose(self, position, dice, "
                                                 "plays, rng):\n        return plays[0]\n")
        # this process only: the workers cannot import it
        monkeypatch.syspath_prepend(str(tmp_path))
        with pytest.raises(PolicyError) as err:
            rollout(START, ("ghostbot_13:Bot", "random"), games=50, seed=1, executor="dask",
                    scheduler=cluster.scheduler_address)
        message = str(err.value)
        assert ("\n" not in message and "on a worker" in message
                and "ghostbot_13" in message), message

    def test_lock_holding_bot_by_name_and_a_raising_bot(self, cluster):
        """Catches a named bot pickled by value for Dask (a lock cannot be), results that differ
        from a local run, and a bot's exception on a Dask worker that does not name the bot."""
        local = rollout(START, ("tests.bots.lockbot:Bot", "random"), games=60, seed=3)
        remote = rollout(START, ("tests.bots.lockbot:Bot", "random"), games=60, seed=3,
                         executor="dask", scheduler=cluster.scheduler_address)
        assert to_json(local.to_dict()) == to_json(remote.to_dict())
        with pytest.raises(PolicyError,
                           match="'tests.bots.lockbot:Failing' raised ConnectionError"):
            rollout(START, ("tests.bots.lockbot:Failing", "random"), games=60, seed=3,
                    executor="dask", scheduler=cluster.scheduler_address)
