"""The match equity table (docs/matches.md): its recursion against a forward Markov chain written
here, its symmetries, and the values a match score gives the outcomes of a game."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from nardy_cli.core.errors import MatchError
from nardy_cli.match.stakes import MONEY, Stakes
from nardy_cli.match.state import MatchState, match_state, parse_score
from nardy_cli.match.table import NEXT_WHITE, GameDistribution, MatchTable
from nardy_cli.core.outcomes import SWAP, money_valuation
from nardy_cli.core.rules import PRESETS, make_rules

FED = PRESETS["federation"]
# a made-up game: White moves first and wins a little more often; every class and the draw occur
DIST = GameDistribution((0.30, 0.02, 0.05, 0.10), (0.25, 0.03, 0.04, 0.11), 0.10)
POINTS = (1, 2, 2, 2)
EXTENDED = (1, 3, 2, 4)


def forward_chance(length: int, dist: GameDistribution, points, rule: str, start=(0.0, 0.0, None),
                   draw: float = 0.5, games: int = 80) -> float:
    """A's chance to win a match to `length` from `start` = (A's score, B's score, A plays White in
    the coming game: True, False or None for the lot): the probability mass of every (A's score, B's
    score, A plays White next) state pushed forward game by game until it is absorbed (a player
    reaches `length`; both at once: deciding games, a state of its own)."""
    mass = defaultdict(float)
    sa0, sb0, colour0 = start
    for colour, q in ([(True, 0.5), (False, 0.5)] if colour0 is None else [(colour0, 1.0)]):
        mass[(sa0, sb0, colour)] += q
    won = 0.0
    for _ in range(games):
        nxt = defaultdict(float)
        for (sa, sb, a_white), m in mass.items():
            tie = sa >= length and sb >= length
            a_wins, b_wins = (dist.white, dist.black) if a_white else (dist.black, dist.white)
            outcomes = ([("a", points[c], a_wins[c]) for c in range(4)]
                        + [("b", points[c], b_wins[c]) for c in range(4)])
            outcomes.append((None, draw, dist.draw))
            for winner, pts, p in outcomes:
                if p == 0:
                    continue
                if tie:
                    na, nb = ((length + 1, sb) if winner == "a" else (sa, length + 1)
                              if winner == "b" else (sa, sb))
                else:
                    na = sa + (pts if winner in ("a", None) else 0)
                    nb = sb + (pts if winner in ("b", None) else 0)
                if na > sa and na >= length and not nb >= length:
                    won += m * p
                    continue
                if nb >= length and not na >= length:
                    continue
                if tie and winner is not None:
                    won += m * p if winner == "a" else 0.0
                    continue
                if rule == "alternate":
                    colours = [(not a_white, 1.0)]
                elif rule == "lot" or winner is None:
                    colours = [(True, 0.5), (False, 0.5)]
                else:
                    colours = [((winner == "a") == (rule == "winner"), 1.0)]
                for colour, q in colours:
                    nxt[(na, nb, colour)] += m * p * q
        mass = nxt
    assert sum(mass.values()) < 1e-12
    return won


@pytest.mark.parametrize("rule", NEXT_WHITE)
@pytest.mark.parametrize("length", [1, 2, 3])
@pytest.mark.parametrize("points", [POINTS, EXTENDED])
def test_table_equals_a_forward_markov_chain(length, rule, points):
    """Would catch: a wrong transition of the recursion (points of a class, a draw's half point
    each, who is White next under each rule, the deciding games after both reach the length on a
    draw), at every score of matches to 1, 2 and 3 points, halves included, and each colour of the
    coming game."""
    table = MatchTable(points, DIST, rule, 0.5)
    scores = [k / 2 for k in range(2 * length)]
    for sa in scores:
        for sb in scores:
            for colour in (True, False, None):
                expected = forward_chance(length, DIST, points, rule, (sa, sb, colour))
                got = table.chance(int(2 * (length - sa)), int(2 * (length - sb)), colour)
                assert got == pytest.approx(expected, abs=1e-12), (sa, sb, colour)


@pytest.mark.parametrize("rule", NEXT_WHITE)
def test_lot_table_is_symmetric_and_monotone(rule):
    """Would catch: a table whose entries do not add up for the two players (M[i][j] + M[j][i] = 1
    with colours by lot), 1-away/1-away not a half, or a player who needs more points winning more
    often."""
    m = MatchTable(POINTS, DIST, rule, 0.5).table(9)
    np.testing.assert_allclose(m + m.T, 1.0, atol=1e-12)
    assert m[0, 0] == pytest.approx(0.5)
    assert (np.diff(m, axis=0) <= 1e-12).all()     # needing more points: never better
    assert (np.diff(m, axis=1) >= -1e-12).all()    # the opponent needing more: never worse


def test_white_moves_first_so_white_is_worth_something():
    """Would catch: the colour of the coming game ignored (White, who moves first, wins more often
    here)."""
    t = MatchTable(POINTS, DIST, "lot", 0.5)
    assert t.chance(2, 2, True) == pytest.approx(sum(DIST.white) + DIST.draw * 0.5 * (
        t.chance(0, 0, True) + t.chance(0, 0, False)))
    assert t.chance(2, 2, True) > 0.5 > t.chance(2, 2, False)


def test_match_values_at_six_all_make_mars_worth_an_oin():
    """Would catch: match values built from the points instead of the score: at 6-6 to 7 any win
    wins the match, so a mars is worth exactly what an oin is, and a loss by koks what a loss by oin
    is."""
    state = match_state(7, "6-6", FED)
    v = Stakes(state).valuation(FED, DIST)
    w = v.for_side(True)
    assert w[0] == w[1] == w[2] == w[3] == pytest.approx(1.0)
    assert w[4] == w[5] == w[6] == w[7] == pytest.approx(-1.0)
    assert -1 < w[8] < 1       # a draw leaves 6.5-6.5: not decided


def test_match_values_are_zero_sum_and_money_values_are_the_points():
    """Would catch: Black's values not the negation of White's for the same game (the kernels'
    negamax search relies on it), or money values that are not the rules' points with a draw at
    0."""
    v = Stakes(match_state(7, "4-6", FED)).valuation(FED, DIST)
    np.testing.assert_allclose(v.for_side(False), -v.for_side(True)[SWAP[:9]])
    # White, who needs 3, wants the mars at 4-6
    assert v.for_side(True)[2] > v.for_side(True)[0]
    m = money_valuation(make_rules("extended"))
    assert m.for_side(True).tolist() == [1, 3, 2, 4, -1, -3, -2, -4, 0]
    assert MONEY.valuation(FED) == money_valuation(FED)


def test_leader_at_six_two_gains_little_from_a_mars():
    """Would catch: values that do not follow the score: leading 6-2 to 7, any win ends the match,
    so White gains nothing from a mars over an oin; trailing 2-6, White gains from a mars (it needs
    5)."""
    lead = Stakes(match_state(7, "6-2", FED)).valuation(FED, DIST).for_side(True)
    trail = Stakes(match_state(7, "2-6", FED)).valuation(FED, DIST).for_side(True)
    assert lead[2] == pytest.approx(lead[0])
    assert trail[2] > trail[0] + 0.02


@pytest.mark.parametrize("length, score, token", [
    (7, "7-2", "over"), (7, "2-7.5", "over"), (7, "a-b", "'a-b'"), (7, "3", "'3'"),
    (7, "-1-2", "'-1-2'"), (7, "3.3-2", "multiple of 1/2"), (0, "0-0", "at least 1"),
])
def test_bad_match_states_are_match_errors(length, score, token):
    """Would catch: a finished match, a malformed, negative or fractional score accepted as a match
    state."""
    with pytest.raises(MatchError) as err:
        match_state(length, score, FED)
    assert token in str(err.value)


def test_half_points_need_the_last_roll():
    """Would catch: a score with a half point (only draws give halves) accepted under rules without
    R8."""
    assert match_state(7, "3.5-2", FED).score == (3.5, 2.0)
    with pytest.raises(MatchError, match="half point"):
        match_state(7, "3.5-2", make_rules("classic"))


def test_score_notation_round_trips():
    """Would catch: a score written in another order than it is read (White first, then Black)."""
    s = MatchState(7, parse_score("4-6"))
    assert s.score_text == "4-6" and s.needs == (3, 1)
    assert MatchState(7, parse_score(MatchState(7, (3.5, 2)).score_text)).score == (3.5, 2)
