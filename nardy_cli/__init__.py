"""nardy: analysis of Long Nardy positions — rules engine, rollouts, bots and study tools."""

from __future__ import annotations

__version__ = "0.1.0"

from .dice import ALL_ROLLS, Dice, format_dice, parse_dice
from .engine import Outcome, apply_play, legal_plays, outcome, parse_play
from .errors import NardyError
from .notation import format_position, parse_position
from .play import Play, format_play
from .position import START, Position, pip_count
from .rules import PRESETS, Points, Rules, make_rules

__all__ = [
    "__version__", "ALL_ROLLS", "Dice", "format_dice", "parse_dice", "Outcome", "apply_play", "legal_plays",
    "outcome", "parse_play", "NardyError", "format_position", "parse_position", "Play", "format_play",
    "START", "Position", "pip_count", "PRESETS", "Points", "Rules", "make_rules",
]
