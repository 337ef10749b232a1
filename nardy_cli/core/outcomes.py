"""Outcomes and their values: the one table of outcome codes and names, the side swap, and
valuations.

A finished game has one result for a side: a win or a loss by one of the four
classes of R9, or a draw (R8).  The kernels number them (`kernels/board.py`):
codes 0-3 win by oin, home-mars, mars, koks; 4-7 the same classes lost; 8 draw
(and 9, a game that did not finish, in rollout counts only).

A `Valuation` is the value of each result for each side: money (the rules'
points, a draw 0) or match equity at a match score (`match.stakes.Stakes.valuation`:
2 x the match winning chance - 1 after the game, so a sure match win is +1).
Values may differ between the sides; they are always zero-sum (White's value
of a result is minus Black's value of the same game's result for Black), so
the kernels' negamax search holds.  The kernels receive one values array,
`Valuation.kernel_values()`; nothing else in the package turns points into values.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ..kernels.codes import DRAW, LOSE_BASE, N_CLASSES, N_RESULTS, UNFINISHED, WIN_BASE

# `rules` and `match` import this module, so their types (Points, Rules, MatchState) are named, not
# imported

CLASS_NAMES = ("oin", "home-mars", "mars", "koks")
"""The four classes of R9 as written in the rules, records and reports (kernel codes 0-3)."""
CLASS_KEYS = tuple(name.replace("-", "_") for name in CLASS_NAMES)
"""The same classes as keys of JSON objects and DataFrame columns."""
RESULT_KEYS = (tuple(f"win_{c}" for c in CLASS_KEYS) + tuple(f"lose_{c}" for c in CLASS_KEYS)
               + ("draw",))
"""The nine result codes' keys, in code order."""
PROB_KEYS = ("win", "lose", "draw") + RESULT_KEYS[:8]
"""The probabilities a rollout reports."""
SWAP = np.array([LOSE_BASE + i for i in range(4)] + [WIN_BASE + i for i in range(4)]
                + [DRAW, UNFINISHED], dtype=np.int64)
"""Index permutation of result codes from one side's view to the other side's (wins and losses
exchanged)."""


def swap(p: np.ndarray) -> np.ndarray:
    """The same result-code probabilities or values (last axis: 9 or 10 codes) seen by the other
    side."""
    return p[..., SWAP[:p.shape[-1]]]


def class_code(name: str) -> int:
    """Kernel code (0-3) of an R9 class name, e.g. 'home-mars' -> 1."""
    return CLASS_NAMES.index(name)


def class_points(points: Any) -> np.ndarray:
    """The points a win scores by class, indexed by class code."""
    return np.array(points.as_tuple(), dtype=np.float64)


def indicator(key: str) -> np.ndarray:
    """Which result codes (length N_RESULTS) a reported probability `key` sums."""
    v = np.zeros(N_RESULTS)
    if key == "win":
        v[WIN_BASE:WIN_BASE + 4] = 1
    elif key == "lose":
        v[LOSE_BASE:LOSE_BASE + 4] = 1
    elif key == "draw":
        v[DRAW] = 1
    else:
        v[RESULT_KEYS.index(key)] = 1
    return v


@dataclass(frozen=True)
class Valuation:
    """The value of each result code (White's view, Black's view) and what the values mean.

    `white[c]` is White's value when the game ends with result c for White;
    `black[c]` the same for Black.  `unit` is "points" (money equity) or
    "match equity" (2 x match winning chance - 1); `match` is the match state
    behind match values.
    """

    white: tuple[float, ...]
    black: tuple[float, ...]
    unit: str = "points"
    match: Any = None            # a `match.MatchState`, or None for money values

    @cached_property
    def _array(self) -> np.ndarray:
        a = np.array([self.white, self.black], dtype=np.float64)
        a.setflags(write=False)
        return a

    @property
    def is_money(self) -> bool:
        """True for money values (the rules' points)."""
        return self.match is None

    def kernel_values(self) -> np.ndarray:
        """The kernels' values array: float64[2, 9], row 0 for White as the side that just moved,
        row 1 Black."""
        return np.ascontiguousarray(self._array)

    def for_side(self, white: bool) -> np.ndarray:
        """Values (9 result codes) for one colour, in that colour's view."""
        return self._array[0 if white else 1]

    def root_values(self, root_white: bool) -> np.ndarray:
        """Values of the N_RESULTS rollout result codes for the root side (an unfinished game:
        0)."""
        out = np.zeros(N_RESULTS)
        out[:N_CLASSES] = self.for_side(root_white)
        return out

    def chance(self, value: float) -> float:
        """The match winning chance of a match-equity value (money values have none)."""
        return (value + 1.0) / 2.0

    def label(self) -> str:
        """One line: money, or the match and score."""
        return "money game" if self.match is None else self.match.label()


def money_valuation(rules: Any) -> Valuation:
    """The money values of `rules`: a win scores its class's points, a loss minus them, a draw 0
    (rule 11)."""
    pts = tuple(float(p) for p in rules.points.as_tuple())
    row = pts + tuple(-p for p in pts) + (0.0,)
    return Valuation(row, row, "points", None)


def result_values(points: Any) -> np.ndarray:
    """Money points of each rollout result code for the root side (draw and unfinished score 0)."""
    values = np.zeros(N_RESULTS)
    pts = class_points(points)
    values[WIN_BASE:WIN_BASE + 4] = pts
    values[LOSE_BASE:LOSE_BASE + 4] = -pts
    return values
