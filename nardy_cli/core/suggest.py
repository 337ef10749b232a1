"""'Did you mean …?' hints for names the user mistyped (positions, presets, policies, files)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def close_matches(word: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """Up to `n` candidates that look like `word`, nearest first."""
    return difflib.get_close_matches(word, list(candidates), n=n, cutoff=0.6)


def did_you_mean(word: str, candidates: Iterable[str], n: int = 3) -> str:
    """`"; did you mean 'x'?"` (or `'x' or 'y'`), or the empty string when nothing is close."""
    found = close_matches(word, candidates, n)
    if not found:
        return ""
    quoted = [repr(f) for f in found]
    listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
    return f"; did you mean {listed}?"


def name_list(names: list[str], limit: int = 24) -> str:
    """The names joined by commas, cut after `limit` with a count of the rest."""
    if len(names) <= limit:
        return ", ".join(names)
    return ", ".join(names[:limit]) + f", … ({len(names) - limit} more)"
