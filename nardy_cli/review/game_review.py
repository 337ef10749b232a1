"""Game review: every decision of a record scored by an evaluator, with marks, luck and per-player
totals.

For each ply: the equity (for the player) of the played result and of the best
result of the roll, the equity lost, a mark (doubtful / error / blunder at the
`Thresholds`), and the luck of the roll: the best result's value for the roll
rolled minus the mean over the 21 rolls of the best result's value.  Forced
plays (one legal result) are listed, not scored.  A lookahead evaluator searches
the results the kernel's lookahead searches (`policies.base.CompiledPolicy.pruning`, at
most `width` of them) plus the played one, each valued by the opponent's replies the
kernel's lookahead picks (`evaluators.lookahead_values`); luck is always measured at 0-ply.
`rollout_games` re-scores the flagged decisions by
rollouts of their candidates with common dice.

At a match score every decision is judged by match winning chance (`mwc_*`
columns, in chance) and, for the marks and totals, in equity terms by the usual
normalisation (EMG, "equivalent to money game"): the match equity scaled so that
winning a single game (oin) is +1 and losing one is -1 for the player on roll.

In a cube game (a record with cube actions, or `cube=True`) every cube action is
rated too (`cube_review.review_cube`): `GameReview.cube` holds one row per turn, and
the totals gain the cube decisions, errors, equity lost on them and the sum of both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..core.dice import ALL_ROLLS
from ..core.engine import enumerate_board, plays_from_kernel
from ..core.errors import ArgumentError, GameRecordError, NoGamesError, NotationError
from ..core.i18n import _, side_words
from ..core.interrupts import held_interrupts
from ..core.position import SIDE_NAMES, WHITE
from ..games import RunConfig
from ..match.stakes import MONEY, Stakes
from ..policies.judges import (ROLL_WEIGHTS, exact_value, get_evaluator, result_board,
    result_values, roll_boards)
from ..policies.network import provenance
from ..records.game_record import GameRecord, format_moves

MARKS = ("doubtful", "error", "blunder")
DEFAULT_EVALUATOR = "neural"   # the trained network at 0-ply (see docs/training.md)
COLUMNS = ["ply", "turn", "side", "player", "dice", "played", "best", "plays", "forced",
           "equity_played", "equity_best", "lost", "mark", "luck", "level", "equity_se",
           "equity_white", "position", "played_result", "best_result"]
MATCH_COLUMNS = ["mwc_played", "mwc_best", "mwc_lost", "mwc_white"]


@dataclass(frozen=True)
class Thresholds:
    """Equity lost (points per game) from which a decision is doubtful, an error, a blunder."""

    doubtful: float = 0.04
    error: float = 0.08
    blunder: float = 0.16

    def __post_init__(self) -> None:
        if not 0 <= self.doubtful <= self.error <= self.blunder:
            raise ArgumentError(f"thresholds must rise: doubtful {self.doubtful} <= error "
                                f"{self.error} "
                             f"<= blunder {self.blunder}")

    def mark(self, lost: float) -> str:
        """'' , 'doubtful', 'error' or 'blunder' for an equity loss."""
        if lost >= self.blunder:
            return "blunder"
        if lost >= self.error:
            return "error"
        if lost >= self.doubtful:
            return "doubtful"
        return ""


def parse_thresholds(text: str) -> Thresholds:
    """`0.04,0.08,0.16` (doubtful, error, blunder)."""
    parts = [p.strip() for p in text.split(",")]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise NotationError(f"bad thresholds {text!r}: expected three numbers such as "
                            "'0.04,0.08,0.16'") from None
    if len(values) != 3:
        raise NotationError(f"bad thresholds {text!r}: expected three numbers such as "
                            "'0.04,0.08,0.16'")
    return Thresholds(*values)


@dataclass(frozen=True)
class GameReview:
    """The review of one record: a per-ply DataFrame (`COLUMNS`), totals per player, parameters."""

    record: GameRecord
    frame: pd.DataFrame
    thresholds: Thresholds
    params: dict = field(default_factory=dict)
    # the cube decisions of a cube game (`cube_review.COLUMNS`), else None
    cube: pd.DataFrame | None = None

    def decisions(self) -> pd.DataFrame:
        """The scored rows (not forced)."""
        return self.frame[~self.frame["forced"].astype(bool)]

    def summary(self) -> pd.DataFrame:
        """Per player: decisions, equity lost in total and per decision, marks, luck."""
        rows = []
        for side in ("white", "black"):
            f = self.frame[self.frame["side"] == side]
            if (f.empty
                and (self.cube is None or not _cube_totals(self.cube, side)["cube_decisions"])):
                continue
            d = f[~f["forced"].astype(bool)]
            player = self.record.white if side == "white" else self.record.black
            rows.append({"side": side, "player": player, "plies": len(f), "decisions": len(d),
                         "forced": int(f["forced"].sum()), "equity_lost": float(d["lost"].sum()),
                         "error_rate": float(d["lost"].mean()) if len(d) else 0.0,
                         **{m + "s": int((d["mark"] == m).sum()) for m in MARKS},
                         "luck": float(f["luck"].sum())})
            if self.cube is not None:
                rows[-1].update(_cube_totals(self.cube, side))
                rows[-1]["total_lost"] = rows[-1]["equity_lost"] + rows[-1]["cube_lost"]
        return pd.DataFrame(rows)

    def notes(self) -> list[str]:
        """Plain-language notes on reading the review: a side played by the reviewing evaluator
        itself, whose plays are all its best by construction."""
        out = []
        for side in self.params.get("self_reviewed", []):
            player = self.record.white if side == "white" else self.record.black
            out.append(_("{side} ({player}) was played by the reviewing evaluator {evaluator} "
                         "itself: its plays are that evaluator's own choices, so they lose 0.000 "
                         "by construction; another evaluator or rollouts give an independent "
                         "view.").format(player=player, evaluator=self.params['evaluator'],
                                         **side_words(side)))
        return out

    def worst(self, n: int = 5) -> pd.DataFrame:
        """The `n` decisions that lost the most equity (only those that lost any)."""
        d = self.decisions()
        return d[d["lost"] > 1e-9].sort_values(["lost", "ply"], ascending=[False, True]).head(n)

    def to_dict(self) -> dict:
        """Plain data for JSON: parameters, summary, plies."""
        out = {"params": self.params, "summary": self.summary().to_dict(orient="records"),
               "plies": self.frame.to_dict(orient="records")}
        if self.cube is not None:
            out["cube"] = self.cube.to_dict(orient="records")
        return out


def _cube_totals(cube: pd.DataFrame, side: str) -> dict:
    """A side's cube decisions, errors and loss (`cube_review.cube_summary`)."""
    from .cube_review import cube_summary
    return cube_summary(cube, side)


