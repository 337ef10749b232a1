"""Batch rollouts: every position of a positions file in one table."""

from __future__ import annotations

import pandas as pd

from ..errors import ArgumentError, NoGamesError
from ..position import SIDE_NAMES
from ..positions_file import NamedPosition
from ..rollout import RolloutResult, rollout


class BatchResults(list):
    """The rollout results of a batch, in file order; `interrupted` when Ctrl-C stopped the batch."""

    interrupted: bool = False


def batch_rollout(positions: list[NamedPosition], policies="neural", games: int = 5000, seed: int | None = None,
                  rules=None, *, progress=None, **options) -> BatchResults:
    """Roll out each position (same seed and settings for all), in file order.

    Ctrl-C stops the batch: the positions finished so far (and the interrupted one's games, if any) are
    returned, marked `interrupted`; before any game finished it raises `NoGamesError`.
    """
    if not positions:
        raise ArgumentError("no positions to roll out")
    kwargs = dict(options)
    if seed is not None:
        kwargs["seed"] = seed
    if rules is not None:
        kwargs["rules"] = rules
    results = BatchResults()
    for i, item in enumerate(positions):
        try:
            results.append(rollout(item.position, policies, games, name=item.name, **kwargs))
        except (NoGamesError, KeyboardInterrupt):      # in this position, or between two positions
            if not results:
                raise
            results.interrupted = True
            break
        if progress is not None:
            progress(i + 1, len(positions))
        if results[-1].interrupted:
            results.interrupted = True
            break
    return results


def batch_frame(results: list[RolloutResult]) -> pd.DataFrame:
    """One row per position: name, notation, the side to move (`to_move`: whose equity and chances they are),
    probabilities, equity ± SE, mean plies, deficit summary."""
    frame = pd.DataFrame([r.summary_row() for r in results])
    frame.insert(2, "to_move", [SIDE_NAMES[r.position.turn] for r in results])
    return frame


def batch_record(result: RolloutResult) -> dict:
    """One position's JSON object: the rollout's, with `to_move` (whose equity it is) after the position."""
    out = {}
    for key, value in result.to_dict().items():
        out[key] = value
        if key == "position":
            out["to_move"] = SIDE_NAMES[result.position.turn]
    return out
