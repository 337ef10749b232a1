"""Staged ranking of the plays of a roll: 0-ply, then 1-ply, then rollouts of the survivors.

As strong backgammon tools do: every distinct play is scored by the evaluator
(0-ply); the plays within a margin of the best (or the best K) are scored one
ply deeper (the mean over the opponent's 21 rolls of its best reply); the
survivors of a second margin are rolled out with common random numbers (every
candidate plays the same game numbers, so the same dice) until the best play's
equity standard error reaches `until_se` or `games` games.  During the rollouts
a play clearly worse than the best (paired difference over 3 standard errors)
stops early.  Every stage's scores are kept for the report.

At least the best two plays (`LEAST_KEPT`), and every play tied with the second,
go through every stage and are rolled out to the end, so a coach sees the best
few confirmed side by side: a filter that would keep fewer keeps them anyway
(`Stage.floor` names them), and the rollouts never drop the runner-up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.dice import Dice, parse_dice
from ..core.engine import Play, legal_plays
from ..core.errors import ArgumentError, FilterError, NoGamesError, PolicyError
from ..core.interrupts import held_interrupts
from ..core.outcomes import PROB_KEYS, Valuation, result_values, swap
from ..core.position import Position
from ..core.rules import PRESETS, Rules
from ..core.limits import check_kept
from ..games import (CHUNK, VALUES, GameSpec, RunConfig, chunks, job_size, policy_pair,
                     require_in_play, run_config, run_games)
from ..games.scoring import Scoring, moments_mean_se
from ..games.stats import INDICATORS
from ..match.stakes import MONEY, Stakes
from ..games.tally import N_STRATA
from ..policies.analysis import logistic_coefficients
from ..policies.bearoff import tables as race_tables
from ..policies.network import provenance

DEFAULT_FILTER = ("0.25", "0.08")
# the plays every stage keeps at least (with ties), and the rollouts play to the end
LEAST_KEPT = 2
# a play this many paired standard errors behind the best stops during the rollouts
DROP_SE = 3.0
# `nardy analyze` ranks a roll in stages from this many distinct plays on (docs/rollouts.md, "Staged
# ranking")
STAGED_FROM = 6


@dataclass(frozen=True)
class StageFilter:
    """Keep the plays within `margin` of the best, or the best `count` (with ties), or both
    (`top8:0.16`: the best eight of those within 0.16)."""

    margin: float | None = None
    count: int | None = None

    @classmethod
    def parse(cls, text: str) -> "StageFilter":
        """`0.2` (a margin in equity), `top5` (the best five) or `top5:0.2` (the best five within
        0.2)."""
        t = text.strip().lower()
        if t.startswith("top") and ":" in t:
            count, margin = (cls.parse(part) for part in t.split(":", 1))
            if count.count is None or margin.margin is None:
                raise FilterError(f"bad stage filter {text!r}: give a count and a margin such "
                                  "as 'top8:0.16'")
            return cls(margin.margin, count.count)
        try:
            if t.startswith("top"):
                n = int(t[3:])
                if n < 1:
                    raise ValueError
                return cls(count=n)
            m = float(t)
            if not m >= 0 or math.isinf(m):
                raise ValueError
            return cls(margin=m)
        except ValueError:
            raise FilterError(f"bad stage filter {text!r}: give a margin such as '0.2' or a count "
                              "such as 'top5'") \
                from None

    def keep(self, scores: np.ndarray, least: int = 1) -> np.ndarray:
        """Indices kept, best first: the filter's, and at least the best `least` (with ties)."""
        kept = self._keep(scores)
        if len(kept) >= min(least, len(scores)):
            return kept
        order = np.argsort(-scores, kind="stable")
        return order[scores[order] >= scores[order[min(least, len(order)) - 1]]]

    def _keep(self, scores: np.ndarray) -> np.ndarray:
        order = np.argsort(-scores, kind="stable")
        if self.count is not None and self.margin is not None:
            order = order[scores[order] >= scores[order[0]] - self.margin]
            return order[scores[order] >= scores[order[min(self.count, len(order)) - 1]]]
        if self.count is not None:
            cut = scores[order[min(self.count, len(order)) - 1]]
            return order[scores[order] >= cut]
        return order[scores[order] >= scores[order[0]] - self.margin]

    def __str__(self) -> str:
        if self.count is not None and self.margin is not None:
            return f"top{self.count}:{self.margin:g}"
        return f"top{self.count}" if self.count is not None else f"{self.margin:g}"


