"""Cube actions in game records, match records and .mat transcripts: read, written back exactly,
scored, and every illegal cube action rejected with the game, the turn and the line named (issue
23)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.match.cube import Cube
from nardy_cli.records.cube_actions import CubeAction
from nardy_cli.records.cube_record import record_from_turns
from nardy_cli.core.dice import parse_dice
from nardy_cli.core.engine import legal_plays
from nardy_cli.core.errors import CubeRecordError, GameRecordError, MatchRecordError
from nardy_cli.records.mat_read import parse_mat
from nardy_cli.records.mat_write import format_mat
from nardy_cli.records.match_record import MatchRecord, format_match, game_points, parse_match
from nardy_cli.core.position import START, parse_position
from nardy_cli.records.game_record import format_game, parse_game

# A money game: White doubles before its second roll and Black takes (Black owns the cube at 2);
# Black redoubles before its third roll and White drops, so Black wins the cube's value before the
# redouble, 2.
MONEY = """\
[White "Anna"]
[Black "Boris"]
[Date "?"]
[Rules "federation"]
[Result "*"]

1.   6-5: 1/12               4-2: 1/7
2.   Doubles => 2 Takes 6-5: 1/12  3-3: 1/10 7/10
3.   6-6: 1/7 12/24 12/18
3... Doubles => 4 Drops
*
"""

# A match to 5: game 1 is MONEY's game (Boris wins 2 by the drop); in game 2 Anna (Black) doubles at
# once and Boris drops: Anna wins 1.  The transcript as nardy writes it, in GNU Backgammon's layout:
# a double in the doubler's column, the answer in the other column of the next line.
MATCH_MAT = """\
 5 point match

 Game 1
 Anna : 0                       Boris : 0
  1) 65: 24/13                   42: 24/18
  2) Doubles => 2                Takes
  3) 65: 24/13                   33: 24/15 18/15
  4) 66: 24/18 13/1 13/7         Doubles => 4
  5) Drops
                                  Wins 2 points

 Game 2
 Anna : 0                       Boris : 2
  1)                             65: 24/13
  2) Doubles => 2                Drops
      Wins 1 point
"""

# White doubles before bearing off its last two checkers and Black (none off) takes, a legal
# blunder: the 2-1 bears both off, a mars (2 points) with the cube at 2 is 4 points.
MARS = """\
[White "Anna"]
[Black "Boris"]
[Position "W:23,24 B:13x15 w"]

1.   Doubles => 2 Takes 2-1: 23/off 24/off
White wins by mars
"""


def _match_text(length: int, *games: tuple[str, str, str, str]) -> str:
    """A match record of (White, Black, Score, movetext) games."""
    parts = [f'[Match "{length}"]', ""]
    for k, (white, black, score, moves) in enumerate(games, 1):
        parts += [f'[Game "{k}"]', f'[White "{white}"]', f'[Black "{black}"]', f'[Score "{score}"]',
                  "", moves, ""]
    return "\n".join(parts)


def test_a_cube_game_reads_and_writes_back_exactly_with_the_cube_at_every_roll():
    """Catches: cube actions lost or reordered on writing, a take that does not pass the cube to the
    taker, or a cubeless game's plies given a cube."""
    record = parse_game(MONEY)
    assert format_game(record) == MONEY
    assert [p.cube for p in record.plies] == [Cube(), Cube(), Cube(2, "black"),
                                              Cube(2, "black"), Cube(2, "black")]
    assert record.plies[2].actions == (CubeAction("double", "w", 2), CubeAction("take", "b", 2))
    assert record.end_actions == (CubeAction("double", "b", 4), CubeAction("drop", "w", 4))
    assert record.result is None and record.dropped == CubeAction("drop", "w", 4)
    assert game_points(record) == (0.0, 2.0)
    plain = parse_game('[White "Anna"]\n\n1. 6-5: 1/12\n')
    assert not plain.is_cube_game and plain.plies[0].cube is None


def test_a_cube_tag_makes_a_game_without_doubles_a_cube_game():
    """Catches: `[Cube "on"]` ignored, so a bot's cube game in which nobody doubled reads as
    cubeless."""
    record = parse_game('[White "Anna"]\n[Cube "on"]\n\n1. 6-5: 1/12\n')
    assert record.is_cube_game and record.plies[0].cube == Cube()
    assert parse_game(format_game(record)) == record


