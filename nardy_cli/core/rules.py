"""Rules presets (docs/rules.md §7) and their overrides, as one frozen value."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from numbers import Real
from typing import Any

from .errors import RulesError, check_type

HEAD_RULES = ("federation", "doubles-643", "strict")
BLOCK_CHECKS = ("step", "turn-end", "off")


@dataclass(frozen=True)
class Points:
    """Points a win scores by outcome class (R9); a draw scores 0 in equity."""

    oin: float = 1
    home_mars: float = 2
    mars: float = 2
    koks: float = 2

    def __post_init__(self) -> None:
        check_points(self)

    def as_tuple(self) -> tuple[float, float, float, float]:
        """Points in class order oin, home-mars, mars, koks."""
        return (self.oin, self.home_mars, self.mars, self.koks)

    def __str__(self) -> str:
        return format_points(self)


MAX_POINTS = 1000


def check_points(points: Points) -> None:
    """Raise `RulesError` unless every class scores a finite number from 0 to `MAX_POINTS` and the
    classes are ordered as the presets order them (docs/rules.md §7): oin <= mars <= home-mars <=
    koks."""
    named = {"oin": points.oin, "home-mars": points.home_mars, "mars": points.mars,
             "koks": points.koks}
    for name, value in named.items():
        if isinstance(value, bool) or not isinstance(value, Real):
            raise RulesError(f"points for {name} must be a number, got {value!r}")
        if not math.isfinite(value) or not 0 <= value <= MAX_POINTS:
            raise RulesError(f"points for {name} must be a finite number from 0 to "
                             f"{MAX_POINTS:,}, got {value:g}")
    order = ("oin", "mars", "home-mars", "koks")
    for low, high in zip(order, order[1:]):
        if named[low] > named[high]:
            raise RulesError(f"points must be ordered oin <= mars <= home-mars <= koks "
                             f"(docs/rules.md §7), got {low}={named[low]:g} above "
                             f"{high}={named[high]:g}")


@dataclass(frozen=True)
class Rules:
    """A rules preset plus overrides: head rule, block check, last roll, points."""

    preset: str = "federation"
    head_rule: str = "federation"
    block_check: str = "step"
    last_roll: bool = True
    points: Points = field(default_factory=Points)

    def __post_init__(self) -> None:
        if self.head_rule not in HEAD_RULES:
            raise RulesError(f"unknown head rule {self.head_rule!r}: "
                             f"choose one of {', '.join(HEAD_RULES)}")
        if self.block_check not in BLOCK_CHECKS:
            raise RulesError(f"unknown block check {self.block_check!r}: "
                             f"choose one of {', '.join(BLOCK_CHECKS)}")

    @property
    def head_code(self) -> int:
        """The head rule as the kernels' integer code."""
        return HEAD_RULES.index(self.head_rule)

    @property
    def block_code(self) -> int:
        """The block check as the kernels' integer code."""
        return BLOCK_CHECKS.index(self.block_check)

    def to_dict(self) -> dict[str, Any]:
        """Plain-data form used in JSON output."""
        return {
            "preset": self.preset,
            "head_rule": self.head_rule,
            "block_check": self.block_check,
            "last_roll": self.last_roll,
            "points": {"oin": self.points.oin, "home-mars": self.points.home_mars,
                       "mars": self.points.mars, "koks": self.points.koks},
        }

    def __repr__(self) -> str:
        return (f"Rules(preset={self.preset!r}, head_rule={self.head_rule!r}, "
                f"block_check={self.block_check!r}, "
                f"last_roll={self.last_roll!r}, points={self.points!r})")


PRESETS: dict[str, Rules] = {
    "federation": Rules("federation", "federation", "step", True, Points(1, 2, 2, 2)),
    "classic": Rules("classic", "doubles-643", "turn-end", False, Points(1, 2, 2, 2)),
    "extended": Rules("extended", "doubles-643", "turn-end", False, Points(1, 3, 2, 4)),
}


