"""Small analyses built on the engine: plays per roll."""

from __future__ import annotations

from .dice import ALL_ROLLS, Dice
from .engine import legal_plays
from .play import Play
from .position import Position
from .rules import Rules


def roll_plays(position: Position, dice: Dice | None, rules: Rules) -> list[tuple[Dice, list[Play]]]:
    """The legal plays of `dice`, else of the position's dice, else of each of the 21 rolls."""
    if dice is None:
        dice = position.dice
    rolls = [dice] if dice is not None else list(ALL_ROLLS)
    return [(d, legal_plays(position, d, rules)) for d in rolls]
