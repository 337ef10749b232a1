"""The compiled engine against the brute-force enumerator of tests/bruteforce.py, under every rule
variant.

Samples are built in module-scoped fixtures (nothing runs at import): for each
head rule x block check, positions met in games played under that variant
(uniform and block-building), plus every first-turn position (the start and
Black's first turn after each White opening) with all 21 rolls, where the head
rule variants (R5) differ.
"""

from __future__ import annotations

import pytest

from nardy_cli.core.dice import ALL_ROLLS
from nardy_cli.core.engine import legal_plays
from nardy_cli.core.position import START, parse_position
from nardy_cli.core.rules import BLOCK_CHECKS, HEAD_RULES, make_rules
from tests.bruteforce import brute_force_results
from tests.randomgames import random_game_positions

VARIANTS = [(h, b) for h in HEAD_RULES for b in BLOCK_CHECKS]


def _results(pos, dice, head_rule, block_check) -> set[str]:
    return {str(p.result) for p in legal_plays(pos, dice, make_rules(head_rule=head_rule,
                                                                     block_check=block_check))}


@pytest.fixture(scope="module")
def first_turns():
    """The start and every position after a White opening (Black's first turn), each with all 21
    rolls."""
    openings = {p.result for d in ALL_ROLLS for p in legal_plays(START, d)}
    return [(pos, d) for pos in [START, *sorted(openings, key=str)] for d in ALL_ROLLS]


@pytest.fixture(scope="module")
def game_samples():
    """Per variant: 1,000 positions of uniformly random games and 1,000 of block-building ones."""
    out = {}
    for i, (head_rule, block_check) in enumerate(VARIANTS):
        rules = make_rules(head_rule=head_rule, block_check=block_check)
        out[head_rule,
            block_check] = (random_game_positions(1000, seed=100 + i, rules=rules, every=2)
                            + random_game_positions(1000, seed=200 + i, rules=rules,
                                                    greedy=0.7))
    return out


@pytest.mark.parametrize("head_rule, block_check", VARIANTS)
def test_engine_equals_brute_force(head_rule, block_check, game_samples, first_turns):
    """Catches any rule the engine gets wrong under this variant (R1-R7), or a duplicated result."""
    mismatches = []
    for pos, dice in game_samples[head_rule, block_check] + first_turns:
        rules = make_rules(head_rule=head_rule, block_check=block_check)
        engine = [str(p.result) for p in legal_plays(pos, dice, rules)]
        assert len(engine) == len(set(engine)), f"duplicate results for {pos} {dice}"
        if set(engine) != brute_force_results(pos, (dice.high, dice.low), head_rule, block_check):
            mismatches.append(f"{pos} {dice}")
    assert not mismatches, mismatches[:5]


def test_head_rule_variants_differ_exactly_on_first_turn_doubles(first_turns, game_samples):
    """Catches a head-rule option that is ignored, or that leaks beyond a side's first turn (R5).

    federation vs doubles-643 must differ somewhere (after White's 5-5, Black's 4-4), strict vs
    federation on the start's 6-6, 4-4, 3-3; and every difference is a first-turn double.
    """
    differ = {("federation", "doubles-643"): [], ("federation", "strict"): [],
              ("doubles-643", "strict"): []}
    positions = first_turns + game_samples["federation", "step"]
    for pos, dice in positions:
        answers = {h: _results(pos, dice, h, "step") for h in HEAD_RULES}
        for a, b in differ:
            if answers[a] != answers[b]:
                differ[a, b].append((pos, dice))
    for pair, cases in differ.items():
        assert cases, f"{pair} never differ"
        for pos, dice in cases:
            assert dice.is_double and pos.checkers(pos.turn)[0] == 15, (pair, str(pos), str(dice))
    start_doubles = {str(d) for pos, d in differ["federation", "strict"] if pos == START}
    assert start_doubles == {"6-6", "4-4", "3-3"}
    after_five_five = parse_position("W:1x14,21 B:1x15 b")
    assert (after_five_five, "4-4") in {(p, str(d)) for p, d in differ["federation", "doubles-643"]}


def test_block_check_variants_differ_on_block_building_games(game_samples):
    """Catches a block-check option that is ignored: step, turn-end and off must each change answers
    (R6)."""
    sample = game_samples["federation", "step"][1000:]   # the block-building half
    answers = [{b: _results(pos, dice, "federation", b) for b in BLOCK_CHECKS} for pos,
               dice in sample]
    step_vs_off = sum(1 for a in answers if a["step"] != a["off"])
    step_vs_end = sum(1 for a in answers if a["step"] != a["turn-end"])
    end_vs_off = sum(1 for a in answers if a["turn-end"] != a["off"])
    assert (step_vs_off >= 10 and end_vs_off >= 10
            and step_vs_end >= 1), (step_vs_off, step_vs_end, end_vs_off)


def test_momentary_block_differs_between_step_and_turn_end():
    """Catches turn-end checking each step (or step checking only the end): RULES.md §10's 4-1
    example.

    W:  2  3  4  6  7  8  9 10 12   White; Black b10 on its head (W13), b5 on B2 (W14).
       w2 w2 w1 w3 w1 w1 w2 w2 w1   10/11 completes W6-W12 for a moment, 11/15 dissolves it.
    """
    pos = parse_position("W:2x2,3x2,4,6x3,7,8,9x2,10x2,12 B:1x10,2x5 w")
    step, end = (_results(pos, "4-1", "federation", "step"),
                 _results(pos, "4-1", "federation", "turn-end"))
    assert len(step) == 42 and len(end) == 43 and step < end
