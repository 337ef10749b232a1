"""One renderer for every command: a result's views (a table for people, a frame for CSV, data for
JSON) and the table of output formats that picks one.

A command hands `render` a `Views` value and the format asked (`--format table|csv|json`);
the format's entry in `OUTPUT_FORMATS` says which view it shows and how, so no command
compares format names.  A new output format is one function and one line of the table.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ..core.i18n import _

if TYPE_CHECKING:
    import pandas as pd


def _clean(value: Any) -> Any:
    """JSON-safe value: NaN becomes null, numpy scalars become Python numbers."""
    if hasattr(value, "item") and not isinstance(value, (list, dict, str)):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def to_json(data: Any) -> str:
    """Compact, key-ordered JSON on one line (stable for byte-identical reruns)."""
    return json.dumps(_clean(data), ensure_ascii=False, separators=(", ", ": "))


def number(value: float, spec: str = "{:.4f}") -> str:
    """`value` formatted by `spec`, never as a negative zero: -0.00001 is `0.0000` (`+0.0000` with a
    `+` spec)."""
    text = spec.format(value)
    if text.startswith("-") and not text.strip("-0.%"):
        text = ("+" if "+" in spec else "") + text[1:]
    return text


def csv_text(frame: pd.DataFrame) -> str:
    """A DataFrame as CSV text, without the index and the last line's end."""
    return frame.to_csv(index=False).rstrip("\n")


def table_text(frame: pd.DataFrame, float_format: str = "{:.4f}",
               left: tuple[str, ...] = ()) -> str:
    """A DataFrame as an aligned table for people: floats by `float_format`, the `left` text
    columns aligned left (headers too), headers in the language in use; `(nothing)` when empty."""
    from pandas.api.types import is_float_dtype
    if frame.empty:
        return _("(nothing)")
    from ..core.i18n import column
    # headers in the language in use (CSV and JSON keep the names)
    frame = frame.rename(columns=column)
    left = tuple(column(c) for c in left)
    formatters = {c: (lambda v: number(v, float_format)) for c in frame.columns
                  if is_float_dtype(frame[c])}
    if left:
        # two spaces at least
        widths = {c: 1 + max(len(c), *(len(str(v)) for v in frame[c])) for c in left}
        formatters.update({c.ljust(widths[c]): (lambda v, w=widths[c]: str(v).ljust(w))
                           for c in left})
        frame = frame.rename(columns={c: c.ljust(widths[c]) for c in left})
    return frame.to_string(index=False, formatters=formatters)


@dataclass(frozen=True)
class Views:
    """One result as each output format can show it, each view made only when its format is asked:
    `table` (text for people), `frame` (a DataFrame for CSV) or `rows` (its rows, for results
    shown one after another and gathered into one CSV), `data` (a plain object for JSON, one line;
    with `lines`, several objects, a line each).  A view left out shows nothing in its format (a
    part of the output only some formats have, e.g. a heading)."""

    table: Callable[[], str] | None = None
    frame: Callable[[], pd.DataFrame] | None = None
    data: Callable[[], Any] | None = None
    rows: Callable[[], list[dict]] | None = None
    lines: bool = False

    @classmethod
    def of_frame(cls, frame: pd.DataFrame, float_format: str = "{:.4f}",
                 left: tuple[str, ...] = ()) -> Views:
        """A DataFrame's views: the aligned table, the CSV, the JSON list of records."""
        return cls(table=lambda: table_text(frame, float_format, left), frame=lambda: frame,
                   data=lambda: frame.to_dict(orient="records"))


def _table(views: Views) -> str | None:
    return None if views.table is None else views.table()


def _frame_of(views: Views) -> pd.DataFrame | None:
    if views.frame is not None:
        return views.frame()
    if views.rows is not None:
        import pandas as pd
        return pd.DataFrame(views.rows())
    return None


def _csv(views: Views) -> str | None:
    frame = _frame_of(views)
    return None if frame is None else csv_text(frame)


def _json(views: Views) -> str | None:
    if views.data is None:
        return None
    data = views.data()
    return "\n".join(to_json(d) for d in data) if views.lines else to_json(data)


@dataclass(frozen=True)
class OutputFormat:
    """One output format: `text` (the text of a result's views, None when it has no view of it);
    `for_people` (notes about the figures are lines of the output; otherwise warnings on stderr,
    so that the output stays data); `streams` (results shown one after another each print their
    text at once; otherwise their rows are gathered and shown as one text at the end)."""

    name: str
    text: Callable[[Views], str | None]
    for_people: bool = False
    streams: bool = True


OUTPUT_FORMATS: dict[str, OutputFormat] = {
    "table": OutputFormat("table", _table, for_people=True),
    "csv": OutputFormat("csv", _csv, streams=False),
    "json": OutputFormat("json", _json),
}
FORMATS = tuple(OUTPUT_FORMATS)


def output_format(name: str) -> OutputFormat:
    """The output format called `name` (one of `FORMATS`)."""
    return OUTPUT_FORMATS[name]


def render(views: Views, fmt: str) -> str | None:
    """The text of `views` in output format `fmt`; None when the format has no view of them."""
    return output_format(fmt).text(views)


def frame_text(frame: pd.DataFrame, fmt: str, float_format: str = "{:.4f}",
               left: tuple[str, ...] = ()) -> str:
    """A DataFrame as an aligned table (the `left` text columns aligned left, headers too), CSV or
    JSON records."""
    return render(Views.of_frame(frame, float_format, left), fmt)
