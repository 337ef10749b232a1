"""Evaluators for game review: the equity of result boards for the side that just moved.

An `Evaluator` scores mover-relative boards right after the mover's play (the
opponent rolls next), in the kernels' convention, and returns the mover's equity
under the rules' points table.  At a match score (an `outcomes.Valuation` of a
match) an evaluator is asked for `values(boards, white, rules, valuation)`, or
for its nine `outcome_probabilities(boards, white, rules)`, which the valuation
turns into match equity; the built-in evaluators have both.  `result_values`
scores finished games exactly (and Black's last roll, R8) and asks the
evaluator only about games in progress.

Built in: `heuristic`, the logistic static estimate over the heuristic's features
(`nardy eval`'s model), and `lookahead:NAME`, NAME one ply deeper (expectimax over
the opponent's 21 rolls).  Any object with `name` and `equities(boards, white, rules)`
plugs in: pass it directly, register it with `register_evaluator`, or name it as
`module:attribute`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .dice import ALL_ROLLS, Dice
from .engine import enumerate_board
from .errors import PolicyError
from .kernels import board as kb
from .outcomes import DRAW, LOSE_BASE, WIN_BASE, Valuation, money_valuation
from .position import Position, mover_board, other_side
from .rules import Rules

_HALF_TURN = np.r_[12:24, 0:12]
ROLL_WEIGHTS = np.array([float(d.probability) for d in ALL_ROLLS])


@runtime_checkable
class Evaluator(Protocol):
    """Scores result boards: `boards` (n x 24 int8, mover-relative just after the mover's play),
    `white` (n bools: the mover is White) -> the mover's equity, shape (n,)."""

    name: str

    def equities(self, boards: np.ndarray, white: np.ndarray, rules: Rules) -> np.ndarray: ...


# ---------------------------------------------------------------- exact values


def _last_roll_value(board: np.ndarray, rules: Rules, valuation: Valuation) -> float:
    """White's value when it has just borne off its 15th checker and Black takes its last roll (R8)."""
    black_view = np.ascontiguousarray(-board[_HALF_TURN])
    values = valuation.for_side(True)
    total = 0.0
    for dice, w in zip(ALL_ROLLS, ROLL_WEIGHTS):
        replies = enumerate_board(black_view, 15, dice, rules)[0]
        if (np.maximum(replies, 0).sum(axis=1) == 0).any():
            if values[DRAW] != 0.0:
                total += w * values[DRAW]   # Black bears off everything: a draw (0 in money equity)
            continue
        total += w * min(values[WIN_BASE + kb.loser_class(r)] for r in replies)
    return total


SURE_FINISH_MAX = 4   # opponent checkers (all home) for which a sure finish next roll is checked


def _sure_finish_value(board: np.ndarray, nxt: np.ndarray, white: bool, rules: Rules,
                       valuation: Valuation) -> float | None:
    """The mover's value when the opponent bears off all its checkers with every roll, else None."""
    finals = []
    for dice in ALL_ROLLS:
        replies = enumerate_board(nxt, 15 - kb.on_board(board), dice, rules)[0]
        done = np.flatnonzero(np.maximum(replies, 0).sum(axis=1) == 0)
        if len(done) == 0:
            return None
        finals.append(replies[done[0]].copy())
    if not white and rules.last_roll and kb.all_home(board):
        return -_last_roll_value(finals[0], rules, valuation)   # White finishes; Black has its last roll
    return float(valuation.for_side(white)[LOSE_BASE + kb.loser_class(board)])


def exact_value(board: np.ndarray, white: bool, rules: Rules, valuation: Valuation | None = None) -> float | None:
    """The mover's exact value (money under `rules` when `valuation` is None) when the game is decided, when
    only Black's last roll is left (R8), or when the opponent (at most four checkers, all home) bears off
    everything with any roll; else None."""
    valuation = valuation if valuation is not None else money_valuation(rules)
    nxt = np.ascontiguousarray(-board[_HALF_TURN])
    status = kb.game_status(nxt, not white, rules.last_roll)
    if status == kb.IN_PLAY:
        if white and kb.on_board(board) == 0:
            return _last_roll_value(board, rules, valuation)
        if kb.on_board(nxt) <= SURE_FINISH_MAX and kb.all_home(nxt):
            return _sure_finish_value(board, nxt, white, rules, valuation)
        return None
    values = valuation.for_side(white)
    if status == kb.DRAWN:
        return float(values[DRAW])
    mover_won = (status == kb.WHITE_WON) == white
    loser = nxt if mover_won else board
    return float(values[(WIN_BASE if mover_won else LOSE_BASE) + kb.loser_class(loser)])


def evaluate(evaluator: Evaluator, boards: np.ndarray, white: np.ndarray, rules: Rules,
             valuation: Valuation | None = None) -> np.ndarray:
    """The evaluator's values of result boards: its money `equities`, or at a match score its `values`
    or its outcome probabilities valued by `valuation`."""
    if valuation is None or valuation.is_money:
        return evaluator.equities(boards, white, rules)
    if hasattr(evaluator, "values"):
        return evaluator.values(boards, white, rules, valuation)
    if hasattr(evaluator, "outcome_probabilities"):
        probs = evaluator.outcome_probabilities(boards, white, rules)
        return np.where(white, probs @ valuation.for_side(True), probs @ valuation.for_side(False))
    raise PolicyError(f"evaluator {evaluator.name!r} gives money equities only (no values(boards, white, rules, "
                      "valuation) or outcome_probabilities(boards, white, rules)), so it cannot judge "
                      f"a {valuation.label()}")


def result_values(evaluator: Evaluator, boards: np.ndarray, white: np.ndarray | bool, rules: Rules,
                  valuation: Valuation | None = None) -> np.ndarray:
    """The mover's value of each result board (money under `rules` when `valuation` is None): exact for
    decided games, the evaluator's otherwise."""
    n = len(boards)
    white = np.broadcast_to(np.asarray(white, dtype=bool), (n,))
    out = np.empty(n, dtype=np.float64)
    if n == 0:
        return out
    # decided: a side has no checker left, or the opponent may finish next roll (few checkers, all home)
    opp = -np.minimum(boards, 0)
    opp_on = opp.sum(axis=1)
    opp_home = opp[:, 6:12].sum(axis=1)   # the opponent's points 19-24 in the mover's numbering
    decided = ((np.maximum(boards, 0).sum(axis=1) == 0) | (opp_on == 0)
               | ((opp_on <= SURE_FINISH_MAX) & (opp_home == opp_on)))
    open_rows = ~decided
    for i in np.flatnonzero(decided):
        v = exact_value(boards[i], bool(white[i]), rules, valuation)
        if v is None:
            open_rows[i] = True
        else:
            out[i] = v
    if open_rows.any():
        out[open_rows] = evaluate(evaluator, np.ascontiguousarray(boards[open_rows]), white[open_rows], rules,
                                  valuation)
    return out


# ---------------------------------------------------------------- built-in evaluators


@dataclass(frozen=True)
class EstimateEvaluator:
    """The logistic static estimate over the heuristic's features (the model of `nardy eval`)."""

    name: str = "heuristic"

    def probabilities(self, boards: np.ndarray, rules: Rules | None = None) -> np.ndarray:
        """n x 7 chances in `estimate.CLASSES` order for the side that just moved (no draw without R8's
        last roll under `rules`)."""
        from .estimate import feature_vector, possible_classes
        from .scoring import logistic_coefficients
        coefficients = logistic_coefficients()
        x = np.empty((len(boards), coefficients.shape[1]))
        x[:, -1] = 1.0
        possible = np.empty((len(boards), coefficients.shape[0]))
        for i, b in enumerate(boards):
            x[i, :-1] = feature_vector(b)
            possible[i] = possible_classes(b)   # classes the rules rule out (R9) get 0, as in `nardy eval`
        if rules is not None and not rules.last_roll:
            possible[:, -1] = 0.0
        z = x @ coefficients.T
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z) * possible
        return e / e.sum(axis=1, keepdims=True)

    def equities(self, boards: np.ndarray, white: np.ndarray, rules: Rules) -> np.ndarray:
        """Money equity of its chances (mars here includes home-mars) by the rules' points."""
        return self.outcome_probabilities(boards, white, rules) @ money_valuation(rules).for_side(True)

    def outcome_probabilities(self, boards: np.ndarray, white: np.ndarray, rules: Rules) -> np.ndarray:
        """n x 9 chances in result-code order (its mars, which includes home-mars, counts as mars)."""
        from .kernels.value import MODEL_CODE
        p7 = self.probabilities(boards, rules)
        out = np.zeros((len(boards), 9))
        out[:, MODEL_CODE] = p7
        return out


