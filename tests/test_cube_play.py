"""Bots with the cube: the compiled Janowski model against an independent one, games played with the
cube (passes, Jacoby, never doubling), cubeful rollouts and duels, and their command-line
options."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.match.cube import Cube, CubeBots, money_decision, money_equity
from nardy_cli.match.stakes import Stakes
from nardy_cli.games.duel import duel
from nardy_cli.core.errors import ArgumentError, CubeError, PolicyError
from nardy_cli.kernels import cube as kc
from nardy_cli.kernels.codes import DRAW, KOKS, LOSE_BASE, MARS, OIN, WIN_BASE
from nardy_cli.core.position import parse_position
from nardy_cli.analysis.rollout import rollout
from nardy_cli.core.rules import PRESETS
from nardy_cli.games.scoring import Scoring

FED = PRESETS["federation"]
REPLY = parse_position("W:1x14,12 B:1x15 b")
# White wins 93%: double, pass (exact chances, race x)
PASS_RACE = parse_position("W:22x2,23 B:19x4 w")
# the cubeless rollout that plays the cube loop's games
PLAIN = Scoring(exact_bearoff=False, vr=False)
NEVER = CubeBots(white="nodouble", black="nodouble")
CUBE = Stakes(cube=Cube())     # money games with the cube centred


def reference_equity(p, w, lo, owner, x):
    """Janowski's money equity written out independently (numpy, the live cube's three segments)."""
    dead = p * (w + lo) - lo
    tp = np.clip((lo - 0.5) / (w + lo + 0.5), 0, 1)
    cp = np.clip((lo + 1.0) / (w + lo + 0.5), 0, 1)
    if owner == "roller":
        live = 1.0 if p >= cp else -lo + (1 + lo) * p / cp
    elif owner == "centre":
        live = -1.0 if p <= tp else 1.0 if p >= cp else -1 + 2 * (p - tp) / (cp - tp)
    else:
        live = -1.0 if p <= tp else -1 + (w + 1) * (p - tp) / (1 - tp)
    return (1 - x) * dead + x * live


def test_compiled_janowski_equity_equals_an_independent_model_on_random_inputs():
    """Catches the one compiled copy of the money model (which cube.py and the cube game loop share)
    drifting from Janowski's formula: a wrong live segment, take or cash point, or the interpolation
    with x."""
    rng = np.random.default_rng(7)
    for _ in range(3000):
        p, x = rng.random(), rng.random()
        w, lo = 1 + rng.random() * 1.5, 1 + rng.random() * 1.5
        owner = ("centre", "roller", "opponent")[rng.integers(3)]
        assert money_equity(p, w, lo, owner,
                            x) == pytest.approx(reference_equity(p, w, lo, owner, x), abs=1e-12)


def test_compiled_cube_decision_equals_the_reference_decision_on_random_chances():
    """Catches the kernel's decision (which the bots act on) differing from the three equities'
    rule: double when the opponent's best answer beats playing on, pass when double/take exceeds +1,
    too good otherwise."""
    rng = np.random.default_rng(11)
    names = ("no double", "double, take", "double, pass", "too good")
    for _ in range(2000):
        probs = rng.dirichlet(np.ones(9) * 0.7)
        x = rng.random()
        (code, _, nd, dt,
         _) = kc.money_cube(probs, np.array([1.0, 2, 2, 2]), kc.CENTRE, False, False, x)
        d = money_decision(probs, FED.points, Cube(), "w", x)
        assert (names[code], nd, dt) == (d.decision, pytest.approx(d.no_double),
                                         pytest.approx(d.double_take))
        answer = min(dt, 1.0)
        if nd < answer:
            assert names[code] == ("double, take" if dt <= 1.0 else "double, pass")
        else:
            assert names[code] in ("no double", "too good")


def test_a_cubeful_rollout_that_never_doubles_is_the_cubeless_rollout():
    """Catches the cube loop playing other games than the plain loop (another dice or policy stream,
    a turn skipped) or scoring them differently: nobody doubles, so with the same seed every figure
    is the same."""
    cubeful = rollout(REPLY, "heuristic", games=144, seed=5, rules=FED, stakes=CUBE,
                      cube_bots=NEVER)
    plain = rollout(REPLY, "heuristic", games=144, seed=5, rules=FED, scoring=PLAIN)
    assert cubeful.probabilities == plain.probabilities and cubeful.deficit == plain.deficit
    assert cubeful.mean_plies == plain.mean_plies
    assert cubeful.cube["equity"] == pytest.approx(plain.equity, abs=1e-9)
    assert cubeful.cube["equity_se"] == pytest.approx(plain.equity_se, abs=1e-9)
    assert (cubeful.cube["doubled_share"], cubeful.cube["passed_share"]) == (0.0, 0.0)


def test_a_passed_double_scores_the_cube_before_the_double():
    """Catches a pass scored at the doubled value, or the game played on after it: White, 93% to
    win, redoubles its 2-cube and Black passes in every game, so White wins one starting cube (2
    points) each game."""
    result = rollout(PASS_RACE, "heuristic", games=72, seed=1, rules=FED,
                     stakes=Stakes(cube=Cube(2, "white")))
    assert result.cube["equity"] == 1.0 and result.cube["equity_se"] == 0.0
    assert (result.cube["doubled_share"], result.cube["passed_share"]) == (1.0, 1.0)
    assert result.mean_plies == 0.0 and result.probabilities["win_oin"] == 1.0


def test_a_taken_double_plays_on_for_twice_the_stake():
    """Catches the taker's own evaluator ignored or the cube not doubled: a side that always takes
    takes the same double, and every game is then worth 2 points a win (no mars in this race)."""
    result = rollout(PASS_RACE, "heuristic", games=72, seed=1, rules=FED,
                     stakes=CUBE, cube_bots=CubeBots(white="model", black="nodouble"))
    assert result.cube["passed_share"] == 0.0 and result.cube["doubled_share"] == 1.0
    won = result.probabilities["win"] - result.probabilities["lose"]
    assert result.cube["equity"] == pytest.approx(2.0 * won)


def test_the_opponents_cube_is_not_doubled():
    """Catches a side doubling a cube its opponent owns: Black owns the 2-cube, so White, though 93%
    to win, cannot double, and the games are worth their cubeless points."""
    result = rollout(PASS_RACE, "heuristic", games=72, seed=1, rules=FED,
                     stakes=Stakes(cube=Cube(2, "black")),
                     cube_bots=CubeBots(white="model", black="nodouble"))
    assert result.cube["doubled_share"] == 0.0
    assert result.cube["equity"] == pytest.approx(result.probabilities["win"]
                                                  - result.probabilities["lose"])


def test_jacoby_counts_no_mars_in_a_game_never_doubled():
    """Catches Jacoby ignored in the game loop: with a centred cube never turned every win and loss
    counts one point, mars and koks included; without Jacoby the same games are worth their cubeless
    points."""
    jac = rollout(REPLY, "heuristic", games=144, seed=5, rules=FED,
                  stakes=Stakes(cube=Cube(jacoby=True)), cube_bots=NEVER)
    assert jac.probabilities["win_koks"] > 0
    assert jac.cube["equity"] == pytest.approx(jac.probabilities["win"] - jac.probabilities["lose"],
                                               abs=1e-9)
    plain = rollout(REPLY, "heuristic", games=144, seed=5, rules=FED, stakes=CUBE,
                      cube_bots=NEVER)
    assert plain.cube["equity"] == pytest.approx(plain.equity, abs=1e-9)


def test_game_points_are_class_points_times_the_cube_and_jacoby_only_before_a_double():
    """Catches a game's value not multiplied by the cube, a loss not negative, a draw not 0, or
    Jacoby's oin applied to a doubled game: the loop passes Jacoby only while no double was made."""
    pts = np.array([1.0, 2.0, 2.0, 2.0])
    assert kc.game_points(WIN_BASE + MARS, pts, 4, False) == 8.0
    assert kc.game_points(LOSE_BASE + KOKS, pts, 2, False) == -4.0
    assert kc.game_points(LOSE_BASE + OIN, pts, 2, False) == -2.0
    assert kc.game_points(WIN_BASE + KOKS, pts, 1, True) == 1.0
    assert kc.game_points(DRAW, pts, 8, False) == 0.0


