"""Evaluators for game review: the equity of result boards for the side that just moved.

An evaluator's Python form (`policies.analysis`: the heuristic's logistic
estimate, the network; or a user's object) scores mover-relative boards right
after the mover's play (the opponent rolls next), in the kernels' convention, and
returns the mover's equity under the rules' points table.  At a match score (an
`outcomes.Valuation` of a match) it is asked for `values(boards, white, rules,
valuation)`, or for its nine `outcome_probabilities(boards, white, rules)`, which
the valuation turns into match equity; the built-in evaluators have both.
`result_values` scores finished games exactly (and Black's last roll, R8) and
asks the evaluator only about games in progress.

Names resolve in the one registry (`policies.registry`): `get_evaluator` gives
a `Judge`, an evaluator's Python form and, for `lookahead:NAME`, the policy whose
kernel search values a result one ply deeper (`lookahead_values`: the
opponent's reply to each roll as the kernel's lookahead picks it,
`kernels.evaluate.best_replies`, valued by the Python form).  Any object with
`name` and `equities(boards, white, rules)` plugs in: pass it directly, register
it with `register_evaluator`, or name it as `module:attribute`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..core.dice import ALL_ROLLS, Dice
from ..core.engine import enumerate_board
from ..core.errors import PolicyError
from ..core.outcomes import DRAW, LOSE_BASE, WIN_BASE, Valuation, money_valuation
from ..core.position import Position, mover_board, other_side
from ..core.rules import Rules
from ..kernels import board as kb
from . import Evaluator as EvaluatorValue
from .analysis import (HEURISTIC_ESTIMATE, NEURAL_EVALUATOR,  # noqa: F401
                       EstimateEvaluator, NeuralEvaluator)
from .base import CompiledPolicy, Policy, Turn
from .registry import register, resolve, wrap
from .two_ply import TwoPlyPolicy, two_ply_evaluator

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
    """White's value when it has just borne off its 15th checker and Black takes its last roll
    (R8)."""
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
        # White finishes; Black has its last roll
        return -_last_roll_value(finals[0], rules, valuation)
    return float(valuation.for_side(white)[LOSE_BASE + kb.loser_class(board)])


def exact_value(board: np.ndarray, white: bool, rules: Rules,
                valuation: Valuation | None = None) -> float | None:
    """The mover's exact value (money under `rules` when `valuation` is None) when the game is
    decided, when only Black's last roll is left (R8), or when the opponent (at most four checkers,
    all home) bears off everything with any roll; else None."""
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
    """The evaluator's values of result boards: its money `equities`, or at a match score its
    `values` or its outcome probabilities valued by `valuation`."""
    if valuation is None or valuation.is_money:
        return evaluator.equities(boards, white, rules)
    if hasattr(evaluator, "values"):
        return evaluator.values(boards, white, rules, valuation)
    if hasattr(evaluator, "outcome_probabilities"):
        probs = evaluator.outcome_probabilities(boards, white, rules)
        return np.where(white, probs @ valuation.for_side(True), probs @ valuation.for_side(False))
    raise PolicyError(f"evaluator {evaluator.name!r} gives money equities only (no values(boards, "
                      "white, rules, valuation) or outcome_probabilities(boards, white, rules)), "
                      "so it cannot judge "
                      f"a {valuation.label()}")


def result_values(evaluator: Evaluator, boards: np.ndarray, white: np.ndarray | bool, rules: Rules,
                  valuation: Valuation | None = None) -> np.ndarray:
    """The mover's value of each result board (money under `rules` when `valuation` is None): exact
    for decided games, the evaluator's otherwise."""
    n = len(boards)
    white = np.broadcast_to(np.asarray(white, dtype=bool), (n,))
    out = np.empty(n, dtype=np.float64)
    if n == 0:
        return out
    # decided: a side has no checker left, or the opponent may finish next roll (few checkers, all
    # home)
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
        out[open_rows] = evaluate(evaluator, np.ascontiguousarray(boards[open_rows]),
                                  white[open_rows], rules, valuation)
    return out


# ------------------------------------------------------- evaluators by name, and the lookahead


@dataclass(frozen=True)
class Judge:
    """What a review judges plays by: an evaluator's Python form (`evaluator`, 0 ply), for
    `lookahead:NAME` the compiled policy whose kernel search goes one ply deeper (`search`), and for
    `lookahead2:NAME` the 2-ply search (`two_ply`, a `search2.TwoPlyEvaluator`); both None at 0
    ply."""

    name: str
    evaluator: Any
    search: CompiledPolicy | None = None
    two_ply: Any = None

    @property
    def base_name(self) -> str:
        """The 0-ply evaluator's name (luck is measured at 0 ply)."""
        if self.search is not None:
            return self.search.evaluator.name
        return self.two_ply.policy.evaluator.name if self.two_ply is not None else self.name

    @property
    def searches(self) -> bool:
        """Whether it values results deeper than 0 ply."""
        return self.search is not None or self.two_ply is not None

    def candidates(self, boards: np.ndarray, v0: np.ndarray, white: bool, rules: Rules,
                   valuation: Valuation | None, width: int) -> list[int]:
        """The results searched deeper (at most `width`): the kernel lookahead's candidates for
        `lookahead:`, else the best by the 0-ply values `v0`."""
        if self.search is not None:
            scores = self.search.static_scores(boards, white, rules, valuation)
            return search_candidates(self.search, scores)[:width]
        return np.argsort(-v0, kind="stable")[:width].tolist()

    def deep_values(self, boards: np.ndarray, white: bool, rules: Rules,
                    valuation: Valuation | None = None) -> np.ndarray:
        """Each result's value for the mover at this judge's depth."""
        if self.search is not None:
            return lookahead_values(self.search, self.evaluator, boards, white, rules, valuation)
        return result_values(self.two_ply or self.evaluator, boards, white, rules, valuation)


