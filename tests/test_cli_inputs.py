"""Bad input the way a new user types it: every case is one `Error: ...` line and the right exit
code."""

from __future__ import annotations

import contextlib
import os
import subprocess

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli

NOT_UTF8 = b"\xff\xfe6-5: 1/12\x80\n"


def run(*args, **kw):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, **kw)


@pytest.mark.parametrize("command, message", [
    (["review"], "Error: game record '{f}' is not UTF-8 text (byte 1)\n"),
    (["batch"], "Error: positions file '{f}' is not UTF-8 text (byte 1)"),
    (["show"],
     "Error: Invalid value for 'POSITION...': positions file '{f}' is not UTF-8 text (byte 1)"),
    (["moves"],
     "Error: Invalid value for 'POSITION...': positions file '{f}' is not UTF-8 text (byte 1)"),
])
def test_a_file_that_is_not_utf8_is_one_line(tmp_path, command, message):
    """Catches a UnicodeDecodeError traceback from a game record or positions file in another
    encoding."""
    f = tmp_path / "binary.txt"
    f.write_bytes(NOT_UTF8)
    out = run(*command, str(f))
    assert out.exit_code == 2
    assert out.output.startswith(message.format(f=f)) and out.output.count("\n") == 1, out.output


def test_standard_input_that_is_not_utf8_is_one_line():
    """Catches `nardy review -` quoting undecodable bytes as if they were a misspelt roll."""
    out = run("review", "-", input=NOT_UTF8)
    assert out.exit_code == 2 and out.output == "Error: standard input is not UTF-8 text (byte 1)\n"


def test_train_on_a_place_that_cannot_be_written_fails_before_training(tmp_path):
    """Catches `nardy train --output` under a file (or on a read-only file system) as an OSError
    traceback."""
    (tmp_path / "notes.txt").write_text("x")
    out = run("train", "--games", "10", "--output", str(tmp_path / "notes.txt" / "run"))
    assert out.exit_code == 2
    assert out.output == (f"Error: cannot write to folder '{tmp_path}/notes.txt/run': "
                          f"'{tmp_path}/notes.txt' is a file\n")


def test_a_write_that_fails_while_training_is_one_line_exit_1(tmp_path, monkeypatch):
    """Catches a runtime OSError (read-only file system, disk full) shown as a traceback, or as exit
    2 (bad input) although the command line was right."""
    import errno

    from nardy_cli.training import trainer

    def read_only(net, path):
        raise OSError(errno.EROFS, "Read-only file system", str(path))
    monkeypatch.setattr(trainer, "save_network", read_only)
    out = CliRunner().invoke(cli, ["train", "--games", "10", "--output", str(tmp_path / "run"),
                                   "--hidden", "8", "--chunk", "10", "--checkpoint-every", "10",
                                   "--bench-every", "10", "--quiet"])
    assert out.exit_code == 1
    assert out.output == f"Error: '{tmp_path}/run/best.npz': Read-only file system\n"


@pytest.mark.parametrize("command", [["rollout", "start", "--games", "10", "--luck-network"],
                                     ["train", "--games", "10", "--output", "{tmp}/run", "--init"],
                                     ["train", "--games", "10", "--output", "{tmp}/run",
                                      "--player"]])
def test_a_network_option_given_a_text_file_says_it_is_not_a_network(tmp_path, command):
    """Catches numpy's 'allow_pickle' message shown for a text file given where a network file
    belongs."""
    f = tmp_path / "notes.txt"
    f.write_text("hello\n")
    out = run(*[a.format(tmp=tmp_path) for a in command], str(f))
    assert out.exit_code == 2
    assert out.output == (f"Error: '{f}' is not a nardy network (an .npz file that `nardy "
                          "train` writes)\n")


def test_play_checks_its_output_folder_before_playing(tmp_path, monkeypatch):
    """Catches `nardy play --output` playing every game before finding that the folder cannot be
    written."""
    from nardy_cli.games import selfplay
    monkeypatch.setattr(selfplay, "play_games", lambda *a,
                        **k: pytest.fail("played before checking --output"))
    (tmp_path / "notes.txt").write_text("x")
    out = run("play", "random", "random", "--output", str(tmp_path / "notes.txt" / "games"))
    assert out.exit_code == 2
    assert out.output == (f"Error: cannot write to output directory '{tmp_path}/notes.txt/games': "
                          f"'{tmp_path}/notes.txt' is a file\n")


