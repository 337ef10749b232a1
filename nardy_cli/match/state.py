"""A match state (length, score, colour rule, draw points, the Crawford game), checked where it is
made.

`MatchState` is the match half of a game's stakes (`stakes.Stakes`, GNU Backgammon's cube
information): the match length, the points White and Black of the coming game already have, who
plays White in the games after it, what a draw scores and whether the coming game is the Crawford
game.  `stakes.Stakes.valuation` turns it into a `Valuation` (each result of the game valued by the
match winning chance it leaves, through the match table of `match_table`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import MatchError
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
    won; `crawford` when the game is the match's Crawford game (the first after a player came to
    need 1 point: no double in it).

    Raises `MatchError` for a length below 1, an unknown colour rule, a score that is no multiple of
    1/2 or has reached the length, draw points that are no multiple of 1/2, and a Crawford game
    where both players need more than 1 point.
    """

    length: int
    score: tuple[float, float] = (0, 0)
    next_white: str = DEFAULT_NEXT_WHITE
    draw_points: float = DEFAULT_DRAW_POINTS
    crawford: bool = False

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
        if self.crawford and min(self.needs) > 1:
            raise MatchError("the Crawford game is the game after a player first needs 1 point, "
                             "but both need more (White "
                             f"{format_points_value(self.needs[0])}, Black "
                             f"{format_points_value(self.needs[1])})")

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
        out = {"length": self.length, "score": [self.score[0], self.score[1]],
               "next_white": self.next_white, "draw_points": self.draw_points}
        if self.crawford:
            out["crawford"] = True
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "MatchState":
        """The inverse of `to_dict` (a result's `params.match`)."""
        return cls(data["length"], (data["score"][0], data["score"][1]), data["next_white"],
                   data["draw_points"], bool(data.get("crawford", False)))


def state_before(length: int, score_white: float, score_black: float,
                 next_white: str = DEFAULT_NEXT_WHITE,
                 draw_points: float = DEFAULT_DRAW_POINTS, crawford: bool = False) -> MatchState:
    """The match state before a game at this score; deciding games (both reached the length on a
    draw, rules decision 21) are valued as a game at `length - 1/2` all, where any win decides and a
    draw leaves them deciding."""
    if score_white >= length and score_black >= length:
        score_white = score_black = length - 0.5
    return MatchState(length, (score_white, score_black), next_white, draw_points, crawford)


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
                draw_points: float = DEFAULT_DRAW_POINTS, crawford: bool = False) -> MatchState:
    """A match state from a score text (`4-6`) or pair, checked under `rules` (`check_rules`)."""
    if isinstance(score, str):
        score = parse_score(score)
    state = MatchState(length, (score[0], score[1]), next_white, draw_points, crawford)
    check_rules(state, rules)
    return state


def check_rules(state: MatchState, rules: Rules) -> None:
    """Raise `MatchError` unless `state` can be played under `rules`: halves in a score only where
    draws exist (R8's last roll)."""
    if not rules.last_roll:
        for name, s in zip(("White", "Black"), state.score):
            if not float(s).is_integer():
                raise MatchError(f"{name}'s score {format_points_value(s)} has a half point, "
                                 "but without the last roll (R8) no game is drawn")


def match_table(state: MatchState, rules: Rules,
                distribution: GameDistribution | None = None) -> MatchTable:
    """The match table of `state`'s colour rule and draw points under `rules` (the shipped
    distribution by default); raises `MatchError` for a state `rules` cannot reach
    (`check_rules`)."""
    check_rules(state, rules)
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
