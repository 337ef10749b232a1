"""Play and figures at a match score (docs/matches.md): score-aware choices, exact MWC in bear-offs,
the commands' match options."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from nardy_cli.policies.bearoff import bearoff_value
from nardy_cli.commands.cli import cli
from nardy_cli.core.engine import legal_plays
from nardy_cli.match.stakes import Stakes
from nardy_cli.match.state import match_state, match_table
from nardy_cli.match.table import GameDistribution
from nardy_cli.core.outcomes import money_valuation
from nardy_cli.policies import get_policy
from nardy_cli.core.position import Position, parse_position
from nardy_cli.core.rules import PRESETS

FED = PRESETS["federation"]

# White to play 6-6 in a contact position (found by searching random games for a roll whose best
# play by the network changes with the score):
#   White: 1x2 7 8 10 11 12 14x4 15 16x2 18        Black: 1x5 8x2 9x2 10x3 12 16 17
# Money: 1/7 8/14 11/17 12/18 keeps the back checkers moving; at 6-6 in a match to 7 a mars is worth
# no more than an oin and 1/7 11/17 12/18 17/23 is best.
SCORE_MATTERS = "W:1x2,7,8,10,11,12,14x4,15,16x2,18 B:1x5,8x2,9x2,10x3,12,16,17 w"
# 1/7 8/14 11/17 12/18
MONEY_BEST = "W:1,7x2,10,14x5,15,16x2,17,18x2 B:1x5,8x2,9x2,10x3,12,16,17 b"


def _choice(text: str, dice: str, valuation) -> str:
    """The neural policy's 0-ply choice by the compiled chooser (`choose_play`) under
    `valuation`."""
    from nardy_cli.core.engine import enumerate_board, plays_from_kernel
    from nardy_cli.core.dice import parse_dice
    from nardy_cli.policies.base import Turn
    pos, d = parse_position(text), parse_dice(dice)
    board, _, opp_off = pos.board()
    boards, step_from, step_die, n, nsteps = enumerate_board(board, opp_off, d, FED)
    plays = plays_from_kernel(pos, d, boards, step_from, step_die, n, nsteps)
    turn = Turn(pos.with_dice(d), plays, boards[:n].copy(), FED, valuation,
                np.array([1], dtype=np.uint64), np.random.default_rng(0))
    return str(plays[get_policy("neural").pick(turn)].result)


def test_the_score_changes_the_networks_play():
    """Would catch: the policies choosing by money equity whatever the score (the values array not
    reaching the kernel, or one colour's row used for the other)."""
    money = _choice(SCORE_MATTERS, "6-6", money_valuation(FED))
    at_six_all = _choice(SCORE_MATTERS, "6-6", Stakes(match_state(7, "6-6", FED)).valuation(FED))
    assert money == MONEY_BEST
    assert at_six_all != money
    plays = legal_plays(parse_position(SCORE_MATTERS), "6-6", FED)
    assert at_six_all in {str(p.result) for p in plays}


def test_money_choice_unchanged_by_a_money_valuation_passed_explicitly():
    """Would catch: the default valuation (None) and money under the rules disagreeing."""
    pos = parse_position(SCORE_MATTERS)
    boards = [Position.unchecked(p.result.white, p.result.black, "w").board()[0]
              for p in legal_plays(pos, "6-6", FED)]
    neural = get_policy("neural")
    np.testing.assert_array_equal(neural.static_scores(boards, True, FED),
                                  neural.static_scores(boards, True, FED, money_valuation(FED)))


# Both sides home (the two-sided database is exact): White W20 W20 W23, Black B21 B24 B24; White to
# roll.
BEAROFF = "W:20x2,23 B:21,24x2 w"


@pytest.mark.parametrize("score", ["6-6", "6-5", "5-6"])
def test_bearoff_mwc_is_the_exact_chances_through_the_table(score):
    """Would catch: `eval`'s match winning chance not combining the database's exact chances with
    the table (a wrong score after a result, the wrong colour next, a draw's half point lost)."""
    state = match_state(7, score, FED)
    table = match_table(state, FED)
    p = bearoff_value(parse_position(BEAROFF), FED).probabilities
    sw, sb = state.score
    nw, nb = int(2 * (7 - sw)), int(2 * (7 - sb))
    # a draw: half a point each, lot
    expected = p["draw"] * table.chance(nw - 1, nb - 1, None)
    for i, key in enumerate(("oin", "home_mars", "mars", "koks")):
        pts = 2 * FED.points.as_tuple()[i]
        # White won: White plays White again
        expected += p[f"win_{key}"] * table.chance(nw - pts, nb, True)
        # Black won: the Black player is White
        expected += p[f"lose_{key}"] * table.chance(nw, nb - pts, False)
    out = CliRunner().invoke(cli, ["eval", BEAROFF, "--match", "7", "--score", score, "--format",
                                   "json"])
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    assert got["mwc"] == pytest.approx(expected, abs=1e-12)
    assert "exact" in got["method"]
    assert got["match"]["score"] == [sw, sb]


def test_rollout_at_a_match_reports_mwc_and_money_json_has_none():
    """Would catch: a rollout at a score without its match winning chance, or money JSON gaining
    keys."""
    runner = CliRunner()
    args = ["rollout", BEAROFF, "--policy", "racer", "--games", "200", "--workers", "1", "-q",
            "--format", "json"]
    money = json.loads(runner.invoke(cli, args).output)
    match = json.loads(runner.invoke(cli, args + ["--match", "7", "--score", "6-5"]).output)
    assert "mwc" not in money and "match" not in money["params"]
    assert 0.0 <= match["mwc"] <= 1.0 and match["mwc_se"] >= 0
    assert match["params"]["match"] == {"length": 7, "score": [6.0, 5.0], "next_white": "winner",
                                        "draw_points": 0.5}


def _distribution_file(tmp_path) -> str:
    d = GameDistribution((0.30, 0.02, 0.05, 0.10), (0.25, 0.03, 0.04, 0.11), 0.10,
                         {"white_wins": 0.004}, {"policy": "test", "games": 1000, "seed": 1})
    path = tmp_path / "dist.json"
    path.write_text(json.dumps(d.to_dict()))
    return str(path)


def test_met_prints_the_table_for_a_given_distribution(tmp_path):
    """Would catch: `nardy met` printing another table than the library's, or rows and columns
    swapped."""
    out = CliRunner().invoke(cli, ["met", "--length", "2", "--next-white", "lot", "--distribution",
                                   _distribution_file(tmp_path)])
    assert out.exit_code == 0, out.output
    from nardy_cli.match.table import MatchTable
    m = MatchTable(FED.points.as_tuple(),
                   GameDistribution.from_dict(json.loads(open(_distribution_file(tmp_path))
                                                          .read())),
                   "lot").table(2) * 100
    lines = out.output.splitlines()
    assert lines[2] == "needs      1     2"
    assert lines[3] == f"    1 {m[0, 0]:>6.1f}{m[0, 1]:>6.1f}" == "    1   50.0  65.6"
    assert lines[4] == f"    2 {m[1, 0]:>6.1f}{m[1, 1]:>6.1f}"


def test_met_json_is_the_documented_object(tmp_path):
    """Would catch: JSON whose `table[i-1][j-1]` is not the chance of the player needing i against
    j."""
    out = CliRunner().invoke(cli,
                             ["met", "--length", "3", "--format", "json", "--se", "--distribution",
                              _distribution_file(tmp_path)])
    data = json.loads(out.output)
    t = np.array(data["table"])
    assert data["length"] == 3 and t.shape == (3, 3)
    assert t[0, 2] > t[0, 1] > t[0, 0] == pytest.approx(0.5)
    np.testing.assert_allclose(t + t.T, 1.0)
    assert np.array(data["table_se"]).shape == (3, 3)


def test_met_bad_input_is_one_line(tmp_path):
    """Would catch: a distribution file that is not one, or --save without --measure, as a
    traceback."""
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    for args in (["met", "--distribution", str(bad)], ["met", "--save", str(tmp_path / "x.json")],
                 ["met", "--rules", "classic"]):
        out = CliRunner().invoke(cli, args)
        assert out.exit_code == 2, (args, out.output)
        assert (out.output.startswith("Error: ")
                and len(out.output.strip().splitlines()) == 1), out.output


def test_match_duel_reports_match_wins():
    """Would catch: `duel --match` reporting game points, or pairs counted once."""
    out = CliRunner().invoke(cli, ["duel", "neural", "random", "--match", "1", "--matches", "4",
                                   "--workers", "1", "-q", "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["matches"] == 4 and data["games"] >= 8
    assert data["match_win_share"] == 1.0


@pytest.mark.parametrize("score", ["6-5", "5-6", "2-6", "6-2", "4-6", "6-6"])
def test_kernel_choice_is_the_best_by_the_movers_own_match_values(score):
    """Would catch: the kernel scoring White's results by Black's row of the values (or the
    reverse): its choice must be the play whose network probabilities are worth most by the mover's
    own values."""
    from nardy_cli.policies.judges import NEURAL_EVALUATOR
    valuation = Stakes(match_state(7, score, FED)).valuation(FED)
    plays = legal_plays(parse_position(SCORE_MATTERS), "6-6", FED)
    boards = np.array([Position.unchecked(p.result.white, p.result.black, "w").board()[0]
                       for p in plays])
    probs = NEURAL_EVALUATOR.outcome_probabilities(boards, np.ones(len(plays), dtype=bool), FED)
    best = str(plays[int(np.argmax(probs @ valuation.for_side(True)))].result)
    assert _choice(SCORE_MATTERS, "6-6", valuation) == best


def test_play_match_writes_a_whole_match_that_review_judges_at_each_score(tmp_path):
    """Would catch: `play --match` writing games whose scores do not follow (the record would not
    parse), a match that stops before a player reaches the length, or `review` of a match judging
    every game at 0-0 instead of its own score."""
    from nardy_cli.records.match_record import parse_match
    runner = CliRunner()
    out = runner.invoke(cli, ["play", "neural", "heuristic", "--match", "3", "--seed", "3"])
    assert out.exit_code == 0, out.output
    match = parse_match(out.output)
    assert match.length == 3 and match.is_over and max(match.final_score) >= 3
    path = tmp_path / "m.txt"
    path.write_text(out.output)
    review = runner.invoke(cli, ["review", str(path), "--format", "json"])
    assert review.exit_code == 0, review.output
    data = json.loads(review.output)
    assert [g["score"] for g in data["games"]] == [list(s) for s in match.scores()]
    assert [g["params"]["match"]["score"] for g in data["games"]] == [list(s)
                                                                      for s in match.scores()]
    assert {row["player"] for row in data["summary"]} == set(match.players)


def test_play_match_as_mat_round_trips():
    """Would catch: a match written as .mat that reads back as another match."""
    from nardy_cli.records.mat_read import parse_mat
    from nardy_cli.records.match_record import parse_match
    runner = CliRunner()
    text = runner.invoke(cli, ["play", "neural", "heuristic", "--match", "2", "--seed", "4"]).output
    mat = runner.invoke(cli, ["play", "neural", "heuristic", "--match", "2", "--seed", "4",
                              "--format", "mat"]).output
    assert parse_mat(mat).games == parse_match(text).games


def test_review_of_a_match_record_whose_scores_do_not_follow_is_one_line(tmp_path):
    """Would catch: a match record whose Score tags do not follow from its games reviewed anyway (or
    a traceback): one line naming the game and the tag, exit 2."""
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "games" / "bot-match.txt").read_text()
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace('[Score "1-0"]', '[Score "2-0"]'))
    out = CliRunner().invoke(cli, ["review", str(bad)])
    assert out.exit_code == 2
    assert out.output == ("Error: bad.txt: game 2: Score tag '2-0' does not follow from the games "
                          "before: expected '1-0' (neural 1, heuristic 0)\n")
