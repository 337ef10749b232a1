"""The long-nardy match equity table and its error.

`match_equity_table` builds the cubeless table of `table.MatchTable` from
the shipped outcome distribution (or one given); `table_se` propagates the
distribution's sampling error into every entry by a parametric bootstrap;
`cubeful_equity_table` turns the table cubeful with the Crawford rule (docs/cube.md).
Measuring the distribution anew is an analysis: `analysis.met_measure`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .. import __version__
from ..core.errors import ArgumentError
from ..core.rules import PRESETS, Rules
from .cube import CONTACT_EFFICIENCY
from .cube_table import CubefulMatchTable
from .state import distribution_for
from .table import DEFAULT_DRAW_POINTS, DEFAULT_NEXT_WHITE, GameDistribution, MatchTable

MAX_LENGTH = 64


@dataclass(frozen=True)
class MatchEquityTable:
    """M[i-1][j-1]: the chance that a player needing i points beats one needing j, before a game
    whose colours are drawn by lot (`table`) or in which the first player is White (`as_white`)."""

    length: int
    next_white: str
    draw_points: float
    rules: Rules
    distribution: GameDistribution
    table: np.ndarray
    as_white: np.ndarray
    se: np.ndarray | None = None

    def to_dict(self) -> dict:
        """The JSON object of `nardy met --format json`."""
        out = {"length": self.length, "next_white": self.next_white,
               "draw_points": self.draw_points, "rules": self.rules.to_dict(),
               "table": self.table.tolist(), "table_as_white": self.as_white.tolist(),
               "distribution": self.distribution.to_dict(), "version": __version__}
        if self.se is not None:
            out["table_se"] = self.se.tolist()
        return out

    def frame(self):
        """The table as a pandas DataFrame: rows 'needs i', columns 'needs j' (chances in [0,
        1])."""
        import pandas as pd
        labels = [str(i) for i in range(1, self.length + 1)]
        f = pd.DataFrame(self.table, index=labels, columns=labels)
        f.index.name = "needs"
        return f


def match_equity_table(length: int, rules: Rules = PRESETS["federation"], *,
                       next_white: str = DEFAULT_NEXT_WHITE,
                       draw_points: float = DEFAULT_DRAW_POINTS,
                       distribution: GameDistribution | None = None) -> MatchEquityTable:
    """The cubeless match equity table for matches up to `length` points."""
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_LENGTH:
        raise ArgumentError(f"{{length}} must be a whole number from 1 to {MAX_LENGTH}, "
                            f"got {length!r}")
    dist = distribution or distribution_for(rules)
    if not rules.last_roll and dist.draw > 0:
        raise ArgumentError("the outcome distribution has draws, but these rules have no "
                            "last roll (R8)")
    t = MatchTable(rules.points.as_tuple(), dist, next_white, draw_points)
    return MatchEquityTable(length, next_white, draw_points, rules, dist, t.table(length),
                            t.table(length, True))


@dataclass(frozen=True)
class CubefulEquityTable:
    """The cubeful match table (docs/cube.md): M[i-1][j-1] before a game whose colours are drawn by
    lot, the cube centred (a need of 1: the Crawford game, no cube); `post_crawford[j-1]` the
    leader's chance after it."""

    length: int
    next_white: str
    draw_points: float
    rules: Rules
    distribution: GameDistribution
    efficiency: float
    table: np.ndarray
    post_crawford: np.ndarray

    def to_dict(self) -> dict:
        """The JSON object of `nardy met --cubeful --format json`."""
        return {"length": self.length, "next_white": self.next_white,
                "draw_points": self.draw_points, "rules": self.rules.to_dict(), "cubeful": True,
                "efficiency": self.efficiency, "table": self.table.tolist(),
                "post_crawford": self.post_crawford.tolist(),
                "distribution": self.distribution.to_dict(), "version": __version__}

    def frame(self):
        """The table as a DataFrame (rows 'needs i', columns 'needs j'), the post-Crawford row
        last."""
        import pandas as pd
        labels = [str(i) for i in range(1, self.length + 1)]
        f = pd.DataFrame(np.vstack([self.table, self.post_crawford]),
                         index=labels + ["post-Crawford 1"], columns=labels)
        f.index.name = "needs"
        return f


def cubeful_equity_table(length: int, rules: Rules = PRESETS["federation"], *,
                         next_white: str = DEFAULT_NEXT_WHITE,
                         draw_points: float = DEFAULT_DRAW_POINTS,
                         distribution: GameDistribution | None = None,
                         efficiency: float = CONTACT_EFFICIENCY) -> CubefulEquityTable:
    """The cubeful match table with the Crawford rule, computed from the cubeless one by the cube
    model."""
    met = match_equity_table(length, rules, next_white=next_white, draw_points=draw_points,
                             distribution=distribution)
    cubeful = CubefulMatchTable(MatchTable(rules.points.as_tuple(), met.distribution, next_white,
                                           draw_points),
                                efficiency)
    return CubefulEquityTable(length, next_white, draw_points, rules, met.distribution, efficiency,
                              cubeful.table_of(length), cubeful.post_crawford(length))


def _shares(d: GameDistribution) -> np.ndarray:
    return np.array([*d.white, *d.black, d.draw])


def table_se(met: MatchEquityTable, samples: int = 200, seed: int = 1) -> MatchEquityTable:
    """`met` with the standard error of each entry: the table's spread over distributions drawn
    around the measured one (multinomial, with as many effective games as White's win share's SE
    implies)."""
    d = met.distribution
    se_white = float(d.se.get("white_wins", 0.0))
    if se_white <= 0:
        raise ArgumentError("the outcome distribution carries no standard error to propagate")
    p = _shares(d)
    n_eff = d.white_wins * (1 - d.white_wins) / se_white ** 2
    rng = np.random.default_rng(seed)
    tables = []
    for _ in range(samples):
        q = rng.multinomial(int(round(n_eff)), p) / round(n_eff)
        dist = GameDistribution(tuple(q[0:4]), tuple(q[4:8]), float(q[8]))
        tables.append(MatchTable(met.rules.points.as_tuple(), dist, met.next_white,
                                 met.draw_points).table(met.length))
    return replace(met, se=np.std(np.array(tables), axis=0, ddof=1))
