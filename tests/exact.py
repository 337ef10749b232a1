"""Exact outcome distributions of small bear-offs under the random policy, by full expectation."""

from __future__ import annotations

from functools import lru_cache

from nardy_cli import ALL_ROLLS, legal_plays, outcome
from nardy_cli.position import Position
from nardy_cli.rules import Rules

KEYS = ("win", "lose", "draw")


def exact_random_outcome(position: Position, rules: Rules) -> dict[str, float]:
    """P(win), P(lose), P(draw) for the side to move when both sides pick uniformly among distinct results."""
    root = position.turn

    @lru_cache(maxsize=None)
    def value(pos: Position) -> tuple[float, float, float]:
        done = outcome(pos, rules)
        if done is not None:
            if done.winner is None:
                return (0.0, 0.0, 1.0)
            return (1.0, 0.0, 0.0) if done.winner == root else (0.0, 1.0, 0.0)
        acc = [0.0, 0.0, 0.0]
        for dice in ALL_ROLLS:
            plays = legal_plays(pos, dice, rules)
            share = float(dice.probability) / len(plays)
            for play in plays:
                v = value(play.result)
                for i in range(3):
                    acc[i] += share * v[i]
        return tuple(acc)

    return dict(zip(KEYS, value(position.with_dice(None))))
