"""The phase of a position: opening, bear-off, race, blocked or contact (docs/strength.md,
"Phases").

Each side travels its own points 1 -> 24 and off; a side's point q is the other
side's point q + 12 (mod 24).  The first phase that holds, in this order, is the
position's phase:

- `opening`: the side to move still has at least `OPENING_HEAD` (12) checkers on
  its head (point 1): a turn takes one checker from the head (two on the first
  6-6, 4-4 or 3-3), so this is the game's first three or four turns of each side
  (the very first plies alone are nearly all forced: one checker leaves the head);
- `bearoff`: both sides have every checker left on the board in their home
  (points 19-24);
- `race`: both sides have every checker left on their own points 13-24, so no
  checker of one side will ever stand where a checker of the other still has to
  go: the sides have passed each other and no block can form;
- `blocked`: a side holds a block of at least `BLOCK_LENGTH` (4) consecutive
  points with a checker of the other side standing on one of the `TRAP_REACH`
  (6) points just before the block on its way, so that checker must get past it;
- `contact`: everything else.
"""

from __future__ import annotations

from .position import BLACK, WHITE, Position, other_side

PHASES = ("contact", "blocked", "race", "bearoff", "opening")
BLOCK_LENGTH = 4
OPENING_HEAD = 12
TRAP_REACH = 6


def phase_of(position: Position) -> str:
    """The position's phase (one of `PHASES`), by the definitions of the module doc."""
    if position.checkers(position.turn)[0] >= OPENING_HEAD:
        return "opening"
    if all(sum(position.checkers(side)[:18]) == 0 for side in (WHITE, BLACK)):
        return "bearoff"
    if all(sum(position.checkers(side)[:12]) == 0 for side in (WHITE, BLACK)):
        return "race"
    if any(traps(position, side) for side in (WHITE, BLACK)):
        return "blocked"
    return "contact"


def traps(position: Position, side: str) -> bool:
    """True when `side` holds a block of `BLOCK_LENGTH`+ points with a checker of the other side
    within `TRAP_REACH` points before it, on that checker's way."""
    theirs = position.checkers(other_side(side))
    mine = position.checkers(side)
    # `side`'s checkers by the other side's points 1..24 (index q-1): its point q is their point
    # q+12 (mod 24)
    held = [mine[(q + 12) % 24] > 0 for q in range(24)]
    run = 0
    for q in range(24):
        run = run + 1 if held[q] else 0
        if run == BLOCK_LENGTH:
            first = q - BLOCK_LENGTH + 1
            if any(theirs[p] > 0 for p in range(max(0, first - TRAP_REACH), first)):
                return True
    return False
