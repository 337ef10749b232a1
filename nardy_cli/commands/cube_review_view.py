"""The cube decisions of `nardy review` as a table: one line per turn at which the roller could
double."""

from __future__ import annotations

import pandas as pd

from ..core.i18n import _, cube_errors, cube_words, translate
from ..reports.render import number, table_text
from ..reports.review_report import judged

COLUMNS = ["turn", "player", "cube", "action", "best", "no_double", "double_take", "double_pass",
           "double_lost", "taker", "take_lost", "error", "judged"]


def cube_table(cube: pd.DataFrame, match: bool = False) -> str:
    """The cube review's table: equities (per cube unit in money, match winning chances at a score)
    and losses (points; normalised equity with the match winning chance lost beside it); a loss left
    out is blank."""
    cols = COLUMNS + (["mwc_double_lost", "mwc_take_lost"] if match else [])
    shown = cube.assign(judged=judged(cube))[cols].copy()
    for col in ("no_double", "double_take", "double_pass"):
        spec = "{:.1%}" if match else "{:+.3f}"
        shown[col] = [number(v, spec) if v == v else "" for v in shown[col]]
    for col in (("double_lost", "take_lost")
                + (("mwc_double_lost", "mwc_take_lost") if match else ())):
        spec = "{:.2%}" if col.startswith("mwc") else "{:.3f}"
        shown[col] = [number(v, spec) if v == v else "" for v in shown[col]]
    shown["cube"] = shown["cube"].map(cube_words)
    shown["action"] = shown["action"].map(translate)
    shown["best"] = shown["best"].map(translate)
    shown["error"] = shown["error"].map(cube_errors)
    text = table_text(shown, left=("player", "cube", "action", "best", "taker", "error", "judged"))
    return "\n".join(line.rstrip() for line in text.splitlines())


def cube_heading(match: bool) -> str:
    """The line above the cube table: what its numbers are."""
    units = (_("cubeful match winning chances; losses in normalised equity (a single game won "
               "+1, lost -1) and in cubeful match winning chance") if match
             else _("equity per cube unit; losses in points (per unit times the cube)"))
    return _("cube decisions before each roll ({units}):").format(units=units)


__all__ = ["cube_table", "cube_heading"]
