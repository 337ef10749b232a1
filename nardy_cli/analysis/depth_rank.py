"""A roll's plays ranked by an evaluator at 0, 1 or 2 plies (no rollouts), with each result's
outcome chances: what a board page shows at once, and deeper on request.

Every legal play is valued at 0 ply by the evaluator's base (the network); with a searching
evaluator (`lookahead:NAME` one ply deeper, `lookahead2:NAME` two) the `width` best candidates
are searched, as `nardy review` and `nardy eval --evaluator` search them, and ranked above the
rest.  The chances are the network's nine outcome classes of each result for the side that
plays (exact for finished games).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.dice import Dice, as_dice
from ..core.engine import Play, legal_plays, require_in_play
from ..core.errors import ArgumentError
from ..core.outcomes import RESULT_KEYS
from ..core.position import Position
from ..core.rules import PRESETS, Rules
from ..match.stakes import MONEY, Stakes
from ..policies.judges import get_evaluator, result_board, result_values
from ..policies.network import result_probabilities

WIDTH = 5
# the plies of each depth's evaluator over the network
DEPTH_EVALUATORS = {0: "neural", 1: "lookahead:neural", 2: "lookahead2:neural"}


@dataclass(frozen=True)
class DepthPlay:
    """One play of the roll: its value for the side that plays (money points, or match equity
    at a score), the depth it was valued at, and its result's outcome chances."""

    play: Play
    equity: float
    depth: str
    probabilities: dict[str, float]

    def to_dict(self) -> dict:
        """Plain data for JSON: the play's text, its steps in order, its result and figures."""
        return {"play": str(self.play), "steps": [list(s) for s in self.play.steps],
                "result": str(self.play.result), "equity": self.equity, "depth": self.depth,
                "probabilities": self.probabilities}


@dataclass(frozen=True)
class DepthRanking:
    """A roll's plays, best first, by one evaluator."""

    position: Position
    dice: Dice
    evaluator: str
    plays: tuple[DepthPlay, ...]
    match: bool = False

    def to_dict(self) -> dict:
        """Plain data for JSON; `diff` is each play's equity behind the best."""
        best = self.plays[0].equity if self.plays else 0.0
        return {"position": str(self.position.with_dice(None)), "dice": str(self.dice),
                "evaluator": self.evaluator, "value": "match equity" if self.match else "money",
                "plays": [{"rank": i, **p.to_dict(), "diff": p.equity - best}
                          for i, p in enumerate(self.plays, 1)]}


def depth_evaluator(plies: int) -> str:
    """The evaluator of a ranking `plies` deep (0, 1 or 2); `ArgumentError` for another depth."""
    if plies not in DEPTH_EVALUATORS:
        raise ArgumentError(f"{{plies}} must be 0, 1 or 2, got {plies!r}")
    return DEPTH_EVALUATORS[plies]


def rank_at_depth(position: Position, dice: Dice | str | None = None, evaluator: Any = "neural",
                  rules: Rules = PRESETS["federation"], stakes: Stakes = MONEY,
                  width: int = WIDTH) -> DepthRanking:
    """Every legal play of `dice` (else the position's dice) ranked by `evaluator` (a name such as
    `neural`, `lookahead:neural`, `lookahead2:neural`) at `stakes` (money, or a match score)."""
    dice = as_dice(dice) if dice is not None else position.dice
    if dice is None:
        raise ArgumentError("no dice: give {dice} or a position that carries dice")
    require_in_play(position, rules)
    judge = get_evaluator(evaluator)
    valuation = stakes.valuation(rules) if stakes.match is not None else None
    before = position.with_dice(None)
    plays = legal_plays(before, dice, rules)
    me = position.turn
    white = me == "w"
    boards = np.stack([result_board(p.result, me) for p in plays])
    v0 = result_values(judge.evaluator, boards, white, rules, valuation)
    values = {j: (float(v), "0-ply") for j, v in enumerate(v0)}
    if judge.searches and len(plays) > 1:
        cands = list(judge.candidates(boards, v0, white, rules, valuation, width))
        deep = judge.deep_values(boards[cands], white, rules, valuation)
        values.update({j: (float(v), judge.name) for j, v in zip(cands, deep)})
    probs = result_probabilities(boards, np.full(len(plays), white), rules)
    # the searched plays first (their values are the deeper ones), each group best first
    order = sorted(values, key=lambda j: (values[j][1] == "0-ply", -values[j][0], j))
    ranked = tuple(DepthPlay(plays[j], values[j][0], values[j][1], _chances(probs[j]))
                   for j in order)
    return DepthRanking(before, dice, judge.name, ranked, stakes.match is not None)


def _chances(row: np.ndarray) -> dict[str, float]:
    """The nine outcome classes (result-code order) and the win/lose totals."""
    named = {k: float(v) for k, v in zip(RESULT_KEYS, row)}
    return {"win": float(row[0:4].sum()), "lose": float(row[4:8].sum()), **named}
