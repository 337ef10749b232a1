"""One renderer for every command: DataFrames and records as table, CSV or JSON text."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from ..core.i18n import _

if TYPE_CHECKING:
    import pandas as pd

FORMATS = ("table", "csv", "json")


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


def frame_text(frame: pd.DataFrame, fmt: str, float_format: str = "{:.4f}",
               left: tuple[str, ...] = ()) -> str:
    """A DataFrame as an aligned table (the `left` text columns aligned left, headers too), CSV or
    JSON records."""
    from pandas.api.types import is_float_dtype
    if fmt == "csv":
        return frame.to_csv(index=False).rstrip("\n")
    if fmt == "json":
        return to_json(frame.to_dict(orient="records"))
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
