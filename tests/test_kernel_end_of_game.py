"""The kernels' one end of game (R8) and outcome class (R9) against the oracle and the engine.

`board.end_status` decides the end of a game and `board.loser_class` its class for
every kernel: before a roll (`game_status`), right after a play (`status_after`,
which the network's exact scores and the lookahead use), as a result code
(`final_result`, `neural.exact_probs`, `value.value_probs`, which also score Black's R8 last
roll exactly).  Each view is checked
on random finished and nearly finished positions against the plain statement of
the rules in `tests/oracle.py` and against `engine.outcome`.
"""

from __future__ import annotations

import numpy as np
import pytest

from nardy_cli.policies.bearoff import empty_tables
from nardy_cli.core.engine import outcome
from nardy_cli.kernels import board as kb
from nardy_cli.kernels.evaluate import HEURISTIC, choice_scratch
from nardy_cli.kernels.neural import exact_probs
from nardy_cli.kernels.value import value_probs, value_scratch
from nardy_cli.core.outcomes import CLASS_NAMES
from nardy_cli.core.position import parse_position
from nardy_cli.core.rules import make_rules
from nardy_cli.games.scoring import logistic_coefficients
from tests.oracle import CLASSES, game_end, read


def _items(counts: list[int]) -> str:
    """Counts per point (own numbering) in the notation: `19x3,24` or `-`."""
    items = [f"{p + 1}x{n}" if n > 1 else str(p + 1) for p, n in enumerate(counts) if n]
    return ",".join(items) or "-"


def _side(rng: np.random.Generator) -> list[int]:
    """A side's checkers at a game's end: all home, none on 1-12 or anywhere (some borne off or
    none)."""
    n = 15 if rng.random() < 0.6 else int(rng.integers(1, 15))
    lo = int(rng.choice([18, 12, 0, 18]))
    counts = [0] * 24
    for p in rng.integers(lo, 24, size=n):
        counts[int(p)] += 1
    return counts


def finished_positions(n: int, seed: int) -> list[str]:
    """Positions where one side (or both) has borne off every checker, either side to move."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        left = [0] * 24 if rng.random() < 0.05 else _side(rng)   # a draw now and then
        white, black = ([0] * 24, left) if rng.random() < 0.5 else (left, [0] * 24)
        out.append(f"W:{_items(white)} B:{_items(black)} {'w' if rng.random() < 0.5 else 'b'}")
    return out


POSITIONS = finished_positions(400, seed=26)


def _expected_code(text: str, last_roll: bool) -> int | None:
    """The oracle's result code for White, or None while the game goes on."""
    end = game_end(read(text), last_roll)
    if end is None:
        return None
    winner, cls = end
    if winner is None:
        return kb.DRAW
    return (kb.WIN_BASE if winner == "w" else kb.LOSE_BASE) + CLASSES.index(cls)


@pytest.mark.parametrize("last_roll", [True, False])
def test_every_view_of_the_end_of_game_agrees_with_the_oracle_and_the_engine(last_roll):
    """Bug caught: one kernel's own idea of the end of game or its class drifting from the rules
    (R8's last roll given to White, or to a Black with a checker outside home; R9's class of the
    opponent read in the mover's numbering): a rollout would score such games wrongly while the
    engine and the other kernels still agree with each other."""
    rules = make_rules("federation", last_roll=last_roll)
    tables, coefs = empty_tables(), logistic_coefficients()
    choice, scratch = choice_scratch(), value_scratch()
    weights = np.zeros(32)
    probs, values = np.zeros(9), np.zeros(10)
    seen = set()
    for text in POSITIONS:
        pos = parse_position(text)
        white_to_move = pos.turn == "w"
        board = pos.board()[0]
        after = np.empty(24, dtype=np.int8)
        kb.flip(board, after)             # the same position seen by the side that has just played
        expected = _expected_code(text, last_roll)
        status = kb.game_status(board, white_to_move, last_roll)
        assert kb.status_after(after, not white_to_move, last_roll) == status, text
        done = outcome(pos, rules)
        if expected is None:
            assert status == kb.IN_PLAY and done is None, text
            # White has just borne off its 15th checker: Black's last roll is scored exactly
            # (tests/test_last_roll.py checks its figures)
            last = kb.on_board(after) == 0
            assert exact_probs(after, not white_to_move, last_roll, probs) == last, text
            if last:
                value_probs(after, not white_to_move, last_roll, HEURISTIC, weights, tables, coefs,
                            choice, scratch, values)
                assert np.allclose(values[:9], probs) and abs(probs.sum() - 1) < 1e-12, text
            seen.add("in play")
            continue
        assert kb.final_result(board, white_to_move, True, status) == expected, text
        for_black = expected if expected == kb.DRAW else (expected + 4) % 8
        assert kb.final_result(board, white_to_move, False, status) == for_black, text
        mine = expected if not white_to_move else for_black      # for the side that has just played
        assert exact_probs(after, not white_to_move, last_roll, probs), text
        assert int(np.argmax(probs)) == mine and probs.sum() == 1.0, text
        value_probs(after, not white_to_move, last_roll, HEURISTIC, weights, tables, coefs, choice,
                    scratch, values)
        assert int(np.argmax(values)) == mine and values.sum() == 1.0, text
        winner = None if expected == kb.DRAW else "w" if expected < kb.LOSE_BASE else "b"
        kind = "draw" if expected == kb.DRAW else CLASS_NAMES[expected % 4]
        assert (done.winner, done.kind) == (winner, kind), text
        seen.add(expected)
    every = {kb.DRAW} | {k + c for k in (kb.WIN_BASE, kb.LOSE_BASE) for c in range(4)}
    assert seen >= every | ({"in play"} if last_roll else set())