def review_game(record: GameRecord, evaluator: Any = DEFAULT_EVALUATOR, *,
                sides: tuple[str, ...] = ("w", "b"), thresholds: Thresholds = Thresholds(),
                width: int = 5, rollout: RunConfig | None = None, rollout_policy: str = "neural",
                stakes: Stakes = MONEY) -> GameReview:
    """Score every ply of `record` played by `sides` ('w', 'b') with `evaluator` (a name or object)
    at `stakes`: money, or at a match score (the score before this game) by match winning chance
    and normalised equity.

    A cube game (cube actions in the record, or stakes with a cube) has its cube actions rated too
    (the record's cube and cube rules; none in a match's Crawford game, `stakes.match.crawford`).

    With a `rollout` (a `RunConfig`: games per candidate, seed, workers, ...) the flagged
    decisions are re-scored by rollouts of `rollout_policy`; its `progress(done, total)` hears of
    each flagged decision re-scored; Ctrl-C stops
    the rollouts: the decisions re-scored so far keep their rollout figures, the others their first
    evaluation, and `params["interrupted"]` says so.  Raises `GameRecordError` for a record without
    plies: there is nothing to review.
    """
    if not record.plies and not record.end_actions:
        raise GameRecordError("the game record holds no plies: nothing to review")
    ev = get_evaluator(evaluator)
    base = ev.evaluator
    rules = record.rules
    valuation = stakes.valuation(rules)
    match = stakes.match
    rows = []
    for i, ply in enumerate(record.plies):
        if ply.side not in sides:
            continue
        rows.append(_score_ply(i, ply, record, ev, base, rules, width, thresholds, valuation))
    frame = pd.DataFrame(rows, columns=COLUMNS + (MATCH_COLUMNS if match is not None else []))
    params = {"evaluator": ev.name, "luck_evaluator": ev.base_name, "width": width,
              "sides": list(sides),
              "thresholds": {"doubtful": thresholds.doubtful, "error": thresholds.error,
                             "blunder": thresholds.blunder},
              "rollout_games": rollout.games if rollout else 0,
              "rollout_policy": rollout_policy if rollout else None,
              "rules": rules.to_dict(), "self_reviewed": _self_reviewed(frame, record, ev.name),
              **provenance(ev.name, ev.base_name, rollout_policy if rollout else None)}
    if match is not None:
        params["match"] = match.to_dict()
    cube_frame = None
    if record.is_cube_game or stakes.cube is not None:
        from .cube_review import review_cube
        cube_frame = review_cube(record, sides, stakes, valuation=valuation)
        params["cube"] = {"crawford": stakes.crawford}
    if rollout:
        params["seed"] = rollout.seed
        frame, params["interrupted"] = _rollout_flagged(frame, record, base, thresholds, rollout,
                                                        rollout_policy, valuation, stakes)
    return GameReview(record, frame, thresholds, params, cube_frame)


