"""The built-in evaluators' Python forms: what analyses (review, players) value result boards by.

`EstimateEvaluator` is the heuristic's value: the logistic estimate over the
heuristic's features (`data/estimate.json`, the model the kernel values the
heuristic's results by in truncation and variance reduction), classes the rules
rule out clamped to 0.  `NeuralEvaluator` is the network's nine class
probabilities.  Both answer for the side that has just played each board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.outcomes import money_valuation
from ..core.rules import Rules
from ..kernels.evaluate import N_FEATURES, N_OPP, features, opponent_terms


@lru_cache(maxsize=1)
def logistic_coefficients() -> np.ndarray:
    """The heuristic's outcome model (data/estimate.json) as a 7 x 17 array."""
    import json
    from importlib import resources
    data = json.loads(resources.files("nardy_cli").joinpath("data/estimate.json").read_text())
    return np.ascontiguousarray(np.array(data["coefficients"], dtype=np.float64))


def feature_vector(board: np.ndarray) -> np.ndarray:
    """The evaluator's features of a mover-relative board."""
    out = np.zeros(N_FEATURES)
    opp = np.zeros(N_OPP, dtype=np.int64)
    opponent_terms(board, opp)
    features(board, out, opp)
    return out


def possible_classes(board: np.ndarray) -> np.ndarray:
    """1 for each logistic class the rules still allow from this board (side that just moved)."""
    from ..kernels.neural import N_CLASSES, class_mask
    mask = np.ones(N_CLASSES, dtype=np.bool_)
    class_mask(board, True, mask)
    # result-code classes -> the model's: win oin, win mars (+home-mars), win koks, the same lost,
    # draw
    return np.array([mask[0], mask[1] or mask[2], mask[3], mask[4], mask[5] or mask[6], mask[7],
                     mask[8]], dtype=float)


@dataclass(frozen=True)
class EstimateEvaluator:
    """The logistic static estimate over the heuristic's features: the heuristic's value."""

    name: str = "heuristic"

    def probabilities(self, boards: np.ndarray, rules: Rules | None = None) -> np.ndarray:
        """n x 7 chances in `estimate.CLASSES` order for the side that just moved (no draw
        without R8's last roll under `rules`)."""
        coefficients = logistic_coefficients()
        x = np.empty((len(boards), coefficients.shape[1]))
        x[:, -1] = 1.0
        possible = np.empty((len(boards), coefficients.shape[0]))
        for i, b in enumerate(boards):
            x[i, :-1] = feature_vector(b)
            possible[i] = possible_classes(b)   # classes ruled out (R9) get 0, as in `nardy eval`
        if rules is not None and not rules.last_roll:
            possible[:, -1] = 0.0
        z = x @ coefficients.T
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z) * possible
        return e / e.sum(axis=1, keepdims=True)

    def equities(self, boards: np.ndarray, white: np.ndarray, rules: Rules) -> np.ndarray:
        """Money equity of its chances (mars here includes home-mars) by the rules' points."""
        probs = self.outcome_probabilities(boards, white, rules)
        return probs @ money_valuation(rules).for_side(True)

    def outcome_probabilities(self, boards: np.ndarray, white: np.ndarray,
                              rules: Rules) -> np.ndarray:
        """n x 9 chances in result-code order (its mars, home-mars included, counts as mars)."""
        from ..kernels.value import MODEL_CODE
        p7 = self.probabilities(boards, rules)
        out = np.zeros((len(boards), 9))
        out[:, MODEL_CODE] = p7
        return out


@dataclass(frozen=True)
class NeuralEvaluator:
    """The trained network at 0-ply: equity from its nine class probabilities."""

    name: str = "neural"
    network: Any = None     # a `Network`; None: the shipped one

    def equities(self, boards: np.ndarray, white: np.ndarray, rules: Rules) -> np.ndarray:
        """The mover's equity of each result board under the rules' points."""
        from .network import result_equities
        white = np.broadcast_to(np.asarray(white, dtype=bool), (len(boards),))
        return result_equities(boards, white, rules, self.network)

    def outcome_probabilities(self, boards: np.ndarray, white: np.ndarray,
                              rules: Rules) -> np.ndarray:
        """n x 9 class probabilities (result-code order) for the side that just played each."""
        from .network import result_probabilities
        white = np.broadcast_to(np.asarray(white, dtype=bool), (len(boards),))
        return result_probabilities(boards, white, rules, self.network)


HEURISTIC_ESTIMATE = EstimateEvaluator()
NEURAL_EVALUATOR = NeuralEvaluator()
