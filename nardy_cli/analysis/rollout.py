"""Monte Carlo rollouts: whole games from a position, outcome probabilities and deficits.

The dice of game i depend only on (seed, i), and games are run in fixed chunks
whose integer counts are summed, so a rollout's result does not depend on the
number of workers, the executor or the order chunks finish in.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from ..core.errors import ArgumentError, NoGamesError, PolicyError
from ..core.outcomes import PROB_KEYS
from ..core.position import SIDE_NAMES, Position
from ..core.rules import PRESETS, Rules
from ..games import (CHUNK, OUTCOMES, GameSpec, Jobs, RunConfig, Tally, chunks, job_size,
                     policy_pair, require_in_play, run_config, run_games)
from ..games.scoring import Scoring, scored_table
from ..games.stats import outcome_table, probability_ci95
from ..kernels.board import UNFINISHED
from ..kernels.game import F_LOST, F_ROLLED, LOST_PIPS, PARTIAL, PASSES, TURNS
from ..match.cube import CubeBots
from ..match.stakes import MONEY, Stakes
from ..policies import Policy
from ..policies.network import provenance
from .rollout_row import rollout_row

MIN_GAMES_UNTIL_SE = 1296
# the most points a rollout's convergence trace keeps: a longer run keeps every other one, and so on
MAX_TRACE = 1000


@dataclass(frozen=True)
class RolloutResult:
    """What a rollout found, for the side to move in `position`."""

    position: Position
    params: dict
    games: int
    interrupted: bool
    probabilities: dict[str, float]
    se: dict[str, float]
    equity: float
    equity_se: float
    mean_plies: float
    deficit: dict[str, dict]
    unfinished: int = 0
    name: str | None = None
    # (games, equity, SE) after each chunk, in order
    trace: tuple[tuple[int, float, float], ...] = ()
    mwc: float | None = None        # at a match score: the side to move's match winning chance ...
    mwc_se: float | None = None     # ... and its standard error (None in a money game)
    # with the cube: cubeful equity per starting cube, its SE, doubled/passed shares
    cube: dict | None = None

    def to_dict(self) -> dict:
        """The JSON object of `nardy rollout --format json` (keys in the documented order); `side`
        is the side to move, whose chances and equity it holds."""
        out = {"position": str(self.position), "side": SIDE_NAMES[self.position.turn].lower(),
               "params": self.params, "games": self.games,
               "interrupted": self.interrupted, "probabilities": self.probabilities, "se": self.se,
               "equity": self.equity, "equity_se": self.equity_se}
        if self.mwc is not None:
            out |= {"mwc": self.mwc, "mwc_se": self.mwc_se}
        out |= {"mean_plies": self.mean_plies, "deficit": self.deficit}
        if self.cube is not None:
            out["cube"] = self.cube
        return {"name": self.name, **out} if self.name is not None else out

    def outcome_frame(self) -> pd.DataFrame:
        """One row per outcome: probability, standard error and 95% interval (Wilson's, over the
        games' effective number: `games.stats.share_ci95`)."""
        rows = [{"outcome": k, "probability": self.probabilities[k], "se": self.se[k],
                 **dict(zip(("ci95_low", "ci95_high"),
                            probability_ci95(self.probabilities[k], self.se[k], self.games)))}
                for k in PROB_KEYS]
        return pd.DataFrame(rows)

    def deficit_frame(self) -> pd.DataFrame:
        """One row per side: per-face deficit, lost pips per game, partial and pass shares."""
        rows = []
        for side, d in self.deficit.items():
            row = {"side": side}
            row.update({f"deficit_{f + 1}": v for f, v in enumerate(d["face_deficit"])})
            row.update({k: d[k]
                        for k in ("lost_pips_per_game", "partial_turn_share", "pass_share")})
            rows.append(row)
        return pd.DataFrame(rows)

    def summary_row(self) -> dict:
        """One flat row (for CSV and batch tables): every column of `result_schema.ROLLOUT_ROW`."""
        return rollout_row(self.to_dict())


def _deficit_figures(deficit: np.ndarray, games: int) -> dict[str, dict]:
    out = {}
    for side, key in ((0, "white"), (1, "black")):
        row = deficit[side]
        rolled, lost = row[F_ROLLED:F_ROLLED + 6], row[F_LOST:F_LOST + 6]
        turns = row[TURNS]
        out[key] = {
            "face_deficit": [float(l / r) if r else 0.0 for l, r in zip(lost, rolled)],
            "lost_pips_per_game": float(row[LOST_PIPS] / games) if games else 0.0,
            "partial_turn_share": float(row[PARTIAL] / turns) if turns else 0.0,
            "pass_share": float(row[PASSES] / turns) if turns else 0.0,
        }
    return out


def summarize(spec: GameSpec, tally: Tally, games_requested: int, until_se: float | None,
              interrupted: bool, name: str | None = None) -> RolloutResult:
    """Turn a tally into a `RolloutResult`."""
    games = tally.games
    params = {"rules": spec.rules.to_dict(),
              "policies": {"white": spec.white.name, "black": spec.black.name}, "seed": spec.seed,
              "games_requested": games_requested, "until_se": until_se, "stratify": spec.stratify,
              **spec.scoring.to_dict(),
              **provenance(spec.white.name, spec.black.name)}
    valuation = spec.values
    if spec.stakes.match is not None:
        params["match"] = spec.stakes.match.to_dict()
    if spec.scoring.active and not spec.with_cube:
        table = scored_table(tally.counts, tally.scored, tally.frac, adjusted=bool(spec.scoring.vr))
        table["unfinished"] = int(tally.counts[:, UNFINISHED].sum())
        plain = scored_table(tally.counts, tally.scored, tally.frac, adjusted=False)
        params["plain"] = {"equity": plain["equity"], "equity_se": plain["equity_se"]}
        params["scored_games"] = int(tally.scored.sum())
    else:
        table = outcome_table(tally.counts, spec.rules.points,
                              valuation.root_values(spec.position.turn == "w"))
    if until_se is not None and not interrupted:  # False: the maximum of games was played first
        params["until_se_met"] = bool(table["equity_se"] <= until_se)
    mwc = ({} if valuation.is_money
           else {"mwc": valuation.chance(table["value"]), "mwc_se": table["value_se"] / 2})
    if spec.with_cube:
        from ..games.cube_loop import cube_figures
        params["cube"] = {"start": spec.stakes.cube_dict(), **spec.cube_bots.to_dict()}
        mwc["cube"] = cube_figures(tally.cube, tally.counts, spec.scoring.vr) if games else None
    return RolloutResult(spec.position, params, games, interrupted, table["probabilities"],
                         table["se"], table["equity"], table["equity_se"],
                         float(tally.plies[0] / games) if games else float("nan"),
                         _deficit_figures(tally.deficit, games), table["unfinished"], name, **mwc)


ProgressFn = Callable[[RolloutResult], None]


def cube_scoring(scoring: Scoring, stakes: Stakes, white, black, bots: CubeBots) -> Scoring:
    """The scoring of a rollout with the cube: every game played to its end, with variance
    reduction only when asked for (`vr=True`: the luck in cubeful terms, `kernels/cube.py`).

    A bear-off stop or truncation is scored by cubeless chances, so they are refused rather than
    mixed into a cubeful equity; raises for a match (rolled out by `match_cube_rollout`) or a side
    that cannot use the cube.
    """
    from ..games.cube_loop import check_cube_policies, money_cube
    money_cube(stakes)
    refuse_scoring_with_cube(scoring, white, black)
    check_cube_policies(white, black, bots)
    return Scoring(exact_bearoff=False, truncate=None, vr=bool(scoring.vr), bearoff_policy=False)


def refuse_scoring_with_cube(scoring: Scoring, white, black) -> None:
    """Raise `ArgumentError` for a scoring option asked for with the cube (exact bear-off stops,
    truncation, a luck network: games with the cube are played to their end), and `PolicyError`
    for variance reduction with a policy that has no evaluator (the luck values each roll by the
    side's own evaluator)."""
    for name, on in (("exact_bearoff", scoring.exact_bearoff),
                     ("truncate", scoring.truncate is not None),
                     ("luck_network", scoring.luck_network is not None)):
        if on:
            raise ArgumentError(f"{{{name}}} cannot be used with the cube: "
                                "games with the cube are played to their end")
    for policy in (white, black) if scoring.vr else ():
        if not policy.has_evaluator:
            raise PolicyError(f"policy {policy.name!r} has no evaluator of outcome chances, so "
                              "variance reduction with the cube cannot value its rolls: "
                              "drop --vr")


def rollout(position: Position, policies: str | Policy | Sequence[str | Policy] = "neural", *,
            run: RunConfig | None = None, rules: Rules = PRESETS["federation"],
            name: str | None = None, scoring: Scoring = Scoring(), stakes: Stakes = MONEY,
            cube_bots: CubeBots = CubeBots(), job_games: int | None = None,
            **fields) -> RolloutResult:
    """Play up to `run.games` games from `position` and return the outcome statistics.

    `policies` is one policy for both sides or a (white, black) pair, by name or
    object.  `run` (a `RunConfig`, or its fields as keywords: games=10000, seed, until_se, workers,
    stratify, executor, scheduler, progress) says how the games run; `until_se` stops once the
    equity's standard error is at most that (checked after each chunk of 1,296 games, never before
    1,296 games); `progress` hears a `RolloutResult` of the games so far.
    Ctrl-C (or SIGTERM, SIGHUP under the command line) returns the games finished so far, marked
    `interrupted`; before any game finished it raises `NoGamesError`.
    `scoring` sets exact bear-offs (on), truncation (off) and variance
    reduction (on for policies with an evaluator); see `scoring.Scoring`.
    At a match score (`stakes.match`) the policies choose by match equity and the result also
    carries the side to move's match winning chance `mwc` and its SE.
    With a cube in the `stakes` every game is played with the bots' cube decisions (`cube_bots`;
    money only) and to its end: no exact bear-offs or truncation (`cube_scoring`); variance
    reduction only with `Scoring(vr=True)`, its luck in cubeful terms; the result's `cube` holds
    the cubeful equity in units of the starting cube (with VR the reduced one, and the plain one
    beside it).
    `job_games` (a divisor of 1,296) cuts the games into smaller jobs, so that `progress` hears
    more often (a page's progress bar); the figures do not depend on it.
    """
    white, black = policy_pair(policies)
    if job_games is not None and (job_games < 1 or CHUNK % job_games):
        raise ArgumentError(f"{{job_games}} must divide {CHUNK}, got {job_games!r}")
    run = run_config(run, fields)
    games, until_se, progress = run.games, run.until_se, run.progress
    require_in_play(position, rules)
    if stakes.cube is not None:
        scoring = cube_scoring(scoring, stakes, white, black, cube_bots)
    spec = GameSpec(position, rules, white, black, run.seed, run.stratify,
                    scoring.resolved(white, black), stakes, cube_bots)

    trace: list[tuple[int, float, float]] = []
    stride = [1]        # the trace keeps every stride-th multiple of CHUNK games (and the last)

    def stop(tally: Tally) -> bool:
        """Called each time the in-order prefix of jobs grows: at each multiple of CHUNK games (and
        at the end) trace it and apply the stop rule."""
        if tally.games % CHUNK and tally.games < games:
            return False
        partial = summarize(spec, tally, games, until_se, False)
        if (tally.games // CHUNK) % stride[0] == 0 or tally.games >= games:
            trace.append((partial.games, partial.equity, partial.equity_se))
        if len(trace) > MAX_TRACE:      # a long run's trace stays short: every other point goes
            stride[0] *= 2
            trace[:] = [t for t in trace if (t[0] // CHUNK) % stride[0] == 0]
        if until_se is None or tally.games < MIN_GAMES_UNTIL_SE:
            return False
        return partial.equity_se <= until_se

    def report(tally: Tally) -> None:
        if progress is not None:
            progress(summarize(spec, tally, games, until_se, False, name))

    size = job_games or job_size(games, run.workers if run.executor == "local" else 1)
    jobs = Jobs(chunks(games, size), lambda lohi: (spec, None, *lohi))     # made as they are sent
    tally, interrupted = run_games(jobs, OUTCOMES, **run.executors, stop=stop, report=report)
    if interrupted and tally.games == 0:
        raise NoGamesError(f"the rollout of {position} was interrupted before any game finished")
    result = summarize(spec, tally, games, until_se, interrupted, name)
    return replace(result, trace=tuple(t for t in trace if t[0] <= result.games))

