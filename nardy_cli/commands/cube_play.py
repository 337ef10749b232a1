"""Bots playing with the cube: `rollout --cube-owner ... [--never-double SIDE]`,
`duel`/`play --cube [--never-double A|B]`.

The cube state options are `nardy eval`'s (`cube_options`, the cube of the
command's stakes); this module adds who never doubles, builds the library's
`CubeBots` and writes the one-line figures under the usual tables (docs/cube.md).
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import click

from ..core.errors import NardyError
from ..core.i18n import _, side_words
from ..match.cube import Cube, CubeBots
from ..match.stakes import Stakes
from .common import BadInput, error_message


def never_double_option(choices: tuple[str, ...], what: str) -> Callable:
    """`--never-double SIDE`: that side never doubles and always takes (the command receives
    `never_double`)."""
    return click.option("--never-double", type=click.Choice(choices), default=None,
                        help=f"With the cube: {what} never doubles and always takes (the "
                             "others double by the cube model from their evaluator).")


def rollout_cube_bots(stakes: Stakes, never_double: str | None) -> CubeBots:
    """The rollout's `CubeBots`: who never doubles (`--never-double`, only with a cube)."""
    if stakes.cube is None and never_double is not None:
        raise BadInput("--never-double needs --cube-owner centre|white|black (a rollout "
                       "with the cube)")
    off = {"white": ("white",), "black": ("black",), "both": ("white", "black"),
           None: ()}[never_double]
    return CubeBots(*("nodouble" if side in off else "model" for side in ("white", "black")))


def duel_cube_options(func: Callable) -> Callable:
    """`--cube`, `--never-double a|b`, `--jacoby`, `--beavers` (duel, play); the command receives
    its `stakes` (`match_options`') with the cube centred when `--cube` is given, and `cube_bots`
    (`white` is A's cube behaviour, `black` B's)."""
    @click.option("--cube", "use_cube", is_flag=True,
                  help="Games with the doubling cube (centred at the start of each game): "
                       "money games with points "
                       "per game with the cube, or with --match whole matches with the cube and "
                       "the Crawford rule (docs/cube.md).")
    @never_double_option(("a", "b"), "A or B")
    @click.option("--jacoby", is_flag=True,
                  help="With --cube: no mars or koks counts before the first double.")
    @click.option("--beavers", is_flag=True,
                  help="With --cube: a doubled side may redouble at once keeping the cube.")
    @functools.wraps(func)
    def wrapper(*args: Any, use_cube: bool, never_double: str | None, jacoby: bool, beavers: bool,
                stakes: Stakes, **kwargs: Any) -> Any:
        if not use_cube:
            given = [name for name,
                     on in (("--never-double", never_double is not None), ("--jacoby", jacoby),
                            ("--beavers", beavers)) if on]
            if given:
                raise BadInput(f"{given[0]} needs --cube")
            return func(*args, stakes=stakes, cube_bots=CubeBots(), **kwargs)
        try:
            stakes = stakes.with_cube(Cube(1, "centre", jacoby, beavers))
        except NardyError as exc:
            raise BadInput(error_message(exc, click.get_current_context(silent=True))) from None
        bots = CubeBots(*("nodouble" if never_double == side else "model" for side in ("a", "b")))
        return func(*args, stakes=stakes, cube_bots=bots, **kwargs)
    return wrapper


def start_label(cube: Cube) -> str:
    """'cube 1, centred' or 'cube 2, White's', with the money rules in force (in the language in
    use)."""
    where = (_("centred") if cube.owner == "centre"
             else _("{sides}").format(**side_words(cube.owner[0])))
    label = _("cube {value}, {where}").format(value=cube.value, where=where)
    rules = [name for name, on in ((_("Jacoby"), cube.jacoby), (_("beavers"), cube.beavers)) if on]
    return label + (f", {_(' and ').join(rules)}" if rules else "")


def rollout_cube_line(result) -> str:
    """The rollout's cubeful figures, one line under its table."""
    cube, play = result.cube, result.params["cube"]
    words = {("white", "nodouble"): _("white never doubles"),
             ("white", "model"): _("white uses the cube"),
             ("black", "nodouble"): _("black never doubles"),
             ("black", "model"): _("black uses the cube")}
    bots = ", ".join(words[side, play[side]] for side in ("white", "black"))
    return _("with the cube ({start}; {bots}): cubeful equity {equity:+.4f} ± {se:.4f} per "
             "starting cube; doubled "
             "in {doubled:.1%} of games, passed in {passed:.1%} (the table counts a passed double "
             "as the doubler's "
             "oin)").format(start=start_label(Cube.from_dict(play["start"])), bots=bots,
                            equity=cube["equity"], se=cube["equity_se"],
                            doubled=cube["doubled_share"], passed=cube["passed_share"]) + (
        _("; the equity is variance-reduced by each roll's cubeful luck (without: {plain:+.4f} ± "
          "{plain_se:.4f})").format(plain=cube["plain_equity"], plain_se=cube["plain_equity_se"])
        if "plain_equity" in cube else "")


def duel_cube_line(result) -> str:
    """The duel's points per game with the cube, one line under its figures."""
    cube, play = result.cube, result.params["cube"]
    lo, hi = cube["ci95"]
    who = "; ".join(_("{name} never doubles and always takes").format(name=name)
                    for name,
                    side in ((result.a, "a"), (result.b, "b")) if play[side] == "nodouble")
    start = start_label(Cube.from_dict(play["start"]))
    return _("with the cube ({start}): points per game for {a}: {ppg:+.4f}  95% CI [{lo:+.4f}, "
             "{hi:+.4f}]  SE "
             "{se:.4f}; doubled in {doubled:.1%} of games, passed in {passed:.1%}").format(
        start=start + ("; " + who if who else ""), a=result.a, ppg=cube["points_per_game"], lo=lo,
        hi=hi, se=cube["se"], doubled=cube["doubled_share"], passed=cube["passed_share"])


def match_cube_line(result) -> str:
    """The match duel's cube, one line under its figures."""
    play = result.params["cube"]
    who = "; ".join(_("{name} never doubles and always takes").format(name=name)
                    for name,
                    side in ((result.a, "a"), (result.b, "b")) if play[side] == "nodouble")
    return _("with the cube (centred at the start of each game, no double in the Crawford game; "
             "the bots double "
             "and take by the cube model at the score{who})").format(who="; " + who if who else "")
