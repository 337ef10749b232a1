"""nardy: analysis of Long Nardy positions — rules engine, rollouts, bots and study tools.

The names below load on first use (PEP 562), so `import nardy_cli` — and the
command line's `nardy --help` — do not pay for numba until the engine is needed.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "ALL_ROLLS": "core.dice", "Dice": "core.dice", "format_dice": "core.dice",
    "parse_dice": "core.dice",
    "Outcome": "core.engine", "apply_play": "core.engine", "legal_plays": "core.engine",
    "outcome": "core.engine", "parse_play": "core.engine",
    "NardyError": "core.errors", "Library": "library.store",
    "format_position": "core.position", "parse_position": "core.position",
    "Play": "core.engine", "format_play": "core.engine",
    "START": "core.position", "Position": "core.position", "pip_count": "core.position",
    "PRESETS": "core.rules", "Points": "core.rules", "Rules": "core.rules",
    "make_rules": "core.rules",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
