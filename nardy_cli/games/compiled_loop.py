"""The compiled turn loop (`kernels/game.py`; the chunk loops of `kernels/runs.py`) driven from
Python: one chunk of games in one call.

The kernel takes named structures, not long argument lists: the chunk's start
(`game.GameSetup`), the policies (`game.SidePolicies`: a kind code, a parameter
row, zero-padded to a common length so a long network vector and a short weight
vector sit side by side, and a lookahead flag per side), the sides' evaluators
(`kernels.user.Evaluators`: a user's numba evaluator is a first-class function
argument of the one cached game loop, `kernels/user.py`) and, for scored games,
`game.ScoringArgs`.
"""

from __future__ import annotations

import numpy as np

from ..core.interrupts import held_interrupts
from ..kernels import game, runs
from ..kernels.board import N_RESULTS, kernel_rules
from ..kernels.evaluate import N_WEIGHTS, NEURAL, RANDOM
from ..kernels.neural import H_SINGLE
from ..kernels.pickers import (DoubleNeuralPick, NeuralPick, RandomPick, ScorePick, SearchPick,
                               UserPick)
from ..kernels.user import USER, Evaluators
from .compile_ahead import start_helper, stop_helper
from .tally import OUTCOMES, PAIRS, RESULTS, VALUES, Tally


def kernel_policies(white, black, rules, valuation) -> tuple[game.SidePolicies, Evaluators]:
    """The two compiled policies as kernel settings (choosing by `valuation`'s values), and their
    evaluators."""
    rows = [white.kernel_params(rules), black.kernel_params(rules)]
    params = np.zeros((2, max(N_WEIGHTS, *(r.size for r in rows))), dtype=np.float64)
    for side, row in enumerate(rows):
        params[side, :row.size] = row
    order = picker_order(type(kernel_picker(white, rows[0])), type(kernel_picker(black, rows[1])))
    return (game.SidePolicies(np.array([white.kernel_kind, black.kernel_kind], dtype=np.int64),
                              params,
                              np.array([white.lookahead, black.lookahead], dtype=np.bool_),
                              valuation.kernel_values(), np.array(order, dtype=np.int64)),
            Evaluators(white.kernel_evaluator(), black.kernel_evaluator()))


def picker_order(white: type, black: type) -> tuple[int, int]:
    """Which of a loop's two pickers plays White and which Black (`SidePolicies.picker_of`): the
    pickers go in the order of their classes' names, whichever colour each plays, so A against
    B and B against A (a duel's two games, a match's) compile one loop, not two."""
    return (0, 1) if white.__name__ <= black.__name__ else (1, 0)


def kernel_picker(policy, params: np.ndarray, db=None):
    """How the game loop picks `policy`'s plays (`kernels.pickers`; `params` its kernel parameters):
    its class decides what the loop compiles; `db`, the bear-off databases' arrays when built-in
    policies bear off by them."""
    kind = policy.kernel_kind
    if kind == USER:
        return UserPick()
    if kind == RANDOM:
        return RandomPick()
    if policy.lookahead:
        return SearchPick(db)
    if kind != NEURAL:
        return ScorePick(db)
    return NeuralPick(db) if params[H_SINGLE] != 0.0 else DoubleNeuralPick(db)


def kernel_pickers(white, black, sides: game.SidePolicies, db=None) -> tuple:
    """The loop's two pickers (`kernel_picker`) of `kernel_policies`' `sides`, in the order of
    `sides.picker_of`."""
    pickers = [None, None]
    for side, policy in enumerate((white, black)):
        pickers[sides.picker_of[side]] = kernel_picker(policy, sides.params[side], db)
    return tuple(pickers)


def call_kernel(loop, *args) -> None:
    """Call a compiled game loop with Ctrl-C (and SIGTERM, SIGHUP) held back until it returns.

    Numba unboxes the `Evaluators` argument (first-class functions) by unpickling
    their signature in Python code; a KeyboardInterrupt raised there turned into a
    TypeError.  So while the loop runs the signal is only noted, and raised again
    as soon as the loop returns (`interrupts.held_interrupts`; the compiled loop
    never looks at signals, so nothing is lost; a first compilation in a fresh
    install also finishes first).  A loop about to compile a network's turn pass has a
    second process compile that part alongside (`compile_ahead`).
    """
    helper = start_helper(loop, args)
    try:
        with held_interrupts():
            loop(*args)
    finally:
        stop_helper(helper)


def game_setup(spec, max_plies: int) -> game.GameSetup:
    """The kernel's `GameSetup` of a game specification."""
    board, _, _ = spec.position.board()
    dice = spec.position.dice
    rules = spec.rules
    return game.GameSetup(board, spec.position.turn == "w", dice.high if dice else 0,
                          dice.low if dice else 0, np.uint64(spec.seed), bool(spec.stratify),
                          kernel_rules(rules), int(max_plies))


def play_compiled(spec, lo: int, hi: int, max_plies: int, tally: Tally) -> None:
    """Play games lo..hi-1 of `spec` in compiled code, adding into `tally` (by its mode): one
    entry (`runs.play_chunk`) for every mode, so a loop's types compile once whatever it adds into.
    Duels and plain results play without scoring options (RESULTS: each game's row is one-hot at
    its result)."""
    from .scoring import Scoring, bearoff_db, kernel_arguments
    setup = game_setup(spec, max_plies)
    sides, evaluators = kernel_policies(spec.white, spec.black, spec.rules, spec.values)
    scoring = (spec.scoring if tally.mode in (OUTCOMES, VALUES)
               else Scoring(exact_bearoff=False, truncate=None, vr=False, bearoff_policy=False))
    args = kernel_arguments(scoring, spec.rules, spec.values, spec.position.turn == "w")
    pickers = kernel_pickers(spec.white, spec.black, sides, bearoff_db(scoring, spec.rules))
    rows = hi - lo if tally.mode in (RESULTS, VALUES) else 0
    plain, adjusted = np.zeros((rows, N_RESULTS)), np.zeros((rows, N_RESULTS))
    into = {OUTCOMES: runs.INTO_COUNTS, PAIRS: runs.INTO_PAIRS}.get(tally.mode, runs.INTO_ROWS)
    call_kernel(runs.play_chunk, setup, lo, hi, sides, evaluators, pickers, args, into,
                tally.counts, tally.deficit, tally.plies, tally.frac, tally.scored, plain, adjusted)
    if tally.mode == RESULTS:
        tally.results[lo] = plain.argmax(axis=1).astype(np.int8)
    elif tally.mode == VALUES:
        tally.values[lo] = plain, adjusted
