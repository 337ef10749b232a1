"""Dice: one roll as a value, parsing and formatting, and the 21 distinct rolls."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ..kernels.codes import roll_steps
from .errors import DiceError, check_type

_DICE_RE = re.compile(r"^([1-6])-?([1-6])$")


@dataclass(frozen=True, order=True)
class Dice:
    """A roll of two dice, stored larger die first."""

    high: int
    low: int

    def __post_init__(self) -> None:
        if not (1 <= self.low <= self.high <= 6):
            raise DiceError(f"bad dice {self.high}-{self.low}: values must be 1-6, larger first")

    @property
    def is_double(self) -> bool:
        """True for a double (four steps)."""
        return self.high == self.low

    @property
    def steps(self) -> tuple[int, ...]:
        """The step values the roll gives: two, or four for a double (`codes.roll_steps`)."""
        return (self.high, self.low) * (roll_steps(self.high, self.low) // 2)

    @property
    def probability(self) -> Fraction:
        """Chance of this roll: 1/36 for a double, 2/36 otherwise."""
        return Fraction(1 if self.is_double else 2, 36)

    def __str__(self) -> str:
        return format_dice(self)

    def __repr__(self) -> str:
        return f"parse_dice({format_dice(self)!r})"


def parse_dice(text: str) -> Dice:
    """Parse `6-5`, `5-6` or `65` into a `Dice` (larger die first)."""
    check_type(text, str, "text", "dice text such as '6-5'")
    m = _DICE_RE.match(text.strip())
    if not m:
        raise DiceError(f"bad dice {text!r}: expected two values 1-6 such as '6-5' or '65'")
    a, b = int(m.group(1)), int(m.group(2))
    return Dice(max(a, b), min(a, b))


def as_dice(value: "Dice | str | tuple[int, int] | list[int]") -> Dice:
    """A `Dice` from `Dice`, text (`"6-5"`, `"65"`) or a pair of values (`(6, 5)` or `(5, 6)`)."""
    if isinstance(value, Dice):
        return value
    if isinstance(value, str):
        return parse_dice(value)
    if (isinstance(value, (tuple, list)) and len(value) == 2
        and all(isinstance(v, int) for v in value)):
        a, b = value
        if not (1 <= a <= 6 and 1 <= b <= 6):
            raise DiceError(f"bad dice {tuple(value)!r}: values must be 1-6")
        return Dice(max(a, b), min(a, b))
    raise DiceError(f"bad dice {value!r}: expected Dice, text such as '6-5', "
                    "or a pair such as (6, 5)")


def format_dice(dice: Dice) -> str:
    """Canonical dice text, larger die first: `6-5`."""
    check_type(dice, Dice, "dice", "a Dice (e.g. parse_dice('6-5'))")
    return f"{dice.high}-{dice.low}"


ALL_ROLLS: tuple[Dice, ...] = tuple(Dice(h, l) for h in range(6, 0, -1) for l in range(h, 0, -1))
"""The 21 distinct rolls, 6-6 first; each has `.probability`."""


def parse_rolls(text: str) -> list[Dice]:
    """`all` or a list such as `65,33` or `6-5,3-3` (each roll once, in the order given)."""
    if text.strip().lower() == "all":
        return list(ALL_ROLLS)
    rolls: list[Dice] = []
    for token in text.split(","):
        token = token.strip()
        try:
            dice = parse_dice(token)
        except DiceError:
            raise DiceError(f"unknown roll {token!r}: expected rolls such as "
                            "'65,33' or 'all'") from None
        if dice not in rolls:
            rolls.append(dice)
    if not rolls:
        raise DiceError("no rolls given: expected rolls such as '65,33' or 'all'")
    return rolls