def test_cube_rollouts_refuse_cubeless_scoring_matches_and_sides_without_an_evaluator():
    """Catches a cubeful equity mixed with cubeless bear-off scores or a luck network, a match
    rolled out with the money cube, or a random bot asked to judge a double or to value its
    rolls' luck (VR with the cube; tests/test_cube_vr.py)."""
    with pytest.raises(PolicyError, match="variance reduction with the cube"):
        rollout(REPLY, ("random", "heuristic"), games=10, stakes=CUBE, scoring=Scoring(vr=True),
                cube_bots=CubeBots(white="nodouble"))
    with pytest.raises(ArgumentError, match="exact_bearoff"):
        rollout(REPLY, "heuristic", games=10, stakes=CUBE, scoring=Scoring(exact_bearoff=True))
    from nardy_cli.match.state import match_state
    with pytest.raises(CubeError, match="money games"):
        rollout(REPLY, "heuristic", games=10, stakes=Stakes(match_state(7, "0-0"), Cube()))
    with pytest.raises(PolicyError, match="'random' has no evaluator"):
        rollout(REPLY, "random", games=10, stakes=CUBE)
    # a side that never doubles may
    rollout(REPLY, ("random", "heuristic"), games=10, stakes=CUBE,
            cube_bots=CubeBots(white="nodouble"))


