"""What callers ask a policy (`Policy` properties) instead of branching on its type, kind or
attributes."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_cli.core.outcomes import money_valuation
from nardy_cli import parse_position
from nardy_cli.core.dice import parse_dice
from nardy_cli.core.engine import enumerate_board, plays_from_kernel
from nardy_cli.policies import get_policy
from nardy_cli.policies.base import Turn
from nardy_cli.core.rules import make_rules
from nardy_cli.games.scoring import Scoring, vr_pays

USER = "tests.bots.user_evaluators:forward_squares"
BOT = "tests.bots.user_evaluators:FewestPips"

#  name:                evaluator_name, has_evaluator, is_random, lookahead, has a static scorer
ANSWERS = {
    "random":              (None, False, True, False, False),
    "racer":               ("racer", False, False, False, True),
    "heuristic":           ("heuristic", True, False, False, True),
    "neural":              ("neural", True, False, False, True),
    "lookahead:heuristic": ("heuristic", True, False, True, True),
    "lookahead:racer":     ("racer", False, False, True, True),
    USER:                  (None, False, False, False, True),
    BOT:                   (None, False, False, False, False),
}


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_each_policy_answers_what_callers_ask(name):
    """Catches a policy answering for another kind: `racer` counted as an outcome evaluator (VR and
    truncation would read its pip score as probabilities), a user's function taken for a built-in
    evaluator (it would get lookahead and the logistic estimate), or `random` given a scorer."""
    p = get_policy(name)
    got = (p.evaluator_name, p.has_evaluator, p.is_random, p.lookahead,
           p.static_scorer() is not None)
    assert got == ANSWERS[name]


def test_scoring_defaults_follow_the_policies():
    """Catches `Scoring.resolved` losing its defaults: VR only for a lookahead policy with an
    outcome evaluator, exact bear-offs off when a side plays random, nothing for a Python bot."""
    s = Scoring()
    assert s.resolved(get_policy("lookahead:heuristic"), get_policy("racer")).vr
    assert not s.resolved(get_policy("lookahead:racer"), get_policy("racer")).vr
    assert not vr_pays(get_policy("heuristic"))
    assert s.resolved(get_policy("heuristic"), get_policy("neural")).exact_bearoff
    assert not s.resolved(get_policy("heuristic"), get_policy("random")).exact_bearoff
    assert not s.resolved(get_policy(BOT), get_policy("heuristic")).active


# Black to move 5-3 (21 distinct results) and White to move 6-1 (20), from
#   W: 9 on its head (1), 2 on 4, 2 on 6, one on 10 and 14
#   B: 8 on its head (1), 2 on 5, 2 on 8, one on 11, 12, 15
POSITIONS = [("W:1x9,4x2,6x2,10,14 B:1x8,5x2,8x2,11,12,15 b", "5-3"),
             ("W:1x9,4x2,6x2,10,14 B:1x8,5x2,8x2,11,12,15 w", "6-1")]


def _turn(text: str, dice: str) -> Turn:
    position = parse_position(text)
    rules = make_rules()
    d = parse_dice(dice)
    board, _, opp_off = position.board()
    boards, step_from, step_die, n, nsteps = enumerate_board(board, opp_off, d, rules)
    plays = plays_from_kernel(position, d, boards, step_from, step_die, n, nsteps)
    return Turn(position.with_dice(d), plays, boards[:n].copy(), rules, money_valuation(rules),
                np.array([1], dtype=np.uint64),
                np.random.default_rng(0))


@pytest.mark.parametrize("name", ["racer", "heuristic", "neural", USER])
@pytest.mark.parametrize("text, dice", POSITIONS)
def test_static_scores_rank_first_the_play_the_kernel_makes(name, text, dice):
    """Catches `static_scores` scoring other than the kernel's 0-ply choice: the opponent's terms
    left unset, or a user's function skipped for the weights of its (meaningless) kind code."""
    policy = get_policy(name)
    turn = _turn(text, dice)
    scores = policy.static_scorer().static_scores(list(turn.boards), turn.position.turn == "w",
                                                  turn.rules)
    assert len(scores) == len(turn.plays) > 10
    assert int(np.argmax(scores)) == policy.pick(turn)


def test_random_scores_nothing():
    """Catches `random` silently scoring results (its kind would be read as an evaluator's)."""
    from nardy_cli.core.errors import PolicyError
    with pytest.raises(PolicyError, match="'random'"):
        get_policy("random").static_scores([np.zeros(24, dtype=np.int8)], True, make_rules())
