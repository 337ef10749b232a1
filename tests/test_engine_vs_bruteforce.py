"""The compiled engine against the brute-force enumerator of tests/bruteforce.py."""

from __future__ import annotations

import pytest

from tests.bruteforce import brute_force_results
from tests.randomgames import random_game_positions
from nardy_cli.engine import legal_plays
from nardy_cli.rules import BLOCK_CHECKS, HEAD_RULES, make_rules

# 2,000 positions of uniformly random games plus 2,000 of block-building games.
PAIRS = random_game_positions(2000, seed=11) + random_game_positions(2000, seed=13, greedy=0.7)


@pytest.mark.parametrize("head_rule", HEAD_RULES)
@pytest.mark.parametrize("block_check", BLOCK_CHECKS)
def test_engine_equals_brute_force(head_rule, block_check):
    rules = make_rules(head_rule=head_rule, block_check=block_check)
    mismatches = []
    for pos, dice in PAIRS:
        engine = [str(p.result) for p in legal_plays(pos, dice, rules)]
        assert len(engine) == len(set(engine)), f"duplicate results for {pos} {dice}"
        if set(engine) != brute_force_results(pos, (dice.high, dice.low), head_rule, block_check):
            mismatches.append(f"{pos} {dice}")
    assert not mismatches, mismatches[:5]


def test_sample_exercises_the_block_rule():
    """The sample must contain positions where the block check changes the answer."""
    step, off = make_rules(block_check="step"), make_rules(block_check="off")
    differing = sum(1 for pos, d in PAIRS
                    if {str(p.result) for p in legal_plays(pos, d, step)}
                    != {str(p.result) for p in legal_plays(pos, d, off)})
    assert differing >= 20
