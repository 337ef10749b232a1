"""Users' compiled evaluators inside the game kernel.

A user evaluator is a numba function `score(board) -> float` of the mover-relative
board right after the mover's play (higher is better for the mover).  The game
loop of `kernels/game.py` is compiled once more for each pair of evaluators: the
same Python code, with its `choose_play` global pointing at a chooser that calls
the user's function.  So there is one game loop in the source, the built-ins keep
their cached compilation, and a user's evaluator runs without leaving compiled
code (its specialisation is compiled on first use in each process, not cached).
"""

from __future__ import annotations

import types
from functools import lru_cache

from numba import njit

from . import game
from .evaluate import choose_play as builtin_choose

USER_A, USER_B = 100, 101   # policy kinds of the first and second user evaluator of a game

# Globals of `_user_choose`, bound to real functions in each specialisation by `kernels`.
EVAL_A = EVAL_B = BUILTIN_CHOOSE = None


def _user_choose(boards, n, kind, weights, lookahead, rstate, mover_white, head_rule, block_check, scratch_boards,
                 scratch_from, scratch_die, memo, memo_stamp, scratch):
    """`choose_play` with two more kinds: the best result by EVAL_A or EVAL_B (first of equals)."""
    if kind != USER_A and kind != USER_B:
        return BUILTIN_CHOOSE(boards, n, kind, weights, lookahead, rstate, mover_white, head_rule, block_check,
                              scratch_boards, scratch_from, scratch_die, memo, memo_stamp, scratch)
    best = 0
    best_score = -1e300
    for i in range(n):
        s = EVAL_A(boards[i]) if kind == USER_A else EVAL_B(boards[i])
        if s > best_score:
            best_score = s
            best = i
    return best


def _respecialise(dispatcher, **new_globals):
    """The dispatcher's Python function compiled again with some globals replaced (no cache)."""
    func = dispatcher.py_func
    glob = dict(func.__globals__)
    glob.update(new_globals)
    clone = types.FunctionType(func.__code__, glob, func.__name__, func.__defaults__, func.__closure__)
    clone.__doc__ = func.__doc__
    return njit(clone)


@lru_cache(maxsize=16)
def kernels(eval_a, eval_b):
    """(choose_play, play_games, play_duel, play_games_each) that know the two user evaluators."""
    choose = _respecialise(njit(_user_choose), EVAL_A=eval_a, EVAL_B=eval_b, BUILTIN_CHOOSE=builtin_choose)
    one_game = _respecialise(game.play_one_game, choose_play=choose)
    return (choose,
            _respecialise(game.play_games, play_one_game=one_game),
            _respecialise(game.play_duel, play_one_game=one_game),
            _respecialise(game.play_games_each, play_one_game=one_game))
