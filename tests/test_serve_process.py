"""`nardy serve` as a user runs it: a process on a loopback port that answers, refuses an address
that is not its own, and stops on Ctrl-C (SIGINT) with its rollout workers, leaving a saved game in
the library's folder."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
psutil = pytest.importorskip("psutil")

from tests.serve_live import free_port  # noqa: E402


def test_ctrl_c_stops_the_server_and_its_workers_and_a_saved_game_stays(tmp_path):
    """Catches a server that leaves rollout workers running after Ctrl-C, that does not stop, or
    whose saved game is lost; and the first line not saying where the page is."""
    port = free_port()
    library = tmp_path / "lib" / "library.sqlite"
    nardy = Path(sys.executable).with_name("nardy")
    log = tmp_path / "serve.out"
    children = []
    # output into a file, not a pipe: a worker left running would hold a pipe open for good
    proc = subprocess.Popen([str(nardy), "serve", "--port", str(port), "--library", str(library)],
                            stdout=log.open("w"), stderr=subprocess.STDOUT, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 300
        while True:
            try:
                httpx.get(f"{base}/api/v1", timeout=2)
                break
            except httpx.HTTPError:
                assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.3)
        c = httpx.Client(base_url=base, timeout=60)
        refused = c.get("/api/v1", headers={"Host": f"rebound.example:{port}"})
        assert refused.status_code == 421
        game = c.post("/api/v1/games", json={"bot": "neural", "seed": 1, "tutor": False}).json()
        game = c.post(f"/api/v1/games/{game['game_id']}/roll", json={}).json()
        c.post(f"/api/v1/games/{game['game_id']}/play", json={"play": game["plays"][0]["play"]})
        saved = Path(c.post(f"/api/v1/games/{game['game_id']}/save", json={}).json()["saved"])
        job = c.post("/api/v1/rollouts", json={"position": "start", "games": 100_000}).json()
        while c.get(f"/api/v1/rollouts/{job['job_id']}").json()["updates"] == 0:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        children = psutil.Process(proc.pid).children(recursive=True)
        assert children                               # the rollout's worker (and a spare)
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
        out = log.read_text()
        assert out.startswith(f"nardy serve: http://127.0.0.1:{port}/")
        time.sleep(0.5)
        assert [p.pid for p in children if p.is_running() and p.status() != "zombie"] == []
        assert saved.parent == library.parent / "games" and saved.read_text().startswith("[")
    finally:
        for p in [proc, *children]:
            if p.poll() is None if p is proc else p.is_running():
                p.kill()
        proc.wait()


def test_listening_beyond_loopback_warns(monkeypatch):
    """Catches `--host 0.0.0.0` (reachable from the network, no login) started without a word."""
    from click.testing import CliRunner

    import nardy_cli.serve.server as server
    from nardy_cli.commands.cli import cli
    seen = {}
    monkeypatch.setattr(server, "serve", lambda config, *a, **k: seen.update(config=config))
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--allow-host", "n.example"])
    assert result.exit_code == 0, result.output
    assert "Warning: listening on 0.0.0.0" in result.output
    assert "n.example:8151" in seen["config"].host_names()
    quiet = CliRunner().invoke(cli, ["serve"])
    assert "Warning" not in quiet.output
