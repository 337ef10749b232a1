"""The doubling cube: Janowski's model at its limits, Jacoby, the cube state's rules, the cubeful
match table."""

import numpy as np
import pytest

from nardy_cli.match.cube import (Cube, decide, money_decision, money_equity, money_take_point,
    money_win_loss)
from nardy_cli.match.cube_table import CubefulMatchTable, match_decision
from nardy_cli.core.errors import CubeError
from nardy_cli.match.stakes import MONEY
from nardy_cli.match.state import match_state, match_table
from nardy_cli.core.rules import PRESETS

FED = PRESETS["federation"]


def plain(p):
    """Win chance p, every win and loss an oin, no draw."""
    return np.array([p, 0, 0, 0, 1 - p, 0, 0, 0, 0.0])


@pytest.mark.parametrize("x, take", [(0.0, 0.25), (1.0, 0.20)])
def test_money_take_point_is_25_percent_dead_and_20_percent_live_without_mars(x, take):
    """Catches a wrong Janowski take point (e.g. x entering with the wrong sign or factor): without
    mars a dead cube's take point is 25%, a fully live cube's 20%, and the model's double/take
    equity meets double/pass (+1) exactly there."""
    assert money_take_point(1.0, 1.0, x) == pytest.approx(take)
    d = money_decision(plain(1 - take), FED.points, Cube(), "w", x)
    assert d.double_take == pytest.approx(1.0)
    assert d.take_point == pytest.approx(take)


def test_mars_risk_raises_the_take_point():
    """Catches the mars classes left out of L: a taker who loses every game by mars (2 points) needs
    (2 - 1/2) / (1 + 2 + x/2) to take, not 25%."""
    # the roller wins 70% by mars, loses 30% by oin
    probs = np.array([0, 0, 0.7, 0, 0.3, 0, 0, 0, 0.0])
    d = money_decision(probs, FED.points, Cube(), "w", 0.0)
    assert d.take_point == pytest.approx(1.5 / 3.0)


def test_live_cube_equity_is_janowskis_line_between_take_and_cash_points():
    """Catches a wrong live-cube segment: with a centred fully live cube and no mars the equity is
    -1 at 20%, +1 at 80% and 0 at 50%; owning it, +1 at 80% and -1 at 0%."""
    assert money_equity(0.2, 1, 1, "centre", 1.0) == pytest.approx(-1.0)
    assert money_equity(0.5, 1, 1, "centre", 1.0) == pytest.approx(0.0)
    assert money_equity(0.8, 1, 1, "centre", 1.0) == pytest.approx(1.0)
    assert money_equity(0.0, 1, 1, "roller", 1.0) == pytest.approx(-1.0)
    assert money_equity(0.8, 1, 1, "roller", 1.0) == pytest.approx(1.0)
    assert money_equity(1.0, 1, 1, "opponent", 1.0) == pytest.approx(1.0)


def test_jacoby_counts_no_mars_before_the_first_double():
    """Catches Jacoby ignored (mars counted with a centred cube) or applied after a double: with
    Jacoby the centred no-double equity is that of the same chances with every mars an oin, and
    double/take still counts the mars."""
    mars = np.array([0.4, 0, 0.3, 0, 0.3, 0, 0, 0, 0.0])
    oins = np.array([0.7, 0, 0, 0, 0.3, 0, 0, 0, 0.0])
    jac = money_decision(mars, FED.points, Cube(jacoby=True), "w", 0.68)
    assert jac.no_double == pytest.approx(money_decision(oins, FED.points, Cube(), "w",
                                                         0.68).no_double)
    assert jac.no_double < money_decision(mars, FED.points, Cube(), "w", 0.68).no_double
    assert jac.double_take == pytest.approx(money_decision(mars, FED.points, Cube(), "w",
                                                           0.68).double_take)
    p, w, lo = money_win_loss(mars, FED.points, jacoby_centred=True)
    assert (p, w, lo) == (pytest.approx(0.7), pytest.approx(1.0), pytest.approx(1.0))


def test_decisions_from_the_three_equities():
    """Catches a wrong decision rule: double when min(take, pass) beats not doubling; too good when
    playing on beats the cash and the opponent would pass."""
    assert decide(0.5, 0.4, 1.0) == "no double"
    assert decide(0.5, 0.7, 1.0) == "double, take"
    assert decide(0.9, 1.2, 1.0) == "double, pass"
    assert decide(1.1, 1.3, 1.0) == "too good"


def test_beaver_doubles_a_wrong_double_take():
    """Catches beavers ignored: a take the taker likes (double/take below 0) is beavered, so
    double/take is twice as bad for the doubler."""
    plain_dt = money_decision(plain(0.4), FED.points, Cube(), "w", 0.68).double_take
    d = money_decision(plain(0.4), FED.points, Cube(beavers=True), "w", 0.68)
    assert d.beaver and d.double_take == pytest.approx(2 * plain_dt) and d.decision == "no double"


@pytest.mark.parametrize("kwargs, message", [
    (dict(value=1, owner="white"),
     "a cube owned by White has been doubled: its value is 2 or more, got 1"),
    (dict(value=2, owner="centre"),
     "a cube of value 2 has been doubled, so White or Black owns it, not the centre"),
    (dict(value=3, owner="black"), "a cube value is a power of 2 (1, 2, 4, ...), got 3"),
    (dict(owner="middle"), "unknown cube owner 'middle': choose one of centre, white, black"),
])
def test_impossible_cube_states_are_rejected(kwargs, message):
    """Catches a cube the rules cannot reach accepted (an owned cube at 1, a centred cube at 2, a
    value that is no power of 2, an unknown owner); a cube in the Crawford game is the stakes'
    check (tests/test_stakes.py)."""
    with pytest.raises(CubeError) as err:
        Cube(**kwargs)
    assert str(err.value) == message


