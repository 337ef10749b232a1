"""Rollouts scored by the bear-off databases, truncated, or luck-adjusted (issue 9)."""

from __future__ import annotations

import pytest

from nardy_cli.core.outcomes import money_valuation
from nardy_cli.policies.bearoff import bearoff_value
from nardy_cli.policies.estimate import static_estimate
from nardy_cli.policies.network import new_network, save_network
from nardy_cli.core.position import Position
from nardy_cli.analysis.rollout import rollout
from nardy_cli.core.rules import make_rules
from nardy_cli.games.scoring import Scoring
from tests.oracle import exact_distribution

# White W20, W22, W24; Black B19, B21, B23 (both all home, 12 checkers off each); White to roll
#   W: . . . . . . . . . . . . . . . . . . . o . o . o
#   B: . . . . . . . . . . . . . . . . . . x . x . x .   (each in its own numbering)
SMALL_RACE = "W:20,22,24 B:19,21,23 w"
# the same, but White's back checker is on W14, often two turns from its home: until it is in,
# positions are valued by an evaluator (the bear-off databases take over once both sides are home)
NEAR_RACE = "W:14,22,24 B:19,21,23 w"


def test_vr_is_unbiased_for_the_random_policy_on_a_solved_endgame():
    """Would catch: a luck term with non-zero mean (wrong roll weights, the ordered roll counted
    twice, the luck of a fixed root roll, the wrong side's view)."""
    exact = exact_distribution(SMALL_RACE)
    truth = exact["win"] - exact["lose"]
    r = rollout(Position.parse(SMALL_RACE), "random", games=36 * 36 * 3,
                scoring=Scoring(exact_bearoff=False, vr=True))
    assert r.params["vr"] and not r.params["exact_bearoff"]
    assert abs(r.equity - truth) < 4 * r.equity_se
    assert abs(r.probabilities["draw"] - exact["draw"]) < 4 * r.se["draw"]
    # the luck adjustment did reduce the spread, and the plain estimate is reported too
    assert r.equity_se < r.params["plain"]["equity_se"]


def test_vr_with_database_play_matches_the_two_sided_value():
    """Would catch: VR biased when the evaluator is the exact value (R8 last roll scored
    wrongly)."""
    pos = Position.parse(SMALL_RACE)
    truth = bearoff_value(pos).equity
    r = rollout(pos, "heuristic", games=1296,
                scoring=Scoring(exact_bearoff=False, vr=True, bearoff_policy=True))
    assert abs(r.equity - truth) < max(4 * r.equity_se, 1e-6)
    assert r.equity_se < 0.002


def test_exact_bearoff_at_the_root_is_the_database_value():
    """Would catch: games in a bear-off not stopped, or the database read from the wrong side's
    view."""
    pos = Position.parse("W:19,20x2,23 B:21x3,24 b")
    r = rollout(pos, "heuristic", games=100, scoring=Scoring(exact_bearoff=True, vr=False))
    v = bearoff_value(pos)
    assert r.equity == pytest.approx(v.equity, abs=1e-7)
    assert r.equity_se == 0.0 and r.params["scored_games"] == 100


def test_truncation_at_zero_plies_is_the_static_evaluation():
    """Would catch: a truncated game scored from the wrong side, or after a play."""
    pos = Position.parse("W:1x10,8,12,14,17,19 B:1x11,3,9,15,22 b")
    r = rollout(pos, "heuristic", games=50,
                scoring=Scoring(exact_bearoff=False, truncate=0, vr=False))
    est = static_estimate(pos)
    for key in ("win", "lose", "draw"):
        assert r.probabilities[key] == pytest.approx(est.probabilities[key], abs=1e-7)
    assert r.params["truncate"] == 0


@pytest.mark.parametrize("scoring", [Scoring(), Scoring(exact_bearoff=True, truncate=6, vr=True),
                                     Scoring(exact_bearoff=False, vr=True),
                                     Scoring(luck_network=new_network(16, seed=3))])
def test_results_identical_for_one_and_two_workers(scoring):
    """Would catch: float sums that depend on the order chunks finish in."""
    pos = Position.parse("W:17x2,19x3,20x2,22x3,24x2 B:18,19x2,21x3,22x2,23 w")
    one = rollout(pos, "heuristic", games=1400, scoring=scoring, workers=1)
    two = rollout(pos, "heuristic", games=1400, scoring=scoring, workers=2)
    assert one.to_dict() == two.to_dict()