@dataclass(frozen=True)
class Stage:
    """One filtering stage: every play it scored (best first) and which ones went on."""

    name: str
    filter: str | None
    scores: tuple[tuple[str, float], ...]     # (play, score), best first
    kept: tuple[str, ...]
    # the plays kept only because every stage keeps the best LEAST_KEPT
    floor: tuple[str, ...] = ()

    def frame(self) -> pd.DataFrame:
        """One row per play: score, difference to the best, kept or dropped."""
        best = self.scores[0][1] if self.scores else 0.0
        return pd.DataFrame([{"stage": self.name, "play": p, "score": s, "diff": s - best,
                              "kept": p in self.kept}
                             for p, s in self.scores])


@dataclass(frozen=True)
class RolledPlay:
    """A play's rollout figures for the player who makes it (luck-adjusted when VR is on)."""

    play: str
    result: str
    games: int
    probabilities: dict
    se: dict
    equity: float
    equity_se: float
    plain_equity: float
    plain_se: float
    diff: float
    diff_se: float
    dropped_after: int | None
    # at a match score: the match winning chance (plays rank by it; diff is in it)
    mwc: float | None = None
    mwc_se: float | None = None


@dataclass(frozen=True)
class StagedRanking:
    """The stages of a staged analysis and the final rollout ranking (best first)."""

    position: Position
    dice: Dice
    stages: tuple[Stage, ...]
    plays: tuple[RolledPlay, ...]
    params: dict = field(default_factory=dict)

    def frame(self) -> pd.DataFrame:
        """The rollout stage: rank, play, equity ± SE (luck-adjusted when VR is on), plain SE,
        difference."""
        rows = []
        for i, p in enumerate(self.plays):
            row = {"rank": i + 1, "play": p.play, "games": p.games, "equity": p.equity,
                   "equity_se": p.equity_se, "plain_se": p.plain_se, "diff": p.diff,
                   "diff_se": p.diff_se}
            if p.mwc is not None:
                row |= {"mwc": p.mwc, "mwc_se": p.mwc_se}
            row.update(p.probabilities)
            row["dropped_after"] = p.dropped_after
            rows.append(row)
        return pd.DataFrame(rows)

    def stages_frame(self) -> pd.DataFrame:
        """Every filtering stage's scores, one row per (stage, play)."""
        return pd.concat([s.frame() for s in self.stages], ignore_index=True)

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        return {"position": str(self.position), "dice": str(self.dice), "params": self.params,
                "interrupted": bool(self.params.get("interrupted")), "prefiltered": [],
                "plays": [{"rank": i + 1, **{k: v for k, v in vars(p).items() if v is not None
                                             or k == "dropped_after"}}
                          for i, p in enumerate(self.plays)],
                "stages": [{"name": s.name, "filter": s.filter, "kept": list(s.kept),
                            "floor": list(s.floor),
                            "scores": [{"play": p, "score": v} for p, v in s.scores]}
                           for s in self.stages]}


