"""A `Play`: one whole turn as its steps and the position it leads to."""

from __future__ import annotations

from dataclasses import dataclass

from .dice import Dice
from .errors import check_type
from .position import Position

OFF = 25  # the `to` of a step that bears a checker off


@dataclass(frozen=True, slots=True)
class Play:
    """A legal turn: steps `(from, to)` in the mover's numbering (`to` 25 is off) and its result."""

    steps: tuple[tuple[int, int], ...]
    result: Position
    dice: Dice

    @property
    def is_pass(self) -> bool:
        """True when no step could be played (R3)."""
        return not self.steps

    def __str__(self) -> str:
        return format_play(self.steps)

    def __repr__(self) -> str:
        return f"<Play {format_play(self.steps)!r} -> {str(self.result)!r}>"


def format_step(step: tuple[int, int]) -> str:
    """`1/7` or `22/off`."""
    src, dst = step
    return f"{src}/{'off' if dst == OFF else dst}"


def format_play(steps: "tuple[tuple[int, int], ...] | Play") -> str:
    """Steps (or a `Play`'s steps) in playing order, `1/7 7/12`; a pass is `pass`."""
    if isinstance(steps, Play):
        steps = steps.steps
    what = "a Play or its steps, pairs (from, to) such as ((1, 7), (7, 12))"
    check_type(steps, (tuple, list), "steps", what)
    for step in steps:
        check_type(step, (tuple, list), "steps", what)
        if len(step) != 2 or not all(isinstance(v, int) for v in step):
            check_type(steps, (), "steps", what)
    return " ".join(format_step(s) for s in steps) if steps else "pass"
