"""Bots playing with the cube: `rollout --cube-owner ... [--never-double SIDE]`, `duel`/`play --cube [--never-double A|B]`.

The cube state options are `nardy eval`'s (`cube_options`); this module adds
who never doubles, builds the library's `CubePlay` and writes the one-line
figures under the usual tables (docs/cube.md).
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import click

from ..cube import CubePlay, CubeState
from .common import BadInput


def never_double_option(choices: tuple[str, ...], what: str) -> Callable:
    """`--never-double SIDE`: that side never doubles and always takes (the command receives `never_double`)."""
    return click.option("--never-double", type=click.Choice(choices), default=None,
                        help=f"With the cube: {what} never doubles and always takes (the others double by "
                             "the cube model from their evaluator).")


def rollout_cube_play(cube: CubeState | None, never_double: str | None) -> CubePlay | None:
    """The rollout's `CubePlay` (None: a rollout without the cube)."""
    if cube is None:
        if never_double is not None:
            raise BadInput("--never-double needs --cube-owner centre|white|black (a rollout with the cube)")
        return None
    if cube.crawford:
        raise BadInput("rollouts with the cube are money games: drop --crawford and --match")
    off = {"white": ("white",), "black": ("black",), "both": ("white", "black"), None: ()}[never_double]
    return CubePlay(cube, *("nodouble" if side in off else "model" for side in ("white", "black")))


def duel_cube_options(func: Callable) -> Callable:
    """`--cube`, `--never-double a|b`, `--jacoby`, `--beavers` (duel, play); the command receives
    `cube: CubePlay | None` (`white` is A's cube behaviour, `black` B's)."""
    @click.option("--cube", "use_cube", is_flag=True,
                  help="Money games with the doubling cube (centred at the start): report points per game with "
                       "the cube (docs/cube.md).")
    @never_double_option(("a", "b"), "A or B")
    @click.option("--jacoby", is_flag=True, help="With --cube: no mars or koks counts before the first double.")
    @click.option("--beavers", is_flag=True, help="With --cube: a doubled side may redouble at once keeping the cube.")
    @functools.wraps(func)
    def wrapper(*args: Any, use_cube: bool, never_double: str | None, jacoby: bool, beavers: bool,
                **kwargs: Any) -> Any:
        if not use_cube:
            given = [name for name, on in (("--never-double", never_double is not None), ("--jacoby", jacoby),
                                           ("--beavers", beavers)) if on]
            if given:
                raise BadInput(f"{given[0]} needs --cube")
            return func(*args, cube=None, **kwargs)
        if kwargs.get("match") is not None:
            raise BadInput("--cube plays money games: drop --match or --cube")
        behaviour = {side: "nodouble" if never_double == side else "model" for side in ("a", "b")}
        return func(*args, cube=CubePlay(CubeState(1, "centre", jacoby, beavers), behaviour["a"], behaviour["b"]),
                    **kwargs)
    return wrapper


def start_label(cube: CubeState) -> str:
    """'cube 1, centred' or 'cube 2, White's', with the money rules in force."""
    label = f"cube {cube.value}, " + ("centred" if cube.owner == "centre" else f"{cube.owner.capitalize()}'s")
    rules = [name for name, on in (("Jacoby", cube.jacoby), ("beavers", cube.beavers)) if on]
    return label + (f", {' and '.join(rules)}" if rules else "")


def rollout_cube_line(result) -> str:
    """The rollout's cubeful figures, one line under its table."""
    cube, play = result.cube, result.params["cube"]
    bots = ", ".join(f"{side} {'never doubles' if play[side] == 'nodouble' else 'uses the cube'}"
                     for side in ("white", "black"))
    return (f"with the cube ({start_label(CubeState(**play['start']))}; {bots}): cubeful equity "
            f"{cube['equity']:+.4f} ± {cube['equity_se']:.4f} per starting cube; doubled in "
            f"{cube['doubled_share']:.1%} of games, passed in {cube['passed_share']:.1%} "
            "(the table counts a passed double as the doubler's oin)")


def duel_cube_line(result) -> str:
    """The duel's points per game with the cube, one line under its figures."""
    cube, play = result.cube, result.params["cube"]
    lo, hi = cube["ci95"]
    who = "; ".join(f"{name} never doubles and always takes" for name, side in ((result.a, "a"), (result.b, "b"))
                    if play[side] == "nodouble")
    start = start_label(CubeState(**play["start"]))
    return (f"with the cube ({start}{'; ' + who if who else ''}): points per game for {result.a}: "
            f"{cube['points_per_game']:+.4f}  95% CI [{lo:+.4f}, {hi:+.4f}]  SE {cube['se']:.4f}; doubled in "
            f"{cube['doubled_share']:.1%} of games, passed in {cube['passed_share']:.1%}")
