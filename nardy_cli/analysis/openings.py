"""Opening studies: every legal White play of each opening roll, rolled out and ranked."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import pandas as pd

from ..core.dice import ALL_ROLLS, Dice, parse_rolls  # noqa: F401  (parse_rolls: its old home)
from ..core.errors import ArgumentError, NoGamesError
from ..core.outcomes import PROB_KEYS
from ..core.position import START
from ..core.rules import PRESETS, Rules
from ..games import RunConfig, run_config
from ..match.stakes import MONEY, Stakes
from ..policies.network import provenance
from .analyze import rank_many


def with_class_groups(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` (one column per outcome class) with the shares of mars (home-mars or mars) and koks,
    won and lost."""
    if frame.empty:
        return frame
    return frame.assign(mars_for=frame["win_home_mars"] + frame["win_mars"],
                        koks_for=frame["win_koks"],
                        mars_against=frame["lose_home_mars"] + frame["lose_mars"],
                        koks_against=frame["lose_koks"])


@dataclass(frozen=True)
class OpeningTable:
    """The opening table (rows per roll and play) and, optionally, Black's best replies."""

    rows: list[dict]
    replies: list[dict]
    params: dict
    interrupted: bool = False

    def frame(self) -> pd.DataFrame:
        """One row per (roll, White play): equity, every outcome class, and
        `mars_for`/`koks_for`/`mars_against`/ `koks_against` (mars counting home-mars too), all for
        White."""
        return with_class_groups(pd.DataFrame(self.rows))

    def replies_frame(self) -> pd.DataFrame:
        """One row per (White opening, Black roll): Black's best reply."""
        return pd.DataFrame(self.replies)

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        return {"rows": self.rows, "replies": self.replies, "params": self.params,
                "interrupted": self.interrupted}


def opening_table(rolls: list[Dice] | None = None, policies="neural", *,
                  run: RunConfig | None = None, rules: Rules = PRESETS["federation"],
                  replies: bool = False, reply_games: int = 1296, top: int | None = None,
                  stakes: Stakes = MONEY, **fields) -> OpeningTable:
    """Roll out every legal White play of each roll from the start; with `replies`, Black's best
    answers.

    `run` is a `RunConfig` or its fields as keywords (games=2592 per play, seed, until_se,
    workers, stratify, executor, scheduler, progress); the replies play `reply_games` games each,
    on the same run otherwise; `progress(done, total)` hears the steps done (the openings, then
    each opening's replies).
    At a match score (`stakes.match`, the score before the game) plays rank by match winning chance
    (`mwc`).
    Ctrl-C keeps what finished (the rounds every play completed, the replies found), marked
    `interrupted`.
    """
    run = run_config(run, fields, games=2592)
    games, seed, until_se, stratify = run.games, run.seed, run.until_se, run.stratify
    progress = run.progress
    rolls = rolls or list(ALL_ROLLS)
    started = time.monotonic()
    rows = []
    steps = 1 + (len(rolls) if replies else 0)

    def report(step: int):
        return ((lambda done, total: progress(step * total + done, steps * total)) if progress
                else None)

    rankings = rank_many([(START, d) for d in rolls], policies, run=run.with_progress(report(0)),
                         rules=rules, top=top, stakes=stakes)
    for dice, ranking in zip(rolls, rankings):
        for rank, rp in enumerate(ranking.plays, 1):
            row = {"roll": str(dice), "play": str(rp.play), "rank": rank,
                   "result": str(rp.play.result), "games": rp.games, "equity": rp.equity,
                   "equity_se": rp.equity_se, "diff": rp.diff, "diff_se": rp.diff_se}
            if rp.mwc is not None:
                row.update({"mwc": rp.mwc, "mwc_se": rp.mwc_se, "money_rank": rp.money_rank})
            row.update({k: rp.probabilities[k] for k in PROB_KEYS})
            rows.append(row)
    reply_rows = []
    analysed = list(rankings)
    interrupted = any(r.interrupted for r in rankings)
    if replies and not interrupted:
        # each opening's 21 replies are ranked side by side, so every worker stays busy
        for step, (dice, ranking) in enumerate(zip(rolls, rankings), 1):
            best = ranking.plays[0]
            try:
                replies_run = replace(run, games=reply_games, progress=report(step))
                answers = rank_many([(best.play.result, r) for r in ALL_ROLLS], policies,
                                    run=replies_run, rules=rules, top=top or 6,
                                    stakes=stakes)
            except NoGamesError:        # interrupted before this opening's replies played a game
                interrupted = True
                break
            interrupted = any(a.interrupted for a in answers)
            analysed += answers
            for reply, answer in zip(ALL_ROLLS, answers):
                top_play = answer.plays[0]
                reply_rows.append({"white_roll": str(dice), "white_play": str(best.play),
                                   "black_roll": str(reply), "black_reply": str(top_play.play),
                                   "result": str(top_play.play.result),
                                   "candidates": len(answer.plays) + len(answer.prefiltered),
                                   "black_equity": top_play.equity,
                                   "black_equity_se": top_play.equity_se,
                                   **({"black_mwc": top_play.mwc} if top_play.mwc is not None
                                      else {}),
                                   "games": top_play.games})
            if interrupted:
                break
    if not rows:
        raise ArgumentError("no opening rolls to study")
    params = {"rules": rules.to_dict(),
              "policies": policies if isinstance(policies, str) else str(policies), "seed": seed,
              "games_per_play": games, "reply_games": reply_games if replies else None, "top": top,
              "until_se": until_se, "stratify": stratify, "rolls": [str(d) for d in rolls],
              "replies": replies, **provenance(str(policies)),
              "seconds": round(time.monotonic() - started, 1)}
    if stakes.match is not None:
        params["match"] = stakes.match.to_dict()
    # False: --games came first somewhere
    if until_se is not None and not any(r.interrupted for r in analysed):
        params["until_se_met"] = all(r.params.get("until_se_met", True) for r in analysed)
        params["worst_se"] = max(rp.equity_se for r in analysed for rp in r.plays
                                 if rp.dropped_after is None)
    return OpeningTable(rows, reply_rows, params, interrupted)