def _self_reviewed(frame: pd.DataFrame, record: GameRecord, evaluator: str) -> list[str]:
    """The sides played by `evaluator` itself whose every play it scores best: 0.000 lost by
    construction."""
    out = []
    for side, player in (("white", record.white), ("black", record.black)):
        lost = frame.loc[(frame["side"] == side) & ~frame["forced"].astype(bool), "lost"]
        if player == evaluator and len(lost) and float(lost.max()) <= 1e-9:
            out.append(side)
    return out


def normaliser(valuation, white: bool) -> tuple[float, float]:
    """(mid, scale) turning the mover's match equity v into normalised equity (v - mid) * scale: a
    single game won (oin) +1, lost -1.  Money values: (0, 1)."""
    if valuation is None or valuation.is_money:
        return 0.0, 1.0
    v = valuation.for_side(white)
    return float(v[0] + v[4]) / 2, 2.0 / float(v[0] - v[4])


def _score_ply(i, ply, record, ev, base, rules, width, thresholds, valuation=None) -> dict:
    pos, dice, white = ply.position, ply.dice, ply.side == WHITE
    board, _, opp_off = pos.board()
    boards, step_from, step_die, n, nsteps = enumerate_board(board, opp_off, dice, rules)
    boards = boards.copy()
    plays = plays_from_kernel(pos, dice, boards, step_from, step_die, n, nsteps)
    played = next(k for k, p in enumerate(plays) if p.result == ply.play.result)
    # luck (0-ply): best value of every roll, one evaluator call for all 21
    per_roll = [boards if d == dice else roll_boards(pos, d, rules) for d in ALL_ROLLS]
    starts = np.cumsum([0] + [len(b) for b in per_roll[:-1]])
    all_values = result_values(base, np.concatenate(per_roll), white, rules, valuation)
    best_per_roll = np.maximum.reduceat(all_values, starts)
    k = ALL_ROLLS.index(dice)
    v0 = all_values[starts[k]:starts[k] + n]
    luck = float(best_per_roll[k] - best_per_roll @ ROLL_WEIGHTS)
    level = "0-ply"
    values = {j: float(v0[j]) for j in range(n)}
    if ev.searches and n > 1:
        cands = sorted(set(ev.candidates(boards, v0, white, rules, valuation, width)) | {played})
        deep = ev.deep_values(boards[cands], white, rules, valuation)
        values = {j: float(v) for j, v in zip(cands, deep)}
        level = ev.name
    best = max(values, key=lambda j: (values[j], -j))
    forced = n == 1
    mid, scale = normaliser(valuation, white)
    match_row = {}
    if scale != 1.0 or mid != 0.0:
        mwc = (values[played] + 1) / 2
        match_row = {"mwc_played": mwc, "mwc_best": (values[best] + 1) / 2,
                     "mwc_lost": float("nan") if forced
                     else max(0.0, values[best] - values[played]) / 2,
                     "mwc_white": mwc if white else 1 - mwc}
        values = {j: (v - mid) * scale for j, v in values.items()}
        luck *= scale
    lost = float("nan") if forced else max(0.0, values[best] - values[played])
    return {**match_row, "ply": i + 1, "turn": ply.label, "side": "white" if white else "black",
            "player": record.white if white else record.black, "dice": str(dice),
            "played": format_moves(ply.play), "best": format_moves(plays[best]), "plays": n,
            "forced": forced, "equity_played": values[played], "equity_best": values[best],
            "lost": lost, "mark": "forced" if forced else thresholds.mark(lost), "luck": luck,
            "level": level, "equity_se": float("nan"),
            "equity_white": values[played] if white else -values[played],
            "position": str(pos.with_dice(dice)), "played_result": str(ply.play.result),
            "best_result": str(plays[best].result)}


