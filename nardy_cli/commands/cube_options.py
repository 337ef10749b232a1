"""--cube, --cube-owner, --jacoby, --beavers and --crawford: the cube of the stakes `nardy eval`,
`nardy analyze` and `nardy rollout` take, and the table form of a cube decision."""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any, Callable

import click

from ..core.errors import NardyError
from ..core.i18n import _, side_words, translate
from ..match.cube import OWNERS, Cube
from ..match.stakes import Stakes
from .common import BadInput, error_message


def cube_options(func: Callable) -> Callable:
    """The cube options; the command receives its `stakes` (`match_options`') with the cube asked
    for (`stakes.cube` None: no cube analysis asked for).

    Put it under `match_options` (nearer the function), which hands it `stakes`.  The options only
    say which needs which; the stakes check what they say (`match.stakes.Stakes`).
    """
    @click.option("--cube-owner", type=click.Choice(OWNERS), default=None,
                  help="Analyse the cube decision of the side on roll, the cube centred or owned "
                       "(docs/cube.md).")
    @click.option("--cube", "cube_value", type=click.IntRange(min=1), default=None, metavar="V",
                  help="With --cube-owner: the cube's value (1 centred; 2, 4, ... "
                       "owned).  [default: 1 or 2]")
    @click.option("--jacoby", is_flag=True,
                  help="Money: no mars or koks counts before the first double.")
    @click.option("--beavers", is_flag=True,
                  help="Money: a doubled side may redouble at once keeping the cube.")
    @click.option("--crawford", is_flag=True,
                  help="With --match: this is the Crawford game (no double).")
    @functools.wraps(func)
    def wrapper(*args: Any, cube_owner: str | None, cube_value: int | None, jacoby: bool,
                beavers: bool, crawford: bool, stakes: Stakes, **kwargs: Any) -> Any:
        if cube_owner is None:
            given = [name for name, on in (("--cube", cube_value is not None), ("--jacoby", jacoby),
                                           ("--beavers", beavers), ("--crawford", crawford)) if on]
            if given:
                raise BadInput(f"{given[0]} needs --cube-owner centre|white|black")
            return func(*args, stakes=stakes, **kwargs)
        if crawford and stakes.match is None:
            raise BadInput("--crawford needs --match N (the Crawford game is a match rule)")
        value = cube_value if cube_value is not None else (1 if cube_owner == "centre" else 2)
        try:
            match = replace(stakes.match, crawford=True) if crawford else stakes.match
            stakes = Stakes(match, Cube(value, cube_owner, jacoby, beavers))
        except NardyError as exc:
            raise BadInput(error_message(exc, click.get_current_context(silent=True))) from None
        return func(*args, stakes=stakes, **kwargs)
    return wrapper


def cube_text(pos, stakes: Stakes, d) -> str:
    """The table form of a cube decision at `stakes`: the decision, the three equities, the take
    point, the method."""
    cube = stakes.cube
    words = side_words(pos.turn)
    other = side_words("b" if pos.turn == "w" else "w")
    where = (_("centred") if cube.owner == "centre"
             else _("{sides}").format(**side_words(cube.owner[0])))
    rules = "".join(f", {name}" for name,
                    on in ((_("Jacoby"), cube.jacoby), (_("beavers"), cube.beavers),
                           (_("Crawford game"), stakes.crawford)) if on)
    roll = (_(" before the {high}-{low}").format(high=pos.dice.high, low=pos.dice.low) if pos.dice
            else "")
    lines = [_("cube {value}, {where}{rules}{roll}: {side} {what}").format(
        value=cube.value, where=where, rules=rules, roll=roll,
        what=_("cannot double") if d.double_take is None else _("to decide"), **words)]
    if d.unit == "mwc":
        fmt = lambda v: f"{v:.1%}"   # noqa: E731
        unit = _("cubeful match winning chances")
    else:
        fmt = lambda v: f"{v:+.3f}"   # noqa: E731
        unit = _("equity per cube")
    if d.double_take is None:
        lines.append(_("  no double ({reason})   "
                       "{unit}: {value}").format(reason=translate(d.reason), unit=unit,
                                                value=fmt(d.no_double)))
    else:
        beaver = _(" (beavered)") if d.beaver else ""
        lines.append(_("  {decision}   {unit}: no double {nd}, double/take {dt}{beaver}, "
                       "double/pass {dp}").format(
            decision=translate(d.decision), unit=unit, nd=fmt(d.no_double), dt=fmt(d.double_take),
            beaver=beaver, dp=fmt(d.double_pass)))
        lines.append(_("  {sides} take point: {tp:.1%} winning chance").format(tp=d.take_point,
                                                                               **other)
                     + (_(" (Janowski's race model)") if d.exact and not d.last_roll else ""))
    if d.last_roll:
        lines.append(_("  exact: the game ends with Black's last roll, so the cube is dead"))
    elif d.exact and stakes.crawford:
        lines.append(_("  exact: the bear-off played out at the score (no cube in the Crawford "
                       "game)"))
    elif d.exact and d.unit == "mwc":
        lines.append(_("  exact: the cubeful bear-off at the score (every double, take and "
                       "redouble played out)"))
    elif d.exact:
        lines.append(_("  exact: the cubeful bear-off database"))
    elif stakes.crawford:
        lines.append(_("  no cube: the game's cubeless chances over the post-Crawford match table "
                       "(docs/cube.md)"))
    else:
        lines.append(_("  Janowski's cube model, cube efficiency x = {x:.2f} "
                       "(docs/cube.md)").format(x=d.efficiency))
    return "\n".join(lines)
