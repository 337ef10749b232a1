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

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .cube import CONTACT_EFFICIENCY, Cube, CubeDecision, decide, win_loss
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


@dataclass
class GameCube:
    """One game at a score, A on roll: Janowski's model in match winning chances for A's result
    probabilities."""

    met: CubefulMatchTable
    need_a: int
    need_b: int
    a_white: bool
    kind: str
    probs: np.ndarray
    efficiency: float | None = None       # None: the table's
    _memo: dict = field(default_factory=dict)

    def _values(self, c: int) -> tuple[np.ndarray, np.ndarray, float]:
        """A's chance after each A win class, each B win class, and a draw, at cube value c."""
        key = ("v", c)
        if key not in self._memo:
            units, draw = self.met.table.units()
            na, nb, aw, k = self.need_a, self.need_b, self.a_white, self.kind
            wins = np.array([self.met.after(na - c * u, nb, "a", aw, k) for u in units])
            losses = np.array([self.met.after(na, nb - c * u, "b", aw, k) for u in units])
            d = (self.met.after(na - c * draw, nb - c * draw, None, aw, k) if self.probs[8] > 0
                 else 0.0)
            self._memo[key] = (wins, losses, d)
        return self._memo[key]

    def wl(self, side: int, c: int) -> tuple[float, float, float]:
        """(p, W, L) for `side` (0: A, 1: B) at cube c, in that side's own chances."""
        wins, losses, d = self._values(c)
        p, w, lo = win_loss(self.probs, wins, losses, d)
        return (p, w, lo) if side == 0 else (1.0 - p, 1.0 - lo, 1.0 - w)

    def cash(self, side: int, c: int) -> float:
        """`side`'s own chance after it wins c points by a drop."""
        if side == 0:
            return self.met.after(self.need_a - 2 * c, self.need_b, "a", self.a_white, self.kind)
        return 1.0 - self.met.after(self.need_a, self.need_b - 2 * c, "b", self.a_white, self.kind)

    def dead(self, c: int) -> float:
        """A's cubeless chance at cube c."""
        p, w, lo = self.wl(0, c)
        return p * w + (1.0 - p) * lo

    def cash_point(self, side: int, c: int) -> float:
        """`side`'s winning chance above which, owning cube c, it doubles and is passed (fully live
        cube); 1 once a cash of c points ends the match either way (a dead cube)."""
        if 2 * c >= max(self.need_a, self.need_b):
            return 1.0
        key = ("c", side, c)
        if key not in self._memo:
            self._memo[key] = 1.0 - self.take_point(1 - side, 2 * c)
        return self._memo[key]

    def point_value(self, side: int, c: int) -> float:
        """`side`'s chance at its cash point: the cash, or a sure win when it never doubles."""
        return self.cash(side, c) if self.cash_point(side, c) < 1.0 else self.wl(side, c)[1]

    def take_point(self, side: int, c: int) -> float:
        """`side`'s least winning chance to take a double to c, owning c with a fully live cube."""
        _, _, lo = self.wl(side, c)
        cp, v = self.cash_point(side, c), self.point_value(side, c)
        passed = 1.0 - self.cash(1 - side, c // 2)
        if v <= lo:
            return 0.0
        return min(1.0, max(0.0, cp * (passed - lo) / (v - lo)))

    def live(self, c: int, owner: str) -> float:
        """A's chance with a fully live cube c owned by `owner` (`centre`, `roller` = A, `opponent`
        = B)."""
        p, w, lo = self.wl(0, c)
        ca, va = self.cash_point(0, c), self.point_value(0, c)
        low, low_value = 1.0 - self.cash_point(1, c), 1.0 - self.point_value(1, c)
        if owner == "roller":
            return va if p >= ca else lo + (va - lo) * p / ca
        if p <= low:
            return low_value
        if owner == "opponent":
            return low_value + (w - low_value) * (p - low) / (1.0 - low) if low < 1.0 else w
        if p >= ca:
            return va
        return low_value + (va - low_value) * (p - low) / (ca - low)

    def equity(self, c: int, owner: str) -> float:
        """A's cubeful chance: (1 - x) x dead + x x live (no cube at all in the Crawford game)."""
        if self.kind == "crawford":
            return self.dead(c)
        x = self.met.efficiency if self.efficiency is None else self.efficiency
        return (1.0 - x) * self.dead(c) + x * self.live(c, owner)


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
    nd = game.equity(c, owner)
    x = met.efficiency if efficiency is None else efficiency
    if kind == "crawford":
        return CubeDecision("no double", nd, None, None, None, "mwc", efficiency=x,
                            reason="the Crawford game: no double")
    if owner == "opponent":
        return CubeDecision("no double", nd, None, None, None, "mwc", efficiency=x,
                            reason="the opponent owns the cube")
    dt, dp = game.equity(2 * c, "opponent"), game.cash(0, c)
    return CubeDecision(decide(nd, dt, dp), nd, dt, dp, _take_point(game, c, dp), "mwc",
                        efficiency=x)


def _take_point(game: GameCube, c: int, dp: float) -> float:
    """The opponent's least winning chance to take: where A's double/take chance meets double/pass
    (bisection on A's winning chance, the classes of wins and losses mixed as in the position)."""
    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        trial = GameCube(game.met, game.need_a, game.need_b, game.a_white, game.kind,
                         _with_win_chance(game.probs, mid), game.efficiency)
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