@contextlib.contextmanager
def read_only(folder):
    """`folder` made unwritable for this user: mode 555, or for root (who writes anyway) the
    immutable flag."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("root writes into any folder and chattr +i is not available here")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_an_existing_folder_that_cannot_be_written_is_found_before_the_work(tmp_path, monkeypatch):
    """Catches `--output` naming an existing read-only report folder: found only after every game
    was played, when the old report could not be replaced."""
    from nardy_cli.analysis import rollout
    monkeypatch.setattr(rollout, "rollout", lambda *a,
                        **k: pytest.fail("rolled out before checking --output"))
    folder = tmp_path / "report"
    folder.mkdir()
    (folder / "results.json").write_text("{}")
    with read_only(folder):
        out = run("rollout", "start", "--games", "10", "--output", str(folder))
    assert out.exit_code == 1     # a runtime failure (issue 26): not bad input
    assert out.output.startswith(f"Error: cannot write to output directory '{folder}': ")
    assert out.output.count("\n") == 1, out.output


def test_chart_of_results_it_cannot_draw_says_so(tmp_path):
    """Catches `nardy chart x.json --list` printing an empty line with exit 0 for results of a kind
    it has no chart for."""
    f = tmp_path / "x.json"
    f.write_text('{"kind": "deficit", "results": []}')
    out = run("chart", str(f), "--list")
    assert out.exit_code == 2
    assert out.output == (f"Error: '{f}' holds 'deficit' results, of which nardy chart "
                          "draws no chart "
                          "(it draws rollout, batch, analyze and openings results)\n")


def test_a_device_is_read_as_a_positions_file_not_a_misspelt_name():
    """Catches `nardy show /dev/null` answering "no such positions file; did you mean
    '/dev/stdout'?"."""
    out = run("show", "/dev/null")
    assert out.exit_code == 2
    assert out.output == ("Error: Invalid value for 'POSITION...': positions file '/dev/null' "
                          "holds no position (see 'cli show --help')\n")


def test_reviewing_an_empty_game_record_is_one_error():
    """Catches `nardy review /dev/null` printing two empty tables ("(nothing)" twice) with exit
    0."""
    out = run("review", "/dev/null")
    assert out.exit_code == 2
    assert out.output == ("Error: the game record in '/dev/null' is empty (no plies): "
                          "nothing to review\n")


def test_play_rejects_a_date_that_is_no_day_and_writes_dots():
    """Catches `nardy play --date 2026-13-45` written into every record's Date tag."""
    out = run("play", "random", "random", "--date", "2026-13-45")
    assert out.exit_code == 2
    assert out.output == ("Error: --date: bad date '2026-13-45': "
                          "expected a real day as YYYY.MM.DD, e.g. 2026.11.29, or '?'\n")
    out = run("play", "random", "random", "--date", "2026-11-05")
    assert out.exit_code == 0 and '[Date "2026.11.05"]\n' in out.output


def _records():
    return __import__("nardy_cli.records.game_record", fromlist=["x"])


@pytest.mark.parametrize("parse", [
    lambda: __import__("nardy_cli").parse_position("W:\uff11x15 B:1x15 w"),
    lambda: __import__("nardy_cli").parse_position("W:1x15 B:1x15 w \uff16-\uff15"),
    lambda: __import__("nardy_cli").parse_dice("\uff16-5"),
    lambda: __import__("nardy_cli").parse_play(__import__("nardy_cli").START, "\uff11/12", "6-5"),
    lambda: _records().parse_game("1. \uff16-\uff15: 1/12"),
    lambda: _records().parse_game("1. 6-5: \uff11/12"),
    lambda: _records().parse_date_tag("\uff12026.11.05"),
    lambda: __import__("nardy_cli").make_rules(points="oin=\uff11"),
])
def test_digits_of_other_scripts_are_not_notation(parse):
    """Catches fullwidth digits ('\uff11', which Python's \\d, int() and float() accept) read as
    points, dice, steps, move numbers, dates or points-table values."""
    from nardy_cli.core.errors import NotationError, RulesError
    with pytest.raises((NotationError, RulesError)):
        parse()


