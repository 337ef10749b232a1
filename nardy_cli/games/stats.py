"""Outcome statistics from per-stratum result counts: probabilities, equity, standard errors."""

from __future__ import annotations

import math

import numpy as np

from ..core.outcomes import PROB_KEYS, indicator, result_values
from ..core.rules import Points
from ..kernels.board import UNFINISHED

INDICATORS = {key: indicator(key) for key in PROB_KEYS}
"""For each reported probability, which result codes it sums."""


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


def wilson_interval(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a share `p` observed over `n` trials: inside [0, 1] and of
    non-zero width even when every trial succeeded or none did (40 wins of 40: [0.912, 1]), where
    p ± z SE collapses to a point. The one interval of every win-rate and chance nardy prints."""
    if not n > 0 or not math.isfinite(n):
        return 0.0, 1.0
    p = min(max(p, 0.0), 1.0)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def share_ci95(p: float, se: float, n: float) -> tuple[float, float]:
    """The 95% interval of a share `p` with standard error `se` from `n` trials (games, matches):
    Wilson's interval over the effective number of trials p(1 - p) / se², which gives back
    p ± 1.96 SE inside [0, 1], or over `n` when the share is 0 or 1 (or the SE 0), where that
    number is unknown. Paired dice, stratification and variance reduction shrink the SE; the
    interval keeps that gain, and stays wide enough at the edges."""
    if 0.0 < p < 1.0 and se > 0 and math.isfinite(se):
        n = p * (1 - p) / (se * se)
    return wilson_interval(p, n)


def probability_ci95(p: float, se: float, games: float) -> tuple[float, float]:
    """The 95% interval of an outcome's probability from `games` games (`share_ci95`): under VR
    the estimate can reach past either end of [0, 1]; the interval never does."""
    return share_ci95(p, se, games)


def outcome_table(counts: np.ndarray, points: Points, values: np.ndarray | None = None) -> dict:
    """Probabilities and standard errors of every outcome, equity and its standard error, and with
    `values` (per result code, the root side's valuation) their mean `value` and its SE."""
    probs, ses = {}, {}
    for key in PROB_KEYS:
        probs[key], ses[key] = stratified_mean_se(counts, INDICATORS[key])
    equity, equity_se = stratified_mean_se(counts, result_values(points))
    out = {"probabilities": probs, "se": ses, "equity": equity, "equity_se": equity_se,
           "unfinished": int(counts[:, UNFINISHED].sum())}
    if values is not None:
        out["value"], out["value_se"] = stratified_mean_se(counts, values)
    return out