def test_a_cube_duel_where_nobody_doubles_is_the_plain_duel():
    """Catches the duel's cube sums taken from the wrong game of a pair or with the wrong sign:
    without doubles A's points per game with the cube are its plain points per game."""
    plain = duel("heuristic", "racer", games=144, seed=3, rules=FED)
    cubeful = duel("heuristic", "racer", games=144, seed=3, rules=FED,
                   stakes=CUBE, cube_bots=NEVER)
    assert cubeful.points_per_game == plain.points_per_game
    assert cubeful.cube["points_per_game"] == pytest.approx(plain.points_per_game, abs=1e-9)
    assert cubeful.cube["se"] == pytest.approx(plain.se, abs=1e-9)


def test_a_cube_duel_credits_the_doubler_on_both_colours():
    """Catches the cube behaviours not following A and B when they change colours in a pair: A
    doubles and B only takes, so from a race A leads by 93% the doubled games favour A from
    whichever side it plays."""
    result = duel("heuristic", "heuristic", games=72, seed=3, rules=FED, position=PASS_RACE,
                  stakes=CUBE, cube_bots=CubeBots(white="model", black="nodouble"))
    # A on White doubles and wins about 2 x 0.9; B on White is not doubled by A (it is B who is
    # ahead)
    assert result.points_per_game == 0.0
    assert result.cube["points_per_game"] > 0.3
    assert result.cube["doubled_share"] == 0.5


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("args, message", [
    (["rollout", "start", "--never-double", "white"],
     "Error: --never-double needs --cube-owner centre|white|black (a rollout with the cube)"),
    (["rollout", "start", "--policy", "heuristic", "--cube-owner", "centre", "--truncate", "20"],
     "Error: --truncate cannot be used with the cube: games with the cube are played to their "
     "end"),
    (["rollout", "start", "--cube-owner", "centre", "--policy", "random"],
     "Error: policy 'random' has no evaluator of outcome chances (heuristic or neural), "
     "so it cannot use the cube: give that side the 'nodouble' cube behaviour"),
    (["rollout", "start", "--policy", "heuristic", "--cube-owner", "centre", "--match", "7",
      "--output", "x"],
     "Error: --output: a rollout with the cube at a match score writes no report folder yet; "
     "use --format json"),
    (["rollout", "start", "--policy", "random", "--cube-owner", "centre", "--match", "7",
      "--never-double", "both", "--vr"],
     "Error: policy 'random' has no evaluator of outcome chances, so variance reduction with the "
     "cube cannot value its rolls: drop --vr"),
    (["duel", "heuristic", "racer", "--never-double", "b"], "Error: --never-double needs --cube"),
    (["duel", "heuristic", "racer", "--jacoby"], "Error: --jacoby needs --cube"),
    (["duel", "heuristic", "racer", "--cube", "--match", "7"],
     "Error: policy 'racer' has no evaluator of outcome chances (heuristic or neural), "
     "so it cannot use the cube: give that side the 'nodouble' cube behaviour"),
    (["duel", "heuristic", "heuristic", "--cube", "--jacoby", "--match", "7"],
     "Error: --jacoby is a money-game rule, not for a match to 7"),
])
def test_bad_cube_play_options_are_one_line_errors(args, message):
    """Catches a bad combination of the cube options running anyway or ending in a traceback: one
    line, exit 2."""
    out = run(*args)
    assert (out.exit_code, out.output) == (2, message + "\n")


