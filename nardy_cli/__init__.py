"""nardy: analysis of Long Nardy positions — rules engine, rollouts, bots and study tools.

The names below load on first use (PEP 562), so `import nardy_cli` — and the
command line's `nardy --help` — do not pay for numba until the engine is needed.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "ALL_ROLLS": "dice", "Dice": "dice", "format_dice": "dice", "parse_dice": "dice",
    "Outcome": "engine", "apply_play": "engine", "legal_plays": "engine", "outcome": "engine",
    "parse_play": "engine",
    "NardyError": "errors",
    "format_position": "position", "parse_position": "position",
    "Play": "play", "format_play": "play",
    "START": "position", "Position": "position", "pip_count": "position",
    "PRESETS": "rules", "Points": "rules", "Rules": "rules", "make_rules": "rules",
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