def test_a_cube_match_round_trips_through_mat_and_the_record_with_the_drops_scored():
    """Catches: a drop scored as a win class (or not at all), a transcript whose cube lines are in
    the wrong column or line, or a .mat reader that refuses its own writer's cube actions."""
    match = parse_mat(MATCH_MAT)
    assert format_mat(match) == MATCH_MAT
    assert parse_match(format_match(match)) == match
    assert match.scores() == ((0.0, 0.0), (2.0, 0.0))        # game 2: Boris is White with 2
    assert match.final_score == (1.0, 2.0)                   # (Anna, Boris)
    assert match.games[0] == parse_game(MONEY)


def test_a_win_by_mars_with_the_cube_at_2_scores_twice_the_mars_points():
    """Catches: the cube's value left out of a finished game's points, in the record's match score
    and in the transcript's 'Wins' line."""
    text = _match_text(7, ("Anna", "Boris", "0-0", MARS.split("\n\n", 1)[1]))
    text = text.replace('[Score "0-0"]', '[Score "0-0"]\n[Position "W:23,24 B:13x15 w"]')
    match = parse_match(text)
    assert match.final_score == (4.0, 0.0)
    mat = format_mat(match)
    assert ("      Wins 4 points\n" in mat
            and "  1) Doubles => 2                Takes\n  2) 21: 2/0 1/0\n" in mat)
    assert parse_mat(mat) == match


def test_jacoby_counts_a_mars_before_the_first_double_as_an_oin():
    """Catches: the Jacoby rule ignored in a money session's points (a mars with the cube centred
    scoring 2)."""
    jacoby = parse_game('[White "A"]\n[Black "B"]\n[Jacoby "on"]\n[Position "W:23,24 '
                        'B:13x15 w"]\n\n'
                        "1. 2-1: 23/off 24/off\n")
    assert game_points(jacoby) == (1.0, 0.0)
    doubled = parse_game('[White "A"]\n[Black "B"]\n[Jacoby "on"]\n[Position "W:23,24 '
                         'B:13x15 w"]\n\n'
                         "1. Doubles => 2 Takes 2-1: 23/off 24/off\n")
    assert game_points(doubled) == (4.0, 0.0)


def test_a_beaver_turns_the_cube_again_and_the_taker_keeps_it():
    """Catches: a beaver read as a plain take (cube 2, not 4), or one accepted without the Beavers
    rule."""
    text = '[White "A"]\n[Black "B"]\n[Beavers "on"]\n\n1. Doubles => 2 Beavers => 4 6-5: 1/12\n'
    record = parse_game(text)
    assert record.plies[0].cube == Cube(4, "black", beavers=True)     # the cube keeps its rules
    assert parse_game(format_game(record)) == record
    assert parse_mat(format_mat(record)).games[0] == record


def test_a_score_tag_that_ignores_the_drop_is_one_line():
    """Catches: a match record's scores checked without the cube (a drop's points or a doubled
    win)."""
    text = _match_text(5, ("Anna", "Boris", "0-0", MONEY.split("\n\n", 1)[1]),
                       ("Boris", "Anna", "1-0", "1. 6-5: 1/12\n"))
    with pytest.raises(MatchRecordError) as info:
        parse_match(text)
    assert str(info.value) == ("game 2: Score tag '1-0' does not follow from the games before: "
                               "expected '2-0' (Boris 2, Anna 0)")


