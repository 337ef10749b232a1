"""What a game is played for, in one value: money or a match at a score, with or without the cube.

`Stakes` is nardy's form of GNU Backgammon's cube information: the match (`state.MatchState`:
length, score, who plays White next, draw points, the Crawford game; None for money) and the cube
(`cube.Cube`: value, owner, Jacoby, beavers; None for a game without the cube).  Each part checks
itself when it is made, and `Stakes` checks the two together (no money-game rule in a match, no
double in the Crawford game), so a `Stakes` that exists is a valid one; nothing else checks a
score or a cube rule.  Every command and library entry that plays, values or reviews a game at a
score or with the cube takes one.

Two functions turn stakes into numbers:

- `Stakes.valuation(rules)`: what each result of the game is worth to each side (a
  `core.outcomes.Valuation`): the rules' points for money, match equity at a score.  The cube does
  not enter: values are per unit of the cube.
- `game_points(rules, winner, kind, cube, jacoby, draw_points)`: the points a finished game gives
  each player (the class's points times the cube, an oin under Jacoby, a draw's points each); a
  record's points, a match's scores, `.mat` transcripts and the bots' games all count by it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from ..core.errors import ArgumentTypeError, StakesError
from ..core.outcomes import CLASS_NAMES, N_CLASSES, SWAP, Valuation, class_code, money_valuation
from ..core.rules import Rules
from .cube import Cube
from .state import MatchState, match_table
from .table import DEFAULT_DRAW_POINTS, GameDistribution, half_points


@dataclass(frozen=True)
class Stakes:
    """What a game is played for: `match` (None: money) and `cube` (None: no cube).

    Raises `StakesError` (a `CubeError`) for a money-game cube rule (Jacoby, beavers) in a match
    and for a turned cube in the Crawford game; each part raises for itself (`MatchError`,
    `CubeError`).
    """

    match: MatchState | None = None
    cube: Cube | None = None

    def __post_init__(self) -> None:
        if self.match is not None and not isinstance(self.match, MatchState):
            raise ArgumentTypeError(f"{{match}} must be a MatchState or None, got "
                                    f"{type(self.match).__name__}")
        if self.cube is not None and not isinstance(self.cube, Cube):
            raise ArgumentTypeError(f"{{cube}} must be a Cube or None, got "
                                    f"{type(self.cube).__name__}")
        if self.match is None or self.cube is None:
            return
        for name, on in (("jacoby", self.cube.jacoby), ("beavers", self.cube.beavers)):
            if on:
                raise StakesError(f"{{{name}}} is a money-game rule, not for a match to "
                                  f"{self.match.length}", {name: name.capitalize()})
        if self.match.crawford and self.cube.value != 1:
            raise StakesError("no double in the Crawford game: the cube stays at 1, "
                              f"got {{cube_value}} {self.cube.value}",
                              {"cube_value": "a cube at"})

    @property
    def is_money(self) -> bool:
        """True for a money game (no match)."""
        return self.match is None

    @property
    def crawford(self) -> bool:
        """True in a match's Crawford game (no double)."""
        return self.match is not None and self.match.crawford

    def with_cube(self, cube: Cube | None) -> "Stakes":
        """The same match (or money) with `cube` (checked again)."""
        return replace(self, cube=cube)

    def valuation(self, rules: Rules, distribution: GameDistribution | None = None) -> Valuation:
        """The values of the game's results under `rules` (`stakes_valuation`)."""
        return stakes_valuation(self, rules, distribution)

    def label(self) -> str:
        """One line: `money game`, or the match and score."""
        return "money game" if self.match is None else self.match.label()

    def cube_dict(self) -> dict:
        """The cube as results write it (`value`, `owner`, `jacoby`, `beavers`, `crawford`)."""
        cube = self.cube if self.cube is not None else Cube()
        return {**cube.to_dict(), "crawford": self.crawford}


MONEY = Stakes()
"""A money game without the cube."""


def stakes_valuation(stakes: Stakes, rules: Rules,
                     distribution: GameDistribution | None = None) -> Valuation:
    """The values of the coming game's results: the money values of `rules`, or at a match score 2 x
    White's (Black's) match winning chance - 1 after the game (through the match table of the
    shipped game distribution, or `distribution`).

    The one place stakes become outcome values; raises `MatchError` for a score `rules` cannot
    reach (`state.match_table`) or rules without a shipped distribution.
    """
    if distribution is None:
        return _valuation(stakes.match, rules)
    return _match_values(stakes.match, rules, distribution)


@lru_cache(maxsize=256)
def _valuation(match: MatchState | None, rules: Rules) -> Valuation:
    return _match_values(match, rules, None)


def _match_values(match: MatchState | None, rules: Rules,
                  distribution: GameDistribution | None) -> Valuation:
    if match is None:
        return money_valuation(rules)
    table = match_table(match, rules, distribution)
    units, draw = table.units()
    need_w, need_b = (half_points(n, "a need") for n in match.needs)
    white = []
    for c in range(N_CLASSES):
        if c < 4:
            p = table.after(need_w - units[c], need_b, "a", True)
        elif c < 8:
            p = table.after(need_w, need_b - units[c - 4], "b", True)
        else:
            p = table.after(need_w - draw, need_b - draw, None, True)
        white.append(2.0 * p - 1.0)
    black = tuple(-white[int(SWAP[c])] for c in range(N_CLASSES))
    return Valuation(tuple(white), black, "match equity", match)


def game_points(rules: Rules, winner: str | None, kind: str = "oin", cube: int = 1,
                jacoby: bool = False, draw_points: float = DEFAULT_DRAW_POINTS
                ) -> tuple[float, float]:
    """(White's, Black's) points of a game that `winner` ('w', 'b'; None: a draw) won by class
    `kind`, with the cube at `cube`: the class's points under `rules` times the cube (an oin's with
    `jacoby`, the Jacoby rule before any double), or `draw_points` each times the cube for a draw.

    A dropped double is the doubler's oin at the cube before the double.  The one count of a
    game's points: records, match scores, `.mat` transcripts and the bots' games use it.
    """
    if winner is None:
        return (draw_points * cube, draw_points * cube)
    points = float(rules.points.as_tuple()[class_code("oin" if jacoby else kind)]) * cube
    return (points, 0.0) if winner == "w" else (0.0, points)


def win_points(rules: Rules, cube: int = 1, jacoby: bool = False) -> list[float]:
    """The points a win may give (a resignation gives one of them), ascending: each class's
    `game_points`."""
    classes = ("oin",) if jacoby else CLASS_NAMES
    return sorted({game_points(rules, "w", k, cube, jacoby)[0] for k in classes})


__all__ = ["Stakes", "MONEY", "stakes_valuation", "game_points", "win_points"]
