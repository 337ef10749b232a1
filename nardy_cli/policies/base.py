"""The two policy kinds and the protocol a user's Python bot follows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..kernels.evaluate import N_WEIGHTS


@runtime_checkable
class ChoosesPlays(Protocol):
    """What a user's bot provides: pick one of `plays` (all legal, distinct results)."""

    def choose(self, position: Any, dice: Any, plays: list, rng: np.random.Generator) -> Any: ...


@dataclass(frozen=True)
class CompiledPolicy:
    """A policy the game kernel runs itself: a built-in evaluator kind and its weights,
    or a user's numba `evaluator(board) -> float` of the board after the mover's play."""

    name: str
    kind: int
    description: str
    weights: tuple[float, ...] = field(default=(0.0,) * N_WEIGHTS)
    lookahead: bool = False
    evaluator: Any = None   # a user's numba function score(board) -> float, or None for a built-in

    def weight_array(self) -> np.ndarray:
        """Weights padded to the kernel's fixed length."""
        w = np.zeros(N_WEIGHTS, dtype=np.float64)
        w[: len(self.weights)] = self.weights
        return w


@dataclass(frozen=True)
class PythonPolicy:
    """A user's bot: any object with `choose(position, dice, plays, rng)`."""

    name: str
    obj: Any
    description: str = "user policy (Python)"

    def choose(self, position, dice, plays, rng):
        """Ask the wrapped object for its choice."""
        return self.obj.choose(position, dice, plays, rng)


Policy = CompiledPolicy | PythonPolicy
