"""The Python game driver: rollouts where at least one side is a Python bot.

Same dice, stratification and bookkeeping as the compiled kernel (it calls the
same kernel functions); only the choice of a Python side's play goes through Python.
"""

from __future__ import annotations

import numpy as np

from ..dice import Dice
from ..engine import enumerate_board, plays_from_kernel
from ..errors import PolicyError
from ..kernels import board as kb
from ..kernels.evaluate import choose_play
from ..kernels.game import game_dice, record_turn, final_result
from ..kernels.movegen import Workspace
from ..kernels.rng import policy_state
from ..position import BLACK, WHITE, Position
from .base import CompiledPolicy


def play_games_python(spec, lo: int, hi: int, max_plies: int, tally) -> None:
    """Play games lo..hi-1 with a Python loop, adding into `tally`."""
    rules = spec.rules
    dice0 = spec.position.dice
    r1, r2 = (dice0.high, dice0.low) if dice0 else (0, 0)
    sides = {WHITE: spec.white, BLACK: spec.black}
    scratch = Workspace()
    for game in range(lo, hi):
        pos = spec.position.with_dice(None)
        rstate = np.array([policy_state(np.uint64(spec.seed), game)], dtype=np.uint64)
        rng = np.random.default_rng([spec.seed, game])
        turn = 0
        stratum = 0
        result = kb.UNFINISHED
        while True:
            board, _, _ = pos.board()
            status = kb.game_status(board, pos.turn == WHITE, rules.last_roll)
            if status != kb.IN_PLAY:
                result = final_result(board, pos.turn == WHITE, spec.position.turn == WHITE, status)
                break
            if turn >= max_plies:
                break
            d1, d2, s = game_dice(np.uint64(spec.seed), game, turn, spec.stratify, r1, r2)
            if turn == 0 or (r1 > 0 and turn == 1):
                stratum = s
            dice = Dice(int(d1), int(d2))
            board, _, opp_off = pos.board()
            boards, step_from, step_die, n, nsteps = enumerate_board(board, opp_off, dice, rules)
            record_turn(tally.deficit, 0 if pos.turn == WHITE else 1, d1, d2, nsteps, step_die[0, 0])
            plays = plays_from_kernel(pos, dice, boards, step_from, step_die, n, nsteps)
            policy = sides[pos.turn]
            if n == 1:
                chosen = plays[0]
            elif isinstance(policy, CompiledPolicy):
                idx = choose_play(boards.copy(), n, policy.kind, policy.weight_array(), policy.lookahead,
                                  rstate, rules.head_code, rules.block_code, *scratch.arrays())
                chosen = plays[idx]
            else:
                chosen = _ask(policy, pos.with_dice(dice), dice, plays, rng)
            pos = chosen.result
            turn += 1
        tally.counts[stratum, result] += 1
        tally.plies[0] += turn


def _ask(policy, position, dice, plays, rng):
    """A Python bot's choice, checked against the legal plays."""
    try:
        choice = policy.choose(position, dice, plays, rng)
    except Exception as exc:
        raise PolicyError(f"policy {policy.name!r} raised {type(exc).__name__}: {exc}") from None
    if isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(plays):
        return plays[choice]
    for p in plays:
        if choice is p or choice == p or (isinstance(choice, Position) and choice == p.result):
            return p
    raise PolicyError(f"policy {policy.name!r} returned {choice!r}, which is not one of the "
                      f"{len(plays)} legal plays of {dice} in {str(position.with_dice(None))!r}")
