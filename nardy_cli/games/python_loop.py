"""The Python turn loop: the compiled loop's games, step for step, for games with a Python bot.

Same dice (`game_dice`), stratification, end-of-game test, result code and
deficit bookkeeping as `kernels/game.py` (it calls those very functions); each
decision is put to the side's policy as a `Turn` (`policy.pick`), so a compiled
policy chooses here exactly as in the kernel, with the same random stream.
Used only when a side is a Python policy; a test checks both loops play the
same games.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..core.dice import Dice
from ..core.engine import enumerate_board, plays_from_kernel
from ..core.errors import PolicyError
from ..core.position import WHITE
from ..kernels import board as kb
from ..kernels.game import final_result, game_dice, record_turn
from ..kernels.rng import policy_state
from ..policies.base import Turn
from .tally import OUTCOMES, PAIRS, RESULTS, VALUES, Tally


def play_game(spec, white, black, game: int, max_plies: int, deficit: np.ndarray,
              on_play: Callable | None = None,
              before_roll: Callable | None = None) -> tuple[int, int, int]:
    """Play game `game` from spec.position with these policies; return (result for the root side,
    plies, stratum).

    `on_play(dice, play)`, when given, sees every play made (passes included);
    `before_roll(position, board)` is asked before each random roll and ends the game, won by the
    side on roll (an oin among the result codes), when it returns True (a passed double).
    """
    rules = spec.rules
    dice0 = spec.position.dice
    r1, r2 = (dice0.high, dice0.low) if dice0 else (0, 0)
    sides = {WHITE: white, "b": black}
    seed = np.uint64(spec.seed)
    root_white = spec.position.turn == WHITE
    pos = spec.position.with_dice(None)
    rstate = np.array([policy_state(seed, game)], dtype=np.uint64)
    rng = np.random.default_rng([spec.seed, game])
    turn = 0
    stratum = 0
    while True:
        board, _, opp_off = pos.board()
        status = kb.game_status(board, pos.turn == WHITE, rules.last_roll)
        if status != kb.IN_PLAY:
            return int(final_result(board, pos.turn == WHITE, root_white, status)), turn, stratum
        if turn >= max_plies:
            return kb.UNFINISHED, turn, stratum
        if before_roll is not None and not (r1 > 0 and turn == 0) and before_roll(pos, board):
            return ((kb.WIN_BASE if (pos.turn == WHITE) == root_white else kb.LOSE_BASE), turn,
                    stratum)
        d1, d2, s = game_dice(seed, game, turn, spec.stratify, r1, r2)
        if turn == 0 or (r1 > 0 and turn == 1):
            stratum = int(s)
        dice = Dice(int(d1), int(d2))
        boards, step_from, step_die, n, nsteps = enumerate_board(board, opp_off, dice, rules)
        record_turn(deficit, 0 if pos.turn == WHITE else 1, d1, d2, nsteps, step_die[0, 0], boards,
                    n)
        plays = plays_from_kernel(pos, dice, boards, step_from, step_die, n, nsteps)
        if n == 1:
            chosen = plays[0]
        else:
            ask = Turn(pos.with_dice(dice), plays, boards, rules, spec.values, rstate, rng)
            chosen = plays[sides[pos.turn].pick(ask)]
        if on_play is not None:
            on_play(dice, chosen)
        pos = chosen.result
        turn += 1


def play_python(spec, lo: int, hi: int, max_plies: int, tally: Tally) -> None:
    """Play games lo..hi-1 of `spec` in the Python loop, adding into `tally` (by its mode)."""
    if tally.mode == VALUES:
        raise PolicyError("per-game values (staged rankings) need compiled policies on both sides")
    if tally.mode == PAIRS:  # A (spec.white) on the root side, then B, on the same dice
        a, b = spec.white, spec.black
        first, second = ((a, b), (b, a)) if spec.position.turn == WHITE else ((b, a), (a, b))
        for game in range(lo, hi):
            r1, t1, _ = play_game(spec, *first, game, max_plies, tally.deficit)
            r2, t2, _ = play_game(spec, *second, game, max_plies, tally.deficit)
            tally.counts[r1, r2] += 1
            tally.plies[0] += t1 + t2
        return
    results = np.zeros(hi - lo, dtype=np.int8)
    for game in range(lo, hi):
        result, turns, stratum = play_game(spec, spec.white, spec.black, game, max_plies,
                                           tally.deficit)
        tally.plies[0] += turns
        if tally.mode == OUTCOMES:
            tally.counts[stratum, result] += 1
        results[game - lo] = result
    if tally.mode == RESULTS:
        tally.results[lo] = results
