"""The opening book's settings as a person reads them: one value where the entries shown share it,
else each value with the depths it was built with ("truncated at 7 plies (White's first turn, the
first exchange, White's second turn); truncated at 8 plies (Black's second turn)")."""

from __future__ import annotations

from typing import Any, Callable

from ..book.read import setting_groups
from ..core.i18n import N_, _, translate

DEPTH_NAMES = {"white-1": N_("White's first turn"), "exchange": N_("the first exchange"),
               "white-2": N_("White's second turn"), "black-2": N_("Black's second turn")}


def setting_text(provenance: dict, key: str, show: Callable[[Any], str] = str) -> str:
    """`key` of a `Book.provenance` for people: `show(value)`, or each value shown with the depths
    it holds for, `; `-separated, when the depths differ."""
    groups = setting_groups(provenance, key)
    if len(groups) == 1:
        return show(groups[0][1])
    return "; ".join(
        f"{show(value)} ({', '.join(translate(DEPTH_NAMES.get(d, d)) for d in depths)})"
        for depths, value in groups)


def truncation(n: Any) -> str:
    """`truncated at 7 plies`, or `played out` for no truncation."""
    return _("truncated at {n} plies").format(n=n) if n is not None else _("played out")


def margins(filters: Any) -> str:
    """The staged ranking's margins, `0.25, 0.06, 0.03`."""
    return ", ".join(filters or [])