BAD_RECORDS = [
    ("a double by the side that does not own the cube",
     "1. Doubles => 2 Takes 6-5: 1/12  4-2: 1/7\n"
     "2. Doubles => 4 Takes 6-5: 1/12\n",
     "turn 2 (White): White doubles, but Black owns the cube at 2: only the cube's owner "
     "may double: 'Doubles => 4' (line 4)"),
    ("a take with no double", "1. 6-5: 1/12  Takes 4-2: 1/7\n",
     "turn 1 (Black): White takes, but nobody has doubled: 'Takes' (line 3)"),
    ("a take after a drop", "1. 6-5: 1/12  Doubles => 2 Drops Takes\n",
     "turn 1 (Black): take by White after White's drop: the drop ended the game: 'Takes' (line 3)"),
    ("a roll after a drop", "1. Doubles => 2 Drops 6-5: 1/12\n",
     "turn 1 (White) 6-5: a roll after Black's drop: the drop ended the game (line 3)"),
    ("a turn number after a drop", "1. Doubles => 2 Drops\n1... 6-5: 1/12\n",
     "turn 1 (White): '1...' after the drop that ended the game (line 4)"),
    ("a double after the roll in the same turn", "1. 6-5: 1/12 Doubles => 2 Takes\n1... 4-2: 1/7\n",
     "turn 1 (Black): 'Doubles => 2' before the turn number '1...': a cube action after White's "
     "roll belongs to the next turn, and the cube is turned before the roll (line 4)"),
    ("a double with no answer", "1. Doubles => 2 6-5: 1/12\n",
     "turn 1 (White) 6-5: White rolls, but White's double to 2 has no answer: "
     "write 'Takes' or 'Drops' before the roll (line 3)"),
    ("a double to the wrong value", "1. Doubles => 4 Takes 6-5: 1/12\n",
     "turn 1 (White): a double of the cube at 1 turns it to 2, not 4: 'Doubles => 4' (line 3)"),
    ("a beaver without the Beavers rule", "1. Doubles => 2 Beavers => 4 6-5: 1/12\n",
     "turn 1 (White): Black beavers, but the game has no Beavers rule (a money-game rule: "
     "[Beavers \"on\"]): 'Beavers => 4' (line 3)"),
    ("a double after the end of the game", "1. 6-5: 1/12\n*\nDoubles => 2\n",
     "turn 1 (Black): 'Doubles => 2' after the result '*'"),
]


@pytest.mark.parametrize("what, moves, message", BAD_RECORDS, ids=[b[0] for b in BAD_RECORDS])
def test_an_illegal_cube_action_is_one_line_naming_the_turn_exit_2(tmp_path, monkeypatch, what,
                                                                   moves, message):
    """Each illegal cube action is refused with the turn, the token and the line, exit code 2 on the
    command line.  Catches: the action accepted (a take with no double, a double by the taker's
    opponent, play going on after a drop, a double after the roll), or a message that does not say
    where."""
    monkeypatch.chdir(tmp_path)
    text = '[White "Anna"]\n\n' + moves
    with pytest.raises(CubeRecordError if "after the result" not in message
                       else GameRecordError) as info:
        parse_game(text)
    assert str(info.value) == message
    Path("game.txt").write_text(text)
    out = CliRunner().invoke(cli, ["convert", "game.txt", "game.mat"])
    assert (out.exit_code, out.output) == (2, f"Error: game.txt: {message}\n")


def test_a_double_in_the_crawford_game_is_one_line_naming_game_and_turn():
    """Catches: a double allowed in the Crawford game (the game after a player first needs 1 point),
    or refused in the post-Crawford game after it."""
    crawford = _match_text(2, ("Anna", "Boris", "0-0", "1. Doubles => 2 Drops\n"),
                           ("Boris", "Anna", "0-1", "1. 6-5: 1/12  Doubles => 2 Takes 4-2: 1/7\n"))
    with pytest.raises(CubeRecordError) as info:
        parse_match(crawford)
    assert str(info.value) == ("game 2: turn 1 (Black): Black doubles in the Crawford game: "
                               "no double until the game after it: 'Doubles => 2' (line 16)")
    post = _match_text(2, ("Anna", "Boris", "0-0", "1. Doubles => 2 Drops\n"),
                       ("Boris", "Anna", "0-1", "1. 6-5: 1/12\n"),
                       ("Boris", "Anna", "1-1", "1. 6-5: 1/12  Doubles => 2 Takes 4-2: 1/7\n"))
    post = post.replace('[Score "0-1"]', '[Score "0-1"]\n[Resigned "Black 1"]')
    assert parse_match(post).games[2].plies[1].cube == Cube(2, "white")
    first = parse_match(crawford.replace("Doubles => 2 Takes ", "")).games[0]
    second = parse_game('[White "Boris"]\n[Black "Anna"]\n\n1. 6-5: 1/12  Doubles => 2 '
                        'Takes 4-2: 1/7\n')
    with pytest.raises(CubeRecordError) as info:
        MatchRecord(2, (first, second))      # a match being played, built game by game
    assert str(info.value) == ("game 2: turn 1 (Black): Black doubles in the Crawford game: "
                               "no double until the game after it")


def test_money_cube_rules_in_a_match_are_one_line():
    """Catches: Jacoby or beavers accepted in a match, where they are no rule."""
    text = _match_text(5, ("Anna", "Boris", "0-0", "1. 6-5: 1/12\n")).replace('[Score "0-0"]',
                                                                              '[Score '
                                                                              '"0-0"]\n[Jacoby '
                                                                              '"on"]')
    with pytest.raises(CubeRecordError) as info:
        parse_match(text)
    assert str(info.value) == "game 1: Jacoby is a money-game rule, not for a match to 5"