def test_the_opponents_cube_cannot_be_doubled():
    """Catches the roller offered a double of a cube its opponent owns."""
    d = money_decision(plain(0.9), FED.points, Cube(2, "black"), "w", 0.68)
    assert (d.decision, d.double_take, d.double_pass) == ("no double", None, None)


@pytest.fixture(scope="module")
def met():
    table = match_table(match_state(7, "0-0", FED), FED)
    return CubefulMatchTable(table, 0.68)


def test_cubeful_match_table_is_symmetric_by_lot(met):
    """Catches a side or colour mixed up in the cubeful recursion: by lot M[i][j] + M[j][i] = 1."""
    m = met.table_of(7)
    assert np.allclose(m + m.T, 1.0)
    assert m[0, 0] == pytest.approx(0.5)


def test_crawford_entries_are_the_cubeless_game_over_the_post_crawford_values(met):
    """Catches a cube in the Crawford game or the wrong table after it: the Crawford game (leader
    needs 1, trailer j) is the start distribution's results, no cube, each valued by the
    post-Crawford table."""
    table, d = met.table, met.table.distribution
    units, draw = table.units()
    for j in range(2, 8):
        total = 0.0
        for lead_white in (True, False):
            lead, trail = (d.white, d.black) if lead_white else (d.black, d.white)
            v = sum(lead)                                       # any win ends the match
            for c, u in enumerate(units):
                v += trail[c] * met.chance(2, 2 * j - u, table.next_colour("b", lead_white), "post")
            v += d.draw * met.chance(2 - draw, 2 * j - draw, table.next_colour(None, lead_white),
                                     "post")
            total += 0.5 * v
        assert met.table_of(7)[0, j - 1] == pytest.approx(total)


def test_post_crawford_trailer_doubles_at_once_and_the_leader_takes(met):
    """Catches post-Crawford play without the trailer's double: at 1-away/2-away the leader holds a
    2-cube, so it wins the match by any win or a draw (both move on 1 point): (1 + draw) / 2 by
    lot."""
    assert met.post_crawford(7)[1] == pytest.approx(0.5 * (1 + met.table.distribution.draw))
    d = match_decision(met.start_probabilities(True), met, (6, 2), True, Cube(), "w")
    assert d.decision == "double, take"


def test_no_double_in_the_crawford_game(met):
    """Catches a double offered in the Crawford game (a Crawford flag where nobody needs 1 point is
    the match state's check, tests/test_stakes.py)."""
    d = match_decision(plain(0.9), met, (6, 2), True, Cube(), "w", crawford=True)
    assert (d.decision, d.double_take, d.reason) == ("no double", None,
                                                     "the Crawford game: no double")


def test_match_take_point_meets_double_pass(met):
    """Catches a take point that is not where double/take equals double/pass at the score."""
    d = match_decision(plain(0.6), met, (10, 10), True, Cube(), "w")
    p = 1 - d.take_point
    at = match_decision(plain(p), met, (10, 10), True, Cube(), "w")
    assert at.double_take == pytest.approx(at.double_pass, abs=1e-6)


def test_races_use_the_measured_race_efficiency_and_contact_the_default():
    """Catches one efficiency for every phase: a 10-checker race (beyond the exact cubeful database)
    uses 0.006 a roller's pip (55 pips: 0.33), a contact position the unmeasured contact value
    0.68."""
    from nardy_cli.match.cube_decision import cube_decision, efficiency_of
    from nardy_cli.core.position import Position
    race = Position.parse("W:19x5,20x5 B:19x5,20x5 w")
    d = cube_decision(race, MONEY.with_cube(Cube()))
    assert (d.exact, d.efficiency) == (False, pytest.approx(0.33))
    assert efficiency_of(Position.parse("start")) == 0.68


def test_a_cube_decision_comes_before_the_roll():
    """Catches a cube decision judged after the dice are known (the network's chances of the best
    play)."""
    from nardy_cli.match.cube_decision import cube_decision
    from nardy_cli.core.position import Position
    with pytest.raises(CubeError, match="comes before the roll"):
        cube_decision(Position.parse("W:1x14,12 B:1x15 b 6-5"), MONEY.with_cube(Cube()))


def test_too_good_when_the_mars_is_worth_more_than_the_cash():
    """Catches a double shown as right where playing on for the mars beats the opponent's pass."""
    probs = np.array([0.2, 0, 0.75, 0, 0.05, 0, 0, 0, 0.0])
    d = money_decision(probs, FED.points, Cube(), "w", 0.68)
    assert d.decision == "too good" and d.no_double > 1.0


def test_a_sure_draw_before_the_last_roll_with_the_rollers_cube_has_a_decision():
    """Bug caught: the take point's division by zero (W = L = 0 at cube efficiency 0) when Black,
    owning the cube before its last roll (R8), draws with any roll: `eval` and the cube game loop
    (a rollout of W:1x14,12 B:1x15 b, seed 5, game 33) raised ZeroDivisionError."""
    from nardy_cli.core.position import parse_position
    from nardy_cli.match.cube import Cube
    from nardy_cli.match.cube_decision import cube_decision
    from nardy_cli.match.stakes import Stakes
    d = cube_decision(parse_position("W:- B:23,24 b"), Stakes(cube=Cube(2, "black")))
    assert d.decision == "no double" and d.no_double == 0.0 and d.last_roll
