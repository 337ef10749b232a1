"""A match state (length, score, colour rule, draw points) and the outcome values it gives a game.

`MatchState` is one small value passed whole, as GNU Backgammon passes its cube
information: the match length, the points White and Black of the coming game
already have, who plays White in the games after it and what a draw scores.
`match_valuation` turns it into a `Valuation` (outcomes.py): each result of the
game valued by the match winning chance it leaves, through the match table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import MatchError
from ..core.outcomes import N_CLASSES, SWAP, Valuation, money_valuation
from ..core.rules import PRESETS, Rules
from .table import (DEFAULT_DRAW_POINTS, DEFAULT_NEXT_WHITE, NEXT_WHITE, GameDistribution,
    MatchTable, half_points, shipped_distribution)

_SCORE_RE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*[-:]\s*([0-9]+(?:\.[0-9]+)?)\s*$", re.ASCII)


def format_points_value(x: float) -> str:
    """A score as written: `3`, `3.5`."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


@dataclass(frozen=True)
class MatchState:
    """A match to `length` points before a game: `score` = (White's points, Black's points) already
    won."""

    length: int
    score: tuple[float, float] = (0, 0)
    next_white: str = DEFAULT_NEXT_WHITE
    draw_points: float = DEFAULT_DRAW_POINTS

    def __post_init__(self) -> None:
        if isinstance(self.length, bool) or not isinstance(self.length, int) or self.length < 1:
            raise MatchError("a match length must be a whole number of points, at least 1, "
                             f"got {self.length!r}")
        if self.next_white not in NEXT_WHITE:
            raise MatchError(f"unknown next-white rule {self.next_white!r}: "
                             f"choose one of {', '.join(NEXT_WHITE)}")
        for name, s in zip(("White", "Black"), self.score):
            half_points(s, f"{name}'s score")
            if s >= self.length:
                raise MatchError(f"the match is over: {name} has {format_points_value(s)} of "
                                 f"{self.length} points (score {self.score_text})")
        half_points(self.draw_points, "the draw points")

    @property
    def score_text(self) -> str:
        """`4-6`: White's points, Black's points."""
        return "-".join(format_points_value(s) for s in self.score)

    @property
    def needs(self) -> tuple[float, float]:
        """Points White and Black still need."""
        return self.length - self.score[0], self.length - self.score[1]

    def label(self) -> str:
        """`match to 7 at 4-6 (White-Black)`."""
        from ..core.i18n import _
        return _("match to {length} at {score} (White-Black)").format(length=self.length,
                                                                      score=self.score_text)

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        return {"length": self.length, "score": [self.score[0], self.score[1]],
                "next_white": self.next_white, "draw_points": self.draw_points}

    @classmethod
    def from_dict(cls, data: dict) -> "MatchState":
        """The inverse of `to_dict` (a result's `params.match`)."""
        return cls(data["length"], (data["score"][0], data["score"][1]), data["next_white"],
                   data["draw_points"])


def state_before(length: int, score_white: float, score_black: float,
                 next_white: str = DEFAULT_NEXT_WHITE,
                 draw_points: float = DEFAULT_DRAW_POINTS) -> MatchState:
    """The match state before a game at this score; deciding games (both reached the length on a
    draw, rules decision 21) are valued as a game at `length - 1/2` all, where any win decides and a
    draw leaves them deciding."""
    if score_white >= length and score_black >= length:
        score_white = score_black = length - 0.5
    return MatchState(length, (score_white, score_black), next_white, draw_points)


def parse_score(text: str) -> tuple[float, float]:
    """`4-6` -> (4.0, 6.0): the points White and Black already have; halves (`3.5-2`) come from
    draws."""
    m = _SCORE_RE.match(text)
    if not m:
        raise MatchError("a score is two numbers, White's then Black's points, as '4-6'; "
                         f"got {text!r}")
    return float(m.group(1)), float(m.group(2))


def match_state(length: int, score: str | tuple[float, float] = (0, 0),
                rules: Rules = PRESETS["federation"], *, next_white: str = DEFAULT_NEXT_WHITE,
                draw_points: float = DEFAULT_DRAW_POINTS) -> MatchState:
    """A checked match state under `rules`: halves in a score only where draws exist (R8's last
    roll)."""
    if isinstance(score, str):
        score = parse_score(score)
    state = MatchState(length, (score[0], score[1]), next_white, draw_points)
    if not rules.last_roll:
        for name, s in zip(("White", "Black"), state.score):
            if not float(s).is_integer():
                raise MatchError(f"{name}'s score {format_points_value(s)} has a half point, "
                                 "but without the last roll (R8) no game is drawn")
    return state


def match_table(state: MatchState, rules: Rules,
                distribution: GameDistribution | None = None) -> MatchTable:
    """The match table of `state`'s colour rule and draw points under `rules` (the shipped
    distribution by default)."""
    return MatchTable(rules.points.as_tuple(), distribution or distribution_for(rules),
                      state.next_white, state.draw_points)


def distribution_for(rules: Rules) -> GameDistribution:
    """The shipped outcome distribution, which was measured under the federation preset's game
    rules."""
    fed = PRESETS["federation"]
    if (rules.head_rule, rules.block_check, rules.last_roll) != (fed.head_rule, fed.block_check,
                                                                 fed.last_roll):
        raise MatchError("nardy ships the outcome distribution of a game under federation "
                         "rules only; for "
                         f"{rules.preset} rules measure one with `nardy met --measure --rules "
                         f"{rules.preset}`")
    return shipped_distribution()


def match_valuation(state: MatchState | None, rules: Rules,
                    distribution: GameDistribution | None = None
                    ) -> Valuation:
    """The values of the coming game's results at `state`: 2 x White's (Black's) match winning
    chance - 1 after it.

    None gives the money values of `rules`.
    """
    if state is None:
        return money_valuation(rules)
    table = match_table(state, rules, distribution)
    units, draw = table.units()
    need_w, need_b = (half_points(n, "a need") for n in state.needs)
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
    return Valuation(tuple(white), black, "match equity", state)