BAD_MATS = [
    ("a double after the roll in the doubler's column", MATCH_MAT.replace(
        "  2) Doubles => 2                Takes\n  3) 65: 24/13 ",
        "  2)                             Doubles => 2\n  3) Takes                          65: "
        "24/13 ", 1),
     "game 1, turn 2 (Boris, Black): Black doubles after its roll: the cube is turned before the "
     "roll, and it is White's turn: 'Doubles => 2' (line 6)"),
    ("a drop that does not end the game",
     MATCH_MAT.replace("  5) Drops\n", "  5) Drops                       "
                       "   66: 24/18\n", 1),
     "game 1, turn 5 (Boris, Black): '66: 24/18' after Anna's drop: the drop ended the "
     "game (line 9)"),
    ("a 'Wins' line that ignores the drop", MATCH_MAT.replace("Wins 2 points", "Wins 4 points", 1),
     "game 1: Boris 'Wins 4 points' does not match the drop: Boris wins 2 points (line 10)"),
    ("a double by the taker's opponent",
     MATCH_MAT.replace("  4) 66: 24/18 13/1 13/7         Doubles => 4\n",
                       "  4) 66: 24/18 13/1 13/7\n  5) "
                       "Doubles => 4\n", 1),
     "game 1, turn 5 (Anna, White): White doubles after its roll: the cube is turned before the "
     "roll, and it is Black's turn: 'Doubles => 4' (line 9)"),
]


@pytest.mark.parametrize("what, text, message", BAD_MATS, ids=[b[0] for b in BAD_MATS])
def test_an_illegal_cube_action_in_a_transcript_names_game_turn_player_and_line(what, text,
                                                                                message):
    """Catches: a transcript's cube action accepted out of turn, play after a drop, or a drop's
    'Wins' line that gives the wrong points."""
    with pytest.raises(GameRecordError) as info:
        parse_mat(text)
    assert str(info.value) == message


def test_record_from_turns_builds_what_the_record_text_reads():
    """Catches: the builder (for bots' cube games) and the reader disagreeing on the actions, the
    cube per ply or the drop at the end; or the builder accepting an illegal action."""
    turns, pos = [], START
    for actions, roll in [((), "6-5"), ((), "4-2"), (("double", "take"), "6-5"), ((), "3-3"),
                          ((), "6-6")]:
        text_play = parse_game(MONEY).plies[len(turns)].play
        assert text_play in legal_plays(pos, parse_dice(roll))
        turns.append((actions, parse_dice(roll), text_play))
        pos = text_play.result
    built = record_from_turns(turns, end=("double", "drop"), white="Anna", black="Boris")
    assert built == parse_game(MONEY)
    with pytest.raises(CubeRecordError) as info:
        record_from_turns(turns[:2] + [(("take",), *turns[2][1:])])
    assert str(info.value) == "turn 2 (White): Black takes, but nobody has doubled"
    assert parse_position(str(built.final)) == built.final


def test_a_resignation_with_the_cube_turned_gives_a_win_class_times_the_cube():
    """Catches: a resignation after a double scored (or checked) at the cube of 1."""
    text = _match_text(7, ("Anna", "Boris", "0-0", "1. Doubles => 2 Takes 6-5: 1/12\n"))
    good = parse_match(text.replace('[Score "0-0"]', '[Score "0-0"]\n[Resigned "Black 4"]'))
    assert good.final_score == (4.0, 0.0)
    assert parse_mat(format_mat(good)) == good
    with pytest.raises(MatchRecordError) as info:
        parse_match(text.replace('[Score "0-0"]', '[Score "0-0"]\n[Resigned "Black 1"]'))
    assert str(info.value) == ("game 1: Resigned tag 'Black 1': a resignation gives the points of "
                               "a win class times the cube (2) (2, 4)")


def test_a_built_cube_game_where_nobody_doubles_reads_back_as_a_cube_game():
    """Catches: `record_from_turns(..., cube=True)` without a double writing a record that reads
    back cubeless."""
    play = legal_plays(START, parse_dice("6-5"))[0]
    built = record_from_turns([((), parse_dice("6-5"), play)], cube=True, white="Anna")
    assert built.is_cube_game and built.tag("Cube") == "on"
    assert (parse_game(format_game(built)) == built
            and parse_mat(format_mat(built)).games[0] == built)