def register_evaluator(name: str, evaluator: Any) -> None:
    """Make `evaluator` (an object with `equities`, or anything the registry takes) known."""
    register(name, evaluator)


def get_evaluator(evaluator: str | Any) -> Judge:
    """The `Judge` for a name (resolved by the one registry), a policy, or an object with
    `equities`.

    Raises `PolicyError` (an unknown name: `UnknownPolicyError`, listing the known names).
    """
    if isinstance(evaluator, Judge):
        return evaluator
    if isinstance(evaluator, str):
        found = resolve(evaluator)
    else:
        found = wrap(getattr(evaluator, "name", None) or type(evaluator).__name__, evaluator)
    if isinstance(found, TwoPlyPolicy):
        base = get_evaluator(found.base)
        return Judge(found.name, base.evaluator, None,
                     two_ply_evaluator(base.evaluator, found.base, found.name))
    ev = found if isinstance(found, EvaluatorValue) else getattr(found, "evaluator", None)
    if ev is None or ev.python is None:
        raise PolicyError(f"evaluator {found.name!r} has no equities(boards, white, rules) method: "
                          "it values no results (evaluators: heuristic, neural, lookahead:NAME, "
                          "lookahead2:NAME, module:attribute)")
    search = found if isinstance(found, Policy) and found.lookahead else None
    return Judge(found.name, ev.python, search)


def lookahead_values(search: CompiledPolicy, python: Any, boards: np.ndarray, white: bool,
                     rules: Rules, valuation: Valuation | None = None) -> np.ndarray:
    """Each result's value for the mover one ply deeper, by the kernel's lookahead: the mean over
    the opponent's 21 rolls of minus the value (by `python`, exact where decided) of the reply the
    policy's evaluator picks (`kernels.evaluate.best_replies`); a decided result keeps its exact
    value."""
    from ..kernels.board import flip, kernel_rules
    from ..kernels.evaluate import (NEURAL, NO_SCREEN, ROLL_WEIGHT, EvalArgs, best_replies,
        choice_scratch)
    from ..kernels.movegen import Workspace
    from ..kernels.neural import float32_layers
    params = search.kernel_params(rules)
    kind = search.kind
    values = (valuation if valuation is not None else money_valuation(rules)).kernel_values()
    net = float32_layers(kind == NEURAL, params)
    space, scratch = Workspace().arrays(), choice_scratch()
    judge, krules = EvalArgs(kind, params, values), kernel_rules(rules)
    flipped = np.empty(24, dtype=np.int8)
    replies = np.empty((len(ALL_ROLLS), 24), dtype=np.int8)
    out = np.empty(len(boards))
    for i, board in enumerate(boards):
        exact = exact_value(board, white, rules, valuation)
        if exact is not None:
            out[i] = exact
            continue
        flip(board, flipped)
        best_replies(flipped, not white, judge, krules, net, NO_SCREEN, scratch, space, replies)
        out[i] = -float(ROLL_WEIGHT @ result_values(python, replies, not white, rules, valuation))
    return out


def search_candidates(search: CompiledPolicy, scores: np.ndarray) -> list[int]:
    """The results (indices into `scores`, the kernel's 0-ply scores) the lookahead searches."""
    from ..kernels.evaluate import search_candidates as kernel_candidates
    scores = np.ascontiguousarray(scores, dtype=np.float64)
    return [int(i) for i in kernel_candidates(scores, len(scores), search.kind)]


# ---------------------------------------------------------------- boards of plays, and a player


def result_board(result: Position, mover: str) -> np.ndarray:
    """The board after `mover`'s play, seen by the mover (the evaluators' input)."""
    return mover_board(result.checkers(mover), result.checkers(other_side(mover)))


def roll_boards(position: Position, dice: Dice, rules: Rules) -> np.ndarray:
    """Result boards of every legal play of `dice` (a copy of the kernel's list, its order)."""
    board, _, opp_off = position.board()
    return enumerate_board(board, opp_off, dice, rules)[0].copy()


@dataclass(frozen=True)
class EvaluatorPlayer(Policy):
    """A policy that plays the result its evaluator values most (0-ply), in the Python turn loop,
    by the turn's own rules and valuation.

    `nardy play nardy_cli.policies.judges:estimate_player racer` plays the heuristic estimate;
    its games reviewed with the same evaluator lose no equity.
    """

    evaluator_: Any
    name: str = ""
    description: str = "plays the best result by an evaluator's values (0-ply)"
    source: str | None = None

    @property
    def evaluator(self) -> EvaluatorValue:
        """Its evaluator: the Python form it plays by (no kernel form)."""
        return EvaluatorValue(getattr(self.evaluator_, "name", self.name), self.description,
                              python=self.evaluator_)

    @classmethod
    def of(cls, evaluator: Any) -> "EvaluatorPlayer":
        """The player of an evaluator (a name or an object with `equities`)."""
        judge = get_evaluator(evaluator)
        return cls(judge.evaluator, f"player:{judge.name}")

    def pick(self, turn: Turn) -> int:
        """Index of the play whose result the evaluator values most (the first on ties)."""
        mover = turn.position.turn
        boards = np.stack([result_board(p.result, mover) for p in turn.plays])
        values = result_values(self.evaluator_, boards, mover == "w", turn.rules, turn.valuation)
        return int(np.argmax(values))


estimate_player = EvaluatorPlayer.of(HEURISTIC_ESTIMATE)
"""The heuristic estimate as a player (0-ply), for
`nardy play nardy_cli.policies.judges:estimate_player B`."""
