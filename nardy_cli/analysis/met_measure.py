"""Measuring the game a match equity table is built on: a rollout of the starting position with
the strongest policy (docs/matches.md), turned into the outcome distribution of `match.table`."""

from __future__ import annotations

import numpy as np

from ..core.outcomes import CLASS_KEYS
from ..core.position import START
from ..core.rules import PRESETS, Rules
from ..match.table import GameDistribution
from .rollout import rollout

MEASURE_POLICY = "lookahead:neural"


def distribution_from_rollout(result) -> GameDistribution:
    """The outcome distribution of a rollout of the starting position (White to move), negative
    VR-adjusted shares clipped to 0 and the rest renormalised."""
    pr, se = result.probabilities, result.se
    keys_w = [f"win_{c}" for c in CLASS_KEYS]
    keys_b = [f"lose_{c}" for c in CLASS_KEYS]
    raw = np.clip(np.array([pr[k] for k in keys_w + keys_b] + [pr["draw"]]), 0.0, None)
    raw /= raw.sum()
    ses = {"white_wins": se["win"], "black_wins": se["lose"], "draw": se["draw"]}
    ses |= ({f"white_{c}": se[f"win_{c}"] for c in CLASS_KEYS}
            | {f"black_{c}": se[f"lose_{c}"] for c in CLASS_KEYS})
    params = result.params
    source = {"policy": params["policies"]["white"], "games": result.games, "seed": params["seed"],
              "vr": params.get("vr"), "rules": params["rules"]["preset"],
              "version": params.get("version")}
    return GameDistribution(tuple(raw[0:4]), tuple(raw[4:8]), float(raw[8]), ses, source)


def measure_start_distribution(rules: Rules = PRESETS["federation"], *,
                               policy: str = MEASURE_POLICY, games: int = 20736, seed: int = 2026,
                               workers: int = 1, progress=None,
                               until_se: float | None = None) -> tuple[GameDistribution, object]:
    """Roll out the starting position (money play, VR on for lookahead policies): (distribution,
    rollout)."""
    result = rollout(START, policy, games=games, seed=seed, rules=rules, workers=workers,
                     progress=progress, until_se=until_se)
    return distribution_from_rollout(result), result
