"""The 2-ply search (`lookahead2:NAME`) against a brute-force expectimax, and where it is used."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.core.dice import ALL_ROLLS
from nardy_cli.core.engine import legal_plays, outcome
from nardy_cli.core.errors import PolicyError
from nardy_cli.policies.network import result_equities
from nardy_cli.core.outcomes import money_valuation
from nardy_cli.policies import get_policy
from nardy_cli.core.position import Position, mover_board, other_side
from nardy_cli.records.game_record import parse_game
from nardy_cli.review.game_review import review_game
from nardy_cli.core.rules import PRESETS
from nardy_cli.policies.two_ply import FULL_WIDTH, SearchFilter, search_choice, search_values

ROOT = Path(__file__).resolve().parent.parent
RULES = PRESETS["federation"]
VALUES = money_valuation(RULES).kernel_values()
WEIGHTS = [float(d.probability) for d in ALL_ROLLS]


def board_of(result: Position, mover: str) -> np.ndarray:
    """The board after `mover`'s play, in its own view."""
    return mover_board(result.checkers(mover), result.checkers(other_side(mover)))


def leaf(result: Position, mover: str) -> float:
    """The network's 0-ply value for `mover` (a finished game: exact)."""
    return float(result_equities(board_of(result, mover)[None], np.array([mover == "w"]), RULES)[0])


def expectimax(result: Position, mover: str, depth: int, reply_width: int | None = None) -> float:
    """`mover`'s value of `result` (its play just made) searched `depth` plies: minus the mean
    over the opponent's 21 rolls of its best reply's value one ply shallower; with `reply_width`,
    at depth 2 only the opponent's best `reply_width` replies by 0-ply are valued at 1-ply."""
    if depth == 0 or outcome(result, RULES) is not None:
        return leaf(result, mover)
    opponent = other_side(mover)
    total = 0.0
    for dice, w in zip(ALL_ROLLS, WEIGHTS):
        replies = [p.result for p in legal_plays(result, dice, RULES)]
        if reply_width is not None and depth == 2:
            replies = sorted(replies, key=lambda r: -leaf(r, opponent))[:reply_width]
        total += w * max(expectimax(r, opponent, depth - 1) for r in replies)
    return -total


# small positions: late races and bear-offs with few plays, some ending within two plies (R8's
# last roll too)
POSITIONS = ["W:20,23 B:21,24x2 w", "W:22,24 B:19,23 b", "W:24 B:20,22 w", "W:15,23 B:18,22 b",
             "W:19,24 B:24x2 b"]


@pytest.mark.parametrize("text", POSITIONS)
def test_two_ply_values_equal_a_brute_force_expectimax(text):
    """Bugs: the reply's 1-ply value taken with the wrong sign, the 21 rolls weighted equally (a
    double counts once in 36, the others twice), a finished game searched on (it keeps its exact
    value), or the search stopping at 0-ply below the replies (the replies' 1-ply left out)."""
    position = Position.parse(text)
    mover = position.turn
    for dice in (ALL_ROLLS[0], ALL_ROLLS[7], ALL_ROLLS[20]):
        results = [p.result for p in legal_plays(position, dice, RULES)]
        boards = np.stack([board_of(r, mover) for r in results])
        got = search_values(get_policy("neural"), boards, mover == "w", RULES, VALUES, FULL_WIDTH)
        want = [expectimax(r, mover, 2) for r in results]
        np.testing.assert_allclose(got, want, atol=1e-5)


def test_the_reply_filter_values_only_the_best_replies_by_0_ply():
    """Bug: the reply filter kept one reply too many (`kept` off by one)."""
    position = Position.parse("W:13,20,23 B:15,21,24 w")   # keeping 1, 2 or 3 replies: 3 values
    results = [p.result for p in legal_plays(position, "5-4", RULES)]
    boards = np.stack([board_of(r, "w") for r in results])
    search = SearchFilter(reply=2, reply_margin=10.0)
    got = search_values(get_policy("neural"), boards, True, RULES, VALUES, search)
    want = [expectimax(r, "w", 2, reply_width=2) for r in results]
    np.testing.assert_allclose(got, want, atol=1e-5)


# rolls whose best play at 2-ply is not the best at 1-ply
@pytest.mark.parametrize("text, dice", [("W:15,23 B:18,22 b", "2-1"),
                                         ("W:13,20,23 B:15,21,24 w", "4-2")])
def test_the_unpruned_choice_is_the_brute_force_best(text, dice):
    """Bug: the root's choice taken from a shallower level (the 1-ply best), or the index in the
    sorted order returned instead of the result's own index."""
    position = Position.parse(text)
    mover = position.turn
    results = [p.result for p in legal_plays(position, dice, RULES)]
    boards = np.stack([board_of(r, mover) for r in results])
    choice = search_choice(get_policy("neural"), boards, mover == "w", RULES, VALUES, FULL_WIDTH)
    want = [expectimax(r, mover, 2) for r in results]
    assert want[choice.index] >= max(want) - 1e-5
    assert (choice.depth == 2).all()    # unpruned: every result searched two plies


