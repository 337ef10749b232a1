"""Batch rollouts: every position of a positions file in one table."""

from __future__ import annotations

import pandas as pd

from ..core.errors import ArgumentError, NoGamesError
from ..core.position import SIDE_NAMES
from ..core.positions_file import NamedPosition
from ..core.rules import PRESETS, Rules
from ..games import RunConfig, run_config
from ..match.stakes import MONEY, Stakes
from .rollout import RolloutResult, rollout


class BatchResults(list):
    """The rollout results of a batch, in file order; `interrupted` when Ctrl-C stopped the
    batch."""

    interrupted: bool = False


def batch_rollout(positions: list[NamedPosition], policies="neural", *,
                  run: RunConfig | None = None, rules: Rules = PRESETS["federation"],
                  stakes: Stakes = MONEY, **fields) -> BatchResults:
    """Roll out each position (same seed and settings for all, at `stakes`), in file order.

    `run` is a `RunConfig` or its fields as keywords (games=5000 per position, seed, until_se,
    workers, stratify, executor, scheduler, progress); `progress(done, total)` hears the positions
    done.
    Ctrl-C stops the batch: the positions finished so far (and the interrupted one's games, if any)
    are returned, marked `interrupted`; before any game finished it raises `NoGamesError`.
    """
    run = run_config(run, fields, games=5000)
    progress = run.progress
    if not positions:
        raise ArgumentError("no positions to roll out")
    each = run.with_progress(None)
    results = BatchResults()
    for i, item in enumerate(positions):
        try:
            results.append(rollout(item.position, policies, run=each, rules=rules, name=item.name,
                                   stakes=stakes))
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
    """One row per position: name, notation, the side to move (`to_move`: whose equity and chances
    they are), probabilities, equity ± SE, mean plies, deficit summary."""
    frame = pd.DataFrame([r.summary_row() for r in results])
    frame.insert(2, "to_move", [SIDE_NAMES[r.position.turn] for r in results])
    return frame


def batch_record(result: RolloutResult) -> dict:
    """One position's JSON object: the rollout's, with `to_move` (whose equity it is) after the
    position."""
    out = {}
    for key, value in result.to_dict().items():
        out[key] = value
        if key == "position":
            out["to_move"] = SIDE_NAMES[result.position.turn]
    return out