def _rollout_flagged(frame: pd.DataFrame, record: GameRecord, base: Any, thresholds: Thresholds,
                     run: RunConfig, policy: str, valuation,
                     stakes: Stakes) -> tuple[pd.DataFrame, bool]:
    """Re-score flagged decisions by rolling out the played result and the cheaper level's top three
    (at a match score by match equity, then normalised as `_score_ply` does); (frame, interrupted):
    Ctrl-C keeps the decisions whose every candidate was rolled out in full."""
    frame = frame.copy()
    flagged = frame.index[frame["mark"].isin(MARKS)]
    try:
        _rescore(frame, flagged, record, base, thresholds, run, policy, valuation, stakes)
    except (_Stopped, KeyboardInterrupt):
        return frame, True
    return frame, False


class _Stopped(Exception):
    """Ctrl-C during the re-scoring rollouts."""


def _rescore(frame, flagged, record, base, thresholds, run, policy, valuation, stakes) -> None:
    """Re-score each flagged decision of `frame` in place; `_Stopped` on Ctrl-C (a decision counts
    whole)."""
    from ..analysis.rollout import rollout
    rules = record.rules
    games, progress, each = run.games, run.progress, run.with_progress(None)
    for done, idx in enumerate(flagged):
        if progress is not None:
            progress(done, len(flagged))
        row = frame.loc[idx]
        ply = record.plies[int(row["ply"]) - 1]
        pos, dice, mover = ply.position, ply.dice, ply.side
        board, _, opp_off = pos.board()
        boards, step_from, step_die, n, nsteps = enumerate_board(board, opp_off, dice, rules)
        boards = boards.copy()
        plays = plays_from_kernel(pos, dice, boards, step_from, step_die, n, nsteps)
        static = result_values(base, boards, mover == WHITE, rules, valuation)
        cands = {int(j) for j in np.argsort(-static, kind="stable")[:3]}
        cands |= {k for k, p in enumerate(plays) if p.result == ply.play.result
                  or str(p.result) == row["best_result"]}
        values, ses = {}, {}
        for j in sorted(cands):
            exact = exact_value(result_board(plays[j].result, mover), mover == WHITE, rules,
                                valuation)
            if exact is not None:
                values[j], ses[j] = exact, 0.0
                continue
            match = stakes.match
            try:
                r = rollout(plays[j].result, policy, run=each, rules=rules, stakes=Stakes(match))
            except (NoGamesError, KeyboardInterrupt):
                raise _Stopped from None
            if r.interrupted:
                raise _Stopped
            values[j], ses[j] = ((-r.equity, r.equity_se) if match is None
                                 else (1 - 2 * r.mwc, 2 * r.mwc_se))
        played = next(k for k in cands if plays[k].result == ply.play.result)
        best = max(values, key=lambda j: (values[j], -j))
        mid, scale = normaliser(valuation, mover == WHITE)
        match_row = None
        if valuation is not None and not valuation.is_money:
            mwc = (values[played] + 1) / 2
            match_row = [mwc, (values[best] + 1) / 2, max(0.0, values[best] - values[played]) / 2,
                         mwc if mover == WHITE else 1 - mwc]
            values = {j: (v - mid) * scale for j, v in values.items()}
            ses = {j: s * scale for j, s in ses.items()}
        lost = max(0.0, values[best] - values[played])
        with held_interrupts():
            if match_row is not None:
                frame.loc[idx, MATCH_COLUMNS] = match_row
            frame.loc[idx,
                      ["best", "equity_played", "equity_best", "lost", "mark", "level", "equity_se",
                       "equity_white", "best_result"]] = [
                format_moves(plays[best]), values[played], values[best], lost,
                thresholds.mark(lost), f"rollout {games}", ses[played],
                values[played] if mover == WHITE else -values[played], str(plays[best].result)]
    if progress is not None:
        progress(len(flagged), len(flagged))


def side_code(name: str) -> str:
    """'white'/'w' -> 'w', 'black'/'b' -> 'b'."""
    key = name.strip().lower()
    if key in ("w", "white"):
        return "w"
    if key in ("b", "black"):
        return "b"
    raise NotationError(f"bad side {name!r}: expected white or black")


__all__ = ["Thresholds", "parse_thresholds", "GameReview", "review_game", "side_code", "MARKS",
           "SIDE_NAMES"]
