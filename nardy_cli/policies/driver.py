"""The Python game driver: games where at least one side is a Python bot.

Same dice, stratification and bookkeeping as the compiled kernel (it calls the
same kernel functions); only the choice of a Python side's play goes through Python.
"""

from __future__ import annotations

import numpy as np

from ..dice import Dice
from ..engine import enumerate_board, plays_from_kernel
from ..errors import PolicyError
from ..kernels import board as kb
from ..kernels.evaluate import choice_scratch, choose_play
from ..kernels.game import final_result, game_dice, record_turn
from ..kernels.movegen import Workspace
from ..kernels.rng import policy_state
from ..position import BLACK, WHITE, Position
from .base import CompiledPolicy
from .kernel import user_kernels


def play_one_game_python(spec, white, black, game: int, max_plies: int, deficit: np.ndarray,
                         scratch: Workspace) -> tuple[int, int, int]:
    """Play game `game` from spec.position; return (result for the root side, plies, stratum)."""
    from ..rollout import GameSpec
    rules = spec.rules
    dice0 = spec.position.dice
    r1, r2 = (dice0.high, dice0.low) if dice0 else (0, 0)
    sides = {WHITE: white, BLACK: black}
    spec_for_sides = GameSpec(spec.position, rules, white, black, spec.seed, spec.stratify)
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
        d1, d2, s = game_dice(seed, game, turn, spec.stratify, r1, r2)
        if turn == 0 or (r1 > 0 and turn == 1):
            stratum = int(s)
        dice = Dice(int(d1), int(d2))
        boards, step_from, step_die, n, nsteps = enumerate_board(board, opp_off, dice, rules)
        record_turn(deficit, 0 if pos.turn == WHITE else 1, d1, d2, nsteps, step_die[0, 0])
        plays = plays_from_kernel(pos, dice, boards, step_from, step_die, n, nsteps)
        policy = sides[pos.turn]
        if n == 1:
            chosen = plays[0]
        elif isinstance(policy, CompiledPolicy):
            special, kinds = user_kernels(spec_for_sides)
            choose = choose_play if special is None else special[0]
            idx = choose(boards.copy(), n, kinds[0 if pos.turn == WHITE else 1], policy.weight_array(rules),
                         policy.lookahead, rstate, pos.turn == WHITE, rules.head_code, rules.block_code,
                         *scratch.arrays(), choice_scratch())
            chosen = plays[idx]
        else:
            chosen = _ask(policy, pos.with_dice(dice), dice, plays, rng)
        pos = chosen.result
        turn += 1


def play_games_python(spec, lo: int, hi: int, max_plies: int, tally) -> None:
    """Play games lo..hi-1 with the Python driver, adding into `tally`."""
    scratch = Workspace()
    for game in range(lo, hi):
        result, turns, stratum = play_one_game_python(spec, spec.white, spec.black, game, max_plies,
                                                      tally.deficit, scratch)
        tally.counts[stratum, result] += 1
        tally.plies[0] += turns


def play_duel_python(spec, lo: int, hi: int, max_plies: int, tally) -> None:
    """Duplicate pairs lo..hi-1 with the Python driver: A (spec.white) on the root side, then B."""
    scratch = Workspace()
    a, b = spec.white, spec.black
    root_white = spec.position.turn == WHITE
    first = (a, b) if root_white else (b, a)
    second = (b, a) if root_white else (a, b)
    for game in range(lo, hi):
        r1, t1, _ = play_one_game_python(spec, *first, game, max_plies, tally.deficit, scratch)
        r2, t2, _ = play_one_game_python(spec, *second, game, max_plies, tally.deficit, scratch)
        tally.joint[r1, r2] += 1
        tally.plies[0] += t1 + t2


def _ask(policy, position: Position, dice: Dice, plays, rng):
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


def play_games_each_python(spec, lo: int, hi: int, max_plies: int, tally) -> None:
    """Play games lo..hi-1 with the Python driver, keeping each game's result code."""
    scratch = Workspace()
    for game in range(lo, hi):
        result, turns, _ = play_one_game_python(spec, spec.white, spec.black, game, max_plies,
                                                tally.deficit, scratch)
        tally.results[game - lo] = result
        tally.plies[0] += turns
