"""Write tests/data/neural-v1-golden.json: the shipped network's outputs, exactly, to hold later
code to.

`python experiments/neural_golden.py [OUT]` records, with the code it runs on, the
full pass's nine class probabilities (as float.hex) of 40 result boards met in
random games (seed 38) and the equity of a 300-game `neural` rollout from the start
with variance reduction (seed 38, one worker: the single-precision turn pass, the
reply search and the game loop).  `tests/test_blocks.py` checks that the network
of input version 1 still gives exactly these figures.  The committed file was
written by the code of main at c6e8725, before input version 2 existed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from nardy_cli.analysis.rollout import rollout
from nardy_cli.core.position import START, mover_board, other_side
from nardy_cli.core.rules import PRESETS
from nardy_cli.policies.network import network_hash, result_probabilities

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.randomgames import random_game_positions  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "neural-v1-golden.json"


def golden() -> dict:
    """The figures, with the network's hash."""
    fed = PRESETS["federation"]
    boards, texts, white = [], [], []
    for pos, _ in random_game_positions(40, seed=38, every=10, greedy=0.3):
        board = mover_board(pos.checkers(other_side(pos.turn)), pos.checkers(pos.turn))
        if (board > 0).any() and (board < 0).any():
            boards.append(board)
            texts.append(str(pos))
            white.append(pos.turn != "w")
    probs = result_probabilities(np.array(boards), np.array(white), fed)
    r = rollout(START, "neural", games=300, seed=38, workers=1, rules=fed)
    return {"network": network_hash(),
            "boards": [{"position": t, "probs": [float(x).hex() for x in p]}
                       for t, p in zip(texts, probs)],
            "rollout": {"games": 300, "seed": 38, "equity": float(r.equity).hex(),
                        "equity_se": float(r.equity_se).hex()}}


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.write_text(json.dumps(golden(), indent=1) + "\n")
    print(f"wrote {out}")
