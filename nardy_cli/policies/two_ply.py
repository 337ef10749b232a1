"""The 2-ply search (`lookahead2:NAME`): its filters, values, the policy and the evaluator.

A result is valued by the mean over the opponent's 21 rolls of minus its best
reply, each reply valued at 1-ply (the mean over our 21 rolls of our best 0-ply
play), pruned as GNU Backgammon's move filters prune (`kernels/ply2.py`,
docs/strength.md, "The 2-ply search").  `lookahead2:NAME` is a policy for
decisions one at a time (`nardy benchmark`) and an evaluator for `nardy review`
and `nardy eval`; it plays no whole games (`plays_games`: rollouts and duels
refuse it), as it costs about 50 ms of CPU a decision.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ..core.errors import PolicyError
from ..core.rules import Rules
from ..kernels import ply2
from ..kernels.board import kernel_rules
from ..kernels.evaluate import NEURAL, EvalArgs
from .base import CompiledPolicy, Policy, Turn

PREFIX = "lookahead2:"


@dataclass(frozen=True)
class SearchFilter:
    """How the 2-ply search prunes: at the root, the best `root0` results at 0-ply within
    `root0_margin` go on to 1-ply and the best `root1` of those within `root1_margin` to 2-ply;
    below each opponent roll, the best `reply` replies at 0-ply within `reply_margin` are valued
    at 1-ply (margins in equity for the network)."""

    root0: float = 8
    root0_margin: float = 0.16
    root1: float = 3
    root1_margin: float = 0.06
    reply: float = 3
    reply_margin: float = 0.10

    def array(self) -> np.ndarray:
        """The kernel's filter (`ply2.F_*` order)."""
        return np.array([self.root0, self.root0_margin, self.root1, self.root1_margin, self.reply,
                         self.reply_margin], dtype=np.float64)


DEFAULT_FILTER = SearchFilter()
FULL_WIDTH = SearchFilter(math.inf, math.inf, math.inf, math.inf, math.inf, math.inf)
"""No pruning: every result and every reply searched (for tests on small positions)."""


def _base_policy(base: Policy, name: str) -> CompiledPolicy:
    """The compiled built-in policy whose evaluator `name` searches; `PolicyError` otherwise."""
    if not isinstance(base, CompiledPolicy) or base.evaluator_name is None or base.lookahead:
        raise PolicyError(f"policy {name!r}: a 2-ply search needs a built-in evaluator such as "
                          "'neural' or 'heuristic'")
    return base


def search_values(base: CompiledPolicy, boards: np.ndarray, white: np.ndarray, rules: Rules,
                  values: np.ndarray, search: SearchFilter = DEFAULT_FILTER) -> np.ndarray:
    """The 2-ply value of each mover-relative result board for the side that just played it
    (White where `white`), under the kernel's `values` (`Valuation.kernel_values()`)."""
    boards = np.ascontiguousarray(boards, dtype=np.int8)
    # a copy: a broadcast view is read-only, and numba compiles another signature for that
    white = np.array(np.broadcast_to(np.asarray(white, dtype=np.bool_), (len(boards),)))
    out = np.empty(len(boards), dtype=np.float64)
    if len(boards):
        judge = EvalArgs(base.kind, base.kernel_params(rules), values)
        ply2.two_ply_values(boards, len(boards), white, judge, kernel_rules(rules), search.array(),
                            out)
    return out


@dataclass(frozen=True)
class SearchChoice:
    """A decision's pruned 2-ply search: the chosen result, and each result's deepest ply and its
    value there."""

    index: int
    depth: np.ndarray
    value: np.ndarray


def search_choice(base: CompiledPolicy, boards: np.ndarray, mover_white: bool, rules: Rules,
                  values: np.ndarray, search: SearchFilter = DEFAULT_FILTER) -> SearchChoice:
    """The pruned 2-ply search of one turn's results (every result at 0-ply, the root filters'
    survivors at 1-ply and 2-ply): the chosen index, and each result's depth and value."""
    n = len(boards)
    depth = np.zeros(n, dtype=np.int64)
    value = np.zeros(n, dtype=np.float64)
    judge = EvalArgs(base.kind, base.kernel_params(rules), values)
    pick = ply2.choose_two_ply(np.ascontiguousarray(boards, dtype=np.int8), n, mover_white, judge,
                               kernel_rules(rules), search.array(), depth, value)
    return SearchChoice(int(pick), depth, value)


@dataclass(frozen=True)
class TwoPlyPolicy(Policy):
    """`lookahead2:NAME`: each decision by the pruned 2-ply search with NAME's evaluator."""

    name: str
    base: CompiledPolicy
    description: str = ""
    search: SearchFilter = DEFAULT_FILTER
    source: str | None = None

    plays_games: ClassVar[bool] = False   # too slow for whole games: rollouts and duels refuse it

    @property
    def evaluator_name(self) -> str | None:
        """The built-in evaluator it searches with."""
        return self.base.evaluator_name

    def pick(self, turn: Turn) -> int:
        """The index of the result the pruned 2-ply search values most."""
        white = turn.position.turn == "w"
        return search_choice(self.base, turn.boards[:len(turn.plays)], white, turn.rules,
                             turn.valuation.kernel_values(), self.search).index


def two_ply_policy(base: Policy, name: str) -> TwoPlyPolicy:
    """`lookahead2:NAME` as a policy: `base`'s evaluator searched two plies deep."""
    return TwoPlyPolicy(name, _base_policy(base, name),
                        f"two-ply search with {base.name}'s evaluator")


@dataclass(frozen=True)
class TwoPlyEvaluator:
    """`lookahead2:NAME` as an evaluator (review, eval): the 2-ply value of result boards, the
    replies pruned; `base` is NAME's 0-ply evaluator (luck is measured with it)."""

    base: Any
    policy: CompiledPolicy
    name: str = ""
    search: SearchFilter = field(default=DEFAULT_FILTER)

    def equities(self, boards: np.ndarray, white: np.ndarray, rules: Rules) -> np.ndarray:
        """The mover's money equity of each result board at 2-ply."""
        return self.values(boards, white, rules, None)

    def values(self, boards: np.ndarray, white: np.ndarray, rules: Rules, valuation) -> np.ndarray:
        """The mover's value of each result board at 2-ply, by `valuation` (money when None)."""
        from ..core.outcomes import money_valuation
        values = (valuation if valuation is not None else money_valuation(rules)).kernel_values()
        return search_values(self.policy, boards, white, rules, values, self.search)


def two_ply_evaluator(base_evaluator: Any, base_policy: Policy, name: str) -> TwoPlyEvaluator:
    """`lookahead2:NAME` as an evaluator: NAME must be a network (its values are equities)."""
    policy = _base_policy(base_policy, name)
    if policy.kind != NEURAL:
        raise PolicyError(f"evaluator {name!r}: a 2-ply evaluator needs a network such as "
                          "'neural' (its values must be equities)")
    return TwoPlyEvaluator(base_evaluator, policy, name)