def test_lookahead_replies_give_the_same_luck_as_a_fresh_search():
    """Would catch: the luck of a turn after a lookahead play read from the wrong candidate's
    replies, or from the wrong side's view (issue 9: VR reuses the search's best replies for the
    next roll)."""
    import numpy as np
    from nardy_cli.kernels.board import flip, kernel_rules, opp_on_board
    from nardy_cli.kernels.evaluate import HEURISTIC, EvalArgs, choice_scratch, choose_play
    from nardy_cli.kernels.game import LuckArgs, luck_of_replies, luck_of_roll, score_workspace
    from nardy_cli.kernels.movegen import Workspace, enumerate_plays
    from nardy_cli.policies.registry import get_policy
    from tests.randomgames import random_game_positions
    weights = get_policy("heuristic").kernel_params(make_rules("federation"))
    money = money_valuation(make_rules("federation")).kernel_values()
    from nardy_cli.policies.bearoff import empty_tables
    from nardy_cli.games.scoring import screen_weights
    # the screens read-only, as the loops pass them (`scoring.screen_weights`): a writable one
    # compiles the reply search a second time
    no_screen = np.zeros(0)
    no_screen.flags.writeable = False
    args = LuckArgs(empty_tables(), np.zeros((7, 17)), no_screen, np.zeros(0))
    sws = score_workspace()
    rules = kernel_rules(make_rules("federation"))
    judge = EvalArgs(HEURISTIC, weights, money)
    ws, replies_ws = Workspace(), Workspace()
    choice = choice_scratch()
    compared = not_first = 0
    for pos, _ in random_game_positions(200, seed=3, every=2, greedy=0.5):
        board = pos.board()[0]
        white = pos.turn == "w"
        n, _ = enumerate_plays(board, 15 - opp_on_board(board), 6, 3, 0, 0, *ws.arrays())
        pick = choose_play(ws.boards, n, judge, True, np.zeros(1, np.uint64), white, rules,
                           replies_ws.arrays(), choice)
        if choice.searched[0] < 0:
            continue
        after = np.empty(24, dtype=np.int8)
        flip(ws.boards[pick], after)                    # the opponent to roll, in its own view
        sws.luck[:] = 0.0
        screened = args._replace(screen=screen_weights(make_rules("federation")))
        luck_of_roll(after, not white, True, 4, 2, rules, judge, judge, screened, choice, sws)
        fresh = sws.luck.copy()
        sws.luck[:] = 0.0
        replies = choice.replies[choice.searched[0]].copy()
        luck_of_replies(replies, not white, True, 4, 2, rules, judge, args, choice, sws)
        reused = sws.luck.copy()
        np.testing.assert_allclose(reused, fresh, atol=1e-12)
        compared += 1
        not_first += choice.searched[0] > 0
    assert compared > 10 and not_first > 3


def test_screened_luck_scores_the_heuristics_top_results_of_each_roll_with_the_network():
    """Would catch: VR's screened reply search (the luck of a turn the lookahead did not search)
    keeping the heuristic's worst results instead of its best, keeping too few, or not letting the
    network choose among them.  Brute force: every roll's legal results, the heuristic's top
    SCREEN_WIDTH (ties: the earlier result), the best of those by the network's double-precision
    equity."""
    import numpy as np
    from nardy_cli.kernels.board import kernel_rules, opp_on_board
    from nardy_cli.kernels.evaluate import (NEURAL, NO_SCREEN, ROLL_HIGH, ROLL_LOW, SCREEN_WIDTH,
        EvalArgs, best_replies, choice_scratch, heuristic_score)
    from nardy_cli.kernels.features import opponent_terms
    from nardy_cli.kernels.movegen import Workspace, enumerate_plays
    from nardy_cli.kernels.neural import single_precision
    from nardy_cli.policies.network import default_network, result_equities
    from nardy_cli.policies.registry import get_policy
    from tests.randomgames import random_game_positions
    rules = make_rules("federation")
    screen = get_policy("heuristic").kernel_params(rules)
    params = default_network().kernel_params(rules)
    money = money_valuation(rules).kernel_values()
    net = single_precision(params)
    choice = choice_scratch()
    ws, search_ws = Workspace(), Workspace()
    out = np.zeros((21, 24), dtype=np.int8)
    screened_rolls = differs_from_full = 0
    for pos, _ in random_game_positions(60, seed=11, every=3, greedy=0.5):
        board, white = pos.board()[0], pos.turn == "w"
        judge = EvalArgs(NEURAL, params, money)
        space = search_ws.arrays()
        best_replies(board, white, judge, kernel_rules(rules), net, screen, choice, space, out)
        full = np.zeros((21, 24), dtype=np.int8)
        best_replies(board, white, judge, kernel_rules(rules), net, NO_SCREEN, choice, space, full)
        opp = np.zeros(choice.opp.size, dtype=np.int64)
        opponent_terms(board, opp)
        for r in range(21):
            n, _ = enumerate_plays(board, 15 - opp_on_board(board), ROLL_HIGH[r], ROLL_LOW[r], 0, 0,
                                   *ws.arrays())
            results = ws.boards[:n].copy()
            h = np.array([heuristic_score(b, screen, np.zeros(choice.feats.size), opp)
                          for b in results])
            keep = sorted(range(n), key=lambda i: (-h[i], i))[:SCREEN_WIDTH]
            eq = result_equities(results[keep], np.full(len(keep), white), rules)
            chosen = [i for i in keep if (results[i] == out[r]).all()]
            assert chosen, (f"roll {r}: the screened search picked a result outside the "
                            "heuristic's top")
            # float32 search vs double-precision equity
            assert eq[keep.index(chosen[0])] > eq.max() - 1e-4
            screened_rolls += n > SCREEN_WIDTH
            differs_from_full += not (full[r] == out[r]).all()
    assert screened_rolls > 200 and differs_from_full > 0


