"""Saved results (a report's results.json, read back) checked as they are drawn: a field the
file lacks is a `ResultsError` naming it (`results[0].probabilities.draw`), not a `KeyError`.

The data is wrapped once (`traced`): each object and list knows its path in the file, and a
missing key or index raises `MissingField` (a `KeyError`, so code that tests for a key still
works) with that path; a chart that copies an object into a plain dict loses the path, and its
missing key is named alone. `chart_of` draws one chart from such data and turns a missing field,
or a value of the wrong shape, into one `ResultsError`.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import NardyError, ResultsError


class MissingField(KeyError):
    """A key or index the saved results lack; `path` is where, as `results[0].probabilities`."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


def _join(path: str, key: Any) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}" if path else str(key)


class _Object(dict):
    """A JSON object that names the path of a key it lacks."""

    def __init__(self, data: dict, path: str) -> None:
        super().__init__({k: traced(v, _join(path, k)) for k, v in data.items()})
        self.path = path

    def __missing__(self, key: Any) -> Any:
        raise MissingField(_join(self.path, key))


class _Array(list):
    """A JSON array that names the path of an index it lacks."""

    def __init__(self, data: list, path: str) -> None:
        super().__init__(traced(v, _join(path, i)) for i, v in enumerate(data))
        self.path = path

    def __getitem__(self, index: Any) -> Any:
        try:
            return super().__getitem__(index)
        except IndexError:
            raise MissingField(_join(self.path, index)) from None


def traced(data: Any, path: str = "") -> Any:
    """`data` (plain JSON data) with every object and array naming the path of what it lacks."""
    if isinstance(data, dict):
        return _Object(data, path)
    if isinstance(data, list):
        return _Array(data, path)
    return data


def chart_of(data: dict, kind: str, index: int = 0):
    """The chart `kind` of result `index` (0-based) of saved results `data`, as a Figure; a field
    the data lacks or holds in another shape is a `ResultsError` saying which and for what."""
    from .report import chart_kinds
    data = traced(data)
    what = f"the {kind} chart of {data.get('kind')} results"
    try:
        return chart_kinds(data)[kind](data, index)
    except MissingField as exc:
        raise ResultsError(f"{what} needs {exc.path}, which the file lacks") from None
    except KeyError as exc:      # a key of an object the chart copied (its path is lost)
        raise ResultsError(f"{what} needs a field {exc.args[0]!r}, which the file lacks") from None
    except NardyError:
        raise
    except (TypeError, ValueError, AttributeError, IndexError) as exc:
        raise ResultsError(f"{what} cannot be drawn from this file ({exc})") from None
