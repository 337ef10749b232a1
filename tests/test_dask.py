"""The Dask executor: same numbers as local workers, clear errors for unreachable schedulers,
and a real cluster (``dask scheduler`` + ``dask worker`` processes) that loses a worker mid-run."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from nardy_cli import START
from nardy_cli.core.errors import ExecutorError
from nardy_cli.reports.render import to_json
from nardy_cli.analysis.rollout import rollout
from tests.cases import subprocess_env

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=40) as c:
        yield c


def test_dask_result_equals_local(cluster):
    local = rollout(START, "random", games=3000, seed=21, workers=1)
    remote = rollout(START, "random", games=3000, seed=21, executor="dask",
                     scheduler=cluster.scheduler_address)
    assert to_json(local.to_dict()) == to_json(remote.to_dict())


def test_a_billion_games_on_dask_are_sent_a_window_at_a_time(cluster):
    """Catches the Dask executor pickling and submitting every job before the first result (issue
    50: a billion games are 770,000 jobs, about 1 GB here and on the scheduler).  Stopped after
    its first report, the run returns at once with the games finished."""
    import tracemalloc

    from nardy_cli.core.limits import MAX_GAMES

    def stop(partial):
        raise KeyboardInterrupt

    tracemalloc.start()
    started = time.monotonic()
    result = rollout(START, "random", games=MAX_GAMES, executor="dask",
                     scheduler=cluster.scheduler_address, progress=stop)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert result.interrupted and 0 < result.games < 100 * 1296
    assert peak < 50_000_000 and time.monotonic() - started < 60, (peak, time.monotonic() - started)


def test_dask_duel_equals_local(cluster):
    from nardy_cli.games.duel import duel
    a = duel("heuristic", "racer", games=400, seed=2)
    b = duel("heuristic", "racer", games=400, seed=2, executor="dask",
             scheduler=cluster.scheduler_address)
    assert to_json(a.to_dict()) == to_json(b.to_dict())


def test_dask_scored_rollout_equals_local(cluster):
    """Would catch: exact bear-offs, truncation or VR (with the lookahead's replies reused for the
    luck) giving other numbers on a cluster than locally (issue 9: identical for any executor)."""
    from nardy_cli.core.position import Position
    from nardy_cli.games.scoring import Scoring
    pos = Position.parse("W:17x2,19x3,20x2,22x3,24x2 B:18,19x2,21x3,22x2,23 w")
    for policy, games, scoring in (("lookahead:heuristic", 150,
                                    Scoring(exact_bearoff=True, vr=True)),
                                   ("heuristic", 1400,
                                    Scoring(exact_bearoff=True, truncate=6, vr=True))):
        local = rollout(pos, policy, games=games, seed=4, workers=1, scoring=scoring)
        remote = rollout(pos, policy, games=games, seed=4, scoring=scoring, executor="dask",
                         scheduler=cluster.scheduler_address)
        assert to_json(local.to_dict()) == to_json(remote.to_dict())
        assert local.params["vr"] and local.params["exact_bearoff"]


def test_refused_scheduler_is_a_clear_error():
    """Catches a refused connection turned into a hang or a traceback (nothing listens on port
    9)."""
    with pytest.raises(ExecutorError, match="cannot reach the Dask scheduler"):
        rollout(START, "random", games=100, executor="dask", scheduler="tcp://127.0.0.1:9")


def test_silent_scheduler_is_an_error_within_10_seconds():
    """Catches the connection timeout never firing (README: an unreachable scheduler is an error
    within 10 s).

    The address accepts TCP connections (a listening socket nobody answers), so only the
    timeout can end the wait. The rollout runs in a daemon thread watched for 60 s, so a hang
    fails the test instead of stalling the suite; 2 s of slack over the promised 10 s for a
    loaded two-core machine.
    """
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
    outcome: dict = {}

    def attempt():
        started = time.monotonic()
        try:
            rollout(START, "random", games=100, executor="dask", scheduler=address)
        except Exception as exc:    # noqa: BLE001 - the type is checked below
            outcome["error"] = exc
        outcome["seconds"] = time.monotonic() - started

    worker = threading.Thread(target=attempt, daemon=True)
    try:
        worker.start()
        worker.join(60)
    finally:
        silent.close()
    assert not worker.is_alive(), "a scheduler that never answers hangs the rollout for over 60 s"
    assert isinstance(outcome.get("error"), ExecutorError), outcome
    assert "cannot reach the Dask scheduler" in str(outcome["error"])
    assert outcome["seconds"] < 12, outcome["seconds"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_killed_worker_process_mid_run_gives_identical_json():
    """Catches a rollout that loses, double-counts or reorders chunks when a Dask worker dies
    mid-run.

    A real `dask scheduler` and two `dask worker` processes (no nanny, so a killed worker stays
    dead); one worker is SIGKILLed after the second chunk is in, and the scheduler reruns its
    chunks on the other. The JSON must equal the local run's byte for byte.
    """
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = subprocess_env()
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                               "127.0.0.1", "--port", str(port), "--no-dashboard"], env=env,
                              start_new_session=True, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)]
    try:
        for _ in range(2):
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                                           address, "--nworkers", "1", "--nthreads", "1",
                                           "--no-nanny", "--no-dashboard"],
                                          env=env, start_new_session=True,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with distributed.Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
            # warm both workers (numba kernels loaded) so the kill lands while chunks are running
            client.run(lambda: __import__("nardy_cli.analysis.rollout"))
        victim = procs[1]
        reports = []

        def kill_after_two_chunks(partial):
            reports.append(partial.games)
            if len(reports) == 2:
                os.killpg(victim.pid, signal.SIGKILL)

        games = 1296 * 6
        remote = rollout(START, "random", games=games, seed=23, executor="dask", scheduler=address,
                         progress=kill_after_two_chunks)
        assert victim.wait(timeout=30) == -signal.SIGKILL, "the worker was killed during the run"
        assert len(reports) >= 3 and remote.games == games and not remote.interrupted
        local = rollout(START, "random", games=games, seed=23, workers=1)
        assert to_json(remote.to_dict()) == to_json(local.to_dict())
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
