""".mat match transcripts: hand-written transcripts read or rejected, and export then import is the
identity."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from nardy_cli.core.errors import GameRecordError, OutputError
from nardy_cli.records.mat_read import is_mat_text, parse_mat
from nardy_cli.records.mat_write import format_mat
from nardy_cli.records.match_record import MatchRecord, format_match, parse_match, read_record
from nardy_cli.records.files import convert, parse_games, read_games, write_text
from nardy_cli.records.game_record import format_game, read_game
from nardy_cli.core.rules import make_rules
from nardy_cli.games.selfplay import play_game, play_games

ROOT = Path(__file__).resolve().parent.parent

# A match to 3 in the transcript style, points numbered from each mover's head (24) to 1, 0 for off.
# Game 1: Anna (left column, moving first: White) bears off her last two (W23, W24 = 2, 1); Boris
# has his last roll (R8) and leaves one: Anna wins by oin. Game 2: Boris's column moves first, so he
# is White; he cannot move with 3-3 (a pass: W7 is held by B22, W22 and W23 may not bear off); Anna
# bears off two; Boris plays 7/17; then Anna's "Wins 2 points": Boris resigned, giving 2.
TRANSCRIPT = """\
; [Event "Club night"]

 3 point match

 Game 1
 Anna : 0                       Boris : 0
; [Position "W:23,24 B:22,23 w"]
  1) 21: 2/0 1/0                 31: 3/0 2/1
      Wins 1 point

 Game 2
 Anna : 1                       Boris : 0
; [Position "W:7,22x7,23,24x6 B:22,23,24x13 w"]
  1)                             33:
  2) 21: 2/0 1/0                 64: 18/12 12/8
      Wins 2 points and the match
"""

AS_RECORD = """\
[Match "3"]
[Event "Club night"]

[Game "1"]
[White "Anna"]
[Black "Boris"]
[Score "0-0"]
[Date "?"]
[Rules "federation"]
[Position "W:23,24 B:22,23 w"]
[Result "White wins by oin"]

1.   2-1: 23/off 24/off      3-1: 22/off 23/24
White wins by oin

[Game "2"]
[White "Boris"]
[Black "Anna"]
[Score "0-1"]
[Date "?"]
[Rules "federation"]
[Position "W:7,22x7,23,24x6 B:22,23,24x13 w"]
[Resigned "White 2"]
[Result "*"]