def test_rollout_cube_line_and_json():
    """Catches the cubeful figures missing from the table or the JSON `cube` key: White redoubles
    and Black passes in all 36 games, +1 starting cube a game."""
    out = run("rollout", str(PASS_RACE), "--policy", "heuristic", "--cube-owner", "white", "--cube",
              "2", "--games", "36", "--workers", "1", "-q")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[-1] == (
        "with the cube (cube 2, White's; white uses the cube, black uses the cube): "
        "cubeful equity +1.0000 ± "
        "0.0000 per starting cube; doubled in 100.0% of games, passed in 100.0% (the table "
        "counts a passed double as the doubler's oin)")
    out = run("rollout", str(PASS_RACE), "--policy", "heuristic", "--cube-owner", "white", "--cube",
              "2", "--games", "36", "--workers", "1", "-q", "--format", "json")
    data = json.loads(out.output)
    assert data["cube"] == {"equity": 1.0, "equity_se": 0.0, "doubled_share": 1.0,
                            "passed_share": 1.0}
    assert data["params"]["cube"]["start"]["owner"] == "white"


def test_duel_cube_line():
    """Catches the duel's cube figures missing from its table or naming the wrong side as never
    doubling."""
    out = run("duel", "heuristic", "neural", "--position", str(PASS_RACE), "--cube",
              "--never-double", "b", "--games", "72", "--workers", "1", "-q")
    assert out.exit_code == 0, out.output
    last = out.output.splitlines()[-1]
    assert last.startswith("with the cube (cube 1, centred; neural never doubles and always "
                           "takes): points per game for heuristic: +")
    assert "% of games, passed in 0.0%" in last


def test_played_cube_games_are_the_cube_loops_games():
    """Catches `play --cube` deciding the cube otherwise than the compiled cube loop (another
    evaluator, the cube's owner or value not followed, a drop not ending the game) or its records
    scoring the cube wrongly: White's points over the recorded games are the unstratified cubeful
    rollout's, game for game the same dice."""
    from nardy_cli.core.position import START
    from nardy_cli.records.game_record import format_game, parse_game
    from nardy_cli.games.selfplay import play_games, points_for_white
    played = play_games("heuristic", "heuristic", 24, seed=9, stakes=CUBE)
    result = rollout(START, "heuristic", games=24, seed=9, rules=FED, stratify=False, stakes=CUBE)
    points = [points_for_white(r) for r in played.records]
    assert np.mean(points) == pytest.approx(result.cube["equity"], abs=1e-12)
    assert sum(r.dropped is not None
               for r in played.records) == round(24 * result.cube["passed_share"])
    again = parse_game(format_game(played.records[0]))
    assert points_for_white(again) == points[0]


def test_play_cube_writes_the_cube_actions():
    """Catches `play --cube` writing a record without its cube actions: White doubles before its
    second roll and Black drops."""
    out = run("play", "heuristic", "heuristic", "--cube", "--seed", "3", "--date", "2026.12.01")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[-3:] == ["1.   5-5: 1/21               5-3: 1/6",
                                            "2.   Doubles => 2 Drops", "*"]
