"""The cube in a match: a cubeful match equity table with the Crawford rule, and cube decisions at a
score.

Built from the cubeless table of `match_table.py` (the same game distribution,
points, draw points and colour rule).  Three kinds of game (docs/cube.md):

- **pre-Crawford** (both need more than 1 point): the game from its start is
  valued by Janowski's model in match winning chances, the cube centred;
- **Crawford** (the game after a player first needs 1 point or less): no cube,
  the game's cubeless value over the post-Crawford table;
- **post-Crawford**: the trailer doubles at once, the leader takes or drops
  (a free drop when it pays); the leader's cube is dead, so the game is valued
  exactly at cube 2 (or 1 after a drop).

Janowski's live cube in a match (as GNU Backgammon's cube model does it): the
live take and cash points come from a recursion over cube levels (a side's cash
point at cube c is one minus its opponent's take point at 2c), until the cube is
dead; the cubeful chance is (1 - x) x the cubeless chance + x x the live one.
The cube multiplies every result's points, a draw's included (rules decision 25).
Needs are in half points, as in the cubeless table.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..kernels import match_cube as kmc
from .cube import CONTACT_EFFICIENCY, RELATIVE, Cube, CubeDecision, decide
from .table import MatchTable

def game_kind(need_a: int, need_b: int, crawford: bool) -> str:
    """`pre`, `crawford` or `post` for a game with these needs (half points) and the Crawford flag
    (the match state checked that someone needs 1 point or less in the Crawford game)."""
    if crawford:
        return "crawford"
    return "post" if min(need_a, need_b) <= 2 else "pre"


@dataclass(frozen=True)
class CubefulMatchTable:
    """Cubeful match winning chances before a game, from a cubeless `MatchTable` and a cube
    efficiency x."""

    table: MatchTable
    efficiency: float = 0.68

    def chance(self, need_a: int, need_b: int, a_white: bool | None, kind: str) -> float:
        """A's chance before a game of `kind` in which A plays White (True), Black (False) or by lot
        (None)."""
        if need_a <= 0 or need_b <= 0:
            return self.table.chance(need_a, need_b, a_white)
        if a_white is None:
            return 0.5 * (self.chance(need_a, need_b, True, kind)
                          + self.chance(need_a, need_b, False, kind))
        return self._chance(need_a, need_b, a_white, kind)

    @lru_cache(maxsize=None)
    def _chance(self, need_a: int, need_b: int, a_white: bool, kind: str) -> float:
        game = GameCube(self, need_a, need_b, a_white, kind, self.start_probabilities(a_white))
        if kind == "pre":
            return game.equity(1, "centre")
        if kind == "crawford" or need_a == need_b:
            return game.dead(1)
        take, drop_a, drop_b = game.dead(2), game.cash(0, 1), 1.0 - game.cash(1, 1)
        if need_a > need_b:           # A trails: doubles at once unless playing on is better
            return max(game.dead(1), min(take, drop_a))
        return min(game.dead(1), max(take, drop_b))

    def start_probabilities(self, a_white: bool) -> np.ndarray:
        """A's nine result-code probabilities for a game from the start (A White or Black)."""
        d = self.table.distribution
        a, b = (d.white, d.black) if a_white else (d.black, d.white)
        return np.array([*a, *b, d.draw], dtype=np.float64)

    def after(self, need_a: int, need_b: int, winner: str | None, a_was_white: bool,
              kind: str) -> float:
        """A's chance after a game of `kind` left these needs (`winner` 'a', 'b' or None for a
        draw)."""
        colour = self.table.next_colour(winner, a_was_white)
        if kind == "pre":
            nxt = "crawford" if min(need_a, need_b) <= 2 else "pre"
        else:
            nxt = "post"
        return self.chance(need_a, need_b, colour, nxt)

    def table_of(self, length: int) -> np.ndarray:
        """M[i-1, j-1]: the cubeful chance that a player needing i points beats one needing j (i, j
        = 1..length), before a game whose colours are drawn by lot; a need of 1 is the Crawford
        game."""
        return np.array([[self.chance(2 * i, 2 * j, None, "crawford" if min(i, j) == 1 else "pre")
                          for j in range(1, length + 1)] for i in range(1, length + 1)])

    def post_crawford(self, length: int) -> np.ndarray:
        """P[j-1]: the leader's chance (needing 1 point) after the Crawford game against a trailer
        needing j."""
        return np.array([1.0 - self.chance(2 * j, 2, None, "post") for j in range(1, length + 1)])


def value_table(met: CubefulMatchTable, need_a: int, need_b: int, a_white: bool, kind: str,
                levels: int, with_draw: bool = True) -> np.ndarray:
    """tab[k, column]: the match chances the compiled model reads (`kernels/match_cube.py`) for A
    on roll at these needs, per cube level k (cube 2**k); without `with_draw` the draw column is 0
    (a position that cannot be drawn: the value is never read)."""
    units, draw = met.table.units()
    tab = np.zeros((levels, kmc.N_COLUMNS))
    for k in range(levels):
        c = 1 << k
        for i, u in enumerate(units):
            tab[k, kmc.WINS + i] = met.after(need_a - c * u, need_b, "a", a_white, kind)
            tab[k, kmc.LOSSES + i] = met.after(need_a, need_b - c * u, "b", a_white, kind)
        if with_draw:
            tab[k, kmc.DRAWN] = met.after(need_a - c * draw, need_b - c * draw, None, a_white,
                                          kind)
        tab[k, kmc.CASH_A] = met.after(need_a - 2 * c, need_b, "a", a_white, kind)
        tab[k, kmc.CASH_B] = 1.0 - met.after(need_a, need_b - 2 * c, "b", a_white, kind)
    return tab


