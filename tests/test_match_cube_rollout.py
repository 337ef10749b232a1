"""Cubeful rollouts at a match score (issue 42, item 1): `rollout --match N --score A-B
--cube-owner ...` rolls out no double and double/take on the same dice and values double/pass
exactly; the figures are checked against the exact values of a race that ends in one roll."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from nardy_cli.analysis.match_cube_rollout import match_cube_rollout
from nardy_cli.commands.cli import cli
from nardy_cli.core.position import parse_position
from nardy_cli.core.rules import PRESETS
from nardy_cli.games.match_cube_games import match_cube_values, taken_stakes
from nardy_cli.games.scoring import Scoring
from nardy_cli.games import policy_pair
from nardy_cli.match.cube import Cube, CubeBots
from nardy_cli.match.cube_decision import cube_decision
from nardy_cli.match.stakes import Stakes
from nardy_cli.match.state import MatchState

RULES = PRESETS["federation"]
# White bears off both checkers with any roll; Black, on its last roll, draws with any double
DRAWN_RACE = "W:24x2 B:23,24x2 w"


def test_a_one_roll_race_rolls_out_to_its_exact_match_values():
    """Bug caught: a game's end valued wrongly at the score (the cube not multiplying the points, a
    draw not worth the draw points times the cube, the colours of the values after the game
    swapped, a pass not the doubler's oin at the cube): at 3-4 to 7 the rolled-out no double and
    double/take of `W:24x2 B:23,24x2 w` (Black may double before its last roll) must meet the
    exact values within 4 SE, and double/pass equal them."""
    stakes = Stakes(MatchState(7, (3, 4)), Cube())
    exact = cube_decision(parse_position(DRAWN_RACE), stakes, RULES)
    assert exact.exact
    r = match_cube_rollout(parse_position(DRAWN_RACE), "heuristic", stakes=stakes, rules=RULES,
                           games=648, seed=3)
    assert r.games == 648 and r.double_pass == pytest.approx(exact.double_pass, abs=1e-12)
    for got, want in ((r.no_double, exact.no_double), (r.double_take, exact.double_take)):
        assert abs(got.mean - want) <= 4 * got.se + 1e-12, (got, want)
    assert r.decision == exact.decision == "double, pass"


def test_no_double_and_double_take_are_played_on_the_same_dice():
    """Bug caught: the two branches of a cube decision played on different dice (another seed or
    game numbers), which loses the common random numbers: with neither side doubling the games
    are the same, so every game's double/take chance is the same game's result at a 2-cube, and
    the paired difference's SE is well below that of independent branches."""
    pos = parse_position("W:1x14,12 B:1x15 b")
    stakes = Stakes(MatchState(5, (1, 1)), Cube())
    white, black = policy_pair("heuristic")
    bots = CubeBots("nodouble", "nodouble")
    nd = match_cube_values(pos, white, black, RULES, stakes, bots, 7, 0, 40, hold_first=True)
    dt = match_cube_values(pos, white, black, RULES, taken_stakes(stakes, "b"), bots, 7, 0, 40)
    # the same games: each game's result at cube 1 fixes its value at cube 2
    pairs = {(round(a, 12), round(b, 12)) for a, b in zip(nd, dt)}
    assert len(pairs) == len({round(a, 12) for a in nd}) >= 3
    r = match_cube_rollout(pos, "heuristic", stakes=stakes, rules=RULES, games=40, seed=7,
                           cube_bots=bots)
    # independent branches would give the root of the sum of squares
    assert r.take_minus_no_double.se < 0.75 * (r.no_double.se ** 2 + r.double_take.se ** 2) ** 0.5


def test_no_decision_where_the_roller_cannot_double():
    """Bug caught: a double/take branch rolled out from the opponent's cube or in the Crawford
    game, where the roller has no cube decision."""
    pos = parse_position(DRAWN_RACE)
    owned = match_cube_rollout(pos, "heuristic", stakes=Stakes(MatchState(7, (3, 4)),
                                                               Cube(2, "black")),
                               games=40, seed=1)
    crawford = match_cube_rollout(pos, "heuristic", stakes=Stakes(MatchState(7, (6, 3),
                                                                             crawford=True),
                                                                  Cube()), games=40, seed=1)
    for r in (owned, crawford):
        assert r.double_take is None and r.decision is None and "double_take" not in r.to_dict()


def test_vr_makes_a_one_roll_race_exact_at_a_score():
    """Bug caught: the cubeful luck at a match score measured from the wrong side's value table, in
    the wrong colour's view, at the wrong cube level, or not matching the value the game's end is
    given: in `W:24x2 B:23,24x2 w` only Black's last roll is luck (every White roll bears off), so
    each game's value less its luck is the exact chance itself: no double and double/take meet
    `cube_decision`'s exact values with no spread at all."""
    stakes = Stakes(MatchState(7, (3, 4)), Cube())
    exact = cube_decision(parse_position(DRAWN_RACE), stakes, RULES)
    r = match_cube_rollout(parse_position(DRAWN_RACE), "heuristic", stakes=stakes, rules=RULES,
                           games=72, seed=3, scoring=Scoring(vr=True))
    assert r.params["vr"] and r.params["plain"]["no_double"]["se"] > 0.003
    for got, want in ((r.no_double, exact.no_double), (r.double_take, exact.double_take)):
        assert got.mean == pytest.approx(want, abs=1e-9) and got.se < 1e-9, (got, want)


def test_the_command_rolls_out_a_match_cube_decision():
    """Bug caught: `nardy rollout --match 7 --score 3-4 --cube-owner centre` refused ("rollouts
    with the cube are money games", issue 42) or its JSON without the three branches."""
    out = CliRunner().invoke(cli, ["rollout", DRAWN_RACE, "--policy", "heuristic", "--match", "7",
                                   "--score", "3-4", "--cube-owner", "centre", "--games", "108",
                                   "-q", "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["decision"] == "double, pass" and data["games"] == 108
    assert set(data) >= {"no_double", "double_take", "double_pass", "take_minus_no_double"}
    text = CliRunner().invoke(cli, ["rollout", DRAWN_RACE, "--policy", "heuristic", "--match",
                                    "7", "--score", "3-4", "--cube-owner", "centre", "--games",
                                    "108", "-q"])
    assert text.exit_code == 0 and "rolled-out decision: double, pass" in text.output
