"""One decision made by a bot outside a game loop: the play a policy picks for a position and
roll, as the game loops ask it (`Turn`), for a board page's opponent."""

from __future__ import annotations

import numpy as np

from ..core.dice import Dice, as_dice
from ..core.engine import Play, enumerate_board, plays_from_kernel, require_in_play
from ..core.outcomes import Valuation, money_valuation
from ..core.position import Position
from ..core.rules import PRESETS, Rules
from ..kernels.rng import policy_state
from .base import Policy, Turn
from .registry import get_policy


def bot_play(policy: str | Policy, position: Position, dice: Dice | str | None = None,
             rules: Rules = PRESETS["federation"], valuation: Valuation | None = None,
             seed: int = 0, index: int = 0) -> Play:
    """The play `policy` (a name or object) makes with `dice` (else the position's dice) under
    `rules`, choosing by `valuation` (money when None); a randomised policy draws from the stream of
    (`seed`, `index`)."""
    chooser = get_policy(policy) if isinstance(policy, str) else policy
    dice = as_dice(dice) if dice is not None else position.dice
    require_in_play(position, rules)
    before = position.with_dice(None)
    board, _, opp_off = before.board()
    boards, step_from, step_die, n, nsteps = enumerate_board(board, opp_off, dice, rules)
    plays = plays_from_kernel(before, dice, boards, step_from, step_die, n, nsteps)
    if n == 1:
        return plays[0]
    rstate = np.array([policy_state(np.uint64(seed), index)], dtype=np.uint64)
    turn = Turn(before.with_dice(dice), plays, boards.copy(), rules,
                valuation if valuation is not None else money_valuation(rules), rstate,
                np.random.default_rng([seed, index]))
    return plays[chooser.pick(turn)]
