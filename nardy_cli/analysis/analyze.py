"""Ranking the plays of a roll by rollouts with common random numbers.

Every candidate play's result is rolled out over the same game numbers with the
same seed, so all candidates see the same dice sequences; the differences between
candidates are then measured on paired games, far more precisely than their levels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.dice import Dice, parse_dice
from ..core.engine import Play, legal_plays
from ..core.errors import ArgumentError, NoGamesError
from ..core.interrupts import held_interrupts
from ..core.outcomes import PROB_KEYS, SWAP
from ..core.position import Position
from ..core.rules import PRESETS, Rules
from ..core.limits import check_kept
from ..games import CHUNK, RESULTS, GameSpec, RunConfig, policy_pair, run_config, run_games
from ..games.stats import outcome_table
from ..kernels.board import N_RESULTS
from ..kernels.game import N_STRATA
from ..match.stakes import MONEY, Stakes
from ..policies.builtin import HEURISTIC
from ..policies.network import provenance


@dataclass(frozen=True)
class RankedPlay:
    """One candidate play with its rollout figures for the player who makes it."""

    play: Play
    games: int
    probabilities: dict[str, float]
    se: dict[str, float]
    equity: float
    equity_se: float
    diff: float            # equity minus the best play's (0 for the best)
    diff_se: float         # paired standard error of the difference
    dropped_after: int | None = None   # games played when --until-se dropped it
    # at a match score: the match winning chance (plays rank by it) ...
    mwc: float | None = None
    mwc_se: float | None = None
    money_rank: int | None = None      # ... and the play's rank by money equity


@dataclass(frozen=True)
class PlayRanking:
    """The plays of one roll ranked by rollout equity, best first."""

    position: Position
    dice: Dice
    plays: list[RankedPlay]
    params: dict
    prefiltered: list[str]        # plays left out by --top before rolling out
    interrupted: bool = False

    def frame(self) -> pd.DataFrame:
        """One row per rolled-out play: rank, play, equity ± SE, difference to the best ± paired
        SE."""
        rows = []
        for rank, rp in enumerate(self.plays, 1):
            row = {"rank": rank, "play": str(rp.play), "result": str(rp.play.result),
                   "games": rp.games, "equity": rp.equity, "equity_se": rp.equity_se,
                   "diff": rp.diff, "diff_se": rp.diff_se}
            if rp.mwc is not None:
                row.update({"mwc": rp.mwc, "mwc_se": rp.mwc_se, "money_rank": rp.money_rank})
            row.update({k: rp.probabilities[k] for k in PROB_KEYS})
            row["dropped_after"] = rp.dropped_after
            rows.append(row)
        return pd.DataFrame(rows)

    def to_dict(self) -> dict:
        """Plain data for JSON (and for re-drawing charts)."""
        return {"position": str(self.position), "dice": str(self.dice), "params": self.params,
                "interrupted": self.interrupted, "prefiltered": self.prefiltered,
                "plays": [{"rank": i + 1, "play": str(rp.play), "result": str(rp.play.result),
                           "games": rp.games, "probabilities": rp.probabilities, "se": rp.se,
                           "equity": rp.equity, "equity_se": rp.equity_se, "diff": rp.diff,
                           "diff_se": rp.diff_se,
                           **({"mwc": rp.mwc, "mwc_se": rp.mwc_se, "money_rank": rp.money_rank}
                              if rp.mwc is not None else {}),
                           "dropped_after": rp.dropped_after} for i, rp in enumerate(self.plays)]}


def prefilter(position: Position, plays: list[Play], top: int, policy, rules: Rules, valuation=None
              ) -> tuple[list[Play], list[Play]]:
    """The `top` plays by the policy's evaluator (heuristic for policies without one) under
    `rules`, and the rest."""
    scorer = policy.static_scorer() or HEURISTIC
    boards = [Position.unchecked(p.result.white, p.result.black, position.turn).board()[0]
              for p in plays]
    scores = scorer.static_scores(boards, position.turn == "w", rules, valuation)
    order = np.argsort(-scores, kind="stable")
    keep = sorted(order[:top])
    return [plays[i] for i in keep], [plays[i] for i in order[top:]]


def _figures(codes: np.ndarray, stratify: bool, rules: Rules, values: np.ndarray) -> dict:
    """Outcome table of per-game result codes (already from the player's view), with the mean of
    `values`."""
    counts = np.zeros((N_STRATA, N_RESULTS), dtype=np.int64)
    strata = ((np.arange(len(codes)) % N_STRATA) if stratify
              else np.zeros(len(codes), dtype=np.int64))
    np.add.at(counts, (strata, codes), 1)
    return outcome_table(counts, rules.points, values)


class _Problem:
    """One (position, roll) being ranked: its candidates, the per-game results so far, and `values`,
    what each result code is worth to the player (money points, or match equity at a match
    score)."""

    def __init__(self, position: Position, dice: Dice, plays: list[Play], prefiltered: list[Play],
                 specs, values: np.ndarray, match: bool) -> None:
        self.position, self.dice, self.plays, self.prefiltered, self.specs = (position, dice, plays,
                                                                              prefiltered, specs)
        self.values, self.match = values, match
        self.codes = {i: np.zeros(0, dtype=np.int64) for i in range(len(plays))}
        self.alive = set(range(len(plays)))
        self.dropped: dict[int, int] = {}
        self.finished = False

    def review(self, done: int, games: int, until_se: float | None, stratify: bool,
               rules: Rules) -> None:
        """After a round: drop clearly worse plays and stop when every SE is small enough
        (--until-se; at a match score the match equity's)."""
        if until_se is None:
            return
        values = self.values
        if len(self.alive) > 1:
            means = {i: values[self.codes[i]].mean() for i in self.alive}
            best = max(self.alive, key=lambda i: means[i])
            for i in sorted(self.alive - {best}):
                diff = values[self.codes[best]] - values[self.codes[i]]
                se = diff.std(ddof=1) / math.sqrt(len(diff)) if len(diff) > 1 else math.inf
                if se > 0 and diff.mean() > 3 * se:
                    self.alive.discard(i)
                    self.dropped[i] = done
        if done >= min(games, CHUNK) and all(
                _figures(self.codes[i], stratify, rules, values)["value_se"] <= until_se
                for i in self.alive):
            self.finished = True

    def ranking(self, stratify: bool, rules: Rules, params: dict, interrupted: bool) -> PlayRanking:
        """The plays ranked by equity (at a match score by match winning chance), best first;
        dropped plays last.  `diff` is in the ranking's unit: money points, or match winning
        chance."""
        values = self.values
        table = {i: _figures(self.codes[i], stratify, rules, values) for i in range(len(self.plays))
                 if len(self.codes[i])}
        if not table:
            raise NoGamesError("the analysis was interrupted before any game finished")
        best = max(table, key=lambda i: table[i]["value"])
        by_money = sorted(table, key=lambda i: -table[i]["equity"])
        scale = 0.5 if self.match else 1.0       # match equity -> match winning chance
        ranked = []
        for i, fig in table.items():
            n = min(len(self.codes[i]), len(self.codes[best]))
            diff = (values[self.codes[i][:n]] - values[self.codes[best][:n]]) * scale
            diff_se = float(diff.std(ddof=1) / math.sqrt(n)) if n > 1 and i != best else 0.0
            extra = ({"mwc": (fig["value"] + 1) / 2, "mwc_se": fig["value_se"] / 2,
                      "money_rank": by_money.index(i) + 1} if self.match else {})
            ranked.append(RankedPlay(self.plays[i], len(self.codes[i]), fig["probabilities"],
                                     fig["se"], fig["equity"], fig["equity_se"],
                                     float(diff.mean()) if i != best else 0.0, diff_se,
                                     self.dropped.get(i), **extra))
        ranked.sort(key=lambda rp: (rp.dropped_after is not None,
                                    -(rp.mwc if self.match else rp.equity)))
        # False: the maximum of games came first
        if params.get("until_se") is not None and not interrupted:
            params = {**params,
                      "until_se_met": all(rp.equity_se <= params["until_se"] for rp in ranked
                                          if rp.dropped_after is None)}
        return PlayRanking(self.position.with_dice(None), self.dice, ranked, params,
                           [str(p) for p in self.prefiltered], interrupted)


def rank_many(problems: list[tuple[Position, Dice | str | None]], policies="neural", *,
              run: RunConfig | None = None, rules: Rules = PRESETS["federation"],
              top: int | None = None, stakes: Stakes = MONEY,
              **fields) -> list[PlayRanking]:
    """Rank the plays of several (position, roll) problems; their games run side by side on the
    workers.

    `run` is a `RunConfig` or its fields as keywords (games=2592, seed, until_se, workers, stratify,
    executor, scheduler, progress); `progress(done, games)` hears the games per play so far.
    At a match score (`stakes.match`) the games are played and the plays ranked by match equity
    (`mwc` on each play)."""
    run = run_config(run, fields, games=2592)
    games, seed, until_se, stratify = run.games, run.seed, run.until_se, run.stratify
    check_kept(games)
    progress = run.progress
    if top is not None and top < 1:
        raise ArgumentError(f"{{top}} must be at least 1, got {top}")
    white, black = policy_pair(policies)
    valuation = stakes.valuation(rules)
    todo: list[_Problem] = []
    for position, dice in problems:
        dice = parse_dice(dice) if isinstance(dice, str) else (dice or position.dice)
        if dice is None:
            raise ArgumentError("no dice: give {dice} or a position that carries dice")
        plays = legal_plays(position, dice, rules)
        dropped_pre: list[Play] = []
        if top is not None:
            mover = white if position.turn == "w" else black
            plays, dropped_pre = prefilter(position, plays, top, mover, rules, valuation)
        specs = [GameSpec(p.result, rules, white, black, seed, stratify, stakes=stakes)
                 for p in plays]
        values = valuation.root_values(position.turn == "w")
        todo.append(_Problem(position, dice, plays, dropped_pre, specs, values,
                             not valuation.is_money))
    round_size = min(CHUNK, games)
    interrupted = False
    done = 0
    try:
        while done < games and any(not p.finished for p in todo):
            hi = min(done + round_size, games)
            jobs = [(prob.specs[i], (k, i), lo, min(lo + CHUNK, hi)) for k, prob in enumerate(todo)
                    if not prob.finished for i in sorted(prob.alive)
                    for lo in range(done, hi, CHUNK)]
            live = sum(len(prob.alive) for prob in todo if not prob.finished)
            report = ((lambda t, start=done, live=live: progress(start + t.games // live, games))
                      if progress else None)
            tally, interrupted = run_games(jobs, RESULTS, **run.executors, report=report)
            if interrupted:
                break
            with held_interrupts():     # a round counts for every play or for none
                for ((k, i), lo), res in sorted(tally.results.items()):
                    todo[k].codes[i] = np.concatenate([todo[k].codes[i],
                                                       SWAP[res.astype(np.int64)]])
                done = hi
                for prob in todo:
                    if not prob.finished:
                        prob.review(done, games, until_se, stratify, rules)
            if progress is not None:
                progress(done, games)
    except KeyboardInterrupt:      # between rounds: every finished round is kept
        interrupted = True
    params = {"rules": rules.to_dict(), "policies": {"white": white.name, "black": black.name},
              "seed": seed, "games_requested": games, "top": top, "until_se": until_se,
              "stratify": stratify, **provenance(white.name, black.name)}
    if stakes.match is not None:
        params["match"] = stakes.match.to_dict()
    return [prob.ranking(stratify, rules, params, interrupted) for prob in todo]


def rank_plays(position: Position, dice: Dice | str | None = None, policies="neural",
               **options) -> PlayRanking:
    """Roll out every distinct legal play of the roll and rank them by equity for the mover.

    Options as `rank_many`: run (or its fields), rules, top, stakes.
    """
    return rank_many([(position, dice)], policies, **options)[0]
