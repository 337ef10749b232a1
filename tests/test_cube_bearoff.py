"""Exact cubeful bear-off equities against a brute-force cubeful expectimax written here.

Plays come from the brute-force home boards of `tests/test_bearoff.py` (tests/bruteforce.py);
the cube is played here by the textbook rules: before its roll a side that owns the
cube (or with it centred) may double; the opponent passes (the doubler wins one cube)
or takes and owns the doubled cube (with beavers it may also redouble at once).
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
import pytest

from nardy_cli.match import cube_bearoff
from nardy_cli.kernels import bearoff as kb
from nardy_cli.core.position import Position
from tests.test_bearoff import EMPTY, ROLLS, homes, next_homes, notation, turns_dist, weight

FLIP = {"centre": "centre", "roller": "opponent", "opponent": "roller"}


def brute_cubeful(last_roll: bool, beavers: bool):
    """value(turn, mine, theirs, owner): the roller's equity per cube unit before its roll, cube
    played best."""

    @lru_cache(maxsize=None)
    def no_double(turn, mine, theirs, owner):
        total = 0.0
        for roll in ROLLS:
            best = -9.0
            for after in next_homes(mine, roll):
                if after == EMPTY:
                    # a draw is 0
                    v = 1.0 - (turns_dist(theirs)[1] if turn == "w" and last_roll else 0.0)
                else:
                    v = -value("b" if turn == "w" else "w", theirs, after, FLIP[owner])
                best = max(best, v)
            total += weight(roll) * best
        return total

    @lru_cache(maxsize=None)
    def value(turn, mine, theirs, owner):
        play_on = no_double(turn, mine, theirs, owner)
        if owner == "opponent":
            return play_on
        taken = 2.0 * no_double(turn, mine, theirs, "opponent")
        answers = [1.0, taken] + ([2.0 * taken] if beavers else [])
        return max(play_on, min(answers))

    return value, no_double


@pytest.mark.parametrize("last_roll, beavers", [(True, False), (False, False), (True, True)])
def test_cubeful_bearoff_equals_brute_force_up_to_3_checkers(last_roll, beavers):
    """Catches a wrong cube recursion: the owner not swapped between sides, a double allowed from
    the opponent's cube, the take valued at the wrong cube, a missed draw (R8).  (With beavers the
    values are the same: a double that would be beavered is never made, so beavers change no value
    here.)"""
    value, _ = brute_cubeful(last_roll, beavers)
    eq = cube_bearoff.build(3, last_roll, beavers)
    rank = {h: int(kb.rank(np.array(h, dtype=np.int64), 3, kb.COMP)) for h in homes(3)}
    worst = 0.0
    for (mine, theirs), c, (k, owner) in itertools.product(itertools.product(homes(3), repeat=2),
                                                           (0, 1),
                                                           enumerate(("centre", "roller",
                                                                      "opponent"))):
        got = eq[c, k, rank[mine], rank[theirs]]
        worst = max(worst, abs(got - value("wb"[c], mine, theirs, owner)))
    assert worst < 1e-12


def test_cube_changes_the_value_where_doubling_pays():
    """Catches a cube that never moves (a cubeless table under another name): with 2 checkers a side
    on the 19 point, the roller's centred cube is worth more than the same race with the cube its
    opponent's."""
    value, no_double = brute_cubeful(True, False)
    far = (2, 0, 0, 0, 0, 0)
    assert value("w", far, far, "centre") > no_double("w", far, far, "opponent")


def test_lookup_by_position_uses_the_roller_and_its_colour():
    """Catches the public lookup reading the wrong colour or side: Black to roll in a position
    equals the brute force for Black as the roller, and the no-double values are the brute force's
    too."""
    value, no_double = brute_cubeful(True, False)
    mine, theirs = (1, 0, 1, 0, 0, 0), (0, 2, 0, 0, 0, 1)
    pos = Position.parse(f"W:{notation(theirs)} B:{notation(mine)} b")
    got = cube_bearoff.cubeful_equities(pos)
    assert got["centre"] == pytest.approx(value("b", mine, theirs, "centre"), abs=1e-12)
    assert got["opponent"] == pytest.approx(value("b", mine, theirs, "opponent"), abs=1e-12)
    assert got["nd_centre"] == pytest.approx(no_double("b", mine, theirs, "centre"), abs=1e-12)
    assert got["nd_roller"] == pytest.approx(no_double("b", mine, theirs, "roller"), abs=1e-12)
