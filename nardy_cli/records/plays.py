"""The plays of a game record: typed moves (`24/18 13/9`, `6/off`, `24/13(2)`) read, matched against
the legal plays of the roll, and written the way records write them."""

from __future__ import annotations

import re

from ..core.dice import Dice
from ..core.engine import OFF, Play, legal_plays
from ..core.errors import IllegalPlayError, NotationError
from ..core.position import Position
from ..core.rules import PRESETS, Rules

FEDERATION = PRESETS["federation"]
PASS_WORDS = ("-", "pass", "(no play)", "(pass)")
_MOVE_RE = re.compile(r"^([0-9]+(?:/(?:[0-9]+|off))+)(?:\(([0-9])\))?$")


def parse_moves(text: str) -> tuple[tuple[int, int], ...] | None:
    """Checker moves of a typed play: `1/12`, `1/7/12`, `13/off(2)`; None for a pass.

    Raises `NotationError` on a token that is not a move; the message quotes it.
    """
    stripped = " ".join(text.split()).lower()
    if stripped in PASS_WORDS:
        return None
    if not stripped:
        raise NotationError("missing play: write the steps, or '-' for a pass")
    moves: list[tuple[int, int]] = []
    for token in stripped.split():
        m = _MOVE_RE.match(token)
        if not m:
            hint = (" (a roll needs a colon: '6-5: 1/12')" if re.match(r"^[0-9]-[0-9]$", token)
                    else "")
            raise NotationError(f"bad move {token!r}: expected FROM/TO such as '1/12' or "
                                f"'22/off'{hint}")
        points = [OFF if p == "off" else int(p) for p in m.group(1).split("/")]
        for a, b in zip(points, points[1:]):
            if not 1 <= a <= 24 or not 1 <= b <= OFF or b <= a:
                raise NotationError(f"bad move {token!r}: points 1-24, moving forward")
            moves.extend([(a, b)] * int(m.group(2) or 1))
    return tuple(moves)


def match_play(text: str, position: Position, dice: Dice, rules: Rules = FEDERATION) -> Play:
    """The legal play of `dice` that `text` describes, matched by the position it leads to.

    Any order of steps and a checker's whole path are accepted (`1/12` = `1/7 7/12`).
    Raises `IllegalPlayError` naming the token when no legal play matches.
    """
    moves = parse_moves(text)
    plays = legal_plays(position, dice, rules)
    if moves is None:
        if plays[0].is_pass:
            return plays[0]
        raise IllegalPlayError(f"illegal pass {text.strip()!r}: {len(plays)} legal plays exist")
    counts = list(position.checkers(position.turn))
    for a, b in moves:
        counts[a - 1] -= 1
        if b != OFF:
            counts[b - 1] += 1
    if min(counts) < 0:
        raise IllegalPlayError(f"illegal play {text.strip()!r}: moves more checkers than "
                               "stand on a point")
    target = tuple(counts)
    matches = [p for p in plays if p.result.checkers(position.turn) == target]
    if len(matches) > 1:  # cannot happen while legal_plays lists each result once; kept as a guard
        raise IllegalPlayError(f"ambiguous play {text.strip()!r}: {len(matches)} legal plays match")
    if not matches:
        raise IllegalPlayError(f"illegal play {text.strip()!r}")
    return matches[0]


def format_moves(play: Play) -> str:
    """A play as a person writes it: each checker's whole path (`1/12`), `-` for a pass."""
    if play.is_pass:
        return "-"
    moves: list[list[int]] = []
    for a, b in play.steps:
        for m in moves:
            if m[1] == a:
                m[1] = b
                break
        else:
            moves.append([a, b])
    moves.sort(key=lambda m: (m[0], -m[1]))
    return " ".join(f"{a}/{'off' if b == OFF else b}" for a, b in moves)
