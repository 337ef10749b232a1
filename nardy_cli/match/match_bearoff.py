"""Exact cube decisions of bear-offs at a match score: a cubeful recursion over the bear-off's
positions in match winning chances (kernels/cube_race.py).

Both sides all home with at most `MATCH_CUBE_N` checkers each: for each score (the
match state: needs, colour rule, draw points, Crawford or post-Crawford game), the
side on roll's match winning chance before its roll, for every cube value and owner,
with both sides playing the cube perfectly (doubles, takes, passes and redoubles)
and every play the best by cubeful match winning chance.  The values after the game
are the cubeful match table's (`cube_table.CubefulMatchTable.after`, the table
`cube_decision` uses everywhere): a win is an oin times the cube (a race's loser
always has a checker off), a passed double the doubler's oin at the cube before it,
a draw (R8: Black bears off all in its last roll) each player the draw points times
the cube (rules decision 25).  Black may double before its last roll, and that cube
is dead (rules decision 31).  No double in the Crawford game.  The cube levels stop
where the cube is dead: a win and a draw at that cube both reach every need.

A score's table is computed on first use (about 1.5 s for five checkers a side on
two busy cores, a fifth of a second for four) for the larger side's checkers, and kept
in memory (`lru_cache`): unlike money's one table, there is one per score and
colour rule, too many to keep on disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..core.position import Position
from ..core.rules import Rules
from ..kernels import bearoff as kb
from ..kernels import cube_race as kr
from ..policies import bearoff
from .cube import Cube, CubeDecision, decide
from .cube_bearoff import successor_table
from .cube_table import CubefulMatchTable, cubeful_table, game_kind
from .state import MatchState, match_table
from .table import half_points

MATCH_CUBE_N = 5
"""Checkers a side covered, as the money cubeful database (`cube_bearoff.CUBE_N`): six would take
about 9 s a score and 100 MB (the two-sided cubeless database reaches six)."""


def in_match_cube_database(position: Position) -> bool:
    """True when both sides are all home with 1 to `MATCH_CUBE_N` checkers on the board."""
    homes = [bearoff.home_board(position, s) for s in ("w", "b")]
    return all(h is not None and 0 < int(h.sum()) <= MATCH_CUBE_N for h in homes)


@dataclass(frozen=True)
class Score:
    """What the values after the game depend on: the cubeful match table, both needs in half
    points, the game's kind (`pre`, `crawford`, `post`) and the rules' last roll and oin."""

    met: CubefulMatchTable
    need_white: int
    need_black: int
    kind: str
    last_roll: bool

    def levels(self) -> int:
        """Cube levels (1, 2, 4, ...) up to the first at which a win and a draw reach both needs:
        there the cube is dead."""
        units, draw = self.met.table.units()
        need = max(self.need_white, self.need_black)
        v, n = 1, 1
        while v * units[0] < need or (self.last_roll and v * draw < need):
            v, n = 2 * v, n + 1
        return n

    def outcomes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(win, lose, draw)[c, i]: the match winning chance of the side c (0 White, 1 Black) after
        it wins an oin, loses one, or draws, with the cube at 2**i."""
        units, draw_units = self.met.table.units()
        nw, nb, k = self.need_white, self.need_black, self.kind
        levels = self.levels()
        win, lose, draw = (np.zeros((2, levels)) for _ in range(3))
        for i in range(levels):
            v = 2 ** i
            ww = self.met.after(nw - v * units[0], nb, "a", True, k)
            wl = self.met.after(nw, nb - v * units[0], "b", True, k)
            wd = self.met.after(nw - v * draw_units, nb - v * draw_units, None, True, k)
            win[:, i], lose[:, i], draw[:, i] = (ww, 1.0 - wl), (wl, 1.0 - ww), (wd, 1.0 - wd)
        return win, lose, draw


def score_of(match: MatchState, rules: Rules) -> Score:
    """The `Score` of a match state under `rules` (the cubeful table `cube_decision` uses)."""
    nw, nb = (half_points(n, "a need") for n in match.needs)
    return Score(cubeful_table(match_table(match, rules)), nw, nb,
                 game_kind(nw, nb, match.crawford), bool(rules.last_roll))


