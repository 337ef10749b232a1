"""Counts and seeds at their limits (issue 50): a huge `--games` is one `Error:` line or a run in
constant memory, never a process that fills the machine; a seed out of range is one `Error:` line,
never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc

import pytest
from click.testing import CliRunner

from nardy_cli.analysis.rollout import rollout
from nardy_cli.commands.cli import cli
from nardy_cli.core.errors import ArgumentError, RunConfigError
from nardy_cli.core.limits import MAX_GAMES, MAX_KEPT_GAMES
from nardy_cli.core.position import START
from nardy_cli.games import CHUNK, RunConfig, chunks
from tests.cases import ROOT, subprocess_env
from tests.test_cli_signals import _interrupt

HUGE = "99999999999999999999"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_a_huge_games_is_one_error_line():
    """Catches issue 50's `rollout start --games 99999999999999999999`: accepted, it built a list of
    every chunk before the first game and grew to 24 GB; Ctrl-C then printed a bare `Aborted.`."""
    proc = subprocess.run([sys.executable, "-m", "nardy_cli", "rollout", "start", "--games", HUGE,
                           "-q", "--workers", "1"], cwd=ROOT, env=subprocess_env(),
                          capture_output=True, text=True, timeout=120)   # a hang is a failure too
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (f"Error: --games must be at most 1,000,000,000 (one run's limit), got "
                           f"{HUGE}\n")


@pytest.mark.parametrize("args, option, top", [
    (["duel", "heuristic", "random", "--match", "5", "--matches", HUGE], "--matches",
     MAX_KEPT_GAMES),
    (["play", "random", "random", "--games", HUGE], "--games' / '-n", MAX_KEPT_GAMES),
    (["book", "build", "--games", HUGE], "--games", MAX_KEPT_GAMES),
    (["book", "build", "--exchange-games", HUGE], "--exchange-games", MAX_KEPT_GAMES),
    (["openings", "--replies", "--reply-games", HUGE], "--reply-games", MAX_KEPT_GAMES),
    (["review", "games/bot-game.txt", "--rollout", HUGE], "--rollout", MAX_KEPT_GAMES),
    (["benchmark", "build", "--positions", HUGE], "--positions",
     MAX_KEPT_GAMES),
    (["met", "--measure", "--games", HUGE], "--games", MAX_GAMES),
    (["train", "--output", "x", "--games", HUGE], "--games", MAX_GAMES),
])
def test_every_other_count_option_has_a_ceiling(args, option, top):
    """Catches a count option of another command left unbounded (each one played or kept its
    figures for every game or match asked for)."""
    out = run(*args)
    assert out.exit_code == 2, out.output
    assert out.output.startswith(f"Error: Invalid value for '{option}': {HUGE} is not in the "
                                 f"range ")
    assert f"<={top}." in out.output and out.output.count("\n") == 1


def test_an_analysis_that_keeps_each_game_stops_at_a_million():
    """Catches `analyze` (each game's result kept for every play: 1 byte a game and play) taking a
    billion games a play, as `rollout` (counts only) may."""
    out = run("analyze", "W:1x13,8,12 B:1x13,6,11 w 4-2", "--games", str(MAX_KEPT_GAMES + 1),
              "-q", "--workers", "1", "--policy", "random")
    assert out.exit_code == 2
    assert out.output == ("Error: --games must be at most 1,000,000 in a run that keeps every "
                          "game's result, got 1000001\n")


def test_the_library_refuses_a_run_over_the_limit():
    """Catches the limit kept only by the command line: `RunConfig` is what every analysis takes."""
    with pytest.raises(RunConfigError, match="at most 1,000,000,000"):
        RunConfig(games=MAX_GAMES + 1)
    from nardy_cli.analysis.analyze import rank_plays
    from nardy_cli.analysis.staged import staged_rank
    for rank in (rank_plays, staged_rank):
        with pytest.raises(ArgumentError, match="at most 1,000,000 in a run that keeps"):
            rank(START, "3-1", "random", games=MAX_KEPT_GAMES + 1)


def test_chunks_are_made_as_they_are_asked_for():
    """Catches the game ranges built as a list (a billion games: 770,000 tuples before the first
    game): `chunks` is a sequence of constant size that still reads like the list it was."""
    tracemalloc.start()
    ranges = chunks(MAX_GAMES)
    assert len(ranges) == -(-MAX_GAMES // CHUNK)
    assert ranges[0] == (0, CHUNK) and ranges[-1] == (MAX_GAMES - MAX_GAMES % CHUNK, MAX_GAMES)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 100_000
    assert list(chunks(3000)) == [(0, 1296), (1296, 2592), (2592, 3000)] == chunks(3000)


def test_a_billion_game_rollout_starts_at_once_in_constant_memory():
    """Catches a rollout that makes (or pickles) every job before the first game: with a billion
    games that took about 1 GB and a minute.  Stopped after its first report (as Ctrl-C would), it
    returns the finished games marked interrupted."""
    reports = []

    def stop_after_one(partial):
        reports.append(partial.games)
        raise KeyboardInterrupt

    tracemalloc.start()
    result = rollout(START, "random", games=MAX_GAMES, workers=1, progress=stop_after_one)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert result.interrupted and result.games == CHUNK == reports[0]
    assert peak < 20_000_000, f"peak {peak:,} bytes"


def test_a_long_rollouts_trace_stays_short(monkeypatch):
    """Catches a convergence trace of one point per 1,296 games (a billion games: 770,000 points):
    past MAX_TRACE points it keeps every other one, evenly spaced, and always the last."""
    import nardy_cli.analysis.rollout as module
    monkeypatch.setattr(module, "MAX_TRACE", 4)
    result = rollout(START, "random", games=CHUNK * 11 + 100, workers=1)
    games = [t[0] for t in result.trace]
    assert games == [4 * CHUNK, 8 * CHUNK, result.games]


def test_ctrl_c_in_a_billion_game_rollout_reports_what_finished():
    """Catches issue 50's bare `Aborted.` after Ctrl-C in a huge rollout: the games finished are
    printed, marked interrupted, exit code 130."""
    code, out, seen = _interrupt(["rollout", "start", "--games", str(MAX_GAMES), "--seed", "1",
                                  "--policy", "random", "--workers", "1", "--format", "json"])
    assert code == 130, seen[-2000:]
    data = json.loads(out)
    assert data["interrupted"] is True and 0 < data["games"] < MAX_GAMES
    assert "Aborted" not in seen and "Traceback" not in seen


@pytest.mark.parametrize("args", [
    ["library", "stats", "--seed", "-1"],
    ["library", "progress", "--seed", "-1"],
    ["play", "heuristic", "racer", "--seed", "-1"],
    ["play", "heuristic", "racer", "--seed", "12345678901234567890123"],
    ["review", "games/bot-game.txt", "--seed", "-1"],
    ["train", "--output", "x", "--games", "10", "--seed", "-1"],
])
def test_a_seed_out_of_range_is_one_error_line(args):
    """Catches issue 50's tracebacks: `library stats --seed -1` (numpy's ValueError) and `play
    --seed -1` or a 23-digit seed (OverflowError); every seed option takes 0..2**63-1."""
    out = run(*args)
    assert out.exit_code == 2
    command = " ".join(args[:2] if args[0] == "library" else args[:1])
    assert out.output == (f"Error: Invalid value for '--seed': {args[-1]} is not in the range "
                          f"0<=x<=9223372036854775807. (see 'cli {command} --help')\n")


def test_the_library_refuses_a_seed_out_of_range():
    """Catches a seed check kept only by the command line: the library's own functions raise an
    `ArgumentError` naming the seed, not numpy's ValueError or an OverflowError."""
    import pandas as pd

    from nardy_cli.games.selfplay import play_game
    from nardy_cli.library.stats import rate
    for call in (lambda: play_game("heuristic", "racer", seed=-1),
                 lambda: play_game("heuristic", "racer", seed=2**80),
                 lambda: rate(pd.DataFrame(), pd.DataFrame(), seed=-1)):
        with pytest.raises(ArgumentError, match=r"seed must be between 0 and 2\*\*63-1"):
            call()


