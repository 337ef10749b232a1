"""What an evaluator is: a name, its kernel form and its Python form for analyses.

The kernel form is how the game kernel scores a result (the board just after
the mover's play): a kind code and its parameter vector under the active rules
(`params(rules)`), scored by `valuation`'s values where the kind values
outcomes.  Three kernel forms exist, one job each: `Weights` (a built-in kind
and its weights), `NetworkForm` (the trained network) and `UserFunction` (a
user's numba `score(board) -> float`).  The Python form is the object analyses
ask for equities (`equities(boards, white, rules)`, and at a match score
`outcome_probabilities` or `values`): review, `EvaluatorPlayer`.  An evaluator
has one form or both.  A policy is an evaluator plus a search (`base.Search`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.errors import PolicyError
from ..kernels.evaluate import (N_WEIGHTS, NEURAL, RANDOM, choice_scratch, opponent_terms,
                                static_score)

if TYPE_CHECKING:
    from ..core.outcomes import Valuation
    from ..core.rules import Rules


@dataclass(frozen=True)
class Weights:
    """A built-in kind (random, racer, heuristic) and its weights (zero-padded to `N_WEIGHTS`)."""

    kind: int
    weights: tuple[float, ...] = (0.0,) * N_WEIGHTS

    def params(self, rules: Rules) -> np.ndarray:
        """The kernel's parameter vector (the same under any rules)."""
        weights = np.asarray(self.weights, dtype=np.float64).ravel()
        out = np.zeros(max(N_WEIGHTS, weights.size), dtype=np.float64)
        out[: weights.size] = weights
        return out

    def function(self):
        """The kernel's first-class evaluator argument: `no_evaluator` (never called)."""
        from ..kernels.user import no_evaluator
        return no_evaluator()

    def scores(self, boards, mover_white: bool, rules: Rules, valuation: Valuation) -> np.ndarray:
        """The kernel's 0-ply score of each board (higher: better for the mover)."""
        return _kernel_scores(self.kind, self.params(rules), boards, mover_white, valuation)


@dataclass(frozen=True)
class NetworkForm:
    """The neural kind: a `Network` (None: the shipped one), its choices scored in single precision
    (the default) or in double."""

    network: Any = None
    single: bool = True
    kind = NEURAL

    def params(self, rules: Rules) -> np.ndarray:
        """The network's kernel vector under `rules` (its last-roll option), once per process."""
        return _network_params(self.network, rules, self.single)

    def function(self):
        """The kernel's first-class evaluator argument: `no_evaluator` (never called)."""
        from ..kernels.user import no_evaluator
        return no_evaluator()

    def scores(self, boards, mover_white: bool, rules: Rules, valuation: Valuation) -> np.ndarray:
        """The network's value of each board for the mover by `valuation`."""
        return _kernel_scores(NEURAL, self.params(rules), boards, mover_white, valuation)


@lru_cache(maxsize=16)
def _network_params(network, rules: Rules, single: bool) -> np.ndarray:
    """`Network.kernel_params`, once per (network, rules, precision): the vector is not free."""
    from .network import default_network
    net = network if network is not None else default_network()
    return net.kernel_params(rules, single=single)


@dataclass(frozen=True)
class UserFunction:
    """A user's numba function `score(board) -> float` of the board after the mover's play."""

    function_: Any
    name: str

    @property
    def kind(self) -> int:
        """`kernels.user.USER`: the kernel picks by the side's `Evaluators` entry."""
        from ..kernels.user import USER
        return USER

    def params(self, rules: Rules) -> np.ndarray:
        """No parameters: zeros of the fixed length."""
        return np.zeros(N_WEIGHTS, dtype=np.float64)

    def function(self):
        """The function as the game kernel's first-class argument; `PolicyError` if it cannot be."""
        from ..kernels import user
        try:
            return user.first_class(self.function_)
        except Exception as exc:   # numba's typing and lowering errors have no common base
            lines = [line for line in str(exc).splitlines()
                     if line.strip() and not line.startswith("Failed in")]
            reason = lines[0] if lines else type(exc).__name__
            raise PolicyError(f"policy {self.name!r}: its evaluator cannot score a board "
                              f"(int8[24] -> float): {reason}") from None

    def scores(self, boards, mover_white: bool, rules: Rules, valuation: Valuation) -> np.ndarray:
        """The function's score of each board."""
        return np.array([float(self.function_(board)) for board in boards])


def _kernel_scores(kind: int, params: np.ndarray, boards, mover_white: bool,
                   valuation: Valuation) -> np.ndarray:
    scratch = choice_scratch()
    values = valuation.kernel_values()
    out = np.empty(len(boards))
    for i, board in enumerate(boards):
        opponent_terms(board, scratch.opp)
        out[i] = static_score(board, kind, params, values, mover_white, scratch)
    return out


KernelForm = Weights | NetworkForm | UserFunction


@dataclass(frozen=True)
class Evaluator:
    """An evaluator: its name, a one-line description, its kernel form and its Python form.

    `outcomes` says the kernel values its results as outcome probabilities (the
    network's classes, or the logistic estimate for the heuristic), which
    truncation, variance reduction and the cube model need.
    """

    name: str
    description: str
    kernel: KernelForm | None = None
    python: Any = None
    outcomes: bool = False

    @property
    def builtin(self) -> bool:
        """True for the built-in kinds (not a user's function, not Python only)."""
        return isinstance(self.kernel, (Weights, NetworkForm))

    @property
    def is_random(self) -> bool:
        """True for the uniform random chooser, which scores nothing."""
        return isinstance(self.kernel, Weights) and self.kernel.kind == RANDOM

    def static_scores(self, boards, mover_white: bool, rules: Rules,
                      valuation: Valuation | None = None) -> np.ndarray:
        """The kernel's 0-ply score of each mover-relative board just after the mover's play
        (higher: better), by `valuation` (money under `rules` when None) where the kind values
        outcomes."""
        if self.kernel is None or self.is_random:
            raise PolicyError(f"policy {self.name!r} scores no results")
        from ..core.outcomes import money_valuation
        return self.kernel.scores(boards, mover_white, rules,
                                  valuation if valuation is not None else money_valuation(rules))
