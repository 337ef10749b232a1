"""Positions from random games, for tests that compare the engine with the brute-force
enumerator."""

from __future__ import annotations

import numpy as np

from nardy_cli.core.dice import Dice
from nardy_cli.core.engine import legal_plays, outcome
from nardy_cli.core.position import START, Position
from nardy_cli.core.rules import Rules, make_rules


def _spread(play) -> int:
    """Points the mover occupies after the play: a crude taste for building blocks."""
    mine = play.result.black if play.result.turn == "w" else play.result.white
    return sum(1 for n in mine if n)


def random_game_positions(n: int, seed: int, rules: Rules | None = None, every: int = 1,
                          greedy: float = 0.0) -> list[tuple[Position, Dice]]:
    """`n` (position, roll) pairs met in random games from the start.

    With probability `greedy` a turn takes the play that occupies the most
    points, which builds the long blocks that uniform play rarely makes.
    """
    rules = rules or make_rules()
    rng = np.random.default_rng(seed)
    out: list[tuple[Position, Dice]] = []
    pos = START
    ply = 0
    while len(out) < n:
        a, b = rng.integers(1, 7, size=2)
        dice = Dice(int(max(a, b)), int(min(a, b)))
        if ply % every == 0:
            out.append((pos, dice))
        plays = legal_plays(pos, dice, rules)
        if rng.random() < greedy:
            pos = max(plays, key=_spread).result
        else:
            pos = plays[rng.integers(len(plays))].result
        ply += 1
        if outcome(pos, rules) is not None:
            pos = START
    return out
