"""What every kind of report is made of: the writer of its figures and tables, the kinds' class.

A report kind (`study/report.py`'s `REPORT_KINDS`) says how one kind of results
file becomes a report: its results table, the charts `nardy chart` can draw, its
sections, title and first line. The folder itself (results.json, report.md and
report.html from the templates) is written the same way for every kind.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..core.i18n import _
from .figures import save_figure

if TYPE_CHECKING:
    import pandas as pd

Chart = Callable[[dict, int], Any]     # (results data, index of the result) -> Figure


def charts():
    """The chart module, imported when a report is drawn (matplotlib is slow to import)."""
    from . import charts as module
    return module


def report_tables():
    """The table module, imported when a report is drawn."""
    from . import tables as module
    return module


class ReportWriter:
    """Draws figures into the folder under unique names and numbers the tables, with captions."""

    def __init__(self, folder: Path, ext: str) -> None:
        self.folder, self.ext, self.used, self.tables = folder, ext, set(), 0

    def figure(self, stem: str, fig, caption: str) -> dict:
        """Save `fig` as `stem`.ext (a name used once) and return it with its caption."""
        name = f"{stem}.{self.ext}"
        assert name not in self.used, name
        self.used.add(name)
        save_figure(fig, self.folder / name)
        return {"file": name, "caption": caption}

    def table(self, frame: pd.DataFrame, caption: str) -> dict:
        """A table as Markdown and HTML (numbered in the order they are added), with its caption."""
        self.tables += 1
        rt = report_tables()
        return {"caption": caption, "md": rt.to_markdown(frame),
                "html": rt.to_html(frame, f"t{self.tables}")}


def names(data: dict) -> list[str | None]:
    """The positions' names: the run's list, else each result's own."""
    return data.get("names") or [r.get("name") for r in data["results"]]


def comments(data: dict) -> list[str]:
    """The positions file's comment of each result ('' for none)."""
    return data.get("comments") or [""] * len(data["results"])


class ReportKind:
    """How one kind of results file becomes a report; a subclass per kind fills in its parts."""

    kind = ""

    def title(self, data: dict) -> str:
        """The report's title."""
        raise NotImplementedError

    def games_unit(self) -> str:
        """What the run's game count counts, in the language in use."""
        return _("games per play")

    def table(self, data: dict) -> pd.DataFrame:
        """results.csv: one row per analysed play or position."""
        raise NotImplementedError

    def extra_tables(self, data: dict) -> dict[str, pd.DataFrame]:
        """Further CSV files of the folder, by file name."""
        return {}

    def charts(self, data: dict) -> dict[str, Chart]:
        """The charts a results file of this kind can draw, by name (`nardy chart --kind`)."""
        return {}

    def sections(self, data: dict, w: ReportWriter) -> tuple[list[dict], dict | None]:
        """The report's sections (drawing their figures with `w`) and its overview table, if any."""
        raise NotImplementedError

    def headline(self, data: dict) -> str:
        """The report's first line in plain words."""
        raise NotImplementedError