@pytest.mark.parametrize("existed, message", [
    (True,
     "Warning: the run was interrupted, so its report went to {d}-interrupted; "
     "{d} was left as it was\n"),
    (False, "Warning: the run was interrupted, so its report went to {d}-interrupted\n"),
])
def test_an_interrupted_report_says_dir_was_left_only_when_it_existed(tmp_path, monkeypatch,
                                                                      existed, message):
    """Catches "DIR was left as it was" said of a folder that never existed."""
    import click

    from nardy_cli.reports import folder as report_folder
    from nardy_cli.commands.report_options import finish_report
    folder = tmp_path / "rep"
    if existed:
        folder.mkdir()
    monkeypatch.setattr(report_folder, "write_report", lambda data, output, render, **k:
                        report_folder.interrupted_path(__import__("pathlib").Path(output)))
    lines = []
    monkeypatch.setattr(click, "echo", lambda text, err=False: lines.append(text + "\n"))
    finish_report({}, str(folder), False, False, False)
    assert lines[0] == message.format(d=folder)


def test_duel_names_the_position_it_starts_from():
    """Catches `nardy duel --position P` reporting as if the games had started from the start
    position."""
    out = run("duel", "random", "random", "--games", "2", "--position", "W:1x14,12 B:1x15 b",
              "--workers", "1", "--quiet")
    assert out.exit_code == 0
    assert out.output.splitlines()[0] == ("random vs random: 2 games from 'W:1x14,12 B:1x15 b' "
                                          "with duplicate dice, seed 20261129, federation rules")


@pytest.mark.parametrize("command", [["rollout", "start", "--games", "10", "--quiet"],
                                     ["eval", "start"], ["met", "--length", "3"]])
@pytest.mark.parametrize("points, message", [
    ("koks=-1", "points for koks must be a finite number from 0 to 1,000, got -1"),
    ("oin=nan", "points for oin must be a finite number from 0 to 1,000, got nan"),
    ("koks=inf", "points for koks must be a finite number from 0 to 1,000, got inf"),
    ("koks=1e308", "points for koks must be a finite number from 0 to 1,000, got 1e+308"),
    ("mars=3", "points must be ordered oin <= mars <= home-mars <= koks (docs/rules.md §7), "
               "got mars=3 above home-mars=2"),
    ("oin=3", "points must be ordered oin <= mars <= home-mars <= koks (docs/rules.md §7), "
              "got oin=3 above mars=2"),
])
def test_points_are_finite_non_negative_and_ordered(command, points, message):
    """Catches `--points koks=1e308` (a rollout printing an equity of 1e308), negative, nan or inf
    points, or a table in which an oin scores more than a mars, accepted by any command."""
    out = run(*command, "--points", points)
    assert out.exit_code == 2
    assert out.output == f"Error: {message}\n"


def test_points_are_checked_wherever_they_are_made():
    """Catches a Points value built in the library (not through --points) with a negative or
    unordered table: every caller gets the one check."""
    from nardy_cli.core.errors import RulesError
    from nardy_cli.core.rules import Points
    for bad in [dict(oin=-1), dict(koks=float("nan")), dict(oin=2, mars=1), dict(koks=True)]:
        with pytest.raises(RulesError):
            Points(**bad)
    assert Points(0, 0, 0, 0).as_tuple() == (0, 0, 0, 0)
    assert Points(1, 3, 2, 4).as_tuple() == (1, 3, 2, 4)


_SAVED: dict[str, str] = {}


def _saved(tmp_path_factory, kind):
    """A small report's results.json of `kind` (rollout or analyze), as data (a fresh copy; the
    report is written once per test process)."""
    import json
    if kind not in _SAVED:
        args = (["rollout", "start"] if kind == "rollout"
                else ["analyze", "W:1x13,7,12 B:1x14,7 w", "--dice", "4-2", "--top", "2"])
        folder = tmp_path_factory.mktemp(kind) / "report"
        out = run(*args, "--games", "36", "--policy", "racer", "--workers", "1", "-q",
                  "--output", str(folder))
        assert out.exit_code == 0, out.output
        _SAVED[kind] = (folder / "results.json").read_text()
    return json.loads(_SAVED[kind])


