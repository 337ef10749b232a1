"""The compiled turn loop (`kernels/game.py`) driven from Python: one chunk of games in one call.

The policies reach the kernel as one named structure (`KernelPolicies`): a kind
code, a parameter row (zero-padded to a common length, so a long network vector
and a short weight vector sit side by side) and a lookahead flag per side.  Users'
numba evaluators run in the game loop re-specialised for them (`kernels/user.py`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..kernels import game
from ..kernels.evaluate import N_WEIGHTS
from .tally import OUTCOMES, PAIRS, RESULTS, Tally


class KernelPolicies(NamedTuple):
    """Per-side policy settings in the kernel's argument order (index 0 White, 1 Black)."""

    kinds: np.ndarray       # int64[2]: evaluator kind codes (USER_A/USER_B for users' evaluators)
    params: np.ndarray      # float64[2, L], L >= N_WEIGHTS: each side's parameters, zero-padded
    lookahead: np.ndarray   # bool[2]


class GameLoops(NamedTuple):
    """The compiled chunk runners, one per tally mode."""

    outcomes: object
    pairs: object
    results: object


BUILTIN_LOOPS = GameLoops(game.play_games, game.play_duel, game.play_games_each)


def kernel_policies(white, black, rules) -> tuple[KernelPolicies, GameLoops]:
    """The two compiled policies as kernel settings, and the game loops that can run them."""
    evaluators = [p.evaluator for p in (white, black) if p.evaluator is not None]
    loops = BUILTIN_LOOPS
    kinds = [white.kind, black.kind]
    if evaluators:
        from ..kernels import user
        eval_a, eval_b = evaluators[0], evaluators[-1]
        loops = GameLoops(*user.kernels(eval_a, eval_b)[1:])
        kinds = [p.kind if p.evaluator is None else (user.USER_A if p.evaluator is eval_a else user.USER_B)
                 for p in (white, black)]
    rows = [white.kernel_params(rules), black.kernel_params(rules)]
    params = np.zeros((2, max(N_WEIGHTS, *(r.size for r in rows))), dtype=np.float64)
    for side, row in enumerate(rows):
        params[side, :row.size] = row
    return KernelPolicies(np.array(kinds, dtype=np.int64), params,
                          np.array([white.lookahead, black.lookahead], dtype=np.bool_)), loops


def play_compiled(spec, lo: int, hi: int, max_plies: int, tally: Tally) -> None:
    """Play games lo..hi-1 of `spec` in compiled code, adding into `tally` (by its mode)."""
    board, _, _ = spec.position.board()
    dice = spec.position.dice
    rules = spec.rules
    root = (board, spec.position.turn == "w", dice.high if dice else 0, dice.low if dice else 0, lo, hi,
            np.uint64(spec.seed), spec.stratify, rules.head_code, rules.block_code, rules.last_roll)
    sides, loops = kernel_policies(spec.white, spec.black, rules)
    if tally.mode == OUTCOMES:
        from ..scoring import kernel_arguments
        loops.outcomes(*root, *sides, max_plies, tally.counts, tally.deficit, tally.plies,
                       *kernel_arguments(spec.scoring, rules), tally.frac, tally.scored)
    elif tally.mode == PAIRS:
        loops.pairs(*root, *sides, max_plies, tally.counts, tally.deficit, tally.plies)
    elif tally.mode == RESULTS:
        results = np.zeros(hi - lo, dtype=np.int8)
        loops.results(*root, *sides, max_plies, results, tally.deficit, tally.plies)
        tally.results[lo] = results
