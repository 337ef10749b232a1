"""Scenario tests, one or more per rule of RULES.md, each with the board drawn.

Boards are drawn in White's numbering: `w3` is three White checkers, `b2`
two Black ones; Black's point k is White's k+12 (k <= 12) or k-12.
"""

from __future__ import annotations

from nardy_cli import apply_play, legal_plays, outcome, parse_position
from nardy_cli.core.rules import make_rules


def results(text, dice, **rules):
    return sorted(str(p.result)
                  for p in legal_plays(parse_position(text), dice, make_rules(**rules)))


def plays(text, dice, **rules):
    return sorted(str(p) for p in legal_plays(parse_position(text), dice, make_rules(**rules)))


def test_r1_no_landing_on_an_opponent_point():
    # W:  1   ...  7  ...  9  ... 13          W7 holds b1 (Black's B19), W13 is Black's head.
    #    w14      b1      w1      b14
    # 6-1: 1/7 is blocked by b1, so the head checker reaches W8 only through W2.
    pos = "W:1x14,9 B:1x14,19 w"
    assert results(pos, "6-1") == ["W:1x13,2,15 B:1x14,19 b", "W:1x13,8,9 B:1x14,19 b",
                                   "W:1x14,16 B:1x14,19 b"]


def test_r1_jumping_over_opponent_is_allowed():
    # W1: w15; W13 (B1): b15.  5-5 runs 1/6/11/16/21, jumping over Black's head.
    assert results("start", "5-5") == ["W:1x14,21 B:1x15 b"]


def test_r2_must_use_both_dice_when_possible():
    # W19 w1, W24 w1, all home.  6-3: the 6 bears off W19 exactly, then the 3 bears off W24;
    # or the 3 first (19/22) and the 6 bears off the lowest checker, W22.  24/off with the 3
    # first is not allowed while W19 is below it.
    assert plays("W:19,24 B:1x15 w", "6-3") == ["19/22 22/off", "19/off 24/off"]


def test_r2_larger_die_when_only_one_can_be_played():
    # Black to move 3-2; either die alone can be played but never both: the 3 must be played.
    pos = "W:3,6,7,19x2,22x6,24x4 B:14,16,23x9,24x4 b"
    assert plays(pos, "3-2") == ["14/17"]


def test_r2_three_of_four_steps():
    # Black's 1-1 can be played three times but not four.
    pos = "W:1x12,8,15,21 B:1x13,7,11 b"
    (play,) = legal_plays(parse_position(pos), "1-1")
    assert len(play.steps) == 3


def test_r3_pass_when_no_step_is_legal():
    pos = parse_position("W:22,23,24x13 B:7,22x7,23,24x6 b")
    (play,) = legal_plays(pos, "3-3")
    assert play.is_pass and str(play) == "pass"
    assert str(play.result) == "W:22,23,24x13 B:7,22x7,23,24x6 w"


def test_r4_one_checker_from_the_head():
    # Start, 2-2: one checker leaves the head and takes all four steps.
    assert results("start", "2-2") == ["W:1x14,9 B:1x15 b"]
    assert results("start", "6-5") == ["W:1x14,12 B:1x15 b"]


def test_r4_after_the_first_turn():
    # W1 w14, W12 w1: 6-6 lets one checker leave the head; the other sixes go elsewhere.
    for r in results("W:1x14,12 B:1x14,5 w", "6-6"):
        assert r.startswith("W:1x13,")


def test_r5_variants():
    assert results("start", "6-6") == ["W:1x13,7x2 B:1x15 b"]
    assert results("start", "6-6", head_rule="strict") == ["W:1x14,7 B:1x15 b"]
    assert results("start", "4-4") == ["W:1x13,9x2 B:1x15 b"]
    assert results("start", "3-3") == ["W:1x13,4,10 B:1x15 b", "W:1x13,7x2 B:1x15 b"]
    # After White's 5-5 (W21 = B9), Black's runner is stopped by W21 before White's head.
    assert results("W:1x14,21 B:1x15 b", "4-4") == ["W:1x14,21 B:1x14,5 w"]
    assert results("W:1x14,21 B:1x15 b", "4-4",
                   head_rule="doubles-643") == ["W:1x14,21 B:1x13,5x2 w"]


def test_r6_block_step_and_turn_end():
    # W:  1    18 19 20 21 22 23 24      Black: B1 (= W13) b11, B2-B5 singles (W14-W17).
    #    w5    w2  .  w2 w2 w2 w2  .     18/24 would make W20-W24 + W1 = B8-B13, all Black behind.
    pos = "W:1x5,18x2,20x2,21x2,22x2,23x2 B:1x11,2,3,4,5 w"
    assert len(results(pos, "6-5")) == 2
    assert len(results(pos, "6-5", block_check="off")) == 4
    long = "W:2x2,3x2,4,6x3,7,8,9x2,10x2,12 B:1x10,2x5 w"
    step, end = results(long, "4-1"), results(long, "4-1", block_check="turn-end")
    assert len(step) == 42 and len(end) == 43
    (extra,) = set(end) - set(step)
    assert extra == str(apply_play(parse_position(long), "10/11 11/15", "4-1",
                                   rules=make_rules(block_check="turn-end")))


def test_r7_bearing_off():
    assert results("W:22x2,24x3 B:1x15 w", "6-5") == ["W:24x3 B:1x15 b"]
    assert results("W:18,24x2 B:1x15 w", "6-1") == ["W:24x2 B:1x15 b"]
    assert plays("W:18,24x2 B:1x15 w", "6-1") == ["18/24 24/off"]


def test_r8_last_roll_draw_and_win():
    # White bears off its last checker; every Black checker is home: Black rolls once more.
    white_done = parse_position("W:- B:24x2 b")
    assert outcome(white_done) is None
    (play,) = legal_plays(white_done, "2-1")
    assert str(outcome(play.result)) == "draw"
    # Without the last roll, or with Black not all home, White has won.
    assert str(outcome(white_done, make_rules(last_roll=False))) == "White wins by oin"
    assert str(outcome(parse_position("W:- B:12,24 b"))) == "White wins by oin"


def test_r9_outcome_classes():
    assert str(outcome(parse_position("W:- B:19x15 b"),
                       make_rules(last_roll=False))) == "White wins by home-mars"
    assert str(outcome(parse_position("W:- B:13x15 b"))) == "White wins by mars"
    assert str(outcome(parse_position("W:- B:12,13x14 b"))) == "White wins by koks"
    assert str(outcome(parse_position("W:12,13x14 B:- w"))) == "Black wins by koks"
    assert str(outcome(parse_position("W:20 B:- w"))) == "Black wins by oin"
