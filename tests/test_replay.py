"""The one replay of a game's turns (`records/replay.py`): what every record reader and builder goes
through, and the turns of a finished record that the reviews walk."""

from __future__ import annotations

import pytest

from nardy_cli.core.dice import parse_dice
from nardy_cli.core.errors import ArgumentError, CubeRecordError
from nardy_cli.core.position import START
from nardy_cli.core.rules import PRESETS
from nardy_cli.match.cube import Cube
from nardy_cli.records.cube_actions import CubeTracker
from nardy_cli.records.game_record import GameRecord, format_game, parse_game
from nardy_cli.records.replay import Replay
from nardy_cli.review.cube_review import cube_turns

from .test_cube_records import MONEY


def test_a_replay_numbers_the_turns_and_checks_the_cube():
    """Catches a turn number that moves on after White's ply (it moves after Black's), a position
    left behind by a play, a take without a double let through, or a play accepted before its
    roll."""
    replay = Replay(START, PRESETS["federation"], CubeTracker({"Cube": "on"}))
    with pytest.raises(ArgumentError, match="before its roll"):
        replay.play("1/12")
    replay.roll(parse_dice("6-5"))
    first = replay.play("1/12")
    assert (first.number, first.label, replay.number) == (1, "1.", 1)
    assert replay.position == first.play.result and replay.position.turn == "b"
    with pytest.raises(CubeRecordError, match="nobody has doubled"):
        replay.act("take")
    replay.roll(parse_dice("4-2"))
    second = replay.play("1/7")
    assert (second.number, second.label, replay.number) == (1, "1...", 2)
    assert replay.act("double").side == "w" and replay.act("take").side == "b"
    replay.roll(parse_dice("6-5"))
    third = replay.play("1/12")
    assert [a.kind for a in third.actions] == ["double", "take"]
    assert third.cube == Cube(2, "black")
    record = GameRecord.replayed(replay)
    assert record.plies == (first, second, third) and record.result is None


def test_the_turns_of_a_record_carry_the_cube_before_their_actions():
    """Catches `GameRecord.turns` giving the cube after a turn's actions (a take would look like a
    double on a cube already turned), a wrong number or position for the turn of the final drop,
    or that turn missing (its double and drop would go unreviewed)."""
    record = parse_game(MONEY)
    turns = record.turns()
    assert [t.index for t in turns] == [0, 1, 2, 3, 4, None]
    assert [t.number for t in turns] == [1, 1, 2, 2, 3, 3]
    assert [(t.cube.value, t.cube.owner) for t in turns] == [
        (1, "centre"), (1, "centre"), (1, "centre"), (2, "black"), (2, "black"), (2, "black")]
    assert [t.answer for t in turns] == [(), (), ("take",), (), (), ("drop",)]
    end = turns[-1]
    assert end.position == record.final and end.ply is None and end.position.turn == "b"
    assert "3... Doubles => 4 Drops" in format_game(record)
    assert cube_turns(record) == [(t.index, t.position, t.cube, t.answer) for t in turns]


def test_the_turn_after_blacks_last_ply_is_the_next_turn():
    """Catches the turn of a drop after Black's last ply numbered as Black's turn (it is White's
    next one): the record would be written back as `1.   Doubles => 2 Drops` and not read again."""
    text = MONEY.replace("""2.   Doubles => 2 Takes 6-5: 1/12  3-3: 1/10 7/10
3.   6-6: 1/7 12/24 12/18
3... Doubles => 4 Drops""", "2.   Doubles => 2 Drops")
    record = parse_game(text)
    assert [(t.index, t.number) for t in record.turns()] == [(0, 1), (1, 1), (None, 2)]
    assert "\n2.   Doubles => 2 Drops\n" in format_game(record)
    assert parse_game(format_game(record)) == record
