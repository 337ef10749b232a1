"""Interrupting every command family that plays games: Ctrl-C, SIGTERM and SIGHUP stop it the same
way.

The promise (README, "Interrupts"): an interrupted run prints what finished,
marked INTERRUPTED, writes its report to DIR-interrupted (with `interrupted` in
results.json), exits 130 without a traceback and leaves no worker process alive;
interrupted before any game finished it prints one line, writes nothing and
exits 130.

Each run is `tests/interrupt_probe.py` (nardy with probe lines on stderr) in a
session of its own, so every process it starts shares its process group: after
it exits, any process left in that group is a worker left behind.  The signal is
sent on a probe ("early": the second job went to a worker, so the workers exist, and
no game is counted;
"late": a job, round or position has finished), never after a sleep.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from nardy_cli.commands.common import NOTHING_FINISHED
from nardy_cli.commands.common import COMPILING
from tests.cases import ROOT, default_signals, subprocess_env

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc; needs SIGHUP")

PROBE = str(Path(__file__).with_name("interrupt_probe.py"))
POS = "W:1x13,7,12 B:1x14,7 w 4-2"      # 8 distinct plays
MANY = "1000000"                        # games no test waits for


@dataclass
class Run:
    code: int
    out: str
    err: str
    left: list[str]      # processes of the run's group still alive after it exited


def group_members(pgid: int) -> list[str]:
    """Processes (not zombies) in process group `pgid`, as 'pid command'."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        comm_end = stat.rindex(")")
        state, _ppid, group = stat[comm_end + 2:].split()[:3]
        if int(group) == pgid and state != "Z":
            found.append(f"{entry.name} {stat[stat.index('(') + 1:comm_end]}")
    return found


def interrupt(args: list[str], on: tuple[str, int], sig: int = signal.SIGINT,
              timeout: float = 900.0) -> Run:
    """Run `nardy ARGS`, send `sig` once the probe `on` = (event, count) has been seen, and collect
    the run.

    The wait is long because from a fresh clone a worker may compile the game loop before its first
    job: CI's two test processes and this run's workers all compiling took more than 240 s.

    SIGINT and SIGHUP go to the whole process group, as a terminal sends them (Ctrl-C, hang-up);
    SIGTERM to the main process only, as `kill PID` does.
    """
    event, count = on
    proc = subprocess.Popen([sys.executable, PROBE, *args], cwd=ROOT, env=subprocess_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=default_signals)
    err = b""
    seen = 0
    deadline = time.monotonic() + timeout
    try:
        while seen < count and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stderr], [], [], 0.5)
            if ready:
                chunk = os.read(proc.stderr.fileno(), 65536)
                if not chunk:
                    break
                seen = (err + chunk).decode(errors="replace").count(f"probe: {event}\n")
                err += chunk
        assert seen >= count, (f"never saw {count} x 'probe: {event}': "
                               f"{err.decode(errors='replace')[-1500:]}")
        if sig == signal.SIGTERM:
            proc.send_signal(sig)
        else:
            os.killpg(proc.pid, sig)
        proc.wait(timeout=timeout)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        # workers left behind would hold the pipes open: stop them first
        left = group_members(proc.pid)
        for line in left:
            os.kill(int(line.split()[0]), signal.SIGKILL)
        out, rest = proc.communicate(timeout=timeout)
    return Run(proc.returncode, out.decode(), (err + rest).decode(errors="replace"), left)


def check_clean(run: Run) -> None:
    """Exit 130, no traceback, nothing left running."""
    assert run.code == 130, (run.code, run.err[-2000:])
    assert "Traceback" not in run.err, run.err[-3000:]
    assert not run.left, f"left running: {run.left}"


def check_nothing(run: Run, out_dir: Path | None) -> None:
    """Interrupted before any game finished: one line, empty stdout, no folder."""
    check_clean(run)
    assert run.out == ""
    # a fresh clone's first compile announces itself first (COMPILING): not part of the answer
    assert [line for line in run.err.splitlines()
            if not line.startswith("probe: ") and line != COMPILING] == [NOTHING_FINISHED]
    if out_dir is not None:
        assert not out_dir.exists() and not Path(f"{out_dir}-interrupted").exists()


