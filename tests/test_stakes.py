"""What a game is played for, as one value (`match.stakes.Stakes`, issue 37): checked where it is
made, turned into outcome values by one function, its game points counted by one function, and
taken whole by the review."""

from __future__ import annotations

from pathlib import Path

import pytest

from nardy_cli.core.errors import ArgumentTypeError, CubeError, MatchError, StakesError
from nardy_cli.core.outcomes import CLASS_NAMES, money_valuation
from nardy_cli.core.rules import PRESETS, make_rules
from nardy_cli.kernels.codes import DRAW, LOSE_BASE, WIN_BASE
from nardy_cli.match.cube import Cube
from nardy_cli.match.stakes import MONEY, Stakes, game_points, win_points
from nardy_cli.match.state import MatchState, match_state
from nardy_cli.records.mat_read import parse_mat

FED = PRESETS["federation"]
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("cube, library, cli", [
    (Cube(jacoby=True), "Jacoby is a money-game rule, not for a match to 7",
     "--jacoby is a money-game rule, not for a match to 7"),
    (Cube(2, "white", beavers=True), "Beavers is a money-game rule, not for a match to 7",
     "--beavers is a money-game rule, not for a match to 7"),
])
def test_a_money_game_cube_rule_in_a_match_is_refused_where_the_stakes_are_made(cube, library, cli):
    """Would catch: Jacoby or beavers accepted at a match score (the check dropped from `Stakes`,
    now the only place that makes it), or a message that names no rule (library) or no option
    (command line)."""
    with pytest.raises(StakesError) as err:
        Stakes(MatchState(7, (3, 4)), cube)
    assert isinstance(err.value, CubeError)
    assert str(err.value) == library
    assert err.value.message({"jacoby": "--jacoby", "beavers": "--beavers"}) == cli
    assert Stakes(None, cube).cube == cube           # the same cube is a money game's right


def test_the_crawford_game_is_checked_by_the_match_and_its_cube_by_the_stakes():
    """Would catch: a Crawford game where both players need more than 1 point, or a turned cube in
    the Crawford game, accepted (each checked once: the match state, then the stakes)."""
    with pytest.raises(MatchError) as err:
        MatchState(7, (2, 3), crawford=True)
    assert str(err.value) == ("the Crawford game is the game after a player first needs 1 point, "
                              "but both need more (White 5, Black 4)")
    crawford = MatchState(7, (6, 2), crawford=True)
    assert Stakes(crawford, Cube()).crawford and not Stakes(MatchState(7, (6, 2))).crawford
    with pytest.raises(StakesError) as err:
        Stakes(crawford, Cube(2, "black"))
    assert str(err.value) == "no double in the Crawford game: the cube stays at 1, got a cube at 2"
    assert err.value.message({"cube_value": "--cube"}).endswith("got --cube 2")


def test_stakes_take_only_their_own_parts():
    """Would catch: a score text or a cube dict slipping into the stakes unchecked (a `Stakes` that
    exists must be a valid one)."""
    with pytest.raises(ArgumentTypeError, match="match must be a MatchState or None, got str"):
        Stakes("4-6")
    with pytest.raises(ArgumentTypeError, match="cube must be a Cube or None, got dict"):
        Stakes(None, {"value": 2, "owner": "white"})


def test_the_valuation_is_one_function_of_the_stakes_and_the_rules():
    """Would catch: money stakes not valued by the rules' points, match values that ignore the score
    (at 6-6 to 7 every win is the match), the cube's value leaking into the (per cube) values, or a
    half-point score valued under rules where no game is drawn."""
    ext = make_rules("extended")
    assert MONEY.valuation(ext) == money_valuation(ext)
    assert Stakes(cube=Cube(4, "black")).valuation(FED) == money_valuation(FED)
    six_all = Stakes(MatchState(7, (6, 6))).valuation(FED)
    assert six_all.for_side(True)[:4].tolist() == pytest.approx([1.0] * 4)
    assert six_all.for_side(True)[4:8].tolist() == pytest.approx([-1.0] * 4)
    at = MatchState(7, (4, 6))
    assert Stakes(at, Cube(2, "white")).valuation(FED) == Stakes(at).valuation(FED)
    assert Stakes(at).valuation(FED).match == at
    halves = Stakes(MatchState(7, (3.5, 2)))
    assert halves.valuation(FED).unit == "match equity"
    with pytest.raises(MatchError, match="has a half point"):
        halves.valuation(make_rules("classic"))


@pytest.mark.parametrize("winner, kind, cube, jacoby, expected", [
    ("w", "oin", 1, False, (1.0, 0.0)),
    ("b", "mars", 1, False, (0.0, 2.0)),
    ("w", "koks", 4, False, (8.0, 0.0)),
    ("b", "koks", 1, True, (0.0, 1.0)),         # Jacoby before a double: every win an oin
    (None, "draw", 2, False, (1.0, 1.0)),       # a draw: half a point each, times the cube
])
def test_game_points_are_the_class_points_times_the_cube(winner, kind, cube, jacoby, expected):
    """Would catch: a game's points not multiplied by the cube, given to the wrong side, Jacoby not
    counting an oin, or a draw not giving each player its points times the cube."""
    assert game_points(FED, winner, kind, cube, jacoby) == expected


