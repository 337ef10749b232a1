"""The tutor: a play judged before it is made, as GNU Backgammon's tutor mode warns of a doubtful,
bad or very bad play.

The play is ranked with the roll's other plays (`analysis.depth_rank`, the chosen play always
searched as deep as the best), and the equity it gives up is marked by the review's
`Thresholds` (doubtful 40, bad 80, very bad 160 millipoints by default).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..analysis.depth_rank import WIDTH
from ..core.dice import Dice, as_dice
from ..core.engine import Play, legal_plays, parse_play
from ..core.errors import ArgumentError
from ..core.position import Position
from ..core.rules import PRESETS, Rules
from ..match.stakes import MONEY, Stakes
from ..policies.judges import get_evaluator, result_board, result_values
from .game_review import Thresholds, normaliser

# the tutor's words for the review's marks, as GNU Backgammon names them
WORDS = {"": "", "doubtful": "doubtful", "error": "bad", "blunder": "very bad"}


@dataclass(frozen=True)
class TutorVerdict:
    """What the tutor says of a play: the equity it gives up against the best and its mark."""

    play: str
    best: str
    best_result: str
    equity_played: float
    equity_best: float
    lost: float
    mark: str           # '', 'doubtful', 'bad' or 'very bad'
    evaluator: str

    @property
    def warns(self) -> bool:
        """True when the play loses enough to be warned of."""
        return bool(self.mark)

    def to_dict(self) -> dict:
        """Plain data for JSON (`lost` in points; `lost_mp` in millipoints)."""
        return {"play": self.play, "best": self.best, "best_result": self.best_result,
                "equity_played": self.equity_played, "equity_best": self.equity_best,
                "lost": self.lost, "lost_mp": round(self.lost * 1000), "mark": self.mark,
                "warns": self.warns, "evaluator": self.evaluator}


def judge_play(position: Position, dice: Dice | str, play: Play | str,
               evaluator: Any = "lookahead:neural", rules: Rules = PRESETS["federation"],
               stakes: Stakes = MONEY, thresholds: Thresholds = Thresholds(),
               width: int = WIDTH) -> TutorVerdict:
    """The tutor's verdict on `play` (a `Play` or its text) with `dice` in `position`, judged by
    `evaluator` at `stakes` (at a match score in normalised equity, as the review judges)."""
    dice = as_dice(dice)
    before = position.with_dice(None)
    if isinstance(play, str):
        play = parse_play(before, play, dice, rules)
    plays = legal_plays(before, dice, rules)
    chosen = plays.index(play)
    judge = get_evaluator(evaluator)
    valuation = stakes.valuation(rules) if stakes.match is not None else None
    white = before.turn == "w"
    boards = np.stack([result_board(p.result, before.turn) for p in plays])
    values = result_values(judge.evaluator, boards, white, rules, valuation)
    if judge.searches and len(plays) > 1:
        cands = sorted(set(judge.candidates(boards, values, white, rules, valuation, width))
                       | {chosen})
        deep = judge.deep_values(boards[cands], white, rules, valuation)
        values = {j: float(v) for j, v in zip(cands, deep)}
    else:
        values = {j: float(v) for j, v in enumerate(values)}
    best = max(values, key=lambda j: (values[j], -j))
    mid, scale = normaliser(valuation, white)
    played_eq, best_eq = (values[chosen] - mid) * scale, (values[best] - mid) * scale
    lost = max(0.0, best_eq - played_eq)
    return TutorVerdict(str(play), str(plays[best]), str(plays[best].result), played_eq, best_eq,
                        lost, WORDS[thresholds.mark(lost)], judge.name)


def judge_cube(position: Position, stakes: Stakes, action: str,
               rules: Rules = PRESETS["federation"],
               thresholds: Thresholds = Thresholds()) -> TutorVerdict:
    """The tutor's verdict on a cube action before it is made: `double` by the side on roll in
    `position` (`stakes` with the cube as it stands), or `take` / `drop` of that side's double by
    the other side (`stakes` with the cube before the double).  The loss is in points of the cube
    before the double (money), or in normalised match equity (twice the match winning chance)."""
    from ..match.cube_decision import cube_decision
    if action not in ("double", "take", "drop"):
        raise ArgumentError(f"a cube action is double, take or drop, got {action!r}")
    d = cube_decision(position.with_dice(None), stakes, rules)
    if d.double_take is None or d.double_pass is None:
        raise ArgumentError("no double is possible here")
    if action == "double":
        values = {"no double": d.no_double, "double": min(d.double_take, d.double_pass)}
    else:          # the doubled side's values are minus the doubler's
        values = {"take": -d.double_take, "drop": -d.double_pass}
    best = max(values, key=values.get)
    scale = stakes.cube.value if stakes.cube is not None and stakes.match is None else 1.0
    if stakes.match is not None:
        scale = 2.0                    # match winning chance -> normalised equity
    lost = max(0.0, values[best] - values[action]) * scale
    return TutorVerdict(action, best, "", values[action] * scale, values[best] * scale, lost,
                        WORDS[thresholds.mark(lost)], d.decision)
