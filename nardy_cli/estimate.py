"""Static outcome estimates from an evaluator's features (a multinomial logistic model).

The model maps the heuristic's features of a position just after a play to the
chances of each outcome for the side that played it.  It is fitted on self-play
games by `benchmarks/calibrate.py` and shipped as `data/estimate.json`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from .errors import GameOverError, PolicyError
from .kernels.evaluate import HEURISTIC, N_FEATURES, N_OPP, features, opponent_terms
from .policies.base import CompiledPolicy
from .position import Position

CLASSES = ("win_oin", "win_mars", "win_koks", "lose_oin", "lose_mars", "lose_koks", "draw")
"""Outcome classes of the model; `mars` includes home-mars."""


@dataclass(frozen=True)
class StaticEstimate:
    """Estimated chances for the side to move, from its opponent's position just after its play."""

    position: Position
    policy: str
    probabilities: dict[str, float]
    equity: float

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        return {"position": str(self.position), "policy": self.policy, "probabilities": self.probabilities,
                "equity": self.equity}


@lru_cache(maxsize=1)
def _model() -> tuple[np.ndarray, dict]:
    text = resources.files("nardy_cli").joinpath("data/estimate.json").read_text()
    data = json.loads(text)
    return np.array(data["coefficients"]), data


def class_probabilities(feats: np.ndarray, coefficients: np.ndarray) -> np.ndarray:
    """Softmax of the linear scores of the features (plus a bias)."""
    x = np.append(feats, 1.0)
    z = coefficients @ x
    z -= z.max()
    e = np.exp(z)
    return e / e.sum()


def feature_vector(board: np.ndarray) -> np.ndarray:
    """The evaluator's features of a mover-relative board."""
    out = np.zeros(N_FEATURES)
    opp = np.zeros(N_OPP, dtype=np.int64)
    opponent_terms(board, opp)
    features(board, out, opp)
    return out


def static_estimate(position: Position, policy: CompiledPolicy | None = None) -> StaticEstimate:
    """The outcome chances of the side to move, estimated from the heuristic's features."""
    from .policies.builtin import HEURISTIC as HEURISTIC_POLICY
    policy = policy or HEURISTIC_POLICY
    if not isinstance(policy, CompiledPolicy) or policy.kind != HEURISTIC:
        raise PolicyError(f"policy {policy.name!r} has no outcome estimate; use 'heuristic' or 'lookahead:heuristic'")
    from .engine import outcome
    if outcome(position) is not None:
        raise GameOverError(f"the game is over in {str(position)!r}: {outcome(position)}")
    coefficients, _ = _model()
    board, _, _ = position.board()
    opponent_view = np.ascontiguousarray(-board[np.r_[12:24, 0:12]])
    p_opp = class_probabilities(feature_vector(opponent_view), coefficients)
    # the opponent's wins are the side to move's losses
    swapped = {"win_oin": p_opp[3], "win_mars": p_opp[4], "win_koks": p_opp[5],
               "lose_oin": p_opp[0], "lose_mars": p_opp[1], "lose_koks": p_opp[2], "draw": p_opp[6]}
    probs = {"win": float(swapped["win_oin"] + swapped["win_mars"] + swapped["win_koks"]),
             "lose": float(swapped["lose_oin"] + swapped["lose_mars"] + swapped["lose_koks"]),
             **{k: float(v) for k, v in swapped.items()}}
    return StaticEstimate(position, policy.name, probs, 0.0)


def estimate_equity(probs: dict[str, float], points) -> float:
    """Equity of estimated probabilities under a points table (mars here includes home-mars)."""
    return (probs["win_oin"] * points.oin + probs["win_mars"] * points.mars + probs["win_koks"] * points.koks
            - probs["lose_oin"] * points.oin - probs["lose_mars"] * points.mars - probs["lose_koks"] * points.koks)
