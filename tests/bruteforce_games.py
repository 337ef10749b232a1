"""Random games driven by the brute-force enumerator, with end-of-game rules written out plainly."""

from __future__ import annotations

import random

from bruteforce import brute_force_results
from nardy_cli.notation import parse_position


def play_random_game(rng: random.Random) -> tuple[str, str]:
    """One uniformly random game from the start (federation rules): (winner 'w'/'b'/'draw', class)."""
    pos = parse_position("start")
    while True:
        w_left, b_left = sum(pos.white), sum(pos.black)
        if w_left == 0 and b_left == 0:
            return "draw", "draw"
        if b_left == 0:
            return "b", _class(pos.white)
        if w_left == 0:
            black_home = all(n == 0 for n in pos.black[:18])
            if not (pos.turn == "b" and black_home):
                return "w", _class(pos.black)
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        results = sorted(brute_force_results(pos, (a, b), "federation", "step"))
        pos = parse_position(rng.choice(results), check_blocks=False)


def _class(loser: tuple[int, ...]) -> str:
    if sum(loser) < 15:
        return "oin"
    if all(n == 0 for n in loser[:18]):
        return "home-mars"
    if any(loser[:12]):
        return "koks"
    return "mars"