1.   3-3: -                  2-1: 23/off 24/off
2.   6-4: 7/17
*
"""


def test_a_hand_written_match_reads_with_colours_pass_bear_off_and_resignation():
    """Catches: White taken as the left column instead of the first mover's (game 2), a pass ('33:'
    with no play) rejected, mirrored point numbers (24 is the head), or a resignation read as an
    unfinished game."""
    match = parse_mat(TRANSCRIPT)
    assert format_match(match) == AS_RECORD
    assert (match.games[1].plies[0].play.is_pass and match.final_score == (3, 0)
            and match.winner == "Anna")


def test_head_1_numbering_reads_nardys_own_point_numbers():
    """Catches: `--mat-numbering head-1` ignored (points mapped 25-m anyway)."""
    def renumber(m: re.Match) -> str:
        a, b = int(m.group(1)), int(m.group(2))
        return f"{25 - a}/{0 if b == 0 else 25 - b}"
    head1 = re.sub(r"\b(\d+)/(\d+)\b", renumber, TRANSCRIPT)
    assert "23/off" not in head1 and "  1) 21: 23/0 24/0" in head1
    assert parse_mat(head1, numbering="head-1") == parse_mat(TRANSCRIPT)
    written = format_mat(parse_mat(TRANSCRIPT), numbering="head-1")
    assert ("  1) 21: 23/0 24/0               31: 22/0 23/24\n" in written
            and "64: 7/17\n" in written)
    assert parse_mat(written, numbering="head-1") == parse_mat(TRANSCRIPT)


def _bad(old: str, new: str) -> str:
    assert old in TRANSCRIPT, old
    return TRANSCRIPT.replace(old, new, 1)


BAD = [
    ("an illegal play (R2: both dice can be played)", _bad("21: 2/0 1/0   ", "21: 2/1       "),
     "game 1, turn 1 (Anna, White) 2-1: illegal play '2/1' (line 8)"),
    ("a play from an empty point", _bad("21: 2/0 1/0   ", "21: 4/2 1/0   "),
     "game 1, turn 1 (Anna, White) 2-1: illegal play '4/2 1/0': moves more checkers than "
     "stand on a point (line 8)"),
    ("a wrong score", _bad("Anna : 1 ", "Anna : 2 "),
     "game 2: score line 'Anna : 2 Boris : 0' (line 12) does not follow from the games before: "
     "expected 'Anna : 1   Boris : 0'"),
    ("a double with no answer", _bad("64: 18/12 12/8", "Doubles => 2"),
     "game 2, turn 2 (Anna, Black): 'Wins 2 points and the match' while Boris's double to 2 "
     "has no answer: write 'Takes' or 'Drops' before it (line 16)"),
    ("a take with no double",
     _bad("  1) 21: 2/0 1/0                 31: 3/0 2/1", "  1)                   "
          "          Takes"),
     "game 1, turn 1 (Boris, Black): Black takes, but nobody has doubled: 'Takes' (line 8)"),
    ("a move in the wrong column", _bad("  2) 21: 2/0 1/0                 64",
                                        "  2)                             64"),
     "game 2, turn 2 (Boris, White): it is Anna's turn (Black), but '64: 18/12 12/8' is in "
     "Boris's column (a pass is the roll alone, e.g. '33:') (line 15)"),
    ("a wrong win", _bad("Wins 1 point", "Wins 2 points"),
     "game 1: Anna 'Wins 2 points' does not match the replay: White wins by oin, "
     "1 point under federation rules (line 9)"),
    ("the wrong winner",
     _bad("      Wins 1 point", "                                  Wins 1 point"),
     "game 1: Boris 'Wins 1 point' does not match the replay: White wins by oin, "
     "1 point under federation rules (line 9)"),
    ("a hit", _bad("18/12 12/8", "18/12* 12/8"),
     "game 2, turn 2 (Boris, White) 6-4: bad move '18/12*': long nardy has no hitting "
     "('*') (line 15)"),
    ("the bar", _bad("18/12 12/8", "25/19 12/8"),
     "game 2, turn 2 (Boris, White) 6-4: bad move '25/19': points are 1-24 and 0 for off (long "
     "nardy has no bar) (line 15)"),
    ("a backward move", _bad("18/12 12/8", "12/18 12/8"),
     "game 2, turn 2 (Boris, White) 6-4: bad move '12/18': checkers move from the head (24) "
     "down to 1 and off (0) (line 15)"),
    ("a skipped turn number", _bad("  2) 21", "  3) 21"),
     "game 2, turn 1: expected turn '2)', found '3)' (line 15)"),
    ("a roll with no play",
     _bad("21: 2/0 1/0                 64", "21:                         64"),
     "game 2, turn 2 (Anna, Black) '21:': missing play (line 15)"),
    ("a pass when a play exists", _bad("31: 3/0 2/1", "31: -      "),
     "game 1, turn 1 (Boris, Black) 3-1: illegal pass '-': a play exists (line 8)"),
    ("not a transcript", TRANSCRIPT.replace(" 3 point match", " Game 0"),
     "line 3: expected 'N point match' (0 for a money session), found 'Game 0'"),
    ("games out of order", _bad(" Game 2", " Game 3"),
     "line 11: expected 'Game 2', found 'Game 3'"),
    ("a game after the end of the match",
     TRANSCRIPT + "\n Game 3\n Anna : 3       Boris : 0\n  1) 21: 24/21\n",
     "game 3: the match is over: 'Anna' reached 3 points in game 2"),
    ("a move after the end of the game",
     TRANSCRIPT.replace("      Wins 1 point", "      Wins 1 point\n  2) 65: 24/13"),
     "game 1, turn 2 (Anna, White): '65: 24/13' after the end of the game (White wins by "
     "oin) (line 10)"),
    ("a tag the transcript writes itself",
     _bad('; [Position "W:23,24', '; [White "Anna"]\n; [Position "W:23,24'),
     "game 1: tag 'White' (line 7) has no place in a transcript: the players line, "
     "the columns and 'Wins' say it"),
]


def test_a_roll_left_without_a_play_is_named_by_its_own_turn():
    """Bug caught (issue 41): a roll with no play found only on the next turn's line was reported
    with that line's turn number, one too high (`turn 6` for a roll written in turn 5)."""
    text = (ROOT / "games" / "bot-match.mat").read_text().replace("42: 24/20 3/1", "42:", 1)
    with pytest.raises(GameRecordError) as err:
        parse_mat(text)
    assert str(err.value) == "game 1, turn 5 (heuristic, Black) '42:': missing play (line 13)"


