"""The cubeless long-nardy match equity table: match winning chances from one game's outcome
distribution.

The standard recursion (docs/matches.md): a match is a sequence of games whose
results are independent draws from the outcome distribution of a game played
from the start, one distribution per colour (White moves first).  A game won by
class c moves the winner on by the rules' points for c; a draw (R8) moves both
players on by the draw points (federation regulation: 1/2 each).  Who plays White
in the next game follows a rule (`NEXT_WHITE`).  When both players reach the
match length on the same draw, deciding games follow until one of them is won
(docs/rules-decisions.md).

Scores are kept in half points, so `need` values are multiples of 1/2.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import numpy as np

from ..core.errors import MatchError
from ..core.outcomes import CLASS_KEYS

NEXT_WHITE = ("winner", "loser", "alternate", "lot")
"""Who plays White in the next game: the previous game's winner, its loser, the other colour than
before, or the opening roll (lot).  After a draw, `winner` and `loser` fall back to the lot."""
DEFAULT_NEXT_WHITE = "winner"
DEFAULT_DRAW_POINTS = 0.5
DISTRIBUTION_FILE = "data/start-distribution.json"
_TIE_ITERATIONS = 200


def next_colour(rule: str, winner: str | None, a_was_white: bool) -> bool | None:
    """Whether player A plays White in the next game under `rule` (None: by lot), after a game that
    A played as White (or not) and that `winner` ('a', 'b', or None for a draw) won."""
    if rule == "alternate":
        return not a_was_white
    if rule == "lot" or winner is None:
        return None
    return (winner == "a") == (rule == "winner")


@dataclass(frozen=True)
class GameDistribution:
    """The outcome distribution of one game from the start: White's wins by class, Black's wins by
    class, draw.

    `se` holds the standard errors of the measured shares (same keys as `to_dict`)
    and `source` how they were measured (policy, games, seed, command).
    """

    white: tuple[float, float, float, float]
    black: tuple[float, float, float, float]
    draw: float
    se: dict = field(default_factory=dict, compare=False)
    source: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        total = sum(self.white) + sum(self.black) + self.draw
        if min(*self.white, *self.black, self.draw) < 0 or abs(total - 1.0) > 1e-6:
            raise MatchError("an outcome distribution must be non-negative and sum to 1, "
                             f"got {total:.6f}")

    @property
    def white_wins(self) -> float:
        """White's chance to win the game."""
        return float(sum(self.white))

    def to_dict(self) -> dict:
        """Plain data: `white_<class>`, `black_<class>`, `draw`, their SEs and the source."""
        d = {f"white_{k}": v for k, v in zip(CLASS_KEYS, self.white)}
        d |= {f"black_{k}": v for k, v in zip(CLASS_KEYS, self.black)}
        d["draw"] = self.draw
        return {"shares": d, "se": dict(self.se), "source": dict(self.source)}

    @classmethod
    def from_dict(cls, data: dict) -> "GameDistribution":
        """The inverse of `to_dict`."""
        s = data["shares"]
        return cls(tuple(float(s[f"white_{k}"]) for k in CLASS_KEYS),
                   tuple(float(s[f"black_{k}"]) for k in CLASS_KEYS), float(s["draw"]),
                   dict(data.get("se", {})), dict(data.get("source", {})))


@lru_cache(maxsize=1)
def shipped_distribution() -> GameDistribution:
    """The measured distribution shipped with nardy (federation rules; `nardy met --measure`
    re-measures)."""
    data = json.loads(resources.files("nardy_cli").joinpath(DISTRIBUTION_FILE).read_text())
    return GameDistribution.from_dict(data)


def half_points(x: float, what: str) -> int:
    """`x` in half points; raise `MatchError` naming `what` unless it is a non-negative multiple of
    1/2."""
    u = x * 2
    if not math.isfinite(u) or u < 0 or abs(u - round(u)) > 1e-9:
        raise MatchError(f"{what} must be a non-negative multiple of 1/2, got {x!r}")
    return int(round(u))


