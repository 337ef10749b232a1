"""Scored rollouts: exact bear-offs, truncation and variance reduction, and their statistics.

A plain rollout game ends with a result code.  With these options a game may
instead end with probabilities (stopped once both sides are all home and scored
by the bear-off databases, or truncated and scored by the evaluator), and with
variance reduction each game also carries its luck: the sum over its random
rolls of the evaluator's value after the roll minus that value's mean over the
21 rolls.  The kernel adds every game's probabilities, and the same minus the
luck, into integer fixed-point sums, so results stay identical for any order of
chunks.  See docs/rollouts.md for the estimator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.errors import ArgumentError
from ..core.outcomes import PROB_KEYS, Valuation, money_valuation, result_values
from ..core.rules import Rules
from ..kernels.board import N_RESULTS
from ..kernels.game import LuckArgs, ScoringArgs, Truncation
from ..kernels.runs import (FIX_SCALE, N_FRAC, X_ADJ, X_EQ, X_EQ2, X_EQ_ADJ, X_EQ_ADJ2, X_KEY2,
    X_KEY_ADJ2, X_P, X_VAL, X_VAL2, X_VAL_ADJ, X_VAL_ADJ2)
from ..policies.analysis import logistic_coefficients  # noqa: F401  (the heuristic's outcome model)
from .stats import INDICATORS


@dataclass(frozen=True)
class Scoring:
    """How rollout games are scored.

    `exact_bearoff`: stop once both sides are all home and add the bear-off
    databases' probabilities (and let built-in policies bear off by them); None:
    on unless a side plays `random` (whose own bear-off is what its rollout measures);
    `truncate`: stop after that many plies and score by the evaluator (None: off);
    `vr`: subtract each game's luck (None: on for lookahead policies with an evaluator, see
    `vr_pays`); `bearoff_policy`: built-in policies bear off by the databases (None: with
    `exact_bearoff`); `luck_network`: a `Network` that values VR's luck instead of the policies' own
    evaluators (the plays whose values make the luck are still the policies' choices); it turns VR
    on.
    """

    exact_bearoff: bool | None = None
    truncate: int | None = None
    vr: bool | None = None
    bearoff_policy: bool | None = None
    luck_network: Any = None

    def __post_init__(self) -> None:
        if self.truncate is not None and self.truncate < 0:
            raise ArgumentError(f"{{truncate}} must be 0 plies or more, got {self.truncate}")
        if self.luck_network is not None and self.vr is False:
            raise ArgumentError("{luck_network} values the luck of variance reduction: "
                                "it cannot be used with VR off")

    def resolved(self, white, black) -> "Scoring":
        """The options a rollout with these policies actually uses (VR's default filled in; Python
        bots: none)."""
        if not (white.in_kernel and black.in_kernel):
            if self.luck_network is not None:
                raise ArgumentError("{luck_network} needs policies that run in the "
                                    "compiled game loop")
            return Scoring(False, None, False, False)
        vr = self.vr
        if vr is None:
            vr = self.luck_network is not None or any(vr_pays(p) for p in (white, black))
        exact = self.exact_bearoff
        if exact is None:
            exact = not any(p.is_random for p in (white, black))
        db = exact if self.bearoff_policy is None else self.bearoff_policy
        return Scoring(bool(exact), self.truncate, bool(vr), bool(db), self.luck_network)

    @property
    def active(self) -> bool:
        """True when games are scored by probabilities rather than counted by result."""
        return bool(self.exact_bearoff or self.truncate is not None or self.vr)

    def to_dict(self) -> dict:
        """What the results' parameters record."""
        record = {"vr": bool(self.vr), "exact_bearoff": bool(self.exact_bearoff),
                  "truncate": self.truncate,
                  "bearoff_policy": bool(self.exact_bearoff if self.bearoff_policy is None
                                         else self.bearoff_policy)}
        if self.luck_network is not None:
            record["luck_network"] = self.luck_network.record()
        return record


def vr_pays(policy) -> bool:
    """VR's default: on for lookahead policies with an evaluator, whose turns already search the 21
    rolls.

    The luck of a turn costs 21 enumerations and evaluations; a 0-ply policy's turn
    costs one, so there it slows games about 20-fold (measured: `heuristic` 25x
    the CPU for 9% less SE), while a lookahead turn costs about 64 (+1/3).
    """
    return policy.has_evaluator and policy.lookahead


INDICATOR_MATRIX = np.array([INDICATORS[k] for k in PROB_KEYS], dtype=np.float64)


def kernel_arguments(scoring: Scoring, rules: Rules, valuation: Valuation | None = None,
                     root_white: bool = True) -> ScoringArgs:
    """The scored game loop's inputs (`kernels.game.ScoringArgs`) for `kernels.runs.play_chunk`: the
    root side's (White's when `root_white`) money points and `valuation`'s values (money when None)
    of each result.  An option that is off is None, so the loop compiles without it."""
    from ..policies.bearoff import tables
    tabs = tables(rules).arrays() if scoring.active else None
    luck_net = (scoring.luck_network.kernel_params(rules) if scoring.luck_network is not None
                else np.zeros(0))
    valuation = valuation if valuation is not None else money_valuation(rules)
    values = np.stack([result_values(rules.points), valuation.root_values(root_white)])
    return ScoringArgs(
        tabs if scoring.exact_bearoff else None,
        None if scoring.truncate is None else Truncation(int(scoring.truncate), tabs,
                                                         logistic_coefficients()),
        LuckArgs(tabs, logistic_coefficients(), screen_weights(rules), luck_net)
        if scoring.vr else None,
        scoring.active, values, INDICATOR_MATRIX)


def screen_weights(rules: Rules) -> np.ndarray:
    """The heuristic's weights as VR's screened reply search takes them: a read-only copy, typed
    as the searches' own `evaluate.NO_SCREEN` constant is, so `best_replies` compiles once."""
    from ..policies.builtin import HEURISTIC
    screen = np.array(HEURISTIC.kernel_params(rules), dtype=np.float64)
    screen.flags.writeable = False
    return screen


def bearoff_db(scoring: Scoring, rules: Rules):
    """The bear-off databases' arrays when built-in policies bear off by them under `scoring`, else
    None (the pickers' `db`)."""
    from ..policies.bearoff import tables
    on = scoring.exact_bearoff if scoring.bearoff_policy is None else scoring.bearoff_policy
    return tables(rules).arrays() if on else None


def new_frac() -> np.ndarray:
    """Empty fixed-point sums, one row per stratum."""
    from ..kernels.game import N_STRATA
    return np.zeros((N_STRATA, N_FRAC), dtype=np.int64)


def moments_mean_se(n_s: np.ndarray, sums: np.ndarray, squares: np.ndarray) -> tuple[float, float]:
    """Mean and standard error from per-stratum counts, sums and sums of squares (as `stats`)."""
    total = n_s.sum()
    if total == 0:
        return float("nan"), float("nan")
    used = n_s > 0
    if used.sum() > 1 and (n_s[used] >= 2).all() and used.sum() == n_s.shape[0]:
        w = 1.0 / used.sum()
        means = sums[used] / n_s[used]
        var = np.maximum(squares[used] / n_s[used] - means ** 2, 0.0)
        return float(w * means.sum()), float(np.sqrt((w ** 2 * var / (n_s[used] - 1)).sum()))
    mean = float(sums.sum() / total)
    var = max(float(squares.sum() / total) - mean ** 2, 0.0)
    return mean, float(np.sqrt(var / max(total - 1, 1)))


def scored_table(counts: np.ndarray, scored: np.ndarray, frac: np.ndarray, adjusted: bool) -> dict:
    """Probabilities, SEs, equity and its SE, and the valuation's value and its SE, from the
    fixed-point sums (plain or luck-adjusted)."""
    n_s = counts.sum(axis=1) + scored
    x = frac / FIX_SCALE
    base, key2, eq, eq2 = ((X_ADJ, X_KEY_ADJ2, X_EQ_ADJ, X_EQ_ADJ2) if adjusted
                           else (X_P, X_KEY2, X_EQ, X_EQ2))
    probs, ses = {}, {}
    class_sums = x[:, base:base + N_RESULTS]
    for j, key in enumerate(PROB_KEYS):
        probs[key], ses[key] = moments_mean_se(n_s, class_sums @ INDICATORS[key], x[:, key2 + j])
    equity, equity_se = moments_mean_se(n_s, x[:, eq], x[:, eq2])
    val, val2 = (X_VAL_ADJ, X_VAL_ADJ2) if adjusted else (X_VAL, X_VAL2)
    value, value_se = moments_mean_se(n_s, x[:, val], x[:, val2])
    return {"probabilities": probs, "se": ses, "equity": equity, "equity_se": equity_se,
            "value": value, "value_se": value_se}