@lru_cache(maxsize=8)
def _race(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(successors, their counts, the pairs of non-empty boards by ascending pips, Black's chance
    to bear off every checker in one roll) for boards of at most n checkers."""
    succ = successor_table(n)
    counts = 1 + (succ[:, :, 1:] != succ[:, :, :1]).sum(axis=2)   # padded with the first
    boards = kb.unrank_all(n, kb.COMP)
    total = boards.shape[0]
    pips = (boards * np.arange(6, 0, -1)).sum(axis=1)
    a, b = (x.ravel() for x in np.meshgrid(np.arange(1, total), np.arange(1, total),
                                           indexing="ij"))
    order = np.argsort(pips[a] + pips[b], kind="stable")
    pairs = np.ascontiguousarray(np.stack([a[order], b[order]], axis=1), dtype=np.int64)
    full = np.array([kb.rank(x.astype(np.int64), kb.MAX_CHECKERS, kb.COMP) for x in boards])
    last = np.ascontiguousarray(bearoff.one_sided()["all_dist"][full, 1])
    return succ, counts.astype(np.int64), pairs, last


@lru_cache(maxsize=6)
def match_values(score: Score, n: int) -> np.ndarray:
    """values[c, a, b, s]: the side c's match winning chance on roll with board a (rank among boards
    of at most n checkers) against b, in cube state s (`kernels/cube_race.py`)."""
    succ, counts, pairs, last = _race(n)
    win, lose, draw = score.outcomes()
    total = succ.shape[0]
    out = np.zeros((2, total, total, kr.n_states(win.shape[1])))
    kr.build_values(succ, counts, pairs, kb.ROLL_WEIGHT, last, score.last_roll, win, lose, draw,
                    score.kind != "crawford", out)
    return out


def exact_match_values(position: Position, match: MatchState, cube: Cube, rules: Rules
                       ) -> dict[str, float]:
    """The roller's exact match winning chances before its roll: `no_double` (the cube left as it
    is), `double_take` (the opponent owns twice the cube), `double_pass` (the roller wins the cube),
    and `value` (with the best cube action)."""
    score = score_of(match, rules)
    homes = {s: bearoff.home_board(position, s) for s in ("w", "b")}
    n = max(int(h.sum()) for h in homes.values())
    values = match_values(score, n)
    me = homes[position.turn]
    other = homes["b" if position.turn == "w" else "w"]
    a, b = (int(kb.rank(h.astype(np.int64), n, kb.COMP)) for h in (me, other))
    c = 0 if position.turn == "w" else 1
    levels = values.shape[3] // 2 + 1
    level = min(cube.value.bit_length() - 1, levels - 1)
    owner = cube.relative(position.turn)
    s = 0 if owner == "centre" or level == 0 else 2 * level - (owner == "roller")
    succ, counts, _, _ = _race(n)
    flip = kr.state_flip(s)
    nd = float(sum(kb.ROLL_WEIGHT[r] * (1.0 - values[1 - c, b, succ[a, r, :counts[a, r]], flip]
                                        ).max() for r in range(21)))
    top = level + 1 if level + 1 < levels else level     # past the top level the cube is dead
    dt = float(values[c, a, b, 2 * top]) if top > 0 else nd
    win, _, _ = score.outcomes()
    return {"no_double": nd, "double_take": dt, "double_pass": float(win[c, level]),
            "value": float(values[c, a, b, s])}


def exact_match_decision(position: Position, match: MatchState, cube: Cube, rules: Rules,
                         take_point: float | None) -> CubeDecision:
    """The exact cube decision of the side on roll at the score (`take_point`: the model's, which
    the caller has; no exact one is computed)."""
    eq = exact_match_values(position, match, cube, rules)
    if match.crawford:
        return CubeDecision("no double", eq["no_double"], None, None, None, "mwc", exact=True,
                            reason="the Crawford game: no double")
    if cube.relative(position.turn) == "opponent":
        return CubeDecision("no double", eq["no_double"], None, None, None, "mwc", exact=True,
                            reason="the opponent owns the cube")
    nd, dt, dp = eq["no_double"], eq["double_take"], eq["double_pass"]
    return CubeDecision(decide(nd, dt, dp), nd, dt, dp, take_point, "mwc", exact=True)