@dataclass(frozen=True)
class MatchTable:
    """Match winning chances for a points table, draw points, colour rule and outcome
    distribution."""

    points: tuple[float, float, float, float]
    distribution: GameDistribution
    next_white: str = DEFAULT_NEXT_WHITE
    draw_points: float = DEFAULT_DRAW_POINTS

    def __post_init__(self) -> None:
        if self.next_white not in NEXT_WHITE:
            raise MatchError(f"unknown next-white rule {self.next_white!r}: "
                             f"choose one of {', '.join(NEXT_WHITE)}")
        for p in self.points:
            if half_points(p, "a class's points") == 0:
                raise MatchError(f"a class's points must be positive, got {p!r}")
        if self.distribution.draw > 0 and half_points(self.draw_points, "the draw points") == 0:
            raise MatchError("draw points must be positive when games can be drawn")

    def units(self) -> tuple[list[int], int]:
        return ([half_points(p, "a class's points") for p in self.points],
                half_points(self.draw_points, "draw points"))

    def _win_chances(self, a_white: bool) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """(A's wins by class, B's wins by class) when A plays White (or Black)."""
        d = self.distribution
        return (d.white, d.black) if a_white else (d.black, d.white)

    @lru_cache(maxsize=None)
    def _tie_break(self) -> tuple[float, float]:
        """A's chance to win deciding games (both reached the length on a draw), as White and as
        Black next."""
        d = self.distribution
        v = [0.5, 0.5]
        for _ in range(_TIE_ITERATIONS):
            new = []
            for a_white in (True, False):
                a_wins, _ = self._win_chances(a_white)
                new.append(sum(a_wins) + d.draw * self._after_draw(v, a_white))
            v = new
        return v[0], v[1]

    def _after_draw(self, v: list[float], a_white: bool) -> float:
        """The value table v[colour] (0: A White) of the next game after a draw."""
        if self.next_white == "alternate":
            return v[1] if a_white else v[0]
        return 0.5 * (v[0] + v[1])

    @lru_cache(maxsize=None)
    def chance(self, need_a: int, need_b: int, a_white: bool | None) -> float:
        """A's chance to win the match when A needs `need_a` and B `need_b` half points, before a
        game in which A plays White (True), Black (False), or colours are drawn by lot (None)."""
        if need_a <= 0 and need_b <= 0:
            t = self._tie_break()
            return 0.5 * (t[0] + t[1]) if a_white is None else t[0 if a_white else 1]
        if need_a <= 0:
            return 1.0
        if need_b <= 0:
            return 0.0
        if a_white is None:
            return 0.5 * (self.chance(need_a, need_b, True) + self.chance(need_a, need_b, False))
        units, draw = self.units()
        a_wins, b_wins = self._win_chances(a_white)
        total = 0.0
        for c, u in enumerate(units):
            total += a_wins[c] * self.after(need_a - u, need_b, "a", a_white)
            total += b_wins[c] * self.after(need_a, need_b - u, "b", a_white)
        if self.distribution.draw > 0:
            total += self.distribution.draw * self.after(need_a - draw, need_b - draw, None,
                                                         a_white)
        return total

    def next_colour(self, winner: str | None, a_was_white: bool) -> bool | None:
        """Whether A plays White in the next game (None: by lot), by the rule, after `winner` ('a',
        'b', None)."""
        return next_colour(self.next_white, winner, a_was_white)

    def after(self, need_a: int, need_b: int, winner: str | None, a_was_white: bool) -> float:
        """A's match chance after a game (`winner` 'a', 'b' or None for a draw) left the needs at
        these values."""
        return self.chance(need_a, need_b, self.next_colour(winner, a_was_white))

    def table(self, length: int, a_white: bool | None = None) -> np.ndarray:
        """M[i-1, j-1]: the chance that a player who needs i points beats one who needs j (i, j =
        1..length)."""
        return np.array([[self.chance(2 * i, 2 * j, a_white) for j in range(1, length + 1)]
                         for i in range(1, length + 1)])
