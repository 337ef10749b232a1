"""Cubeful rollouts at a match score (issue 42, item 1): the side on roll's cubeful match winning
chance with both sides playing the bots' cube at the score, and its cube decision rolled out.

When the side on roll may double (the cube centred or its own, not the Crawford game, no dice
rolled yet) the rollout plays each game twice on the same dice (common random numbers,
`games/match_cube_games.py`): **no double** (the roller holds the cube for this roll) and
**double/take** (the opponent owns twice the cube); **double/pass** needs no games (the roller
wins the cube's points: the cubeful match table's chance after it).  Otherwise it plays the cube
as it is.  The games run in this process, in the compiled cube loop's match mode (a chunk of
games a kernel call).  With `Scoring(vr=True)` each game's value less its luck in match winning
chance (`kernels.cube.roll_luck`) is averaged instead of the value, and `params["plain"]` keeps
the unreduced estimates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ..core.errors import NoGamesError
from ..core.position import SIDE_NAMES, Position
from ..core.rules import PRESETS, Rules
from ..core.limits import check_kept
from ..games import RunConfig, policy_pair, require_in_play, run_config
from ..games.scoring import Scoring
from ..games.match_cube_games import game_value, match_cube_games, taken_stakes
from ..kernels.codes import WIN_BASE
from ..match.cube import CubeBots, decide
from ..match.stakes import Stakes
from ..policies import Policy
from ..policies.network import provenance

CHUNK = 108
MIN_GAMES_UNTIL_SE = 324


@dataclass(frozen=True)
class Estimate:
    """A rolled-out match winning chance and its standard error."""

    mean: float
    se: float

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% interval (mean ± 1.96 SE)."""
        return self.mean - 1.96 * self.se, self.mean + 1.96 * self.se

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        return {"mwc": self.mean, "se": self.se, "ci95": list(self.ci95)}


def estimate(values: np.ndarray) -> Estimate:
    """The mean of the games' values and its standard error."""
    n = len(values)
    se = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return Estimate(float(values.mean()), se)


@dataclass(frozen=True)
class MatchCubeRollout:
    """A cubeful rollout at a match score, for the side on roll in `position`: `no_double` (the cube
    as it is; held for this roll when the roller may double), and when it may double
    `double_take`, `double_pass` (exact), `take_minus_no_double` (the paired difference) and the
    `decision` (`cube.decide` of the three means)."""

    position: Position
    params: dict
    games: int
    interrupted: bool
    no_double: Estimate
    double_take: Estimate | None = None
    double_pass: float | None = None
    take_minus_no_double: Estimate | None = None
    decision: str | None = None

    def to_dict(self) -> dict:
        """The JSON object of `nardy rollout --match N --cube-owner ... --format json`."""
        out = {"position": str(self.position), "side": SIDE_NAMES[self.position.turn].lower(),
               "params": self.params, "games": self.games, "interrupted": self.interrupted,
               "unit": "mwc", "no_double": self.no_double.to_dict()}
        if self.double_take is not None:
            out |= {"double_take": self.double_take.to_dict(), "double_pass": self.double_pass,
                    "take_minus_no_double": self.take_minus_no_double.to_dict(),
                    "decision": self.decision}
        return out


def match_cube_rollout(position: Position,
                       policies: str | Policy | Sequence[str | Policy] = "neural", *,
                       stakes: Stakes, run: RunConfig | None = None,
                       rules: Rules = PRESETS["federation"], cube_bots: CubeBots = CubeBots(),
                       scoring: Scoring = Scoring(),
                       progress: Callable[[int, Estimate], None] | None = None,
                       **fields) -> MatchCubeRollout:
    """Roll out `position` at `stakes` (a match score with a cube): up to `run.games` games a
    branch (its seed, stratify and until_se, on the no-double chance's SE; its workers are not used:
    the games run here), as the module doc says; `progress(games, no-double estimate)` hears of
    each chunk.  Ctrl-C returns the games finished so far, marked `interrupted`.  Raises for a
    scoring option other than VR (games with the cube are played to their end) or a side that
    cannot use the cube."""
    from ..games.match_cube_play import check_cube_pair
    from .rollout import refuse_scoring_with_cube
    white, black = policy_pair(policies)
    run = run_config(run, fields)
    check_kept(run.games)      # each game's value is kept, for the paired branches
    require_in_play(position, rules)
    refuse_scoring_with_cube(scoring, white, black)
    check_cube_pair(white, black, cube_bots)
    cube = stakes.cube
    roller = position.turn
    decides = (position.dice is None and not stakes.crawford
               and cube.relative(roller) != "opponent")
    branches = [(stakes, decides)] + ([(taken_stakes(stakes, roller), False)] if decides else [])
    values: list[list[np.ndarray]] = [[] for _ in branches]     # reduced by the luck with VR
    plain: list[list[np.ndarray]] = [[] for _ in branches]
    vr = bool(scoring.vr)
    done, interrupted = 0, False
    try:
        while done < run.games:
            hi = min(run.games, done + CHUNK)
            for k, (at, hold) in enumerate(branches):
                got, luck = match_cube_games(position, white, black, rules, at, cube_bots,
                                             run.seed, done, hi, hold, run.stratify, vr=vr)
                values[k].append(got - luck)
                plain[k].append(got)
            done = hi
            if progress is not None:
                progress(done, estimate(np.concatenate(values[0])))
            if (run.until_se is not None and done >= MIN_GAMES_UNTIL_SE
                    and estimate(np.concatenate(values[0])).se <= run.until_se):
                break
    except KeyboardInterrupt:
        interrupted = True
    done = min(len(np.concatenate(v)) if v else 0 for v in values)
    if done == 0:
        raise NoGamesError(f"the rollout of {position} was interrupted before any game finished")
    arrays = [np.concatenate(v)[:done] for v in values]
    params = {"rules": rules.to_dict(), "policies": {"white": white.name, "black": black.name},
              "seed": run.seed, "games_requested": run.games, "until_se": run.until_se,
              "stratify": run.stratify, "match": stakes.match.to_dict(),
              "cube": {"start": stakes.cube_dict(), **cube_bots.to_dict()},
              "common_random_numbers": decides, "loop": "compiled", "vr": vr,
              **provenance(white.name, black.name)}
    if vr:
        params["plain"] = {name: estimate(np.concatenate(v)[:done]).to_dict()
                           for name, v in zip(("no_double", "double_take"), plain)}
    nd = estimate(arrays[0])
    if not decides:
        return MatchCubeRollout(position, params, done, interrupted, nd)
    dt = estimate(arrays[1])
    dp = game_value(stakes, rules, roller, WIN_BASE, cube.value)
    diff = estimate(arrays[1] - arrays[0])
    return MatchCubeRollout(position, params, done, interrupted, nd, dt, dp, diff,
                            decide(nd.mean, dt.mean, dp))