def parse_points(text: str, base: Points | None = None) -> Points:
    """Parse a points table such as `oin=1,mars=2,home-mars=3,koks=4` over `base`."""
    from .outcomes import CLASS_NAMES
    values = dict(zip(CLASS_NAMES, (base or Points()).as_tuple()))
    for item in text.split(","):
        key, sep, value = item.strip().partition("=")
        key = key.strip().replace("_", "-")
        if not sep or key not in values:
            raise RulesError(f"bad points entry {item.strip()!r}: expected CLASS=N with CLASS one "
                             f"of {', '.join(values)}")
        try:
            # float() reads other scripts' digits (fullwidth '１'): not notation
            if not value.strip().isascii():
                raise ValueError(value)
            number = float(value)
        except ValueError:
            raise RulesError(f"bad points value {value.strip()!r} in {item.strip()!r}") from None
        values[key] = int(number) if number.is_integer() else number
    return Points(values["oin"], values["home-mars"], values["mars"], values["koks"])


def format_points(points: Points) -> str:
    """Points table text that `parse_points` reads back."""
    def num(x: float) -> str:
        return str(int(x)) if float(x).is_integer() else str(x)
    return (f"oin={num(points.oin)},home-mars={num(points.home_mars)},"
            f"mars={num(points.mars)},koks={num(points.koks)}")


def make_rules(preset: str = "federation", *, head_rule: str | None = None,
               block_check: str | None = None, last_roll: bool | None = None,
               points: str | Points | None = None) -> Rules:
    """A preset with the given options overridden; `None` keeps the preset's value."""
    check_type(preset, str, "preset", f"a preset name ({', '.join(PRESETS)})")
    if preset not in PRESETS:
        from .suggest import did_you_mean
        raise RulesError(f"unknown rules preset {preset!r}{did_you_mean(preset, PRESETS)}; "
                         f"choose one of {', '.join(PRESETS)}")
    rules = PRESETS[preset]
    changes: dict[str, Any] = {}
    if head_rule is not None:
        changes["head_rule"] = head_rule
    if block_check is not None:
        changes["block_check"] = block_check
    if last_roll is not None:
        changes["last_roll"] = last_roll
    if points is not None:
        changes["points"] = (parse_points(points, rules.points) if isinstance(points, str)
                             else points)
    return replace(rules, **changes) if changes else rules


def rules_label(rules: Rules | dict[str, Any]) -> str:
    """The preset and every option that differs from it: `federation rules (koks=3, no last
    roll)`."""
    from .i18n import _
    if isinstance(rules, dict):
        rules = rules_from_dict(rules)
    base = PRESETS.get(rules.preset)
    changes = []
    if base is None or rules.head_rule != base.head_rule:
        changes.append(_("head rule {rule}").format(rule=rules.head_rule))
    if base is None or rules.block_check != base.block_check:
        changes.append(_("block check {check}").format(check=rules.block_check))
    if base is None or rules.last_roll != base.last_roll:
        changes.append(_("last roll") if rules.last_roll else _("no last roll"))
    from .outcomes import CLASS_NAMES
    base_points = dict(zip(CLASS_NAMES, base.points.as_tuple())) if base else {}
    for name, value in zip(CLASS_NAMES, rules.points.as_tuple()):
        if base_points.get(name) != value:
            changes.append(f"{name}={int(value) if float(value).is_integer() else value}")
    return (_("{preset} rules").format(preset=rules.preset)
            + (f" ({', '.join(changes)})" if changes else ""))


def rules_from_dict(data: dict[str, Any]) -> Rules:
    """Rules from the `rules` object of a test vector or a results file."""
    points = data.get("points")
    if isinstance(points, dict):
        points = ",".join(f"{k}={v}" for k, v in points.items())
    return make_rules(data.get("preset", "federation"), head_rule=data.get("head_rule"),
                      block_check=data.get("block_check"), last_roll=data.get("last_roll"),
                      points=points)