@dataclass(frozen=True)
class LookaheadEvaluator:
    """`base` one ply deeper: the mean over the opponent's 21 rolls of minus its best reply's value."""

    base: Any
    name: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", f"lookahead:{self.base.name}")

    def equities(self, boards: np.ndarray, white: np.ndarray, rules: Rules) -> np.ndarray:
        """Expectimax over the opponent's replies, all replies scored in one call of the base."""
        return self.values(boards, white, rules, None)

    def values(self, boards: np.ndarray, white: np.ndarray, rules: Rules, valuation: Valuation | None
               ) -> np.ndarray:
        """`equities` by `valuation`'s values (money when None): the replies are valued by it too."""
        white = np.broadcast_to(np.asarray(white, dtype=bool), (len(boards),))
        replies, starts, reply_white = [], [], []
        count = 0
        for b, w in zip(boards, white):
            before = count
            opp = np.ascontiguousarray(-b[_HALF_TURN])
            opp_off = 15 - kb.on_board(b)
            for dice in ALL_ROLLS:
                got = enumerate_board(opp, opp_off, dice, rules)[0]
                starts.append(count)
                replies.append(got.copy())
                count += len(got)
            reply_white.append(np.full(count - before, not w))
        all_replies = np.concatenate(replies)
        values = result_values(self.base, all_replies, np.concatenate(reply_white), rules, valuation)
        best = np.maximum.reduceat(values, np.array(starts)).reshape(len(boards), len(ALL_ROLLS))
        return -(best @ ROLL_WEIGHTS)