def check_marked(run: Run, out_dir: Path | None, marker: str = "results.json") -> dict | None:
    """Interrupted after some games: marked output, the report in DIR-interrupted; its data."""
    check_clean(run)
    assert "INTERRUPTED" in run.out, run.out[-2000:]
    if out_dir is None:
        return None
    folder = Path(f"{out_dir}-interrupted")
    assert (not out_dir.exists()
            and folder.is_dir()), sorted(p.name for p in out_dir.parent.iterdir())
    return json.loads((folder / marker).read_text())


def output_args(out_dir: Path | None) -> list[str]:
    return ["--output", str(out_dir)] if out_dir is not None else []


# (early arguments: a slow policy, so no job ends before the signal), (late arguments: the fastest
# policy), the probe the late signal waits for: a rollout's first counted job, or the start of a
# second round/position
FAMILIES = {
    "rollout": (["rollout", "start", "--policy", "neural", "--games", MANY],
                ["rollout", "start", "--policy", "random", "--games", MANY], ("job", 1)),
    "analyze": (["analyze", POS, "--no-staged", "--policy", "neural", "--games", MANY],
                ["analyze", POS, "--top", "2", "--policy", "random", "--games", MANY], ("run", 2)),
    "analyze --staged": (["analyze", POS, "--staged", "--policy", "neural", "--games", MANY],
                         ["analyze", POS, "--staged", "--filter", "top2,top2", "--policy", "random",
                          "--games", MANY], ("run", 2)),
    "openings": (["openings", "--rolls", "65,64", "--policy", "neural", "--games", MANY],
                 ["openings", "--rolls", "65", "--top", "2", "--policy", "random", "--games", MANY],
                 ("run", 2)),
    "batch": (["batch", "positions/study.txt", "--policy", "neural", "--games", MANY],
              ["batch", "positions/study.txt", "--policy", "random", "--games", "1296"],
              ("run", 2)),
}
SIGNALS = {"rollout": signal.SIGTERM, "analyze": signal.SIGINT, "analyze --staged": signal.SIGTERM,
           "openings": signal.SIGINT, "batch": signal.SIGHUP}


@pytest.mark.parametrize("with_output", [False, True], ids=["stdout", "output"])
@pytest.mark.parametrize("family", list(FAMILIES))
def test_interrupted_before_any_game_finished_says_so_in_one_line(family, with_output, tmp_path):
    """Catches a table of `nan` and a chart traceback (rollout), exit 2 (`analyze --staged`), exit 0
    or a folder written for nothing, and workers left alive after SIGTERM/SIGHUP to the main
    process."""
    out_dir = tmp_path / "rep" if with_output else None
    run = interrupt(FAMILIES[family][0] + ["--workers", "2"] + output_args(out_dir), ("submit", 2),
                    SIGNALS[family])
    check_nothing(run, out_dir)


# late runs print the same table with or without --output (the folder is written after it), so each
# family runs once with --output and `rollout` once without as well: the suite stays fast
@pytest.mark.parametrize("family, with_output",
                         [(f, True) for f in FAMILIES] + [("rollout", False)],
                         ids=[f"{f}-output" for f in FAMILIES] + ["rollout-stdout"])
def test_interrupted_late_reports_what_finished_marked(family, with_output, tmp_path):
    """Catches an interrupted run that exits 0, prints an unmarked table, writes DIR instead of
    DIR-interrupted, has no `interrupted` flag in results.json, or whose report names the games
    asked for (10,000 per play) instead of the games played."""
    _, late, on = FAMILIES[family]
    out_dir = tmp_path / "rep" if with_output else None
    run = interrupt(late + ["--workers", "2"] + output_args(out_dir), on, SIGNALS[family])
    data = check_marked(run, out_dir)
    if data is None:
        return
    assert data["interrupted"] is True
    report = Path(f"{out_dir}-interrupted", "report.md").read_text()
    assert "**interrupted**" in report
    played = [r.get("games") for r in data["results"]] + [p["games"] for r in data["results"]
                                                         for p in r.get("plays", [])
                                                          + r.get("rows", [])]
    top = max(g for g in played if g)
    assert 0 < top < int(MANY)
    if family != "batch":       # a batch is cut short in positions, not in games per position
        assert f" · {top:,} games" in report and f"(interrupted; {int(MANY):,} asked for)" in report


