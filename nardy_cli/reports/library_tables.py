"""The library's rating tables as people read them: each rate with its interval in one column
(`7.3 [6.1, 8.5]`), for `nardy library stats` and the progress page."""

from __future__ import annotations

import pandas as pd


def with_interval(value: float, low: float, high: float, digits: int = 1) -> str:
    """`7.3 [6.1, 8.5]`; the value alone without an interval; `-` without a value."""
    if value != value:
        return "-"
    if low != low:
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def _column(frame: pd.DataFrame, stem: str) -> list[str]:
    keys = {"pr": ("pr", "pr_low", "pr_high")}.get(stem, (f"{stem}_mp", f"{stem}_low",
                                                          f"{stem}_high"))
    return [with_interval(*v) for v in frame[list(keys)].to_numpy(dtype=float)]


def stats_view(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """The shown table of `stats.rate(by=...)` rows: counts, the rates with their intervals,
    marks per game and the band (per player), or the PR (per month or match), or the checker rate
    (per phase)."""
    view = pd.DataFrame({"player": frame["player"]})
    if by != "player":
        view[by] = frame[by]
    view["games"] = frame["games"]
    view["decisions"] = frame["non_forced"]
    if "cube_decisions" in frame:
        view["cube"] = frame["cube_decisions"]
    if by in ("player", "phase"):
        view["checker mp"] = _column(frame, "checker")
    if by == "player":
        view["cube mp"] = _column(frame, "cube")
    if "pr" in frame:
        view["PR"] = _column(frame, "pr")
    if by == "player":
        view["errors/game"] = frame["errors_per_game"].round(2)
        view["blunders/game"] = frame["blunders_per_game"].round(2)
        view["band"] = frame["band"]
    return view


__all__ = ["stats_view", "with_interval"]
