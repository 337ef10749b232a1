"""--cube, --cube-owner, --jacoby, --beavers and --crawford: the cube state `nardy eval` analyses."""

from __future__ import annotations

import functools
from typing import Any, Callable

import click

from ..cube import OWNERS, CubeState
from ..errors import NardyError
from .common import BadInput


def cube_options(func: Callable) -> Callable:
    """The cube options; the command receives `cube: CubeState | None` (None: no cube analysis asked for).

    Put it under `match_options` (nearer the function), which hands it `match`.
    """
    @click.option("--cube-owner", type=click.Choice(OWNERS), default=None,
                  help="Analyse the cube decision of the side on roll, the cube centred or owned (docs/cube.md).")
    @click.option("--cube", "cube_value", type=click.IntRange(min=1), default=None, metavar="V",
                  help="With --cube-owner: the cube's value (1 centred; 2, 4, ... owned).  [default: 1 or 2]")
    @click.option("--jacoby", is_flag=True, help="Money: no mars or koks counts before the first double.")
    @click.option("--beavers", is_flag=True, help="Money: a doubled side may redouble at once keeping the cube.")
    @click.option("--crawford", is_flag=True, help="With --match: this is the Crawford game (no double).")
    @functools.wraps(func)
    def wrapper(*args: Any, cube_owner: str | None, cube_value: int | None, jacoby: bool, beavers: bool,
                crawford: bool, **kwargs: Any) -> Any:
        match = kwargs.get("match")
        if cube_owner is None:
            given = [name for name, on in (("--cube", cube_value is not None), ("--jacoby", jacoby),
                                           ("--beavers", beavers), ("--crawford", crawford)) if on]
            if given:
                raise BadInput(f"{given[0]} needs --cube-owner centre|white|black")
            return func(*args, cube=None, **kwargs)
        if crawford and match is None:
            raise BadInput("--crawford needs --match N (the Crawford game is a match rule)")
        if (jacoby or beavers) and match is not None:
            raise BadInput(f"{'--jacoby' if jacoby else '--beavers'} is a money-game rule: drop it or --match")
        value = cube_value if cube_value is not None else (1 if cube_owner == "centre" else 2)
        if crawford and value != 1:
            raise BadInput(f"no double in the Crawford game: the cube stays at 1, got --cube {value}")
        try:
            cube = CubeState(value, cube_owner, jacoby, beavers, crawford)
        except NardyError as exc:
            raise BadInput(str(exc)) from None
        return func(*args, cube=cube, **kwargs)
    return wrapper
