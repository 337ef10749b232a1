"""The command line of .mat transcripts and position IDs: convert, review and play with .mat, show
--id."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.records.mat_read import parse_mat
from nardy_cli.records.mat_write import format_mat
from nardy_cli.records.match_record import MatchRecord
from nardy_cli.games.selfplay import play_games

from .test_mat import AS_RECORD, TRANSCRIPT

ROOT = Path(__file__).resolve().parent.parent


def run(*args, **kw):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, **kw)


def test_show_id_prints_the_id_and_every_position_argument_reads_it():
    """Catches: `--id` ignored, a positions file's names dropped, or an ID not read as a
    POSITION."""
    out = run("show", "start", "--id")
    assert (out.exit_code, out.output) == (0, "H__AAAA__4AAAA\n")
    out = run("show", str(ROOT / "positions" / "study.txt") + ":reply-to-six-five", "--id")
    assert (out.exit_code, out.output) == (0, "reply-to-six-five: P_+ACAA__4AAAA\n")
    assert run("show", "H__AAAA__4AAAA").output == run("show", "start").output
    moves = run("moves", "P_+ACAA__4AAAA", "--dice", "6-5")
    assert (moves.exit_code == 0
            and moves.output == run("moves", "W:1x14,12 B:1x15 b", "--dice", "6-5").output)


def test_a_corrupted_id_is_exit_2_and_one_line():
    """Catches: a traceback, or an error that does not quote the ID; `--id -o board.png` silently
    drawing nothing."""
    out = CliRunner().invoke(cli, ["show", "P_+ACAA__4AAA"], prog_name="nardy")
    assert out.exit_code == 2
    assert out.output == ("Error: Invalid value for 'POSITION...': "
                          "bad position ID 'P_+ACAA__4AAA': 13 characters, "
                          "expected 14 (see 'nardy show --help')\n")
    out = CliRunner().invoke(cli, ["show", "start", "--id", "-o", "board.png"])
    assert (out.exit_code, out.output) == (2,
                                           "Error: --id prints the position ID: it takes no -o, "
                                           "--output, --format or --numbering\n")


def test_convert_mat_to_records_and_back(tmp_path, monkeypatch):
    """Catches: convert writing the wrong format for a name, or a message that does not say what it
    wrote."""
    monkeypatch.chdir(tmp_path)
    Path("club.mat").write_text(TRANSCRIPT)
    out = CliRunner().invoke(cli, ["convert", "club.mat", "club.txt"])
    assert (out.exit_code, out.output) == (0,
                                           "club.txt: a match to 3 points of 2 games, "
                                           "written as a nardy record\n")
    assert Path("club.txt").read_text() == AS_RECORD
    out = CliRunner().invoke(cli, ["convert", "club.txt", "back.mat"])
    assert (out.exit_code, out.output) == (0,
                                           "back.mat: a match to 3 points of 2 games, "
                                           "written as a .mat transcript\n")
    assert parse_mat(Path("back.mat").read_text()) == parse_mat(TRANSCRIPT)
    out = run("convert", "club.mat", "-")
    assert (out.exit_code, out.output) == (0, AS_RECORD)
    out = run("convert", "-", "-", "--to", "mat", input=AS_RECORD)
    assert out.exit_code == 0 and parse_mat(out.output) == parse_mat(TRANSCRIPT)


def test_convert_bad_input_is_exit_2_one_line_and_writes_nothing(tmp_path, monkeypatch):
    """Catches: a traceback for an illegal move, or a half-written OUT left behind."""
    monkeypatch.chdir(tmp_path)
    Path("club.mat").write_text(TRANSCRIPT.replace("21: 2/0 1/0   ", "21: 2/1       ", 1))
    out = CliRunner().invoke(cli, ["convert", "club.mat", "club.txt"])
    assert out.exit_code == 2
    assert out.output == ("Error: club.mat: game 1, turn 1 (Anna, White) 2-1: "
                          "illegal play '2/1' (line 8)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.mat"]
    Path("cube.mat").write_text(TRANSCRIPT.replace("64: 18/12 12/8", "Doubles => 2"))
    out = CliRunner().invoke(cli, ["convert", "cube.mat", "cube.txt"])
    assert (out.exit_code, out.output) == (2,
                                           "Error: cube.mat: game 2, turn 2 (Anna, Black): "
                                           "'Wins 2 points and the "
                                           "match' while Boris's double to 2 has no answer: "
                                           "write 'Takes' or 'Drops' before it (line 16)\n")


@pytest.mark.parametrize("name", ["An\x07na", "Bo\x1b[2Jris", "An\u202ena"])
def test_a_bad_files_control_characters_are_printed_escaped(tmp_path, monkeypatch, name):
    """Bug caught (issue 41): `nardy convert` of a bad transcript echoing its control characters
    (a bell, an escape sequence that clears the screen, a right-to-left override) raw into the
    terminal within the one `Error:` line."""
    monkeypatch.chdir(tmp_path)
    Path("bad.mat").write_text(TRANSCRIPT.replace("Wins 1 point", "Wins 2 points")
                               .replace("Anna", name).replace("Boris", name[::-1]))
    out = CliRunner().invoke(cli, ["convert", "bad.mat", "bad.txt"])
    assert out.exit_code == 2, out.output
    assert out.output.startswith("Error: bad.mat: game 1: ") and out.output.count("\n") == 1
    assert all(c.isprintable() for c in out.output.rstrip("\n")), repr(out.output)
    assert ascii(name[2])[1:-1] in out.output
    assert not Path("bad.txt").exists()


def test_review_reads_a_mat_transcript_whole_or_one_game(tmp_path, monkeypatch):
    """Catches: review reading nardy records only, reviewing game 1 of a match silently instead of
    the whole match at each game's score, or --game not picking one game."""
    monkeypatch.chdir(tmp_path)
    Path("club.mat").write_text(TRANSCRIPT)
    out = CliRunner().invoke(cli, ["review", "club.mat", "--evaluator", "heuristic"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == ("match to 3: Anna vs Boris, 2 games, final score 3-0, won by Anna; "
                        "evaluator heuristic")
    assert lines[2].startswith("  game 1 at 0-0 (White-Black): Anna (White) vs Boris (Black), "
                               "White wins by oin;")
    assert lines[3].startswith("  game 2 at 0-1 (White-Black): Boris (White) "
                               "vs Anna (Black), resigned:")
    out = run("review", "club.mat", "--game", "2", "--evaluator", "heuristic")
    assert out.exit_code == 0
    assert out.output.splitlines()[0] == ("Boris (White) vs Anna (Black): "
                                          "game not finished, 3 plies; evaluator heuristic")
    single = format_mat(parse_mat(TRANSCRIPT).games[0])
    out = run("review", "-", "--evaluator", "heuristic", input=single)
    assert out.output.splitlines()[0] == ("Anna (White) vs Boris (Black): White wins by oin, "
                                          "2 plies; evaluator heuristic")


def test_play_writes_a_mat_transcript(tmp_path):
    """Catches: `--format mat` ignored with --output, or games written that do not read back."""
    out = run("play", "racer", "random", "-n", "3", "--seed", "4", "--date", "2026.12.01",
              "--format", "mat")
    expected = format_mat(MatchRecord(0, play_games("racer", "random", 3, seed=4,
                                                    date="2026.12.01").records))
    assert (out.exit_code, out.output) == (0, expected)
    out = run("play", "racer", "random", "-n", "3", "--seed", "4", "--date", "2026.12.01",
              "--format", "mat", "--output", str(tmp_path / "session"))
    assert out.exit_code == 0 and out.output.endswith(f"written to {tmp_path / 'session'}\n")
    assert sorted(p.name for p in (tmp_path / "session").iterdir()) == ["games.mat", "summary.csv",
                                                                        "summary.json"]
    assert (tmp_path / "session" / "games.mat").read_text() == expected


def test_the_numbering_option_offers_the_librarys_numberings():
    """Catches: a numbering added to the library but not to `--mat-numbering` (or another
    default)."""
    from nardy_cli.commands.common import MAT_NUMBERINGS
    from nardy_cli.records.mat_points import DEFAULT_NUMBERING, NUMBERINGS
    assert MAT_NUMBERINGS == NUMBERINGS and MAT_NUMBERINGS[0] == DEFAULT_NUMBERING
