"""Users' numba evaluators as first-class arguments of the one compiled game loop
(kernels/user.py)."""

from __future__ import annotations

import pytest
from numba import typeof

from nardy_cli import START
from nardy_cli.core.errors import PolicyError
from nardy_cli.kernels import runs, user
from nardy_cli.analysis.rollout import rollout

FEWEST = "tests.bots.user_evaluators:fewest_pips"
FORWARD = "tests.bots.user_evaluators:forward_squares"


def test_users_evaluators_share_the_one_cached_game_loop():
    """Catches a user's evaluator compiled into its own copy of the game loop (globals cloning, or
    the function passed as a numba dispatcher): every new function would then cost seconds of
    compilation, and a dispatcher-typed loop cannot be loaded from numba's cache by the next
    process."""
    for pair in [(FEWEST, "heuristic"), (FORWARD, FEWEST), ("heuristic", "racer")]:
        rollout(START, pair, games=12, seed=1)
    expected = typeof(user.Evaluators(user.no_evaluator(), user.no_evaluator()))
    # play_chunk(setup, lo, hi, policies, evaluators, …): one compiled signature for every pair
    assert {signature[4] for signature in runs.play_chunk.signatures} == {expected}


def test_an_evaluator_that_cannot_score_a_board_is_a_policy_error():
    """Catches a numba typing error escaping as a traceback when a user's function returns no
    number."""
    with pytest.raises(PolicyError, match="returns_the_board.*cannot score a board"):
        rollout(START, ("tests.bots.user_evaluators:returns_the_board", "heuristic"), games=4,
                seed=1)
