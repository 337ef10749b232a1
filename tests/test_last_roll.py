"""Black's last roll (R8) in every evaluator, against the rules written out here and a rollout.

When White has borne off its 15th checker and every Black checker left is in
Black's home, Black plays one more turn: it draws when it bears off every checker
in it, else White wins, the class judged on Black's position after that turn (R9).
`last_roll_chances` below computes that from the brute-force enumerator
(`tests/bruteforce.py`), sharing no code with the engine.  `W:- B:20 b` is the case
of issue 41: the one Black checker five pips from the exit comes off with every
roll but 1-1, 2-1 and 3-1, so Black draws 31 times in 36 and loses an oin 5 times.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.core.outcomes import RESULT_KEYS, money_valuation
from nardy_cli.core.position import Position, mover_board
from nardy_cli.core.rules import make_rules
from nardy_cli.kernels import board as kbd
from nardy_cli.kernels.evaluate import NEURAL, choice_scratch
from nardy_cli.kernels.features import opponent_terms
from nardy_cli.kernels.turnpass import turn_scores
from nardy_cli.kernels.value import value_probs, value_scratch
from nardy_cli.kernels import neural as kn
from nardy_cli.match.cube import Cube
from nardy_cli.match.cube_decision import cube_decision, cubeful_table
from nardy_cli.match.stakes import Stakes, stakes_valuation
from nardy_cli.match.state import MatchState, match_table
from nardy_cli.policies.bearoff import bearoff_value, empty_tables, tables
from nardy_cli.policies.estimate import neural_estimate
from nardy_cli.policies.network import default_network, result_probabilities
from nardy_cli.games.scoring import logistic_coefficients
from tests.bruteforce import brute_force_results

FED = make_rules()
ROLLS = [(h, lo) for h in range(6, 0, -1) for lo in range(h, 0, -1)]
ISSUE = "W:- B:20 b"
# Black's last roll with one, three and fifteen checkers (the last one none off yet: home-mars)
LAST_ROLLS = [ISSUE, "W:- B:19x2,20 b", "W:- B:22,23,24 b", "W:- B:21,24 b", "W:- B:19 b",
              "W:- B:19x5,20x5,21x5 b", "W:- B:19x7,24x8 b", "W:- B:20x3,21x2,22,23x4 b"]


def last_roll_chances(text: str) -> dict[str, float]:
    """Black's chances in its last roll (RULES.md R8, R9): for each roll the best of its legal
    results, a draw if one has no Black checker left, else a loss by oin if one has a checker off,
    else by home-mars."""
    pos = Position.parse(text)
    draw = oin = home_mars = 0.0
    for roll in ROLLS:
        w = (1 if roll[0] == roll[1] else 2) / 36
        left = [sum(Position.parse(r).black) for r in brute_force_results(pos, roll, "federation",
                                                                          "step")]
        if min(left) == 0:
            draw += w
        elif min(left) < 15:
            oin += w
        else:
            home_mars += w
    return {"draw": draw, "lose_oin": oin, "lose_home_mars": home_mars}


def white_finished_board(text: str) -> np.ndarray:
    """The board White has just left by bearing off its 15th checker, seen by White (the
    evaluators' input)."""
    pos = Position.parse(text)
    return mover_board(pos.checkers("w"), pos.checkers("b"))


def test_the_issue_position_draws_31_times_in_36():
    """Bug caught (issue 41): the rules' own figure mis-stated here, so every check below would test
    against a wrong number."""
    assert last_roll_chances(ISSUE) == pytest.approx({"draw": 31 / 36, "lose_oin": 5 / 36,
                                                      "lose_home_mars": 0.0}, abs=1e-15)


@pytest.mark.parametrize("text", LAST_ROLLS)
def test_bearoff_databases_value_the_last_roll(text):
    """Bug caught (issue 41): the bear-off databases scoring Black's last roll as a sure loss (the
    two-sided database had no entry for a side with no checker left; the one-sided convolution
    gave nothing at all), so `nardy eval "W:- B:20 b"` said lose 1.000."""
    want = last_roll_chances(text)
    got = bearoff_value(Position.parse(text), FED)
    assert got.exact
    for key, p in want.items():
        assert got.probabilities[key] == pytest.approx(p, abs=1e-12), key
    assert got.probabilities["win"] == 0.0
    assert got.equity == pytest.approx(-want["lose_oin"] - 2 * want["lose_home_mars"], abs=1e-12)
    estimate = neural_estimate(Position.parse(text), FED)
    assert estimate.probabilities == got.probabilities


def test_the_two_sided_database_holds_the_last_roll():
    """Bug caught (issue 41): the two-sided database's entries for Black to roll with White off left
    at zero (a sure loss), read by anyone who looks a race up by its ranks."""
    from nardy_cli.kernels import bearoff as kb
    race = tables(FED)
    out = np.zeros(9)
    for text in LAST_ROLLS[:5]:
        want = last_roll_chances(text)
        home = np.array(Position.parse(text).checkers("b")[18:], dtype=np.int8)
        small = kb.rank(home, kb.N_TWO, kb.COMP)
        kb.race_probabilities(kb.rank(home, 15, kb.COMP), 0, small, 0, False, True, race.all_dist,
                              race.first_dist, race.win2, race.draw2, out)
        assert out[kb.DRAW] == pytest.approx(want["draw"], abs=1e-12)
        assert out[kb.LOSE_BASE + kb.OIN] == pytest.approx(want["lose_oin"], abs=1e-12)


def test_without_the_last_roll_black_has_lost():
    """Bug caught: the last roll's draw given under rules without R8 (`--no-last-roll`), where
    White has won when it bore off its 15th checker... and the position is over."""
    from nardy_cli.core.errors import NardyError
    with pytest.raises(NardyError):
        bearoff_value(Position.parse(ISSUE), make_rules(last_roll=False))


@pytest.mark.parametrize("text", LAST_ROLLS)
def test_network_scores_the_board_before_the_last_roll_exactly(text):
    """Bug caught (issue 41): the network guessing the board White leaves when it bears off its
    last checker (draw 0.926 and a loss of 0.004 for White in `W:24 B:20 w 6-5`), in its full pass,
    its turn pass (the chooser's) and the value kernel with and without the databases."""
    want = last_roll_chances(text)
    expected = np.zeros(9)
    expected[RESULT_KEYS.index("draw")] = want["draw"]
    expected[RESULT_KEYS.index("win_oin")] = want["lose_oin"]
    expected[RESULT_KEYS.index("win_home_mars")] = want["lose_home_mars"]
    board = white_finished_board(text)
    full = result_probabilities(board[None], np.array([True]), FED)[0]
    np.testing.assert_allclose(full, expected, atol=1e-12)
    values = money_valuation(FED).kernel_values()
    params = default_network().kernel_params(FED)
    s = choice_scratch()
    scores = np.zeros(4)
    for net, hidden in ((kn.layers(params), s.hidden),
                        (kn.single_precision(params), s.hidden32)):
        opponent_terms(board, s.opp)
        turn_scores(net, True, values, board[None], 1, True, s.opp, s.feats, s.idx, s.val,
                    s.mask, hidden, s.probs, scores)
        assert scores[0] == pytest.approx(expected @ values[0], abs=1e-12)
    out = np.zeros(9)
    for race in (empty_tables(), tables(FED).arrays()):
        value_probs(board, True, True, NEURAL, params, race, logistic_coefficients(), s,
                    value_scratch(), out)
        np.testing.assert_allclose(out, expected, atol=1e-12)


def test_eval_prints_the_last_roll_draw_and_its_match_chance():
    """Bug caught (issue 41): `nardy eval "W:- B:20 b"` printing "lose 1.000, draw 0.000", and the
    same loss at a match score (`--match 7 --score 5-6`)."""
    runner = CliRunner()
    got = runner.invoke(cli, ["eval", ISSUE])
    assert got.exit_code == 0, got.output
    assert "draw  0.861" in got.output and "lose  0.139" in got.output
    got = runner.invoke(cli, ["eval", ISSUE, "--match", "7", "--score", "5-6", "--format", "json"])
    assert got.exit_code == 0, got.output
    record = json.loads(got.output)
    valuation = stakes_valuation(Stakes(match=MatchState(7, (5, 6))), FED)
    black = valuation.for_side(False)
    want = valuation.chance(31 / 36 * black[RESULT_KEYS.index("draw")]
                            + 5 / 36 * black[RESULT_KEYS.index("lose_oin")])
    assert record["mwc"] == pytest.approx(want, abs=1e-12)
    assert record["probabilities"]["draw"] == pytest.approx(31 / 36, abs=1e-12)


def test_the_cube_before_the_last_roll_is_dead_and_exact():
    """Bug caught (issue 41): Black's cube decision before its last roll taken from a sure loss, or
    from Janowski's live-cube model, though the game ends with this roll: for money no double at
    -5/36 a cube; at 5-6 to 7 a double White must take, since a draw at cube 2 gives Black its
    last point (RULES decision 25) and a loss gives White its two."""
    pos = Position.parse(ISSUE)
    money = cube_decision(pos, Stakes(cube=Cube()), FED)
    assert money.decision == "no double" and money.exact and money.last_roll
    assert money.no_double == pytest.approx(-5 / 36, abs=1e-12)
    assert money.double_take == pytest.approx(-10 / 36, abs=1e-12)
    match = MatchState(7, (5, 6))
    at_score = cube_decision(pos, Stakes(match=match, cube=Cube()), FED)
    met = cubeful_table(match_table(match, FED))
    # Black needs 2 half points, White 4: after a draw 1 and 3, after White's oin 2 and 2
    want = (31 / 36 * met.after(1, 3, None, False, "post")
            + 5 / 36 * met.after(2, 2, "b", False, "post"))
    assert at_score.decision == "double, take" and at_score.exact and at_score.last_roll
    assert at_score.no_double == pytest.approx(want, abs=1e-12)
    assert at_score.double_take == pytest.approx(31 / 36, abs=1e-12)
    assert at_score.double_pass == 1.0


def test_a_rollout_agrees_with_the_database():
    """Bug caught: the database and the games disagreeing about the last roll (one of them wrong):
    a stratified rollout of 36 games plays each roll once, so it is exact here."""
    from nardy_cli.analysis.rollout import rollout
    result = rollout(Position.parse(ISSUE), "neural", games=36, seed=1, rules=FED)
    assert result.probabilities["draw"] == pytest.approx(31 / 36, abs=1e-12)
    assert result.probabilities["lose_oin"] == pytest.approx(5 / 36, abs=1e-12)


def test_the_turn_before_the_last_roll_is_valued_by_it():
    """Bug caught: White's play that bears off its 15th checker valued as a sure win (the last roll
    forgotten) or as the network's guess, in `eval` with dice."""
    got = neural_estimate(Position.parse("W:24 B:20 w 6-5"), FED)
    assert got.probabilities["draw"] == pytest.approx(31 / 36, abs=1e-12)
    assert got.probabilities["win_oin"] == pytest.approx(5 / 36, abs=1e-12)
    assert got.probabilities["lose"] == 0.0
    assert kbd.DRAW == RESULT_KEYS.index("draw")
