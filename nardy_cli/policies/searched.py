"""A position valued by a searching evaluator (`lookahead:NAME`, `lookahead2:NAME`), for `nardy
eval --evaluator`.

Without dice the position is the opponent's result (the side to move about to
roll): its value is minus the evaluator's value of that result for the
opponent.  With dice it is the value of the roll's best play: the `width` best
plays by the 0-ply evaluator (for `lookahead:NAME`, the kernel lookahead's candidates) are
searched, as `nardy review` searches them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.engine import legal_plays, require_in_play
from ..core.position import Position, mover_board, other_side
from ..core.rules import PRESETS, Rules
from .judges import get_evaluator, result_board, result_values

WIDTH = 5


@dataclass(frozen=True)
class SearchedValue:
    """The side to move's value of a position by one evaluator, and the best play when dice were
    given."""

    evaluator: str
    equity: float
    play: str | None = None

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        return {"evaluator": self.evaluator, "equity": self.equity, "play": self.play}


def searched_value(position: Position, evaluator: Any, rules: Rules = PRESETS["federation"],
                   valuation=None, width: int = WIDTH) -> SearchedValue:
    """The side to move's value of `position` by `evaluator` (a name or object; at a match
    `valuation`, its match equity); see the module doc."""
    ev = get_evaluator(evaluator)
    require_in_play(position, rules)
    me, other = position.turn, other_side(position.turn)
    if position.dice is None:
        board = mover_board(position.checkers(other), position.checkers(me))
        value = ev.deep_values(board[None], other == "w", rules, valuation)[0]
        return SearchedValue(ev.name, -float(value))
    plays = legal_plays(position, position.dice, rules)
    boards = np.stack([result_board(p.result, me) for p in plays])
    v0 = result_values(ev.evaluator, boards, me == "w", rules, valuation)
    cands = np.array(ev.candidates(boards, v0, me == "w", rules, valuation, width))
    deep = ev.deep_values(boards[cands], me == "w", rules, valuation)
    best = int(np.argmax(deep))
    return SearchedValue(ev.name, float(deep[best]), str(plays[int(cands[best])]))
