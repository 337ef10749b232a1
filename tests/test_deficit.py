"""Move deficit (RULES.md §8), figure by figure: by hand, against brute force, and static vs
rollout."""

from __future__ import annotations

import numpy as np
import pytest

from nardy_cli.analysis.deficit import static_deficit
from nardy_cli.core.position import parse_position
from nardy_cli.analysis.rollout import rollout
from nardy_cli.core.rules import make_rules
from nardy_cli.games.scoring import Scoring
from tests.bruteforce import brute_force_mobility, brute_force_turn
from tests.randomgames import random_game_positions

# RULES.md §10's pass example, Black to move.  In Black's numbering:
#   B:  7   ...   10  11  12   ...   22  23  24        White W22, W23, W24x13 are Black's B10, B11,
# B12.
#      b1         w1  w1  w13        b7  b1  b6        B7 is not home, so Black cannot bear off.
# Single steps: 1s from B7, B22 (x7), B23; 2s from B7, B22 (x7); 6 from B7 (to B13); 3, 4, 5 never
# (B7+3..5 = B10..B12 are White's). Roll by roll (ordered weights: doubles 1, others 2):
#   full (4 or 2 steps): 1-1 2-1 2-2 4-2 (7/9/13) 5-1 (7/8/13) 5-2 6-1 6-2 6-3 6-4 6-5
#                        6-6 (7/13/19/off/off)                                   = 21/36
#   partial: 3-1 (the 1 only; 8+3 = B11 is White's: the 3 lost), 3-2 (the 2; the 3 lost),
#            4-1 (the 1; the 4 lost)                                              =  6/36
#   pass: 3-3, 4-3, 4-4, 5-3, 5-4, 5-5                                            =  9/36 = 0.2500
#   lost pips: 2*3 + 2*3 + 2*4 + 12 + 2*7 + 16 + 2*8 + 2*9 + 20 = 116        -> 116/36 per turn
#   each face is rolled 14 times in 36 turns (10 non-doubles + 4 in its double); lost:
#   face 3: 3-1 (2) 3-2 (2) 3-3 (4) 4-3 (2) 5-3 (2) = 12;  face 4: 4-1 (2) 4-3 (2) 4-4 (4) 5-4 (2) =
# 10;
#   face 5: 5-3 (2) 5-4 (2) 5-5 (4) = 8;  faces 1, 2, 6: 0.
#   mobility: face 1: 1 + 7 + 1 = 9, face 2: 1 + 7 = 8, face 6: 1, faces 3-5: 0.
HAND = "W:22,23,24x13 B:7,22x7,23,24x6 b"
HAND_STEPS = {(1, 1): 4, (2, 1): 2, (2, 2): 4, (3, 1): 1, (3, 2): 1, (3, 3): 0, (4, 1): 1,
              (4, 2): 2, (4, 3): 0, (4, 4): 0, (5, 1): 2, (5, 2): 2, (5, 3): 0, (5, 4): 0,
              (5, 5): 0, (6, 1): 2, (6, 2): 2, (6, 3): 2, (6, 4): 2, (6, 5): 2, (6, 6): 4}

# Plain games to the end: no bear-off database, no truncation, no variance reduction.
PLAIN = Scoring(exact_bearoff=False, truncate=None, vr=False)


def test_hand_worked_position_figure_by_figure():
    """Catches a wrong weight (doubles 1/36, others 2/36), a lost die charged to the played one,
    wrong mobility."""
    d = static_deficit(parse_position(HAND))
    assert d.p_full == pytest.approx(21 / 36) and d.p_partial == pytest.approx(6 / 36)
    assert d.p_pass == pytest.approx(9 / 36)
    assert d.expected_lost_pips == pytest.approx(116 / 36)
    assert d.face_deficit == pytest.approx((0, 0, 12 / 14, 10 / 14, 8 / 14, 0))
    assert d.mobility == (9, 8, 0, 0, 0, 1)
    table = np.zeros((6, 6), dtype=int)
    for (a, b), n in HAND_STEPS.items():
        table[a - 1, b - 1] = table[b - 1, a - 1] = n
    assert (np.asarray(d.steps_played) == table).all()


