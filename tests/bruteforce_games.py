"""Random games driven by the brute-force enumerator and the independent end-of-game oracle."""

from __future__ import annotations

import random

from tests.bruteforce import brute_force_results
from tests.oracle import game_end, read


def play_random_game(rng: random.Random, start: str = "W:1x15 B:1x15 w") -> tuple[str | None, str]:
    """One uniformly random game (federation rules): (winner 'w'/'b' or None for a draw, class)."""
    board = read(start)
    while True:
        end = game_end(board, last_roll=True)
        if end is not None:
            return end
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        results = sorted(brute_force_results(board, (max(a, b), min(a, b)), "federation", "step"))
        board = read(rng.choice(results))
