"""Outcome statistics from per-stratum result counts: probabilities, equity, standard errors."""

from __future__ import annotations

import numpy as np

from .kernels.board import DRAW, LOSE_BASE, N_RESULTS, UNFINISHED, WIN_BASE
from .rules import Points

CLASS_KEYS = ("oin", "home_mars", "mars", "koks")
PROB_KEYS = ("win", "lose", "draw") + tuple(f"win_{c}" for c in CLASS_KEYS) + tuple(f"lose_{c}" for c in CLASS_KEYS)


def result_values(points: Points) -> np.ndarray:
    """Points the root side scores for each result code (draw and unfinished score 0)."""
    values = np.zeros(N_RESULTS)
    for i, p in enumerate(points.as_tuple()):
        values[WIN_BASE + i] = p
        values[LOSE_BASE + i] = -p
    return values


def _indicators() -> dict[str, np.ndarray]:
    """For each reported probability, which result codes it sums."""
    ind = {}
    for key in PROB_KEYS:
        v = np.zeros(N_RESULTS)
        if key == "win":
            v[WIN_BASE:WIN_BASE + 4] = 1
        elif key == "lose":
            v[LOSE_BASE:LOSE_BASE + 4] = 1
        elif key == "draw":
            v[DRAW] = 1
        else:
            side, cls = key.split("_", 1)
            v[(WIN_BASE if side == "win" else LOSE_BASE) + CLASS_KEYS.index(cls)] = 1
        ind[key] = v
    return ind


INDICATORS = _indicators()


def stratified_mean_se(counts: np.ndarray, values: np.ndarray) -> tuple[float, float]:
    """Mean of `values` over games and its standard error, post-stratified when possible.

    `counts[s, r]` is the number of games of stratum s with result r.  Every
    stratum is an equally likely first roll; when each holds at least two games
    the strata are weighted equally and the standard error is the stratified one,
    otherwise all games are pooled.
    """
    n_s = counts.sum(axis=1)
    total = n_s.sum()
    if total == 0:
        return float("nan"), float("nan")
    used = n_s > 0
    if used.sum() > 1 and (n_s[used] >= 2).all() and used.sum() == counts.shape[0]:
        w = 1.0 / used.sum()
        means = (counts[used] @ values) / n_s[used]
        sq = (counts[used] @ (values ** 2)) / n_s[used]
        var = np.maximum(sq - means ** 2, 0.0)
        return float(w * means.sum()), float(np.sqrt((w ** 2 * var / (n_s[used] - 1)).sum()))
    pooled = counts.sum(axis=0)
    mean = float(pooled @ values / total)
    var = max(float(pooled @ (values ** 2) / total) - mean ** 2, 0.0)
    return mean, float(np.sqrt(var / max(total - 1, 1)))


Z95 = 1.96  # a 95% interval is the estimate ± 1.96 standard errors


def probability_ci95(p: float, se: float) -> tuple[float, float]:
    """The 95% interval of a probability, p ± 1.96 SE clipped to [0, 1] (under VR it can reach past either end)."""
    return max(0.0, p - Z95 * se), min(1.0, p + Z95 * se)


def outcome_table(counts: np.ndarray, points: Points) -> dict:
    """Probabilities and standard errors of every outcome, equity and its standard error."""
    probs, ses = {}, {}
    for key in PROB_KEYS:
        probs[key], ses[key] = stratified_mean_se(counts, INDICATORS[key])
    equity, equity_se = stratified_mean_se(counts, result_values(points))
    return {"probabilities": probs, "se": ses, "equity": equity, "equity_se": equity_se,
            "unfinished": int(counts[:, UNFINISHED].sum())}