def test_with_one_die_played_the_larger_is_played_and_the_smaller_lost():
    """Catches charging the lost step to the wrong die when only one die of a non-double plays (R2,
    §8).

    §10's example: Black's 3-2 can play either die alone but never both, so the 3 is played.
    """
    pos = parse_position("W:3,6,7,19x2,22x6,24x4 B:14,16,23x9,24x4 b")
    d = static_deficit(pos)
    assert d.steps_played[2, 1] == d.steps_played[1, 2] == 1
    assert brute_force_turn(pos, (3, 2), "federation", "step")[1:] == (1, 3)
    expected = _brute_force_deficit(pos, "federation", "step")
    assert d.face_deficit == pytest.approx(expected["face_deficit"])
    assert d.expected_lost_pips == pytest.approx(expected["expected_lost_pips"])


def _brute_force_deficit(pos, head_rule: str, block_check: str) -> dict:
    """§8 computed from the brute-force enumerator: the same figures as `static_deficit`."""
    rolled, lost = [0] * 6, [0] * 6
    full = partial = passes = 0
    pips = 0
    table = np.zeros((6, 6), dtype=int)
    for a in range(1, 7):
        for b in range(1, a + 1):
            weight = 1 if a == b else 2
            results, steps, lone = brute_force_turn(pos, (a, b), head_rule, block_check)
            table[a - 1, b - 1] = table[b - 1, a - 1] = steps
            dice = [a] * 4 if a == b else [a, b]
            mover = "W:-" if pos.turn == "w" else "B:-"
            # the last checker goes off: no step is lost
            if any(mover in r.split() for r in results):
                steps, lone = len(dice), None
            if steps == len(dice):
                full += weight
            elif steps == 0:
                passes += weight
            else:
                partial += weight
            unplayed = dice[steps:] if a == b else ([] if steps == 2 else dice if steps == 0
                                                   else [b if lone == a else a])
            for f in dice:
                rolled[f - 1] += weight
            for f in unplayed:
                lost[f - 1] += weight
                pips += f * weight
    return {"p_full": full / 36, "p_partial": partial / 36, "p_pass": passes / 36,
            "expected_lost_pips": pips / 36,
            "face_deficit": tuple(l / r for l, r in zip(lost, rolled)), "steps_played": table,
            "mobility": tuple(brute_force_mobility(pos, f, block_check) for f in range(1, 7))}


@pytest.mark.parametrize("head_rule, block_check", [("federation", "step"), ("strict", "turn-end"),
                                                    ("doubles-643", "off")])
def test_static_deficit_equals_brute_force_on_game_positions(head_rule, block_check):
    """Catches any §8 bookkeeping error (weights, lost die, pips, table, mobility) on varied
    positions."""
    rules = make_rules(head_rule=head_rule, block_check=block_check)
    positions = [p for p, _ in random_game_positions(60, seed=31, rules=rules, every=5)
                 + random_game_positions(40, seed=32, rules=rules, every=3, greedy=0.7)]
    assert any(static_deficit(p, rules).p_partial > 0 for p in positions)
    for pos in positions:
        got, want = static_deficit(pos, rules), _brute_force_deficit(pos, head_rule, block_check)
        for key in ("p_full", "p_partial", "p_pass", "expected_lost_pips", "face_deficit"):
            assert getattr(got, key) == pytest.approx(want[key]), (str(pos), key)
        assert (np.asarray(got.steps_played) == want["steps_played"]).all(), str(pos)
        assert got.mobility == want["mobility"], str(pos)


