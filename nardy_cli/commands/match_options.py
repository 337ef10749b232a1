"""--match, --score, --next-white and --draw-points: the match state every scoring command takes,
handed on as the command's stakes (`match.stakes.Stakes`)."""

from __future__ import annotations

import functools
from typing import Any, Callable

import click

from ..core.errors import NardyError
from ..core.rules import PRESETS
from ..match.stakes import MONEY, Stakes
from ..match.state import match_state
from ..match.table import DEFAULT_DRAW_POINTS, DEFAULT_NEXT_WHITE, NEXT_WHITE
from .common import BadInput, refuse_without


def match_options(func: Callable) -> Callable:
    """The match state options; the command receives `stakes: Stakes` (money without `--match`,
    no cube: `cube_options` and `cube_play.duel_cube_options`, nearer the function, add one).

    Put it under `rules_options` (nearer the function), which hands it `rules`; a command without
    `--rules` (review: the record's rules) gets a state read under the federation rules, which the
    stakes' valuation checks again under the record's.
    """
    @click.option("--match", "length", type=click.IntRange(min=1), default=None, metavar="N",
                  help="Judge at a match to N points (match winning chances; docs/matches.md). "
                       "Default: money.")
    @click.option("--score", default=None, metavar="W-B",
                  help="With --match: points White and Black already have, e.g. "
                       "4-6 (halves from draws: 3.5-2).")
    @click.option("--next-white", type=click.Choice(NEXT_WHITE), default=DEFAULT_NEXT_WHITE,
                  show_default=True,
                  help="With --match: who plays White in the next game (docs/rules-decisions.md).")
    @click.option("--draw-points", type=float, default=DEFAULT_DRAW_POINTS, show_default=True,
                  metavar="P", help="With --match: the points a draw (R8) gives each player.")
    @functools.wraps(func)
    def wrapper(*args: Any, length: int | None, score: str | None, next_white: str,
                draw_points: float, **kwargs: Any) -> Any:
        if length is None:
            refuse_without(False, "--match N (the match length)", "score", "next_white",
                           "draw_points")
            return func(*args, stakes=MONEY, **kwargs)
        try:
            state = match_state(length, score or "0-0", kwargs.get("rules", PRESETS["federation"]),
                                next_white=next_white, draw_points=draw_points)
        except NardyError as exc:
            raise BadInput(str(exc)) from None
        return func(*args, stakes=Stakes(state), **kwargs)
    return wrapper
