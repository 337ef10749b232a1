"""Variance reduction with the cube (issue 42, item 2): each roll's luck measured in cubeful terms
(`kernels/cube.py`'s `roll_luck`) and subtracted from the game's cubeful points; the plain and the
reduced estimates agree, and where the model is exact the reduced value is exact."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from nardy_cli.analysis.rollout import rollout
from nardy_cli.commands.cli import cli
from nardy_cli.core.position import parse_position
from nardy_cli.core.rules import PRESETS
from nardy_cli.games.scoring import Scoring
from nardy_cli.match.cube import Cube, CubeBots
from nardy_cli.match.stakes import Stakes

RULES = PRESETS["federation"]
# White bears off both checkers with any roll; Black, on its last roll, draws with any double
DRAWN_RACE = "W:24x2 B:23,24x2 w"
CONTACT = "W:1x14,12 B:1x15 b"


def _cube(position: str, vr: bool, games: int, policy: str = "neural", seed: int = 5,
          bots: CubeBots = CubeBots()) -> dict:
    return rollout(parse_position(position), policy, games=games, seed=seed, rules=RULES,
                   stakes=Stakes(cube=Cube()), scoring=Scoring(vr=vr), workers=1,
                   cube_bots=bots).cube


def test_vr_makes_a_one_roll_race_exact_for_money():
    """Bug caught: the money luck not scaled by the cube at the roll (after a double the game is
    worth twice as much), or not valued as the game's end is (a draw 0, a win its class's points):
    in `W:24x2 B:23,24x2 w` only Black's last roll is luck, so every game's points less its luck
    are the same number, the exact equity (White doubles at once, Black always takes)."""
    cube = _cube(DRAWN_RACE, True, 72, "heuristic", bots=CubeBots("model", "nodouble"))
    # White wins an oin at a 2-cube unless Black rolls a double (a draw): 2 x 5/6; the SE left is
    # the fixed-point sums' rounding (2**-20 a game)
    assert cube["doubled_share"] == 1.0 and cube["passed_share"] == 0.0
    assert cube["plain_equity_se"] > 0.05 and cube["equity_se"] < 1e-3
    assert cube["equity"] == pytest.approx(2 * 5 / 6, abs=1e-5)


def test_vr_with_the_cube_agrees_with_plain_and_cuts_the_variance():
    """Bug caught: the luck's sign or view wrong (the spread grows instead of shrinking), or a luck
    whose mean is not 0 (the reduced equity leaves the plain one's interval); with the network's
    chances the variance falls several-fold on a contact position."""
    cube = _cube(CONTACT, True, 324)
    assert abs(cube["equity"] - cube["plain_equity"]) <= 2.5 * cube["plain_equity_se"], cube
    assert cube["equity_se"] < 0.6 * cube["plain_equity_se"], cube


def test_vr_leaves_the_games_as_they_are():
    """Bug caught: measuring the luck changing the games (the plays, the dice or the cube
    actions): the plain figures with VR must be the figures without it, game for game."""
    plain, reduced = _cube(CONTACT, False, 72), _cube(CONTACT, True, 72)
    assert reduced["plain_equity"] == plain["equity"]
    assert reduced["doubled_share"] == plain["doubled_share"]
    assert reduced["passed_share"] == plain["passed_share"]


def test_the_command_rolls_out_with_the_cube_and_vr():
    """Bug caught: `rollout --cube-owner centre --vr` still refused ("games with the cube are played
    to their end"), its line not saying the equity is reduced, or --vr with a policy that has no
    evaluator failing with a traceback."""
    out = CliRunner().invoke(cli, ["rollout", DRAWN_RACE, "--policy", "heuristic", "--cube-owner",
                                   "centre", "--games", "36", "--vr", "-q"])
    assert out.exit_code == 0, out.output
    assert "the equity is variance-reduced by each roll's cubeful luck (without:" in out.output
    bad = CliRunner().invoke(cli, ["rollout", DRAWN_RACE, "--policy", "random", "--cube-owner",
                                   "centre", "--games", "36", "--vr", "-q"])
    assert bad.exit_code == 2 and len(bad.output.splitlines()) == 1, bad.output
    assert bad.output.startswith("Error: ")