def test_a_failure_after_ctrl_c_is_the_interrupt_not_a_traceback():
    """Catches issue 50's 290-line traceback after Ctrl-C in the first compile of `book build`:
    numba's compiler swallows the KeyboardInterrupt in a ctypes callback and fails later with
    `RuntimeError: no compiled object yet`; a failure after an interrupt is the interrupt (one line,
    exit code 130), and a Ctrl-C where the command keeps nothing is one line too, never `Aborted.`.
    """
    import signal

    import click

    from nardy_cli.commands.common import handle_errors
    from nardy_cli.core import interrupts

    @click.command()
    @click.option("--swallowed", is_flag=True)
    @click.option("--broken", is_flag=True)
    @handle_errors
    def probe(swallowed, broken):
        if not (swallowed or broken):
            raise KeyboardInterrupt
        try:
            if swallowed:
                interrupts._raise_interrupt(signal.SIGINT, None)   # what the signal handler does
        except KeyboardInterrupt:
            pass                                                   # what numba's callback does
        raise RuntimeError("no compiled object yet for <Library 'scores_of_turn'>")

    try:
        for args in ([], ["--swallowed"]):
            out = CliRunner().invoke(probe, args)
            assert (out.exit_code, out.output) == (
                130, "Interrupted before the command finished: nothing more to report.\n")
    finally:
        interrupts._received.clear()
    out = CliRunner().invoke(probe, ["--broken"])       # no interrupt came: a real failure
    assert isinstance(out.exception, RuntimeError)


