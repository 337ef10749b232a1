"""An independent end-of-game oracle (RULES.md R7–R9, §6) and exact outcome distributions.

Nothing here calls the engine: plays come from the brute-force enumerator
(`tests/bruteforce.py`), positions are read with a five-line parser, and the
end-of-game rules are written out from RULES.md §6 as plainly as possible.
`exact_distribution` gives the probability of every result class for the side
to move when both sides choose uniformly among the distinct results of each
roll — what the `random` policy does — by full expectation over the dice.
Positions must not be able to repeat (two passes in a row): the oracle says so.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from tests.bruteforce import brute_force_results

CLASSES = ("oin", "home_mars", "mars", "koks")
KEYS = tuple(f"win_{c}" for c in CLASSES) + tuple(f"lose_{c}" for c in CLASSES) + ("draw",)


class Board(NamedTuple):
    """Both sides' 24 counts, each in its own numbering (index 0 = point 1), and the side to
    move."""

    white: tuple[int, ...]
    black: tuple[int, ...]
    turn: str


def read(text: str) -> Board:
    """`W:1x14,12 B:1x15 b` -> Board (no validation: the oracle trusts its inputs)."""
    w, b, turn = text.split()[:3]
    return Board(_counts(w[2:]), _counts(b[2:]), turn)


def _counts(items: str) -> tuple[int, ...]:
    out = [0] * 24
    for item in ([] if items == "-" else items.split(",")):
        point, _, n = item.partition("x")
        out[int(point) - 1] += int(n or 1)
    return tuple(out)


def loser_class(checkers: tuple[int, ...]) -> str:
    """R9, judged on the loser's checkers (its own numbering)."""
    if sum(checkers) < 15:
        return "oin"           # at least one borne off
    if sum(checkers[18:]) == 15:
        return "home_mars"     # none off, all 15 on points 19-24
    if sum(checkers[:12]) > 0:
        return "koks"          # none off, at least one on points 1-12
    return "mars"


def game_end(board: Board, last_roll: bool) -> tuple[str | None, str] | None:
    """None while the game goes on, else (winner 'w'/'b' or None for a draw, class).

    R8: when White has borne off its 15th checker and every Black checker left is
    in Black's home, Black plays one more turn (the position then has Black to
    move); after it, White has won unless Black is off too (a draw).
    """
    white_left, black_left = sum(board.white), sum(board.black)
    if white_left == 0 and black_left == 0:
        return None, "draw"
    if black_left == 0:
        return "b", loser_class(board.white)
    if white_left == 0:
        black_all_home = sum(board.black[:18]) == 0
        if last_roll and board.turn == "b" and black_all_home:
            return None       # Black's last roll is still to come
        return "w", loser_class(board.black)
    return None


ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]   # 21 rolls, high die first


def exact_distribution(text: str, head_rule: str = "federation", block_check: str = "step",
                       last_roll: bool = True) -> dict[str, float]:
    """P(every result class) for the side to move in `text`, both sides playing uniformly at
    random."""
    root = read(text).turn
    open_boards: set[Board] = set()

    @lru_cache(maxsize=None)
    def value(board: Board) -> tuple[float, ...]:
        if board in open_boards:   # both sides passed back to a position: no finite recursion
            raise ValueError(f"the game can return to {board}; pick a position without cycles")
        end = game_end(board, last_roll)
        if end is not None:
            winner, cls = end
            out = [0.0] * len(KEYS)
            key = "draw" if winner is None else ("win_" if winner == root else "lose_") + cls
            out[KEYS.index(key)] = 1.0
            return tuple(out)
        acc = [0.0] * len(KEYS)
        open_boards.add(board)
        for high, low in ROLLS:
            weight = (1 if high == low else 2) / 36
            results = sorted(brute_force_results(board, (high, low), head_rule, block_check))
            for result in results:
                for i, v in enumerate(value(read(result))):
                    acc[i] += weight * v / len(results)
        open_boards.discard(board)
        return tuple(acc)

    dist = dict(zip(KEYS, value(read(text))))
    dist["win"] = sum(dist[f"win_{c}"] for c in CLASSES)
    dist["lose"] = sum(dist[f"lose_{c}"] for c in CLASSES)
    return dist
