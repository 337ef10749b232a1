"""The compiled turn loop (`kernels/game.py`) driven from Python: one chunk of games in one call.

The policies reach the kernel as one named structure (`KernelPolicies`): a kind
code, a parameter row (zero-padded to a common length, so a long network vector
and a short weight vector sit side by side) and a lookahead flag per side, and
the sides' evaluators (`kernels.user.Evaluators`): a user's numba evaluator is a
first-class function argument of the one cached game loop (`kernels/user.py`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..kernels import game
from ..kernels.evaluate import N_WEIGHTS
from ..kernels.user import Evaluators
from .tally import OUTCOMES, PAIRS, RESULTS, Tally


class KernelPolicies(NamedTuple):
    """Per-side policy settings in the kernel's argument order (index 0 White, 1 Black)."""

    kinds: np.ndarray       # int64[2]: evaluator kind codes (kernels.user.USER for a user's evaluator)
    params: np.ndarray      # float64[2, L], L >= N_WEIGHTS: each side's parameters, zero-padded
    lookahead: np.ndarray   # bool[2]


def kernel_policies(white, black, rules) -> tuple[KernelPolicies, Evaluators]:
    """The two compiled policies as kernel settings, and their evaluators."""
    rows = [white.kernel_params(rules), black.kernel_params(rules)]
    params = np.zeros((2, max(N_WEIGHTS, *(r.size for r in rows))), dtype=np.float64)
    for side, row in enumerate(rows):
        params[side, :row.size] = row
    return (KernelPolicies(np.array([white.kernel_kind, black.kernel_kind], dtype=np.int64), params,
                           np.array([white.lookahead, black.lookahead], dtype=np.bool_)),
            Evaluators(white.kernel_evaluator(), black.kernel_evaluator()))


def play_compiled(spec, lo: int, hi: int, max_plies: int, tally: Tally) -> None:
    """Play games lo..hi-1 of `spec` in compiled code, adding into `tally` (by its mode)."""
    board, _, _ = spec.position.board()
    dice = spec.position.dice
    rules = spec.rules
    root = (board, spec.position.turn == "w", dice.high if dice else 0, dice.low if dice else 0, lo, hi,
            np.uint64(spec.seed), spec.stratify, rules.head_code, rules.block_code, rules.last_roll)
    sides, evaluators = kernel_policies(spec.white, spec.black, rules)
    if tally.mode == OUTCOMES:
        from ..scoring import kernel_arguments
        game.play_games(*root, *sides, max_plies, tally.counts, tally.deficit, tally.plies,
                        *kernel_arguments(spec.scoring, rules), tally.frac, tally.scored, evaluators)
    elif tally.mode == PAIRS:
        game.play_duel(*root, *sides, max_plies, tally.counts, tally.deficit, tally.plies, evaluators)
    elif tally.mode == RESULTS:
        results = np.zeros(hi - lo, dtype=np.int8)
        game.play_games_each(*root, *sides, max_plies, results, tally.deficit, tally.plies, evaluators)
        tally.results[lo] = results
