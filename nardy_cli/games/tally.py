"""One tally of finished games, in one of four modes; chunks' tallies add up exactly, in any order.

- `OUTCOMES`: games counted by (stratum, result code for the root side), plus the
  scored rollouts' fixed-point sums (see `scoring`);
- `PAIRS`: duplicate pairs counted by (A's result, B's result) on the root side;
- `RESULTS`: each game's result code, kept per chunk under a caller's key;
- `VALUES`: each game's result-code probabilities for the root side (one-hot for a
  finished game) and the same minus the game's luck, kept per chunk under a
  caller's key (staged rankings' paired rollouts).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..kernels.board import N_RESULTS
from ..kernels.cube import N_CUBE_SUMS
from ..kernels.game import N_DEFICIT, N_STRATA

OUTCOMES, PAIRS, RESULTS, VALUES = "outcomes", "pairs", "results", "values"
MODES = (OUTCOMES, PAIRS, RESULTS, VALUES)


def _zeros(*shape: int) -> np.ndarray:
    return np.zeros(shape, dtype=np.int64)


@dataclass
class Tally:
    """Integer sums over finished games: `counts` by mode, deficits per side, plies; per-game
    codes."""

    mode: str = OUTCOMES
    counts: np.ndarray = field(default_factory=lambda: _zeros(N_STRATA, N_RESULTS))
    deficit: np.ndarray = field(default_factory=lambda: _zeros(2, N_DEFICIT))
    plies: np.ndarray = field(default_factory=lambda: _zeros(1))
    # games stopped early and scored
    scored: np.ndarray = field(default_factory=lambda: _zeros(N_STRATA))
    frac: np.ndarray = field(default_factory=lambda: _fixed_point_sums())
    # games with the cube
    cube: np.ndarray = field(default_factory=lambda: _zeros(N_STRATA, N_CUBE_SUMS))
    results: dict = field(default_factory=dict)   # RESULTS: (key, first game) -> result codes
    values: dict = field(default_factory=dict)    # VALUES: (key, first game) -> (plain, adjusted)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown tally mode {self.mode!r}")
        if self.mode == PAIRS and self.counts.shape != (N_RESULTS, N_RESULTS):
            self.counts = _zeros(N_RESULTS, N_RESULTS)

    @property
    def games(self) -> int:
        """Games counted (two per duplicate pair; finished or scored)."""
        if self.mode == PAIRS:
            return 2 * int(self.counts.sum())
        if self.mode == RESULTS:
            return sum(len(v) for v in self.results.values())
        if self.mode == VALUES:
            return sum(len(plain) for plain, _ in self.values.values())
        return int(self.counts.sum() + self.scored.sum())

    @property
    def joint(self) -> np.ndarray:
        """PAIRS: pairs counted by (A's result on the root side, B's result there)."""
        return self.counts

    def add(self, other: "Tally") -> None:
        """Add another tally of the same mode into this one."""
        if other.mode != self.mode:
            raise ValueError(f"cannot add a {other.mode} tally to a {self.mode} tally")
        for name in ("counts", "deficit", "plies", "scored", "frac", "cube"):
            getattr(self, name)[...] += getattr(other, name)
        self.results.update(other.results)
        self.values.update(other.values)


def _fixed_point_sums() -> np.ndarray:
    from .scoring import new_frac
    return new_frac()
