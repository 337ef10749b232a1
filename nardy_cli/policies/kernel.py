"""Run a rollout chunk in the compiled game kernel (both sides compiled policies)."""

from __future__ import annotations

import numpy as np

from ..kernels.game import play_games


def play_games_compiled(spec, lo: int, hi: int, max_plies: int, tally) -> None:
    """Play games lo..hi-1 entirely in compiled code, adding into `tally`."""
    board, _, _ = spec.position.board()
    dice = spec.position.dice
    kinds = np.array([spec.white.kind, spec.black.kind], dtype=np.int64)
    weights = np.stack([spec.white.weight_array(), spec.black.weight_array()])
    looks = np.array([spec.white.lookahead, spec.black.lookahead], dtype=np.bool_)
    rules = spec.rules
    play_games(board, spec.position.turn == "w", dice.high if dice else 0, dice.low if dice else 0,
               lo, hi, np.uint64(spec.seed), spec.stratify, rules.head_code, rules.block_code, rules.last_roll,
               kinds, weights, looks, max_plies, tally.counts, tally.deficit, tally.plies)
