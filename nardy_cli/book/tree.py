"""The opening's tree: White's first plays, Black's replies, and the decisions of each depth.

A decision is a position (side to move, no dice) and a roll.  The book's depths, in the order a
build takes them:

- `white-1`: White's first roll from the start (21 decisions; only 3-3 has a choice);
- `exchange`: the positions after White's first play and Black's reply, White to roll (valued
  before the roll: the first exchange's equity);
- `white-2`: White's second turn, every roll in every position after the first exchange;
- `black-2`: Black's second turn, after every White second play.

Positions reached by different rolls are one decision (their plays lead to the same positions), so
the counts are the distinct positions': 165 after the first exchange, 3,465 White second-turn
decisions.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..core.dice import ALL_ROLLS, Dice
from ..core.engine import legal_plays
from ..core.errors import ArgumentError
from ..core.position import START, Position
from ..core.rules import Rules

DEPTHS = ("white-1", "exchange", "white-2", "black-2")


@dataclass(frozen=True)
class Decision:
    """One book entry's question: `position` (no dice) and `dice` (None for `exchange`: the
    position's value before the roll)."""

    depth: str
    position: Position
    dice: Dice | None

    @property
    def key(self) -> str:
        """The entry's key in the book: `depth|position|dice`."""
        return f"{self.depth}|{self.position}|{self.dice or '-'}"


@dataclass(frozen=True)
class Exchange:
    """One first exchange: White's first roll and play, Black's reply roll and play, and the
    position it leads to (White to roll)."""

    white_roll: Dice
    white_play: str
    black_roll: Dice
    black_play: str
    position: Position


@lru_cache(maxsize=4)
def first_exchanges(rules: Rules) -> tuple[Exchange, ...]:
    """Every (White first roll, White play, Black roll, Black play): 21 first rolls (3-3 with its
    two plays) times Black's 21 replies and their plays (computed once per rules)."""
    out = []
    for wroll in ALL_ROLLS:
        for wplay in legal_plays(START, wroll, rules):
            for broll in ALL_ROLLS:
                for bplay in legal_plays(wplay.result, broll, rules):
                    out.append(Exchange(wroll, str(wplay), broll, str(bplay), bplay.result))
    return tuple(out)


@lru_cache(maxsize=4)
def exchange_lines(rules: Rules) -> tuple[tuple[str, str, str, str, str], ...]:
    """`first_exchanges` as text (White roll, White play, Black roll, Black play, position), kept in
    the cache folder after its first computation: reading the book's first exchange then loads no
    kernel (a kernel's first call in a process costs about 0.35 s, the 966 legal-play calls 0.3 s
    more)."""
    from ..policies.bearoff import cache_dir
    path = cache_dir() / f"first-exchange-{_tree_key(rules)}.json"
    try:
        return tuple(tuple(row) for row in json.loads(path.read_text()))
    except (OSError, ValueError):
        pass
    rows = tuple((str(ex.white_roll), ex.white_play, str(ex.black_roll), ex.black_play,
                  str(ex.position.with_dice(None))) for ex in first_exchanges(rules))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(rows))
        tmp.replace(path)
    except OSError:  # a read-only cache folder: computed again next time
        pass
    return rows


def _tree_key(rules: Rules) -> str:
    """A digest of the rules and of the sources that make and write the plays (the kernels and the
    core): a changed engine or notation never reads an old tree."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(repr(rules).encode())
    for source in sorted((root / "kernels").glob("*.py")) + sorted((root / "core").glob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def exchange_positions(rules: Rules) -> list[Position]:
    """The distinct positions after the first exchange (White to roll), in a fixed order."""
    seen: dict[Position, None] = {}
    for ex in first_exchanges(rules):
        seen.setdefault(ex.position, None)
    return list(seen)


def decisions(depth: str, rules: Rules, after: list[Position] | None = None) -> list[Decision]:
    """The decisions of one depth in build order; `black-2` needs `after`, the positions after
    White's second plays (which ones the build chose)."""
    if depth == "white-1":
        return [Decision(depth, START, roll) for roll in ALL_ROLLS]
    if depth == "exchange":
        return [Decision(depth, p, None) for p in exchange_positions(rules)]
    if depth == "white-2":
        return [Decision(depth, p, roll) for p in exchange_positions(rules) for roll in ALL_ROLLS]
    if depth == "black-2":
        return [Decision(depth, p, roll) for p in after or [] for roll in ALL_ROLLS]
    raise ArgumentError(f"unknown book depth {depth!r}: choose from {', '.join(DEPTHS)}")
