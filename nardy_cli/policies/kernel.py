"""Run rollout and duel chunks: in the compiled game kernel, or on the Python driver for Python bots."""

from __future__ import annotations

import numpy as np

from ..kernels.game import play_duel, play_games, play_games_each


def user_kernels(spec):
    """The kernels for this game's policies and the kind codes of the two sides."""
    from ..kernels import user
    evaluators = [p.evaluator for p in (spec.white, spec.black) if getattr(p, "evaluator", None) is not None]
    if not evaluators:
        return None, (getattr(spec.white, "kind", -1), getattr(spec.black, "kind", -1))
    eval_a = evaluators[0]
    eval_b = evaluators[1] if len(evaluators) > 1 else evaluators[0]

    def kind(p):
        if getattr(p, "evaluator", None) is None:
            return getattr(p, "kind", -1)
        return user.USER_A if p.evaluator is eval_a else user.USER_B

    return user.kernels(eval_a, eval_b), (kind(spec.white), kind(spec.black))


def _arguments(spec, lo: int, hi: int, max_plies: int) -> tuple:
    board, _, _ = spec.position.board()
    dice = spec.position.dice
    kinds = np.array(user_kernels(spec)[1], dtype=np.int64)
    rows = [spec.white.weight_array(spec.rules), spec.black.weight_array(spec.rules)]
    weights = np.zeros((2, max(r.size for r in rows)))
    for side, row in enumerate(rows):
        weights[side, :row.size] = row
    looks = np.array([spec.white.lookahead, spec.black.lookahead], dtype=np.bool_)
    rules = spec.rules
    return (board, spec.position.turn == "w", dice.high if dice else 0, dice.low if dice else 0,
            lo, hi, np.uint64(spec.seed), spec.stratify, rules.head_code, rules.block_code, rules.last_roll,
            kinds, weights, looks, max_plies)


def _kernel(spec, index: int, builtin):
    """The built-in kernel, or its specialisation for the spec's user evaluators."""
    special = user_kernels(spec)[0]
    return builtin if special is None else special[index]


def play_games_compiled(spec, lo: int, hi: int, max_plies: int, tally) -> None:
    """Play games lo..hi-1 entirely in compiled code, adding into `tally`."""
    from ..scoring import Scoring, kernel_arguments
    scoring = getattr(spec, "scoring", None) or Scoring(exact_bearoff=False, vr=False, bearoff_policy=False)
    _kernel(spec, 1, play_games)(*_arguments(spec, lo, hi, max_plies), tally.counts, tally.deficit, tally.plies,
                                 *kernel_arguments(scoring, spec.rules), tally.frac, tally.scored)


def play_duel_compiled(spec, lo: int, hi: int, max_plies: int, tally) -> None:
    """Play duplicate pairs lo..hi-1 (spec.white is A, spec.black is B) in compiled code."""
    _kernel(spec, 2, play_duel)(*_arguments(spec, lo, hi, max_plies), tally.joint, tally.deficit, tally.plies)


def play_games_each_compiled(spec, lo: int, hi: int, max_plies: int, tally) -> None:
    """Play games lo..hi-1 in compiled code, keeping each game's result code."""
    _kernel(spec, 3, play_games_each)(*_arguments(spec, lo, hi, max_plies), tally.results, tally.deficit,
                                      tally.plies)


def play_chunk(what: str, spec, lo: int, hi: int, max_plies: int, tally) -> None:
    """Play games (`what`: "games", "duel" or "each") on the kernel when both sides are compiled,
    else on the Python driver, which plays the same dice and calls the Python bots."""
    from . import driver
    from .base import CompiledPolicy
    compiled = isinstance(spec.white, CompiledPolicy) and isinstance(spec.black, CompiledPolicy)
    runners = {"games": (play_games_compiled, driver.play_games_python),
               "duel": (play_duel_compiled, driver.play_duel_python),
               "each": (play_games_each_compiled, driver.play_games_each_python)}
    runners[what][0 if compiled else 1](spec, lo, hi, max_plies, tally)
