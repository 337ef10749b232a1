"""Static (0-ply) outcome estimates of a position for the side to move.

`neural_estimate` asks the trained network (`network.py`): the probabilities of
all nine outcome classes, with classes the rules rule out at exactly 0, and the
equity under the active points.  `static_estimate` is the older multinomial
logistic model over the heuristic's features, fitted on heuristic self-play by
`experiments/calibrate.py` (`data/estimate.json`); it lumps home-mars into mars
and knows nothing of the rules' masks.  `nardy eval --model logistic` keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.errors import PolicyError
from ..core.i18n import N_
from ..core.outcomes import RESULT_KEYS, money_valuation, swap
from ..core.position import Position
from .analysis import feature_vector, logistic_coefficients, possible_classes
from .base import Policy

CLASSES = ("win_oin", "win_mars", "win_koks", "lose_oin", "lose_mars", "lose_koks", "draw")
BEAROFF_METHODS = {True: N_("bear-off database (two-sided database, exact)"),
                   False: N_("bear-off database (one-sided convolution)")}
"""The method of a bear-off's estimate (`bearoff.BearoffValue.exact`), as eval prints it."""
"""Outcome classes of the model; `mars` includes home-mars."""




@dataclass(frozen=True)
class StaticEstimate:
    """Estimated chances for the side to move, from its opponent's position just after its play."""

    position: Position
    policy: str
    probabilities: dict[str, float]
    equity: float
    method: str = ""
    mwc: float | None = None     # at a match score: the side to move's match winning chance

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        return {"position": str(self.position), "policy": self.policy, "method": self.method,
                "probabilities": self.probabilities, "equity": self.equity}


def class_probabilities(feats: np.ndarray, coefficients: np.ndarray) -> np.ndarray:
    """Softmax of the linear scores of the features (plus a bias)."""
    x = np.append(feats, 1.0)
    z = coefficients @ x
    z -= z.max()
    e = np.exp(z)
    return e / e.sum()


def static_estimate(position: Position, policy: Policy | None = None) -> StaticEstimate:
    """The outcome chances of the side to move, estimated from the heuristic's features."""
    from .builtin import HEURISTIC as HEURISTIC_POLICY
    policy = policy or HEURISTIC_POLICY
    if policy.evaluator_name != "heuristic":
        raise PolicyError(f"policy {policy.name!r} has no outcome estimate; "
                          "use 'heuristic' or 'lookahead:heuristic'")
    from ..core.engine import require_in_play
    require_in_play(position)
    coefficients = logistic_coefficients()
    board, _, _ = position.board()
    opponent_view = np.ascontiguousarray(-board[np.r_[12:24, 0:12]])
    p_opp = class_probabilities(feature_vector(opponent_view), coefficients)
    p_opp = p_opp * possible_classes(opponent_view)      # clamp by rule (R9), as the network does
    p_opp /= p_opp.sum()
    # the opponent's wins are the side to move's losses
    swapped = {"win_oin": p_opp[3], "win_mars": p_opp[4], "win_koks": p_opp[5],
               "lose_oin": p_opp[0], "lose_mars": p_opp[1], "lose_koks": p_opp[2], "draw": p_opp[6]}
    probs = {"win": float(swapped["win_oin"] + swapped["win_mars"] + swapped["win_koks"]),
             "lose": float(swapped["lose_oin"] + swapped["lose_mars"] + swapped["lose_koks"]),
             **{k: float(v) for k, v in swapped.items()}}
    return StaticEstimate(position, policy.name, probs, 0.0)


def estimate_equity(probs: dict[str, float], points) -> float:
    """Equity of estimated probabilities under a points table (mars here includes home-mars)."""
    return (probs["win_oin"] * points.oin + probs["win_mars"] * points.mars
            + probs["win_koks"] * points.koks
            - probs["lose_oin"] * points.oin - probs["lose_mars"] * points.mars
            - probs["lose_koks"] * points.koks)


def neural_estimate(position: Position, rules=None, network=None, valuation=None) -> StaticEstimate:
    """The network's chances of every outcome class for the side to move, and its equity under
    `rules` (with a match `valuation`, also its match winning chance `mwc`; the roll's best play is
    then the best by match equity).

    Without dice the position is judged as it stands (the side to move about to
    roll); once both sides are all home that is the bear-off databases' value
    (exact two-sided, or the one-sided convolution), not the network's.  With
    dice, the estimate is that of the roll's best play by the network's equity
    (0-ply).
    """
    from ..core.engine import legal_plays, require_in_play
    from .network import result_probabilities
    from ..core.position import mover_board, other_side
    from ..core.rules import PRESETS
    rules = rules or PRESETS["federation"]
    money = money_valuation(rules)
    judge = valuation if valuation is not None else money
    require_in_play(position, rules)
    me, other = position.turn, other_side(position.turn)
    if position.dice is None:
        from .bearoff import bearoff_value, is_bearoff
        if is_bearoff(position):
            db = bearoff_value(position, rules)
            codes = np.array([db.probabilities[k] for k in RESULT_KEYS])
            return StaticEstimate(position, "neural", db.probabilities, db.equity,
                                  BEAROFF_METHODS[db.exact],
                                  _mwc(codes, valuation, me == "w"))
        board = mover_board(position.checkers(other), position.checkers(me))
        probs = swap(result_probabilities(board[None], np.array([other == "w"]), rules, network)[0])
    else:
        plays = legal_plays(position, position.dice, rules)
        boards = np.array([mover_board(p.result.checkers(me), p.result.checkers(other))
                           for p in plays])
        all_probs = result_probabilities(boards, np.full(len(plays), me == "w"), rules, network)
        probs = all_probs[int(np.argmax(all_probs @ judge.for_side(me == "w")))]
    named = {k: float(v) for k, v in zip(RESULT_KEYS, probs)}
    totals = {"win": float(probs[0:4].sum()), "lose": float(probs[4:8].sum())}
    method = (N_("network, best play of the roll (0-ply)") if position.dice
              else N_("network (0-ply)"))
    return StaticEstimate(position, "neural", {**totals, **named},
                          float(probs @ money.for_side(me == "w")), method,
                          _mwc(probs, valuation, me == "w"))


def _mwc(probs: np.ndarray, valuation, white: bool) -> float | None:
    """The match winning chance of class probabilities (result-code order) at a match valuation,
    else None."""
    if valuation is None or valuation.is_money:
        return None
    return valuation.chance(float(probs @ valuation.for_side(white)))