def round_jobs(specs: dict, alive: list[int], lo: int, hi: int, workers: int) -> list[tuple]:
    """The jobs of one rollout round: games lo..hi-1 of every live candidate, each candidate's range
    cut into pieces when there are fewer candidates than workers (so a lone survivor uses every
    core; the per-game values are keyed by their first game, so the pieces join in order)."""
    size = job_size(hi - lo, max(1, workers // max(len(alive), 1)))
    return [(specs[i], i, lo + a, lo + b) for i in alive for a, b in chunks(hi - lo, size)]


def _mean_se(x: np.ndarray, stratify: bool) -> tuple[float, float]:
    """Stratified (by the first roll, game % 36) mean and standard error of per-game values."""
    strata = (np.arange(len(x)) % N_STRATA) if stratify else np.zeros(len(x), dtype=np.int64)
    n_s = np.bincount(strata, minlength=N_STRATA).astype(float)
    return moments_mean_se(n_s, np.bincount(strata, x, N_STRATA),
                           np.bincount(strata, x * x, N_STRATA))


def _scores(score, boards: np.ndarray, step: int, progress) -> np.ndarray:
    """`score(boards, out)` over `boards` in slices of `step`, reporting (done, total) after each
    slice."""
    out = np.zeros(len(boards))
    for lo in range(0, len(boards), step):
        hi = min(lo + step, len(boards))
        score(boards[lo:hi], out[lo:hi])
        progress(hi, len(boards))
    return out


def _evaluator_of(policy, rules: Rules, valuation: Valuation) -> tuple[int, np.ndarray]:
    from ..games.compiled_loop import kernel_policies
    sides, _ = kernel_policies(policy, policy, rules, valuation)
    return int(sides.kinds[0]), sides.params[0]


def _filter_stage(name: str, stage_filter: StageFilter, scores: np.ndarray, names: list[str]
                  ) -> tuple[Stage, list[int]]:
    """A filtering stage over the plays `names` scored `scores`: its `Stage` and the indices (into
    `names`) of the plays that go on, best first: the filter's, and at least the best
    `LEAST_KEPT` (with ties), those named in `Stage.floor`."""
    kept = [int(j) for j in stage_filter.keep(scores, LEAST_KEPT)]
    own = {int(j) for j in stage_filter.keep(scores)}
    order = np.argsort(-scores, kind="stable")
    return Stage(name, str(stage_filter), tuple((names[j], float(scores[j])) for j in order),
                 tuple(names[j] for j in kept), tuple(names[j] for j in kept if j not in own)), kept


def _two_ply_stage(mover, boards, kept, names, mover_white, rules, valuation, stage_filter, stages,
                   report):
    """The 2-ply stage: the plays `kept` by the 1-ply stage scored by `search2.search_values` (a
    network only); appends its `Stage` and returns the plays its filter keeps, best first."""
    from ..policies.two_ply import search_values
    if mover.evaluator_name != "neural":
        raise PolicyError(f"a 2-ply stage needs a network: policy {mover.name!r} has no network")
    s2 = np.zeros(len(kept))
    for j, i in enumerate(kept):
        s2[j] = search_values(mover, boards[i:i + 1], mover_white, rules,
                              valuation.kernel_values())[0]
        report("2-ply", j + 1, len(kept))
    stage, local = _filter_stage("2-ply", stage_filter, s2, [names[i] for i in kept])
    stages.append(stage)
    return [kept[j] for j in local]


def staged_rank(position: Position, dice: Dice | str | None = None, policies="neural", *,
                run: RunConfig | None = None, rules: Rules = PRESETS["federation"],
                filters: tuple[str, str] = DEFAULT_FILTER, scoring: Scoring = Scoring(),
                stakes: Stakes = MONEY, close_only: bool = False, **fields) -> StagedRanking:
    """Rank the plays of a roll in three stages (see the module doc); `filters` are the two stage
    filters.

    With `close_only`, the rollouts run only when the last filtering stage's own filter keeps more
    than one play (the best is not separated from the rest); otherwise the ranking has no rolled
    plays (`plays` empty, `params["rolled_out"]` False) and the last stage's scores decide.

    Three filters add a 2-ply stage (`search2`, the network's values) between 1-ply and the
    rollouts: plays within the first go to 1-ply, within the second to 2-ply, within the third to
    the rollouts.

    `run` is a `RunConfig` or its fields as keywords (games=12960 per play at most,
    until_se=0.01, seed, workers, stratify, executor, scheduler, progress).
    At a match score (`stakes.match`) plays are ranked by match equity, money otherwise.
    `progress(stage, done, total)` hears of every stage: "0-ply" and "1-ply" count plays
    scored, "rollouts" games per play.  Ctrl-C keeps the rollout rounds every live play finished,
    marked interrupted; before any rollout game finished it raises `NoGamesError`.
    """
    from ..kernels.board import kernel_rules
    from ..kernels.value import one_ply, zero_ply
    run = run_config(run, fields, games=12960, until_se=0.01)
    games, seed, until_se, stratify = run.games, run.seed, run.until_se, run.stratify
    check_kept(games)
    progress = run.progress
    if len(filters) not in (2, 3):
        raise FilterError(f"give two stage filters (0-ply to 1-ply, 1-ply to rollouts) or three "
                          f"(a 2-ply stage between), got {len(filters)}")
    stage_filters = [StageFilter.parse(f) for f in filters]
    dice = parse_dice(dice) if isinstance(dice, str) else (dice or position.dice)
    if dice is None:
        raise ArgumentError("no dice: give {dice} or a position that carries dice")
    require_in_play(position, rules)
    white, black = policy_pair(policies)
    # built-in policies
    if not all(p.is_random or p.evaluator_name is not None for p in (white, black)):
        raise PolicyError("staged analysis runs built-in policies only (random, racer, heuristic, "
                          "neural, lookahead:…)")
    mover = white if position.turn == "w" else black
    valuation = stakes.valuation(rules)
    kind, params = _evaluator_of(mover, rules, valuation)
    scoring = scoring.resolved(white, black)
    tables, coefs, values = (race_tables(rules).arrays(), logistic_coefficients(),
                             valuation.kernel_values())
    plays: list[Play] = legal_plays(position, dice, rules)
    names = [str(p) for p in plays]
    boards = np.stack([Position.unchecked(p.result.white, p.result.black, position.turn).board()[0]
                       for p in plays])
    mover_white = position.turn == "w"

    report = progress or (lambda stage, done, total: None)
    try:
        # stage 1: 0-ply
        krules = kernel_rules(rules)

        def zero(b, out):
            zero_ply(b, len(b), mover_white, krules, kind, params, tables, coefs, values, out)

        def one(b, out):
            one_ply(b, len(b), mover_white, krules, kind, params, tables, coefs, values, out)

        s0 = _scores(zero, boards, 64, lambda done, total: report("0-ply", done, total))
        stage0, keep0 = _filter_stage("0-ply", stage_filters[0], s0, names)
        stages = [stage0]
        # stage 2: 1-ply on the survivors
        s1 = _scores(one, boards[keep0], 1, lambda done, total: report("1-ply", done, total))
    except KeyboardInterrupt:
        raise NoGamesError("the analysis was interrupted before any game finished") from None
    stage1, local1 = _filter_stage("1-ply", stage_filters[1], s1, [names[i] for i in keep0])
    stages.append(stage1)
    keep1 = [keep0[j] for j in local1]
    if len(stage_filters) == 3:
        keep1 = _two_ply_stage(mover, boards, keep1, names, mover_white, rules, valuation,
                               stage_filters[2], stages, report)

    if close_only and len(stages[-1].kept) - len(stages[-1].floor) <= 1:
        return StagedRanking(position.with_dice(None), dice, tuple(stages), (),
                             _params(rules, white, black, seed, games, until_se, stratify,
                                     stage_filters, scoring, False, stakes) | {"rolled_out": False})
    # stage 3: rollouts with common random numbers
    specs = {i: GameSpec(plays[i].result, rules, white, black, seed, stratify, scoring, stakes)
             for i in keep1}
    per_game: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {i: [] for i in keep1}
    alive = set(keep1)
    dropped: dict[int, int] = {}
    done = 0
    interrupted = False
    adjusted = bool(scoring.vr)

    values = valuation.root_values(mover_white)

    def series(i: int) -> tuple[np.ndarray, np.ndarray]:
        """(plain, adjusted) per-game probabilities for the player, games in order."""
        parts = per_game[i]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def player_values(i: int) -> np.ndarray:
        plain, adj = series(i)
        return (adj if adjusted else plain) @ values

    def round_report(start: int, live: int):
        """Games per play so far, as the round's jobs finish."""
        return lambda tally: report("rollouts", start + tally.games // live, games)

    report("rollouts", 0, games)
    try:
        while done < games and alive:
            hi = min(done + CHUNK, games)
            jobs = round_jobs(specs, sorted(alive), done, hi, run.workers)
            tally, interrupted = run_games(jobs, VALUES, **run.executors,
                                           report=round_report(done, len(alive)))
            if interrupted:
                break
            with held_interrupts():     # a round counts for every live play or for none
                # the candidate's side to move is the opponent of the player who made the play
                for (i, lo), (plain, adj) in sorted(tally.values.items()):
                    per_game[i].append((swap(plain), swap(adj)))
                done = hi
                means = {i: _mean_se(player_values(i), stratify) for i in alive}
                # the best LEAST_KEPT play on to the end: the runner-up is never dropped
                leaders = sorted(alive, key=lambda i: (-means[i][0], i))[:LEAST_KEPT]
                best = leaders[0]
                for i in sorted(alive - set(leaders)):
                    d = player_values(best) - player_values(i)
                    se = d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else math.inf
                    if se > 0 and d.mean() > DROP_SE * se:
                        alive.discard(i)
                        dropped[i] = done
            report("rollouts", done, games)
            if until_se is not None and all(means[i][1] <= until_se for i in alive):
                break
    except KeyboardInterrupt:       # between rounds: every finished round is kept
        interrupted = True
    if not any(per_game[i] for i in keep1):
        raise NoGamesError("the analysis was interrupted before any game finished")
    figures = {}
    for i in keep1:
        if not per_game[i]:
            continue
        plain, adj = series(i)
        used = adj if adjusted else plain
        probs, ses = {}, {}
        for key in PROB_KEYS:
            probs[key], ses[key] = _mean_se(used @ INDICATORS[key], stratify)
        m, se = _mean_se(player_values(i), stratify)
        pm, pse = _mean_se(plain @ values, stratify)
        figures[i] = (len(plain), m, se, pm, pse, probs, ses)
    best = max((i for i in figures if i not in dropped), key=lambda i: figures[i][1],
               default=max(figures))
    match = not valuation.is_money
    money = result_values(rules.points)
    scale = 0.5 if match else 1.0        # match equity -> match winning chance
    rolled = []
    for i, (n, m, se, pm, pse, probs, ses) in figures.items():
        k = min(n, figures[best][0])
        d = (player_values(i)[:k] - player_values(best)[:k]) * scale
        extra = {}
        if match:      # equity in money points beside the match winning chance the plays rank by
            plain, adj = series(i)
            extra = {"mwc": (m + 1) / 2, "mwc_se": se / 2}
            m, se = _mean_se((adj if adjusted else plain) @ money, stratify)
            pm, pse = _mean_se(plain @ money, stratify)
        rolled.append(RolledPlay(names[i], str(plays[i].result), n, probs, ses, m, se, pm, pse,
                                 float(d.mean()) if i != best else 0.0,
                                 float(d.std(ddof=1) / math.sqrt(k)) if i != best and k > 1
                                 else 0.0, dropped.get(i), **extra))
    rolled.sort(key=lambda r: (r.dropped_after is not None, -(r.mwc if match else r.equity)))
    params = _params(rules, white, black, seed, games, until_se, stratify, stage_filters, scoring,
                     interrupted, stakes)
    if until_se is not None and not interrupted:  # False: the maximum of games came first
        params["until_se_met"] = all(r.equity_se <= until_se for r in rolled
                                     if r.dropped_after is None)
    return StagedRanking(position.with_dice(None), dice, tuple(stages), tuple(rolled), params)


def _params(rules, white, black, seed, games, until_se, stratify, stage_filters, scoring,
            interrupted, stakes) -> dict:
    """A staged ranking's settings, for its results."""
    params = {"rules": rules.to_dict(), "policies": {"white": white.name, "black": black.name},
              "seed": seed, "games_requested": games, "until_se": until_se, "stratify": stratify,
              "filters": [str(f) for f in stage_filters], **scoring.to_dict(),
              "interrupted": interrupted, **provenance(white.name, black.name)}
    if stakes.match is not None:
        params["match"] = stakes.match.to_dict()
    return params


def filter_reason(text: str) -> str:
    """Why a stage filter (`0.08`, `top5`, `top8:0.16`) drops a play, for a person: "more than
    0.08 behind the best"."""
    from ..core.i18n import _
    f = StageFilter.parse(text)
    if f.count is not None and f.margin is not None:
        return _("not among the best {count} within {margin:g} of the best").format(
            count=f.count, margin=f.margin)
    if f.count is not None:
        return _("not among the best {count}").format(count=f.count)
    return _("more than {margin:g} behind the best").format(margin=f.margin)


def stage_tables(ranking: dict) -> list[tuple[pd.DataFrame, str]]:
    """For a report: one table per filtering stage of a staged analysis's JSON (empty for other
    analyses)."""
    out = []
    for st in ranking.get("stages", []):
        best = st["scores"][0]["score"] if st["scores"] else 0.0
        from ..core.i18n import _
        floor = st.get("floor", [])

        def goes_on(play: str) -> str:
            if play in floor:
                return _("yes (one of the best two)")
            return _("yes") if play in st["kept"] else _("dropped")
        rows = [{_("play"): s["play"], _("equity (evaluator)"): f"{s['score']:+.3f}",
                 _("difference"): f"{s['score'] - best:+.3f}", _("goes on"): goes_on(s["play"])}
                for s in st["scores"]]
        out.append((pd.DataFrame(rows),
                    _("Stage {stage}: a play {why} is dropped; the best two always go on").format(
            stage=st['name'], why=filter_reason(st['filter']))))
    return out
