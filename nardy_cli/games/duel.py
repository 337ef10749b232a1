"""Head-to-head duels with duplicate dice: every dice sequence is played with A on each side."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.errors import ArgumentError, NoGamesError
from ..core.outcomes import result_values
from ..core.position import START, Position
from ..core.rules import PRESETS, Rules
from ..kernels.board import DRAW, HOME_MARS, KOKS, LOSE_BASE, MARS, WIN_BASE
from ..match.cube import CubeBots
from ..match.stakes import MONEY, Stakes
from ..policies import Policy
from ..policies.network import provenance
from .stats import share_ci95
from . import (CHUNK, PAIRS, GameSpec, Jobs, RunConfig, Tally, chunks, job_size, policy_pair,
    require_in_play, run_config, run_games)


@dataclass(frozen=True)
class DuelResult:
    """A's results against B: points per game with a 95% interval, and outcome shares (A's win
    share with its 95% interval, Wilson's: `stats.share_ci95`)."""

    a: str
    b: str
    games: int
    points_per_game: float
    ci95: tuple[float, float]
    se: float
    win_share: float
    mars_share_for: float
    mars_share_against: float
    koks_share_for: float
    koks_share_against: float
    draw_share: float
    params: dict
    interrupted: bool = False
    # with the cube: A's points per game with the cube, its SE and 95% interval
    cube: dict | None = None
    win_ci95: tuple[float, float] = (0.0, 1.0)

    def to_dict(self) -> dict:
        """The JSON object of `nardy duel --format json`."""
        out = {"a": self.a, "b": self.b, "games": self.games,
               "points_per_game": self.points_per_game,
                "ci95": list(self.ci95), "se": self.se, "win_share": self.win_share,
               "win_ci95": list(self.win_ci95),
                "mars_share_for": self.mars_share_for,
               "mars_share_against": self.mars_share_against,
                "koks_share_for": self.koks_share_for,
               "koks_share_against": self.koks_share_against,
                "draw_share": self.draw_share, "interrupted": self.interrupted,
               "params": self.params}
        if self.cube is not None:
            out["cube"] = self.cube
        return out

    def frame(self) -> pd.DataFrame:
        """One row: the figures as a DataFrame."""
        d = self.to_dict()
        d["ci95_low"], d["ci95_high"] = self.ci95
        d["win_ci95_low"], d["win_ci95_high"] = self.win_ci95
        del d["ci95"], d["win_ci95"], d["params"]
        if self.cube is not None:
            cube = d.pop("cube")
            d |= {"cube_points_per_game": cube["points_per_game"], "cube_ci95_low": cube["ci95"][0],
                  "cube_ci95_high": cube["ci95"][1], "cube_se": cube["se"],
                  "cube_doubled_share": cube["doubled_share"],
                  "cube_passed_share": cube["passed_share"]}
        return pd.DataFrame([d])


def duel_figures(joint: np.ndarray, rules: Rules) -> dict:
    """A's points per game, its SE and 95% interval, and the outcome shares from the pair counts;
    A's win share with its 95% interval over the pairs (Wilson's, `stats.share_ci95`)."""
    pairs = int(joint.sum())
    if pairs == 0:
        raise NoGamesError("no duel games were finished")
    values = result_values(rules.points)
    pair_value = (values[:, None] - values[None, :]) / 2.0       # A's points per game in a pair
    p = joint / pairs
    mean = float((p * pair_value).sum())
    var = max(float((p * pair_value ** 2).sum()) - mean ** 2, 0.0)
    se = math.sqrt(var / max(pairs - 1, 1))
    a_as_root = joint.sum(axis=1)      # A's results when A was the root side
    b_as_root = joint.sum(axis=0)      # B's results when B was the root side: A's are the opposite
    games = 2 * pairs

    def share(a_codes, b_codes) -> float:
        return float((a_as_root[list(a_codes)].sum() + b_as_root[list(b_codes)].sum()) / games)

    wins, losses = range(WIN_BASE, WIN_BASE + 4), range(LOSE_BASE, LOSE_BASE + 4)
    won = np.zeros(len(values))
    won[list(wins)] = 1.0
    lost = np.zeros(len(values))
    lost[list(losses)] = 1.0
    pair_wins = (won[:, None] + lost[None, :]) / 2.0        # A's wins per game in a pair
    win_share = float((p * pair_wins).sum())
    win_var = max(float((p * pair_wins ** 2).sum()) - win_share ** 2, 0.0)
    win_se = math.sqrt(win_var / max(pairs - 1, 1))
    mars_win, mars_loss = ((WIN_BASE + HOME_MARS, WIN_BASE + MARS),
                           (LOSE_BASE + HOME_MARS, LOSE_BASE + MARS))
    return {"games": games, "points_per_game": mean, "ci95": (mean - 1.96 * se, mean + 1.96 * se),
            "se": se, "win_share": share(wins, losses),
            "win_ci95": share_ci95(win_share, win_se, games),
            "mars_share_for": share(mars_win, mars_loss),
            "mars_share_against": share(mars_loss, mars_win),
            "koks_share_for": share((WIN_BASE + KOKS,), (LOSE_BASE + KOKS,)),
            "koks_share_against": share((LOSE_BASE + KOKS,), (WIN_BASE + KOKS,)),
            "draw_share": share((DRAW,), (DRAW,))}


