"""`games.session.GameSession`: a person against a bot, one decision at a time, with the cube."""

from __future__ import annotations

import pytest

from nardy_cli.core.errors import NardyError
from nardy_cli.core.position import parse_position
from nardy_cli.games.session import GameSession
from nardy_cli.match.cube import Cube
from nardy_cli.match.stakes import Stakes
from nardy_cli.match.state import MatchState
from nardy_cli.records.points import game_points

RACE = "W:19x5,20x5,21x5 B:19x5,20x5,21x5 b"       # Black on roll: double, take


def test_the_bot_doubles_when_its_cube_decision_says_so_and_the_person_answers():
    """Catches a bot that never doubles (or doubles a position it should not), a take that does
    not give the person the cube at 2, and a roll allowed before the answer."""
    s = GameSession("neural", "w", stakes=Stakes(None, Cube()), start=parse_position(RACE))
    assert s.bot_turn() is None and s.to_move == "person"
    assert s.tracker().offer.value == 2
    with pytest.raises(NardyError):
        s.roll()
    s.answer("take", "w")
    assert (s.cube.value, s.cube.owner) == (2, "white") and s.to_move == "bot"
    assert s.bot_turn() is not None and s.to_move == "person"
    assert s.may_double("w")                         # the person owns the cube now


def test_a_drop_ends_the_game_and_the_record_gives_the_doubler_the_cube():
    """Catches a drop that does not end the game, or a record that loses the cube actions."""
    s = GameSession("neural", "w", stakes=Stakes(None, Cube()), start=parse_position(RACE))
    s.bot_turn()
    s.answer("drop", "w")
    assert (s.result.winner, s.result.kind) == ("b", "drop")
    assert game_points(s.record()) == (0, 1)


def test_the_person_doubles_and_the_bot_takes_a_position_it_should_take():
    """Catches a bot that drops the opening position's double (a take by far), and a second double
    by the side that does not own the cube."""
    s = GameSession("neural", "w", stakes=Stakes(None, Cube()), seed=3)
    s.double("w")
    assert s.bot_cube() == "take" and (s.cube.value, s.cube.owner) == (2, "black")
    assert not s.may_double("w")
    with pytest.raises(NardyError):
        s.double("w")


def test_no_double_in_the_crawford_game_and_take_back_restores_the_cube():
    """Catches a double allowed in the Crawford game, and taking back a play that keeps the cube
    actions made before it."""
    crawford = Stakes(MatchState(5, (4, 2), crawford=True), Cube())
    s = GameSession("neural", "w", stakes=crawford, seed=3)
    assert not s.may_double("w")
    with pytest.raises(NardyError):
        s.double("w")
    s = GameSession("neural", "w", stakes=Stakes(None, Cube()), seed=3)
    s.double("w")
    s.bot_cube()
    s.roll()
    s.play(s.legal()[0])
    s.bot_turn()
    s.take_back()
    assert s.pending == [("double", "w"), ("take", "b")] and s.cube.value == 2


def test_the_tutor_judges_cube_actions():
    """Catches a tutor that lets a very bad double, take or drop through unmarked, or marks the
    right action."""
    from nardy_cli.review.tutor import judge_cube
    money = Stakes(None, Cube())
    assert judge_cube(parse_position("start"), money, "double").mark == "very bad"
    assert judge_cube(parse_position("start"), money, "double").best == "no double"
    race = parse_position(RACE)                              # double, take
    assert judge_cube(race, money, "double").mark == ""
    assert judge_cube(race, money, "take").mark == ""
    assert judge_cube(race, money, "drop").mark == "very bad"