def test_the_rollout_note_says_when_vr_did_not_pay():
    """Would catch: a rollout whose luck-adjusted SE came out larger than the plain one, or smaller
    by less than VR's least CPU cost (the evaluator misreads the position's luck, as in the study
    position `forbidden-sixth-point`), printed without a word, or the hint printed when VR did
    help."""
    from types import SimpleNamespace
    from nardy_cli.commands.scoring_options import scoring_note
    params = {"vr": True, "exact_bearoff": True, "scored_games": 252, "truncate": None,
              "plain": {"equity": 1.5815, "equity_se": 0.0210}}
    worse = scoring_note(SimpleNamespace(params=params, equity_se=0.0227))
    assert worse == ("variance reduction: equity SE 0.0227 (plain 0.0210, plain equity +1.5815); "
                     "VR did not pay "
                     "here (the evaluator misreads this position's luck): --no-vr is faster; "
                     "252 games ended in the bear-off databases")
    # variance / 1.03: less than VR costs
    barely = scoring_note(SimpleNamespace(params=params, equity_se=0.0207))
    assert "VR did not pay here" in barely
    # / 1.22: paid
    assert "VR did not pay" not in scoring_note(SimpleNamespace(params=params, equity_se=0.0190))
    better = scoring_note(SimpleNamespace(params=params, equity_se=0.0101))
    assert better == ("variance reduction: equity SE 0.0101 (plain 0.0210, plain equity +1.5815); "
                      "252 games ended in the bear-off databases")


def test_a_luck_network_values_the_luck_and_keeps_it_unbiased():
    """Would catch: `--luck-network` ignored (the policy's own evaluator still valuing the luck),
    the luck network choosing the plays (other games), or its luck with a non-zero mean (valued from
    the wrong side)."""
    exact = exact_distribution(NEAR_RACE)
    # 12 checkers off each: every win is by oin, 1 point
    truth = exact["win"] - exact["lose"]
    pos = Position.parse(NEAR_RACE)
    own = rollout(pos, "random", games=36 * 36 * 3, scoring=Scoring(exact_bearoff=False, vr=True))
    net = new_network(16, seed=3)
    other = rollout(pos, "random", games=36 * 36 * 3,
                    scoring=Scoring(exact_bearoff=False, luck_network=net))
    assert other.params["vr"] and other.params["luck_network"]["hidden"] == 16
    assert "luck_network" not in own.params
    assert other.params["plain"] == own.params["plain"]            # the same games
    # their luck valued by another function
    assert abs(other.equity - own.equity) > 1e-4
    assert abs(other.equity - truth) < 4 * other.equity_se


def test_luck_network_option_errors_are_one_line(tmp_path):
    """Would catch: a missing --luck-network file, or one combined with --no-vr, ending in a
    traceback or silently ignored; the JSON or the note under the table not saying which network
    valued the luck."""
    import json

    from click.testing import CliRunner

    from nardy_cli.commands.cli import cli
    save_network(new_network(16, seed=3), tmp_path / "luck.npz")
    base = ["rollout", NEAR_RACE, "--games", "36", "--quiet", "--no-exact-bearoff"]
    runner = CliRunner()
    r = runner.invoke(cli, base + ["--luck-network", str(tmp_path / "missing.npz")])
    assert (r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
            and "missing.npz" in r.output)
    r = runner.invoke(cli, base + ["--luck-network", str(tmp_path / "luck.npz"), "--no-vr"])
    assert r.exit_code == 2 and r.output.strip() == ("Error: --luck-network values the luck "
                                                     "of variance "
                                                     "reduction: it cannot be used with VR off")
    r = runner.invoke(cli,
                      base + ["--luck-network", str(tmp_path / "luck.npz"), "--format", "json"])
    assert r.exit_code == 0, r.output
    record = json.loads(r.output)["params"]
    assert (record["vr"] and record["luck_network"]["hidden"] == 16
            and len(record["luck_network"]["sha256"]) == 16)
    r = runner.invoke(cli, base + ["--luck-network", str(tmp_path / "luck.npz")])
    digest = record["luck_network"]["sha256"]
    assert f"luck valued by the --luck-network (16 hidden units, weights {digest})" in r.output
    staged = runner.invoke(cli,
                           ["analyze",
                            "W:1x6,7x2,10x2,12,14,15,20,24 B:1x4,4x2,9x2,10,11,14,15x2,16,18 b",
                            "--dice", "6-5", "--staged", "--policy", "heuristic", "--games", "72",
                            "--quiet", "--workers", "1", "--luck-network",
                            str(tmp_path / "luck.npz")])
    assert staged.exit_code == 0, staged.output
    header = staged.output.splitlines()[0]
    assert header.endswith("; vr, exact_bearoff (luck valued by the --luck-network, "
                           f"weights {digest}))")