@pytest.mark.parametrize("when, sig", [("early", signal.SIGTERM), ("late", signal.SIGINT)],
                         ids=["early", "late"])
def test_interrupted_duel_is_marked_and_stops_its_workers(when, sig):
    """Catches a duel that exits 0 with an unmarked result, or leaves its workers running after
    SIGTERM (`duel` has no --output)."""
    pair = ["neural", "heuristic"] if when == "early" else ["random", "racer"]
    run = interrupt(["duel", *pair, "--games", MANY, "--workers", "2"],
                    ("submit", 2) if when == "early" else ("job", 1), sig)
    if when == "early":
        check_nothing(run, None)
    else:
        check_marked(run, None)


@pytest.mark.parametrize("when, with_output", [("early", False), ("late", True)],
                         ids=["early-stdout", "late-output"])
def test_interrupted_review_rollouts_keep_what_finished(when, with_output, tmp_path):
    """Catches a review whose Ctrl-C only cut one rollout short and went on to the next candidate,
    an unmarked review table, exit 0, or a report folder that replaces a complete review."""
    out_dir = tmp_path / "rev" if with_output else None
    # a decision re-scores at most 5 candidates (the top 3, the played and the best result), one run
    # each
    games, policy, on = ((MANY, "neural", ("submit", 2)) if when == "early"
                         else ("216", "heuristic", ("run", 6)))
    run = interrupt(["review", "games/bot-game.txt", "--evaluator", "heuristic", "--rollout", games,
                     "--rollout-policy", policy, "--workers", "2", "--format", "table"]
                    + output_args(out_dir), on, signal.SIGTERM)
    data = check_marked(run, out_dir, "review.json")
    rescored = run.out.count(f"rollout {games}")
    assert (rescored == 0) if when == "early" else (rescored >= 1), run.out
    if data is not None:
        assert data["params"]["interrupted"] is True
        assert "**interrupted**" in Path(f"{out_dir}-interrupted", "report.md").read_text()


@pytest.mark.parametrize("when", ["early", "late"])
def test_interrupted_training_saves_its_checkpoint_and_exits_130(when, tmp_path):
    """(`train` always has its --output folder.)  Catches `nardy train` ending with exit 0 on
    SIGTERM (as if it had finished) or losing the games trained since the last checkpoint on
    Ctrl-C."""
    out_dir = tmp_path / "train"
    run = interrupt(["train", "--games", MANY, "--output", str(out_dir), "--hidden", "8", "--chunk",
                     "50", "--checkpoint-every", "1000000", "--bench-every", "1000000", "--quiet"],
                    ("chunk", 1 if when == "early" else 3),
                    signal.SIGINT if when == "early" else signal.SIGTERM)
    check_clean(run)
    from nardy_cli.policies.network import load_network
    trained = load_network(out_dir / "checkpoint.npz").meta["games_trained"]
    # whole chunks, none lost
    assert trained % 50 == 0 and trained >= (50 if when == "early" else 150)
    assert run.out == (f"INTERRUPTED: trained {trained:,} of {int(MANY):,} games; weights in "
                       f"{out_dir / 'checkpoint.npz'}; run the same command to resume\n")


def test_interrupted_match_duel_is_marked_and_exits_130():
    """Catches `duel --match` that said "(INTERRUPTED)" but exited 0 after SIGTERM, or left workers
    running."""
    run = interrupt(["duel", "random", "racer", "--match", "3", "--matches", MANY, "--workers",
                     "2"], ("job", 1),
                    signal.SIGTERM)
    check_marked(run, None)


def test_interrupted_met_measure_is_marked_and_saves_nothing(tmp_path):
    """Catches `met --measure` that printed a table from a fraction of the games, unmarked, with
    exit 0, and wrote the partial distribution to --save."""
    save = tmp_path / "dist.json"
    run = interrupt(["met", "--length", "3", "--measure", "--policy", "random", "--games", MANY,
                     "--workers", "2", "--save", str(save)], ("job", 1), signal.SIGTERM)
    check_marked(run, None)
    assert not save.exists()
    assert "was not written" in run.err