# White to move; Black's lone checker on B24 (= W12) bears off with any roll, so White plays
# exactly one turn per game. With 36 stratified games each ordered first roll comes once, so the
# rollout's White deficit is the static deficit exactly.
#   W:   6  ...  12  ...  24           W6 w1: its 6s are blocked by b1 on W12 (6-6 passes);
#       w1        b1       w14          W24 w14 cannot move until W6 is home, so one die is
#                                       often lost (6-1: 6/7 then nothing plays the 6: partial)
FIRST_TURN = "W:6,24x14 B:24 w"


def test_static_and_rollout_deficit_agree_on_the_first_turn():
    """Catches the rollout's per-turn bookkeeping drifting from the static definition (one §8 for
    both)."""
    pos = parse_position(FIRST_TURN)
    static = static_deficit(pos)
    assert (static.p_partial > 0
            and static.p_pass > 0), "the position must exercise every kind of turn"
    # every pair of first two rolls once
    r = rollout(pos, "random", games=1296, seed=1, scoring=PLAIN)
    assert r.mean_plies == 2.0
    white = r.deficit["white"]
    assert white["face_deficit"] == pytest.approx(list(static.face_deficit))
    assert white["lost_pips_per_game"] == pytest.approx(static.expected_lost_pips)
    assert white["partial_turn_share"] == pytest.approx(static.p_partial)
    assert white["pass_share"] == pytest.approx(static.p_pass)


def test_steps_left_after_the_last_checker_is_off_are_not_lost():
    """Catches the winning turn counted as partial because its last steps had no checker left to
    move (rules decision 18; issue 27: `last-roll-draw` showed every double as 2 of 4 steps,
    "partial 17%").

    W:10 alone (14 off): 6-6 plays 10/16 16/22 22/off; the fourth six has no checker left: not lost.
    """
    d = static_deficit(parse_position("W:10 B:1x15 w"))
    assert d.steps_played[5, 5] == 3                # the steps played, as they were
    assert brute_force_turn(parse_position("W:10 B:1x15 w"), (6, 6), "federation", "step")[1] == 3
    assert d.face_deficit[5] == 0.0
    expected = _brute_force_deficit(parse_position("W:10 B:1x15 w"), "federation", "step")
    assert d.p_partial == pytest.approx(expected["p_partial"])
    assert d.expected_lost_pips == pytest.approx(expected["expected_lost_pips"])


# positions/study.txt's last-roll-draw: White's two checkers on W24 go off with any roll (a double
# plays 24/off 24/off and has two steps left over); Black (B23, B24x2, all home) then has the R8
# last roll: a double takes all three off with a step left over, any other roll takes two off.
#   W:  ...  24          B:  ...  23  24
#           w2                    b1  b2
LAST_ROLL_DRAW = "W:24x2 B:23,24x2 w"


def test_a_turn_that_bears_off_the_last_checker_is_full_in_static_and_rollout_deficit():
    """Catches steps counted as lost because the game ended (issue 27 item 11): in the static
    deficit and in the rollouts' per-turn bookkeeping alike, the turn that takes the last checker
    off loses nothing."""
    pos = parse_position(LAST_ROLL_DRAW)
    d = static_deficit(pos)
    assert (d.p_full, d.p_partial, d.p_pass, d.expected_lost_pips) == (1.0, 0.0, 0.0, 0.0)
    assert d.face_deficit == (0.0,) * 6
    assert [d.steps_played[f, f] for f in range(6)] == [2] * 6
    expected = _brute_force_deficit(pos, "federation", "step")
    for key in ("p_full", "p_partial", "expected_lost_pips", "face_deficit"):
        assert getattr(d, key) == pytest.approx(expected[key]), key
    # every pair of first two rolls once
    r = rollout(pos, "random", games=1296, seed=1, scoring=PLAIN)
    for side in ("white", "black"):
        assert r.deficit[side]["partial_turn_share"] == 0.0, side
        assert r.deficit[side]["lost_pips_per_game"] == 0.0, side
        assert r.deficit[side]["face_deficit"] == [0.0] * 6, side
    assert r.probabilities["draw"] == pytest.approx(1 / 6)     # Black's doubles: the R8 draw