def test_whole_game_runs_refuse_the_two_ply_policy():
    """Bug: a rollout or duel started with `lookahead2:neural` (hours of Python-loop games)
    instead of refusing at once."""
    from nardy_cli.games import policy_pair
    with pytest.raises(PolicyError, match="too slow for whole games"):
        policy_pair("lookahead2:neural")


def test_a_two_ply_evaluator_needs_a_network():
    """Bug: `lookahead2:heuristic` accepted as an evaluator, whose values are heuristic scores, not
    equities, so a review would mix them with exact equities."""
    from nardy_cli.policies.judges import get_evaluator
    with pytest.raises(PolicyError, match="needs a network"):
        get_evaluator("lookahead2:heuristic")
    assert get_policy("lookahead2:heuristic").name == "lookahead2:heuristic"


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_a_rollout_of_the_two_ply_policy_is_one_line_exit_2():
    """Bug: the refusal raised inside the command's run as a traceback (exit 1), or not at all."""
    out = run("rollout", "start", "--policy", "lookahead2:neural", "--games", "36")
    assert (out.exit_code, out.output) == (2, "Error: policy 'lookahead2:neural' searches two "
                                              "plies a decision, too slow for whole games: use it "
                                              "in eval, review or benchmark\n")


REVIEW = """\
Student (White) vs Coach (Black): Black wins by oin, 2 plies; evaluator lookahead2:neural

turn  player dice played         best play       plays equity_played equity_best   lost    mark\
   luck
  1. Student  3-1 22/off         22/off 24/off       2        -1.000      +0.000 +1.000 blunder\
 +0.056
1...   Coach  4-2 24/off 24/off  24/off 24/off       1        +1.000      +1.000 forced        \
 +0.000

 side  player  plies  decisions  forced equity_lost error_rate  doubtfuls  errors  blunders  luck
white Student      1          1       0       1.000      1.000          0       0         1 0.056
black   Coach      1          0       1       0.000      0.000          0       0         0 0.000
"""


def test_review_with_the_two_ply_evaluator():
    """Bugs: review's search width skipped for a 2-ply evaluator (a `Judge` without `two_ply`),
    or the luck measured with the 2-ply evaluator instead of its 0-ply base."""
    game = ROOT / "games" / "bearoff-blunder.txt"
    out = run("review", str(game), "--evaluator", "lookahead2:neural")
    assert (out.exit_code, out.output) == (0, REVIEW)
    review = review_game(parse_game(game.read_text()), "lookahead2:neural")
    assert review.frame["level"].tolist()[0] == "lookahead2:neural"
    assert review.params["luck_evaluator"] == "neural"


def test_eval_with_the_two_ply_evaluator_names_the_best_play():
    """Bugs: `eval --evaluator` named the best candidate by 0-ply instead of by the evaluator, or
    valued a position without dice from the wrong side."""
    out = run("eval", "W:22,24 B:24x2 w 3-1", "--evaluator", "lookahead2:neural")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[-1] == ("lookahead2:neural: equity +0.000 for White, best play "
                                           "22/off 24/off")
    # the best play at 0-ply is 18/20 20/21
    out = run("eval", "W:15,23 B:18,22 b 2-1", "--evaluator", "lookahead2:neural")
    assert out.output.splitlines()[-1] == ("lookahead2:neural: equity +0.496 for Black, best play "
                                           "18/20 22/23")
    out = run("eval", "W:22,24 B:24x2 b", "--evaluator", "lookahead2:neural", "--format", "json")
    assert json.loads(out.output)["search"] == {"evaluator": "lookahead2:neural", "equity": 1.0,
                                                "play": None}
    out = run("eval", "start", "--evaluator", "lookahead2:heuristic")
    assert out.exit_code == 2
    assert out.output.startswith("Error: --evaluator: evaluator 'lookahead2:heuristic': a 2-ply")


def test_a_third_filter_adds_a_two_ply_stage_before_the_rollouts():
    """Bugs: the third filter ignored (the 1-ply survivors rolled out), the 2-ply stage scoring
    other plays than the 1-ply survivors, or its scores not the search's values."""
    from nardy_cli.analysis.staged import staged_rank
    position = Position.parse("W:1x13,8,12 B:1x13,6,11 w")
    ranking = staged_rank(position, "4-2", "neural", games=36, filters=("top4", "top3", "top1"),
                          until_se=None)
    zero, one, two = ranking.stages
    assert [s.name for s in ranking.stages] == ["0-ply", "1-ply", "2-ply"]
    assert {p for p, _ in two.scores} == set(one.kept) and len(one.kept) == 3
    # the filter top1 keeps one play; the best two always go on to the rollouts (issue 41, 3)
    assert [p.play for p in ranking.plays] == list(two.kept) and len(two.kept) == 2
    assert two.floor == two.kept[1:]
    plays = {str(p): p for p in legal_plays(position, "4-2", RULES)}
    boards = np.stack([board_of(plays[p].result, "w") for p, _ in two.scores])
    scores = search_values(get_policy("neural"), boards, True, RULES, VALUES)
    np.testing.assert_allclose([s for _, s in two.scores], scores, atol=1e-12)