@dataclass
class GameCube:
    """One game at a score, A on roll: Janowski's model in match winning chances for A's result
    probabilities (the compiled model of `kernels/match_cube.py` over this game's value table)."""

    met: CubefulMatchTable
    need_a: int
    need_b: int
    a_white: bool
    kind: str
    probs: np.ndarray
    efficiency: float | None = None       # None: the table's
    _tab: np.ndarray | None = None

    def table(self, top: int) -> np.ndarray:
        """The value table up to level `top` at least (extended when a larger cube is asked)."""
        if self._tab is None or self._tab.shape[0] <= top:
            levels = kmc.levels_for(max(self.need_a, self.need_b), top)
            self._tab = value_table(self.met, self.need_a, self.need_b, self.a_white, self.kind,
                                    levels, bool(self.probs[8] > 0))
        return self._tab

    @property
    def x(self) -> float:
        """The cube efficiency: the game's, else the table's."""
        return self.met.efficiency if self.efficiency is None else self.efficiency

    def equity(self, c: int, owner: str) -> float:
        """A's cubeful chance at cube c owned by `owner` (`centre`, `roller` = A, `opponent` = B):
        (1 - x) x dead + x x live (no cube at all in the Crawford game)."""
        k = level(c)
        tab = self.table(k)
        return float(kmc.equity_at(np.asarray(self.probs, dtype=np.float64), tab,
                                   max(self.need_a, self.need_b), kmc.KIND_CODE[self.kind],
                                   float(self.x), k, RELATIVE[owner],
                                   kmc.model_scratch(tab.shape[0])))

    def dead(self, c: int) -> float:
        """A's cubeless chance at cube c."""
        k = level(c)
        return float(kmc.cubeless(np.asarray(self.probs, dtype=np.float64), self.table(k), k))

    def equities(self, c: int, owner: str) -> tuple[float, float, float]:
        """(no double, double/take, double/pass) of A at cube c (`kernels/match_cube.
        match_equities`; NaN double values in the Crawford game or with B owning the cube)."""
        k = level(c)
        tab = self.table(k + 1)
        nd, dt, dp = kmc.match_equities(np.asarray(self.probs, dtype=np.float64), tab,
                                        max(self.need_a, self.need_b), kmc.KIND_CODE[self.kind],
                                        float(self.x), k, RELATIVE[owner],
                                        kmc.model_scratch(tab.shape[0]))
        return float(nd), float(dt), float(dp)

    def cash(self, side: int, c: int) -> float:
        """`side`'s own chance after it wins c points by a drop."""
        k = level(c)
        return float(self.table(k)[k, kmc.CASH_A if side == 0 else kmc.CASH_B])


def level(c: int) -> int:
    """The cube level of cube value c (c = 2**level)."""
    return int(c).bit_length() - 1


@lru_cache(maxsize=8)
def cubeful_table(table: MatchTable, efficiency: float = CONTACT_EFFICIENCY) -> CubefulMatchTable:
    """The cubeful match table of a cubeless one (kept, so its entries are computed once)."""
    return CubefulMatchTable(table, efficiency)


def match_decision(probs: np.ndarray, met: CubefulMatchTable, needs: tuple[int, int],
                   roller_white: bool, cube: Cube, turn: str, crawford: bool = False,
                   efficiency: float | None = None) -> CubeDecision:
    """The cube decision of the side on roll at a score (`needs`: the roller's, the opponent's, in
    half points; `crawford`: the Crawford game): its cubeful match winning chances, at the
    position's cube efficiency (default: the table's)."""
    kind = game_kind(needs[0], needs[1], crawford)
    game = GameCube(met, needs[0], needs[1], roller_white, kind, probs, efficiency)
    owner = cube.relative(turn)
    c = cube.value
    nd, dt, dp = game.equities(c, owner)
    x = game.x
    if kind == "crawford":
        return CubeDecision("no double", nd, None, None, None, "mwc", efficiency=x,
                            reason="the Crawford game: no double")
    if owner == "opponent":
        return CubeDecision("no double", nd, None, None, None, "mwc", efficiency=x,
                            reason="the opponent owns the cube")
    return CubeDecision(decide(nd, dt, dp), nd, dt, dp, _take_point(game, c, dp), "mwc",
                        efficiency=x)


def _take_point(game: GameCube, c: int, dp: float) -> float:
    """The opponent's least winning chance to take: where A's double/take chance meets double/pass
    (bisection on A's winning chance, the classes of wins and losses mixed as in the position)."""
    lo, hi = 0.0, 1.0
    tab = game.table(level(c) + 1)
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        trial = GameCube(game.met, game.need_a, game.need_b, game.a_white, game.kind,
                         _with_win_chance(game.probs, mid), game.efficiency, tab)
        if trial.equity(2 * c, "opponent") < dp:
            lo = mid
        else:
            hi = mid
    return 1.0 - 0.5 * (lo + hi)


def _with_win_chance(probs: np.ndarray, p: float) -> np.ndarray:
    """The same class mix of wins and of losses (and no draw) at winning chance p."""
    pw, pl = probs[:4].sum(), probs[4:8].sum()
    wins = probs[:4] / pw if pw > 0 else np.array([1.0, 0, 0, 0])
    losses = probs[4:8] / pl if pl > 0 else np.array([1.0, 0, 0, 0])
    return np.concatenate([p * wins, (1 - p) * losses, [0.0]])
