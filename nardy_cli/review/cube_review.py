"""The review of a game's cube actions: at every turn before the roll, the roller's correct cube
decision (`cube_analysis.cube_decision`) against what was done, and the taker's answer against its
best.

One row per turn at which the roller could double (the cube centred or its own, not
the Crawford game): the cube, what was done (`no double`, `double, take`,
`double, pass`, `double, beaver`), the right decision and its three equities, the
roller's loss (a missed double or a wrong double) and the taker's (a wrong take or a
wrong pass).  Losses are in points in a money game (the model's equity per cube unit
times the cube's value, as `nardy eval` shows it), and at a match score the match
winning chance lost (`mwc_*`) and, like the plays' review, normalised equity (a
single game won +1, lost -1).  The decisions are the network's through the cube
model, or exact in the cubeful bear-offs (money, and at a match score up to 5
checkers a side: `match/match_bearoff.py`; the row's `exact`), whatever evaluator
judges the plays.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.engine import outcome
from ..core.outcomes import RESULT_KEYS, swap
from ..core.position import SIDE_NAMES, WHITE, Position, mover_board, other_side
from ..match.cube import Cube
from ..match.cube_decision import cube_decision
from ..match.stakes import MONEY, Stakes
from ..policies.bearoff import is_bearoff
from ..records.game_record import GameRecord

ACTIONS = {(): "no double", ("take",): "double, take", ("drop",): "double, pass",
           ("beaver",): "double, beaver"}
ERRORS = {"no double": "missed double", "double": "wrong double", "take": "wrong take",
          "drop": "wrong pass", "beaver": "wrong beaver"}
COLUMNS = ["turn", "ply", "side", "player", "cube", "action", "best", "no_double", "double_take",
           "double_pass", "double_lost", "taker", "take_lost", "error", "exact"]
MATCH_COLUMNS = ["mwc_double_lost", "mwc_take_lost"]


def cube_turns(record: GameRecord) -> list[tuple[int | None, Position, Cube, tuple[str, ...]]]:
    """Every turn's (ply index, None for the turn after the last ply; the position before the roll,
    cube before its actions, the kinds of the actions after a double: `()` for no double,
    `("take",)`, `("drop",)`, `("beaver",)`), from the record's turns (`GameRecord.turns`)."""
    return [(t.index, t.position, t.cube, t.answer) for t in record.turns()]


def _probabilities(positions: list[Position], rules, network) -> list[dict | None]:
    """The side on roll's nine result chances of each position by the network, in one call (None for
    a bear-off, which `cube_decision` reads from the databases)."""
    from ..policies.network import result_probabilities
    todo = [k for k, p in enumerate(positions) if not is_bearoff(p)]
    out: list[dict | None] = [None] * len(positions)
    if not todo:
        return out
    boards = np.array([mover_board(positions[k].checkers(other_side(positions[k].turn)),
                                   positions[k].checkers(positions[k].turn)) for k in todo])
    white = np.array([positions[k].turn != WHITE for k in todo])
    probs = swap(result_probabilities(boards, white, rules, network))
    for k, row in zip(todo, probs):
        out[k] = {key: float(v) for key, v in zip(RESULT_KEYS, row)}
    return out


def _scale(valuation, white: bool) -> float:
    """Normalised equity per unit of the side's match equity: a single game won +1, lost -1 (money:
    1)."""
    if valuation is None or valuation.is_money:
        return 1.0
    v = valuation.for_side(white)
    return 2.0 / float(v[0] - v[4])


def review_cube(record: GameRecord, sides: tuple[str, ...] = ("w", "b"), stakes: Stakes = MONEY,
                network=None, valuation=None) -> pd.DataFrame:
    """The cube decisions of `record` by `sides` (the roller's double, the taker's answer), one row
    per turn, at `stakes` (money, or the match at the game's score: none in the Crawford game); the
    cube and its rules are the record's.  `valuation` (the stakes' under the record's rules, which
    a caller may already hold) saves valuing them again."""
    rules = record.rules
    if stakes.match is not None and valuation is None:
        valuation = stakes.valuation(rules)
    turns = []
    for index, position, cube, answer in cube_turns(record):
        roller, taker = position.turn, other_side(position.turn)
        if (outcome(position, rules) is not None or stakes.crawford
                or cube.relative(roller) == "opponent"):
            continue
        if roller in sides or (answer and taker in sides):
            turns.append((index, position, stakes.with_cube(cube), answer))
    probabilities = _probabilities([t[1] for t in turns], rules, network)
    rows = [_row(record, t, p, sides, valuation) for t, p in zip(turns, probabilities)]
    return pd.DataFrame(rows, columns=COLUMNS + (MATCH_COLUMNS if stakes.match is not None
                                                 else []))