@pytest.mark.parametrize("kind, chart, change, message", [
    ("rollout", "outcomes", lambda d: d["results"][0].pop("probabilities"),
     "the outcomes chart of rollout results needs results[0].probabilities, which the file lacks"),
    ("rollout", "outcomes", lambda d: d["results"][0]["se"].pop("draw"),
     "the outcomes chart of rollout results needs results[0].se.draw, which the file lacks"),
    ("rollout", "convergence", lambda d: d.pop("traces"),
     "the convergence chart of rollout results needs traces, which the file lacks"),
    ("rollout", "outcomes", lambda d: d.update(kind="analyze"),
     "the outcomes chart of analyze results needs results[0].plays, which the file lacks"),
    ("analyze", "ranking", lambda d: d["results"][0]["plays"][0].pop("diff_se"),
     "the ranking chart of analyze results needs results[0].plays[0].diff_se, which the file "
     "lacks"),
    ("analyze", "outcomes", lambda d: d["results"][0]["plays"][0].pop("equity"),
     "the outcomes chart of analyze results needs a field 'equity', which the file lacks"),
    ("rollout", "outcomes", lambda d: d["results"][0].update(probabilities="x"),
     "the outcomes chart of rollout results cannot be drawn from this file "
     "(string indices must be integers, not 'str')"),
    ("rollout", "outcomes", lambda d: d.pop("results"),
     "holds no results to draw: 'results' must be a list of objects"),
])
def test_chart_of_malformed_results_names_the_file_and_what_is_missing(tmp_path, tmp_path_factory,
                                                                       kind, chart, change,
                                                                       message):
    """Catches `nardy chart` of a results.json that lacks a key (or holds another kind of
    results) ending in a KeyError traceback instead of one line naming the file and the field."""
    import json
    data = _saved(tmp_path_factory, kind)
    change(data)
    f = tmp_path / "results.json"
    f.write_text(json.dumps(data))
    out = run("chart", str(f), "--kind", chart, "-o", str(tmp_path / "c.png"))
    assert out.exit_code == 2
    sep = " " if message.startswith("holds") else ": "
    assert out.output == f"Error: '{f}'{sep}{message}\n"
    assert not (tmp_path / "c.png").exists()


@pytest.mark.parametrize("args, message", [
    (["openings", "--rolls", "65", "--reply-games", "100"], "--reply-games needs --replies"),
    (["met", "--length", "3", "--games", "100"], "--games needs --measure"),
    (["met", "--length", "3", "--policy", "heuristic"], "--policy needs --measure"),
    (["met", "--length", "3", "--seed", "3"], "--seed needs --measure"),
    (["met", "--length", "3", "--workers", "1"], "--workers needs --measure"),
    (["met", "--length", "3", "--save", "x.json"], "--save needs --measure"),
    (["duel", "racer", "random", "--matches", "3"], "--matches needs --match N (whole matches)"),
    (["rollout", "start", "--next-white", "loser"],
     "--next-white needs --match N (the match length)"),
    (["analyze", "start", "--dice", "6-5", "--draw-points", "1"],
     "--draw-points needs --match N (the match length)"),
    (["eval", "start", "--score", "1-1"], "--score needs --match N (the match length)"),
    (["review", "games/bot-game.txt", "--rollout-policy", "heuristic"],
     "--rollout-policy needs --rollout N"),
    (["review", "games/bot-game.txt", "--seed", "3"], "--seed needs --rollout N"),
    (["review", "games/bot-game.txt", "--workers", "2"], "--workers needs --rollout N"),
    (["review", "games/bot-game.txt", "--top", "2"], "--top needs --output DIR"),
    (["review", "games/bot-game.txt", "--html"], "--html needs --output DIR"),
    (["play", "racer", "random", "--mat-numbering", "head-1"],
     "--mat-numbering needs --format mat"),
    (["play", "racer", "random", "--draw-points", "1"],
     "--draw-points needs --match N (the match length)"),
    (["train", "--games", "10", "--output", "run", "--start-share", "0.3"],
     "--start-share needs --starts FILE"),
    (["show", "start", "--id", "--numbering", "black"],
     "--id prints the position ID: it takes no -o, --output, --format or --numbering"),
])
def test_an_option_that_means_nothing_without_another_is_refused(args, message, tmp_path,
                                                                 monkeypatch):
    """Catches `nardy openings --reply-games 100` without --replies (or any option that only
    another option gives meaning to: met's measuring options, duel --matches, --next-white and
    --draw-points without --match, review's rollout and report options) silently ignored."""
    monkeypatch.chdir(tmp_path)
    import shutil
    shutil.copytree(os.path.join(os.path.dirname(__file__), "..", "games"), tmp_path / "games")
    out = run(*args)
    assert (out.exit_code, out.output) == (2, f"Error: {message}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games"]
