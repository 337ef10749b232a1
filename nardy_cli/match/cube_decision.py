"""The cube decision of a position: the network's cubeless chances through the cube model, or exact
values where the cubeful bear-offs reach (money: the cubeful bear-off database; a match score:
`match_bearoff.py`'s recursion at the score).

`cube_decision` is what `nardy eval --cube-owner ...` prints: the side on roll's
decision and its three equities (no double, double/take, double/pass) in units of
the current cube for money, match winning chances at a score (docs/cube.md).  The
stakes (`stakes.Stakes`: money or the match and score, the cube and its rules) are
checked where they were made; nothing here checks them again.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..core.errors import CubeError
from ..core.outcomes import RESULT_KEYS
from ..core.position import Position
from ..core.rules import PRESETS, Rules
from ..policies.bearoff import is_bearoff
from .cube import (CONTACT_EFFICIENCY, Cube, CubeDecision, decide, money_decision,
                   money_take_point, money_win_loss, race_efficiency)
from .cube_bearoff import cubeful_equities, in_cube_database
from .cube_table import cubeful_table, match_decision
from .match_bearoff import exact_match_decision, in_match_cube_database
from .stakes import Stakes
from .state import match_table
from .table import half_points


def efficiency_of(position: Position) -> float:
    """The cube efficiency of the position: 0 (a dead cube) before Black's last roll, a race's by
    the roller's pips once both sides are all home, else the contact value."""
    if is_last_roll(position):
        return 0.0
    return (race_efficiency(position.pip_count(position.turn)) if is_bearoff(position)
            else CONTACT_EFFICIENCY)


def is_last_roll(position: Position) -> bool:
    """True before Black's last roll (R8): White has borne off every checker and Black, all home,
    is on roll; the game ends with that roll, so no cube action can follow it."""
    return (position.turn == "b" and not any(position.checkers("w"))
            and is_bearoff(position))


def cube_decision(position: Position, stakes: Stakes, rules: Rules = PRESETS["federation"],
                  network=None, probabilities: dict | None = None, exact: bool = True
                  ) -> CubeDecision:
    """The cube decision of the side on roll in `position` (no dice: the decision comes before the
    roll) at `stakes` (money or a match score; its cube, centred when the stakes have none).

    `probabilities` (the nine result codes' named chances for the side on roll) saves asking the
    network again when the caller has them.  `exact=False` keeps the cube model in the cubeful
    bear-offs too (the bots' game loops: the compiled money loop never consults them either).
    """
    if position.dice is not None:
        raise CubeError("a cube decision comes before the roll: "
                        f"drop the dice from {str(position)!r}")
    cube, match = stakes.cube or Cube(), stakes.match
    if exact and match is None and in_cube_database(position):
        return _exact_money(position, cube, rules)
    last_roll = is_last_roll(position)
    if probabilities is None or last_roll:
        # before the last roll the databases' exact chances, whatever the caller has
        from ..policies.estimate import neural_estimate
        probabilities = neural_estimate(position, rules, network).probabilities
    probs = np.array([probabilities[k] for k in RESULT_KEYS], dtype=np.float64)
    x = efficiency_of(position)
    if match is None:
        decision = money_decision(probs, rules.points, cube, position.turn, x)
    else:
        needs_wb = [half_points(n, "a need") for n in match.needs]
        needs = (needs_wb[0], needs_wb[1]) if position.turn == "w" else (needs_wb[1], needs_wb[0])
        decision = match_decision(probs, cubeful_table(match_table(match, rules)), needs,
                                  position.turn == "w", cube, position.turn, match.crawford, x)
        if exact and not last_roll and in_match_cube_database(position):
            # exact values; the take point stays the race model's (as in money's exact decisions)
            return exact_match_decision(position, match, cube, rules, decision.take_point)
    return replace(decision, exact=True, last_roll=True) if last_roll else decision


def _exact_money(position: Position, cube: Cube, rules: Rules) -> CubeDecision:
    """The money decision from the cubeful bear-off database (the take point from Janowski's race
    model)."""
    from ..policies.bearoff import bearoff_value
    eq = cubeful_equities(position, rules)
    owner = cube.relative(position.turn)
    x = efficiency_of(position)
    if owner == "opponent":
        return CubeDecision("no double", eq["opponent"], None, None, None, "points", exact=True,
                            reason="the opponent owns the cube")
    nd = eq["nd_centre" if owner == "centre" else "nd_roller"]
    dt = 2.0 * eq["opponent"]
    beaver = cube.beavers and dt < 0
    if beaver:
        dt *= 2.0
    probs = bearoff_value(position, rules).probabilities
    _, w, lo = money_win_loss(np.array([probs[k] for k in RESULT_KEYS]), rules.points)
    return CubeDecision(decide(nd, dt, 1.0), nd, dt, 1.0, money_take_point(lo, w, x), "points",
                        exact=True, efficiency=None, beaver=beaver)