def _row(record: GameRecord, turn, probabilities, sides, valuation) -> dict:
    """One turn's cube decision, what was done and the losses of both sides (`turn` holds the
    turn's stakes: the match, if any, and the cube before the roll)."""
    index, position, stakes, answer = turn
    cube, match = stakes.cube, stakes.match
    roller, taker = position.turn, other_side(position.turn)
    d = cube_decision(position, stakes, record.rules, probabilities=probabilities)
    take = d.double_take / 2 if d.beaver else d.double_take
    answers = {"take": take, "drop": d.double_pass}
    if cube.beavers:
        answers["beaver"] = 2 * take
    best_answer = min(answers.values())
    best = max(d.no_double, best_answer)
    doubled = bool(answer)
    double_loss = best - (best_answer if doubled else d.no_double)
    take_loss = answers[answer[0]] - best_answer if doubled else float("nan")
    errors = []
    if roller in sides and double_loss > 1e-12:
        errors.append(ERRORS["double" if doubled else "no double"])
    if doubled and taker in sides and take_loss > 1e-12:
        errors.append(ERRORS[answer[0]])
    if match is None:   # points: equity per cube unit times the cube
        lost = {"double_lost": double_loss * cube.value, "take_lost": take_loss * cube.value}
    else:
        lost = {"mwc_double_lost": double_loss, "mwc_take_lost": take_loss,
                "double_lost": 2 * double_loss * _scale(valuation, roller == WHITE),
                "take_lost": 2 * take_loss * _scale(valuation, taker == WHITE)}
    for who, keys in ((roller, ("double_lost", "mwc_double_lost")),
                      (taker, ("take_lost", "mwc_take_lost"))):
        if who not in sides:     # a side not reviewed: its loss is left out
            lost.update({k: float("nan") for k in keys if k in lost})
    ply = record.plies[index] if index is not None else None
    label = ply.label if ply is not None else _end_label(record)
    owner = "centre" if cube.owner == "centre" else cube.owner.capitalize()
    names = {WHITE: record.white, other_side(WHITE): record.black}
    return {"turn": label, "ply": len(record.plies) + 1 if index is None else index + 1,
            "side": SIDE_NAMES[roller].lower(), "player": names[roller],
            "cube": f"{cube.value} {owner}", "action": ACTIONS[answer], "best": d.decision,
            "no_double": d.no_double, "double_take": d.double_take, "double_pass": d.double_pass,
            "taker": names[taker], "error": ", ".join(errors), "exact": d.exact, **lost}


def _end_label(record: GameRecord) -> str:
    """The label of the turn after the last ply: the turn a drop ended."""
    last = record.plies[-1] if record.plies else None
    number = 1 if last is None else last.number + (last.side != WHITE)
    return f"{number}." if record.final.turn == WHITE else f"{number}..."


def cube_summary(frame: pd.DataFrame, side: str) -> dict:
    """The cube totals of `side` ('white'/'black'): decisions (its doubles and its answers), errors,
    loss."""
    doubles = frame.loc[(frame["side"] == side) & frame["double_lost"].notna(), "double_lost"]
    answers = frame.loc[(frame["side"] != side) & frame["take_lost"].notna(), "take_lost"]
    return {"cube_decisions": len(doubles) + len(answers),
            "cube_errors": int((doubles > 1e-12).sum() + (answers > 1e-12).sum()),
            "cube_lost": float(doubles.sum() + answers.sum())}


__all__ = ["review_cube", "cube_turns", "cube_summary", "COLUMNS", "MATCH_COLUMNS"]