def cube_duel_figures(sums: np.ndarray, pairs: int) -> dict:
    """A's points per game with the cube (in units of the starting cube), its SE and 95% interval,
    and the shares of games doubled and passed, from a duel tally's cube sums
    (`kernels.cube.play_cube_chunk`)."""
    from ..kernels.cube import C_DOUBLED, C_PASSED, C_POINTS, C_POINTS2, CUBE_SCALE
    if pairs == 0:
        raise NoGamesError("no duel games were finished")
    row = sums[0] / CUBE_SCALE
    # a pair's value is (A's points as root - B's) / 2
    mean = float(row[C_POINTS] / pairs / 2.0)
    var = max(float(row[C_POINTS2] / pairs / 4.0) - mean ** 2, 0.0)
    se = math.sqrt(var / max(pairs - 1, 1))
    return {"points_per_game": mean, "ci95": [mean - 1.96 * se, mean + 1.96 * se], "se": se,
            "doubled_share": float(sums[0, C_DOUBLED] / (2 * pairs)),
            "passed_share": float(sums[0, C_PASSED] / (2 * pairs))}


def duel(a: str | Policy, b: str | Policy, *, run: RunConfig | None = None,
         rules: Rules = PRESETS["federation"], position: Position = START,
         stakes: Stakes = MONEY, cube_bots: CubeBots = CubeBots(), **fields) -> DuelResult:
    """A against B over `run.games` games (rounded up to pairs) with duplicate dice, for money.

    `run` is a `RunConfig` or its fields as keywords (games=10000, seed, workers, stratify,
    executor, scheduler, progress; a duel has no stop rule); `progress` hears the pairs' `Tally`.

    With a cube in the `stakes` every game is played with the cube (`cube_bots.white` is A's
    behaviour, `cube_bots.black` B's) and the result's `cube` holds A's cubeful points per game;
    the other figures count the games' result classes (a passed double as the doubler's oin).
    Whole matches are `match_play.match_duel`'s.
    """
    run = run_config(run, fields)
    games, seed, stratify, progress = run.games, run.seed, run.stratify, run.progress
    if games < 2:
        raise ArgumentError(f"{{games}} must be at least 2 for a duel, got {games}")
    if run.until_se is not None:
        raise ArgumentError("{until_se} is not supported by duel; use {games}")
    require_in_play(position, rules)
    pa, pb = policy_pair((a, b))
    if stakes.cube is not None:
        from .cube_loop import check_cube_policies, money_cube
        money_cube(stakes)
        check_cube_policies(pa, pb, cube_bots)
    elif stakes.match is not None:
        raise ArgumentError("a duel plays money games: whole matches are match_play.match_duel's")
    spec = GameSpec(position, rules, pa, pb, seed, stratify, stakes=stakes, cube_bots=cube_bots)
    pairs = (games + 1) // 2

    def report(tally: Tally) -> None:
        if progress is not None:
            progress(tally)

    # a short duel uses every worker
    size = job_size(pairs, run.workers if run.executor == "local" else 1, CHUNK // 2)
    jobs = Jobs(chunks(pairs, size), lambda lohi: (spec, None, *lohi))     # made as they are sent
    tally, interrupted = run_games(jobs, PAIRS, **run.executors, report=report)
    if interrupted and not tally.joint.sum():
        raise NoGamesError("the duel was interrupted before any game finished")
    figures = duel_figures(tally.joint, rules)
    params = {"rules": rules.to_dict(), "position": str(position), "seed": seed,
              "games_requested": games, "stratify": stratify, "duplicate_dice": True,
              **provenance(pa.name, pb.name)}
    extra = {}
    if stakes.cube is not None:
        params["cube"] = {"start": stakes.cube_dict(), **cube_bots.to_dict(), "a": cube_bots.white,
                          "b": cube_bots.black}
        del params["cube"]["white"], params["cube"]["black"]
        extra["cube"] = cube_duel_figures(tally.cube, int(tally.joint.sum()))
    return DuelResult(pa.name, pb.name, params=params, interrupted=interrupted, **figures, **extra)