def test_win_points_are_what_a_resignation_may_give():
    """Would catch: the points a resignation may give computed apart from `game_points` (other
    classes, the cube or Jacoby forgotten)."""
    ext = make_rules("extended")
    assert win_points(ext) == [1.0, 2.0, 3.0, 4.0]
    assert win_points(ext, 2) == [2.0, 4.0, 6.0, 8.0]
    assert win_points(ext, 1, jacoby=True) == [1.0]
    assert win_points(ext, 2) == sorted({game_points(ext, "w", k, 2)[0] for k in CLASS_NAMES})


def test_the_match_players_points_and_the_records_count_the_same_points():
    """Would catch: the bots' matches (result codes) counting points otherwise than records do (the
    five former copies of the count drifting apart): every result code's points are
    `game_points`'."""
    from nardy_cli.games.match_play import game_points as code_points
    ext = make_rules("extended")
    for c, kind in enumerate(CLASS_NAMES):
        assert code_points(WIN_BASE + c, ext, 0.5) == game_points(ext, "w", kind)
        assert code_points(LOSE_BASE + c, ext, 0.5) == game_points(ext, "b", kind)
    assert code_points(DRAW, ext, 1.0) == game_points(ext, None, draw_points=1.0) == (1.0, 1.0)


CRAWFORD_MATCH = ('[Match "2"]\n\n[Game "1"]\n[White "Anna"]\n[Black "Boris"]\n[Score "0-0"]\n\n'
                  '1. Doubles => 2 Drops\n\n'
                  '[Game "2"]\n[White "Boris"]\n[Black "Anna"]\n[Score "0-1"]\n'
                  '[Resigned "Black 1"]\n\n1. 6-5: 1/12\n\n'
                  '[Game "3"]\n[White "Boris"]\n[Black "Anna"]\n[Score "1-1"]\n\n'
                  '1. 6-5: 1/12 Doubles => 2 Takes 4-2: 1/7\n')


def test_a_match_record_gives_each_game_its_stakes():
    """Would catch: a game of a match reviewed at the wrong score, without its Crawford flag, or
    without the cube of a cube game (the stakes a review receives are the record's, built once)."""
    from nardy_cli.records.match_record import parse_match
    for match in (parse_mat((ROOT / "games" / "cube-match.mat").read_text()),
                  parse_match(CRAWFORD_MATCH)):
        stakes = match.stakes()
        assert [s.match.score for s in stakes] == list(match.scores())
        assert [s.crawford for s in stakes] == list(match.crawford_games())
        assert [s.cube is not None for s in stakes] == [g.is_cube_game for g in match.games]
    assert [s.crawford for s in stakes] == [False, True, False]
    assert {s.match.next_white for s in match.stakes("alternate", 1.0)} == {"alternate"}
    money = parse_mat((ROOT / "games" / "bot-match.mat").read_text().replace(
        " 5 point match", " 0 point match"))
    assert all(s.match is None for s in money.stakes())


def test_a_review_values_the_game_once(monkeypatch):
    """Would catch: the review valuing a game's stakes twice (once for the plays, again for the
    cube decisions), or turning them into values per turn."""
    from nardy_cli.review.game_review import review_game
    match = parse_mat((ROOT / "games" / "cube-match.mat").read_text())
    calls = []
    original = Stakes.valuation

    def counted(self, rules, distribution=None):
        calls.append(self)
        return original(self, rules, distribution)

    monkeypatch.setattr(Stakes, "valuation", counted)
    index = next(k for k, g in enumerate(match.games) if g.is_cube_game)
    review = review_game(match.games[index], "heuristic", stakes=match.stakes()[index])
    assert review.cube is not None and len(review.cube) > 0
    assert len(calls) == 1


def test_the_cube_keeps_its_rules_when_taken():
    """Would catch: a taken double dropping the game's cube rules (Jacoby or beavers forgotten after
    the first double)."""
    cube = Cube(jacoby=True, beavers=True).taken(2, "b")
    assert cube == Cube(2, "black", True, True) and not cube.jacoby_centred
    assert Cube(jacoby=True).jacoby_centred
    assert Cube.from_dict({**cube.to_dict(), "crawford": False}) == cube


def test_match_state_text_keeps_the_crawford_flag():
    """Would catch: the Crawford flag lost between a result's JSON and the state read back from it
    (or written for every game, changing the results of games that are not the Crawford game)."""
    state = match_state(7, "6-2", FED, crawford=True)
    assert MatchState.from_dict(state.to_dict()) == state
    assert "crawford" not in MatchState(7, (6, 2)).to_dict()