def test_a_command_that_ran_on_after_a_swallowed_signal_exits_130():
    """Catches the last session's `nardy review games/bot-match.txt --output DIR` that a SIGTERM
    landing while matplotlib drew a board did not stop: the library swallowed the
    KeyboardInterrupt, the command wrote its whole report and exited 0, as if nobody had asked
    it to stop.  It exits 130 now, saying that what it wrote is complete; a command no signal
    reached still exits 0."""
    import signal

    import click

    from nardy_cli.commands.common import handle_errors
    from nardy_cli.core import interrupts

    @click.command()
    @click.option("--signalled", is_flag=True)
    @handle_errors
    def probe(signalled):
        if signalled:
            try:
                interrupts._raise_interrupt(signal.SIGTERM, None)   # what the signal handler does
            except KeyboardInterrupt:
                pass                                                # what the library did
        click.echo("report written")

    try:
        out = CliRunner().invoke(probe, ["--signalled"])
        assert (out.exit_code, out.output) == (
            130, "report written\n"
                 "Interrupted as the command finished: what it wrote is complete.\n")
    finally:
        interrupts._received.clear()
    out = CliRunner().invoke(probe, [])
    assert (out.exit_code, out.output) == (0, "report written\n")


def test_an_interrupted_cube_rollout_at_a_match_score_says_so(monkeypatch):
    """Catches issue 50's `rollout ... --match 7 --score 4-5 --cube-owner centre` stopped by Ctrl-C:
    partial figures and a "rolled-out decision", exit 130, with no INTERRUPTED."""
    from nardy_cli.commands import rollout_cmd

    class StopAfterOne(rollout_cmd.Progress):
        def update(self, *args, **kwargs):
            raise KeyboardInterrupt

    monkeypatch.setattr(rollout_cmd, "Progress", StopAfterOne)
    out = run("rollout", "W:1x14,12 B:1x15 b", "--match", "7", "--score", "4-5", "--cube-owner",
              "centre", "--games", "12960", "-q", "--policy", "heuristic")
    assert out.exit_code == 130
    lines = out.output.splitlines()
    assert "108 games a branch" in lines[1]
    assert lines[-2].startswith("  decision so far (INTERRUPTED): ")
    assert lines[-1] == ("INTERRUPTED: these figures (108 of 12,960 games a branch) cover only the "
                         "games finished before the run was stopped.")
    assert "rolled-out decision" not in out.output
    data = run("rollout", "W:1x14,12 B:1x15 b", "--match", "7", "--score", "4-5", "--cube-owner",
               "centre", "--games", "12960", "-q", "--policy", "heuristic", "--format", "csv")
    assert data.exit_code == 130 and "interrupted" in data.output.splitlines()[0]


def test_a_cube_rollout_at_a_match_score_keeps_a_million_games_at_most():
    """Catches the match cube rollout (each game's value kept in both branches: 32 bytes a game)
    taking a billion games."""
    out = run("rollout", "W:1x14,12 B:1x15 b", "--match", "7", "--score", "4-5", "--cube-owner",
              "centre", "--games", str(MAX_GAMES), "-q")
    assert out.exit_code == 2
    assert out.output == ("Error: --games must be at most 1,000,000 in a run that keeps every "
                          "game's result, got 1000000000\n")


def test_duel_refuses_games_with_match_and_does_not_offer_until_se():
    """Catches issue 50's `duel neural heuristic --match 5 --cube --games 100`: --games ignored and
    200 pairs of matches played; and `--until-se`, listed in `duel --help`, always refused."""
    out = run("duel", "neural", "heuristic", "--match", "5", "--cube", "--games", "100")
    assert (out.exit_code, out.output) == (2, "Error: --games counts money games: with --match, "
                                              "--matches counts the pairs of matches\n")
    assert "--until-se" not in run("duel", "--help").output
    out = run("duel", "neural", "heuristic", "--until-se", "0.1")
    assert out.exit_code == 2 and out.output.startswith("Error: No such option '--until-se'.")


def test_a_folder_where_a_file_goes_is_bad_input(tmp_path):
    """Catches issue 50's `book show --book FOLDER` and `library export --output EXISTING_FOLDER`
    exiting 1 (a runtime failure) for what is bad input: one `Error:` line, exit code 2."""
    from nardy_cli.library.store import Library
    Library(tmp_path / "lib.sqlite", create=True).close()
    out = run("library", "export", "--output", str(tmp_path), "--db", str(tmp_path / "lib.sqlite"))
    assert (out.exit_code, out.output) == (2, f"Error: {str(tmp_path)!r} is a folder: give a file "
                                              "name\n")
    out = run("book", "show", "--book", str(tmp_path))
    assert (out.exit_code, out.output) == (2, f"Error: {str(tmp_path)!r} is a folder, not an "
                                              "opening book file (.jsonl.gz)\n")