@pytest.mark.parametrize("what, text, message", BAD, ids=[b[0] for b in BAD])
def test_bad_transcripts_are_one_line_errors_naming_game_turn_and_token(what, text, message):
    """Each way a transcript can be wrong is one exact line naming the game, the turn and the token.
    Catches: an illegal play, a wrong score or a cube action out of turn accepted, or an error that
    does not say where."""
    with pytest.raises(GameRecordError) as info:
        parse_mat(text)
    assert str(info.value) == message


@pytest.mark.parametrize("numbering", ["head-24", "head-1"])
def test_export_then_import_is_the_identity_on_every_record_of_games(numbering):
    """Catches: comments, tags, a start position or a Black-first ply lost on the way through
    .mat."""
    for path in sorted((ROOT / "games").glob("*.txt")):
        record = read_record(path)        # a game, or a match (games/bot-match.txt)
        assert parse_games(format_mat(record, numbering=numbering),
                           numbering=numbering) == record, path.name


@settings(max_examples=6)
@given(seed=st.integers(0, 2**31),
       policies=st.sampled_from([("random", "random"), ("racer", "random"),
                                  ("heuristic", "racer"),
                                 ("racer", "racer")]),
       preset=st.sampled_from(["federation", "classic", "extended"]),
       numbering=st.sampled_from(["head-24", "head-1"]))
# game 2 is a draw
@example(seed=3, policies=("heuristic", "racer"), preset="federation", numbering="head-24")
def test_bot_sessions_round_trip_through_mat(seed, policies, preset, numbering):
    """A money session of bot games (draws included) survives export and import, and the text is
    stable. Catches: half points of a draw written as whole ones, a rules override dropped, or two
    bots with one name (`racer` v `racer`) mixed up."""
    played = play_games(*policies, 3, seed=seed,
                        rules=make_rules(preset, last_roll=True, points="koks=3"))
    session = MatchRecord(0, played.records)
    if seed == 3 and policies == ("heuristic", "racer"):
        assert session.scores()[2] == (0.5, 1.5)
    text = format_mat(session, numbering=numbering)
    assert parse_mat(text, numbering=numbering) == session
    assert format_mat(parse_mat(text, numbering=numbering), numbering=numbering) == text


def test_a_bot_match_with_changing_colours_round_trips():
    """Catches: the columns following the colours instead of the players (scores written to the
    wrong name)."""
    games = []
    for g in range(30):
        pair = ("racer", "random") if g % 2 else ("random", "racer")
        games.append(play_game(*pair, seed=9, game=g))
        match = MatchRecord(5, tuple(games))
        if match.is_over:
            break
    text = format_mat(match)
    assert parse_mat(text) == match and text.count(" Game ") == len(match.games) > 1
    assert text.rstrip().endswith("and the match")


def test_either_kind_of_file_reads_by_content(tmp_path):
    """Catches: a transcript read as a nardy record (or the other way) when its name does not
    say."""
    assert is_mat_text(TRANSCRIPT) and not is_mat_text(AS_RECORD) and not is_mat_text(format_game(
        read_game(ROOT / "games" / "bot-game.txt")))
    assert parse_games(AS_RECORD) == parse_games(TRANSCRIPT) == parse_mat(TRANSCRIPT)
    (tmp_path / "club.mat").write_text(AS_RECORD)
    with pytest.raises(GameRecordError,
                       match=r"^club\.mat: not a \.mat transcript: no 'N point match' line$"):
        read_games(tmp_path / "club.mat")


def test_nothing_half_written_is_left(tmp_path, monkeypatch):
    """A failed write leaves neither the file nor a temporary one; a bad transcript writes nothing.
    Catches: writing the target in place (a crash would leave half a record)."""
    source = tmp_path / "bad.mat"
    source.write_text(_bad("21: 2/0 1/0   ", "21: 2/1       "))
    with pytest.raises(GameRecordError):
        convert(source, tmp_path / "out.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mat"]

    def broken(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OutputError, match=r"cannot write '.*out\.txt': No space left on device"):
        write_text(tmp_path / "out.txt", AS_RECORD)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mat"]


def test_convert_both_ways(tmp_path):
    """Catches: convert choosing the format by the input's name only, or losing the match header."""
    (tmp_path / "club.mat").write_text(TRANSCRIPT)
    convert(tmp_path / "club.mat", tmp_path / "club.txt")
    assert (tmp_path / "club.txt").read_text() == AS_RECORD
    convert(tmp_path / "club.txt", tmp_path / "again.mat")
    assert parse_mat((tmp_path / "again.mat").read_text()) == parse_match(AS_RECORD)
    convert(tmp_path / "club.txt", tmp_path / "as-mat.txt", to="mat")
    assert is_mat_text((tmp_path / "as-mat.txt").read_text())