@dataclass(frozen=True)
class NeuralEvaluator:
    """The trained network at 0-ply: equity from its nine class probabilities (`network.result_equities`)."""

    name: str = "neural"

    def equities(self, boards: np.ndarray, white: np.ndarray, rules: Rules) -> np.ndarray:
        """The mover's equity of each result board under the rules' points."""
        from .network import result_equities
        return result_equities(boards, np.broadcast_to(np.asarray(white, dtype=bool), (len(boards),)), rules)

    def outcome_probabilities(self, boards: np.ndarray, white: np.ndarray, rules: Rules) -> np.ndarray:
        """n x 9 class probabilities (result-code order) for the side that just played each board."""
        from .network import result_probabilities
        return result_probabilities(boards, np.broadcast_to(np.asarray(white, dtype=bool), (len(boards),)), rules)


HEURISTIC_ESTIMATE = EstimateEvaluator()
NEURAL_EVALUATOR = NeuralEvaluator()
_REGISTERED: dict[str, Any] = {"neural": NEURAL_EVALUATOR, "heuristic": HEURISTIC_ESTIMATE,
                               "estimate": HEURISTIC_ESTIMATE}


def register_evaluator(name: str, evaluator: Any) -> None:
    """Make `evaluator` (an `Evaluator`, or a function returning one) known as `name`."""
    _REGISTERED[name] = evaluator


def known_evaluators() -> list[str]:
    """Evaluator names `get_evaluator` accepts, besides `lookahead:NAME` and `module:attribute`."""
    return list(_REGISTERED)


def get_evaluator(name: str | Any) -> Any:
    """The evaluator called `name`: registered, `lookahead:NAME`, or `module:attribute`.

    Raises `PolicyError` listing the known names.
    """
    if not isinstance(name, str):
        return _checked(name, getattr(name, "name", type(name).__name__))
    if name in _REGISTERED:
        found = _REGISTERED[name]
        return _checked(found() if callable(found) and not isinstance(found, Evaluator) else found, name)
    if name.startswith("lookahead:"):
        return LookaheadEvaluator(get_evaluator(name.split(":", 1)[1]), name)
    if name.startswith("lookahead2:"):
        from .policies import get_policy
        from .search2 import two_ply_evaluator
        inner = name.split(":", 1)[1]
        return two_ply_evaluator(get_evaluator(inner), get_policy(inner), name)
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            obj = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise PolicyError(f"cannot import evaluator {name!r}: {exc}") from None
        return _checked(obj() if isinstance(obj, type) else obj, name)
    known = ", ".join([*_REGISTERED, "lookahead:NAME", "lookahead2:NAME", "module:attribute"])
    raise PolicyError(f"unknown evaluator {name!r}; known evaluators: {known}")


def _checked(obj: Any, name: str) -> Any:
    if not isinstance(obj, Evaluator):
        raise PolicyError(f"evaluator {name!r} has no equities(boards, white, rules) method")
    return obj


def base_evaluator(evaluator: Any) -> Any:
    """The 0-ply evaluator under any number of lookahead wrappers (2-ply ones too)."""
    from .search2 import TwoPlyEvaluator
    while isinstance(evaluator, (LookaheadEvaluator, TwoPlyEvaluator)):
        evaluator = evaluator.base
    return evaluator


# ---------------------------------------------------------------- boards of plays, and a player


def result_board(result: Position, mover: str) -> np.ndarray:
    """The board after `mover`'s play, seen by the mover (the evaluators' input)."""
    return mover_board(result.checkers(mover), result.checkers(other_side(mover)))


def roll_boards(position: Position, dice: Dice, rules: Rules) -> np.ndarray:
    """Result boards of every legal play of `dice` (a copy of the kernel's list, its order)."""
    board, _, opp_off = position.board()
    return enumerate_board(board, opp_off, dice, rules)[0].copy()


class EvaluatorPlayer:
    """A bot that plays the result its evaluator values most (0-ply): `choose(position, dice, plays, rng)`.

    `nardy play nardy_cli.evaluators:estimate_player racer` plays the heuristic estimate;
    its games reviewed with the same evaluator lose no equity.
    """

    def __init__(self, evaluator: Any, rules: Rules | None = None) -> None:
        self.evaluator = get_evaluator(evaluator)
        self.rules = rules
        self.name = f"player:{self.evaluator.name}"

    def choose(self, position: Position, dice: Dice, plays: list, rng) -> int:
        """Index of the play whose result the evaluator values most (the first on ties)."""
        from .rules import PRESETS
        rules = self.rules or PRESETS["federation"]
        mover = position.turn
        boards = np.stack([result_board(p.result, mover) for p in plays])
        return int(np.argmax(result_values(self.evaluator, boards, mover == "w", rules)))


estimate_player = EvaluatorPlayer(HEURISTIC_ESTIMATE)
"""The heuristic estimate as a player (0-ply), for `nardy play nardy_cli.evaluators:estimate_player B`."""
