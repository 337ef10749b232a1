"""The review of a whole match: every game judged at the score it was played at (match winning
chance and normalised equity, `review.review_game`), and the players' totals over the match."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..match.cube import Cube
from ..match.table import DEFAULT_DRAW_POINTS, DEFAULT_NEXT_WHITE
from ..records.match_record import MatchRecord
from .game_review import DEFAULT_EVALUATOR, GameReview, Thresholds, review_game

# a cube match's totals, beside the plays'
CUBE_KEYS = ("cube_decisions", "cube_errors", "cube_lost")


@dataclass(frozen=True)
class MatchReview:
    """A match record and the review of each of its games, in order."""

    match: MatchRecord
    games: tuple[GameReview, ...]
    params: dict

    @property
    def interrupted(self) -> bool:
        """True when Ctrl-C stopped the rollouts of a game (the games after it were not
        reviewed)."""
        return any(g.params.get("interrupted") for g in self.games)

    def frame(self) -> pd.DataFrame:
        """Every ply of every game, with the game's number and its score (White-Black) before it."""
        parts = []
        for k, (review, score) in enumerate(zip(self.games, self.match.scores()), 1):
            f = review.frame.copy()
            f.insert(0, "score", f"{score[0]:g}-{score[1]:g}")
            f.insert(0, "game", k)
            parts.append(f)
        return pd.concat(parts, ignore_index=True)

    def cube_frame(self) -> pd.DataFrame | None:
        """Every cube decision of every game, with the game's number; None in a cubeless match."""
        parts = []
        for k, review in enumerate(self.games, 1):
            if review.cube is not None:
                f = review.cube.copy()
                f.insert(0, "game", k)
                parts.append(f)
        return pd.concat(parts, ignore_index=True) if parts else None

    def summary(self) -> pd.DataFrame:
        """Per player (by name): games, decisions, equity lost (normalised at the score), error
        rate, match winning chance lost, marks and luck over the whole match."""
        rows: dict[str, dict] = {}
        cube = any(g.cube is not None for g in self.games)
        for review in self.games:
            for _, s in review.summary().iterrows():
                row = rows.setdefault(s["player"],
                                      {"player": s["player"], "games": 0, "decisions": 0,
                                       "equity_lost": 0.0, "mwc_lost": 0.0,
                                       "doubtfuls": 0, "errors": 0, "blunders": 0,
                                       "luck": 0.0})
                row["games"] += 1
                for key in ("decisions", "equity_lost", "doubtfuls", "errors", "blunders", "luck"):
                    row[key] += s[key]
                if cube:
                    for key in CUBE_KEYS:
                        row[key] = (row.get(key, 0)
                                    + (s[key] if key in s and s[key] == s[key] else 0))
            if "mwc_lost" in review.frame:
                for player, lost in review.decisions().groupby("player")["mwc_lost"].sum().items():
                    rows[player]["mwc_lost"] += float(lost)
        out = pd.DataFrame(rows.values())
        out.insert(4, "error_rate",
                   out["equity_lost"] / out["decisions"].where(out["decisions"] > 0))
        if cube:
            out["total_lost"] = out["equity_lost"] + out["cube_lost"]
        return out

    def to_dict(self) -> dict:
        """Plain data for JSON: parameters, the match, the players' totals and each game's
        review."""
        return {"params": self.params, "length": self.match.length,
                "players": list(self.match.players), "final_score": list(self.match.final_score),
                "finished": self.match.is_over, "winner": self.match.winner,
                "summary": self.summary().to_dict(orient="records"),
                "games": [{"game": k, "score": list(score), **review.to_dict()}
                          for k,
                          (review, score) in enumerate(zip(self.games, self.match.scores()), 1)]}


def review_match(match: MatchRecord, evaluator: Any = DEFAULT_EVALUATOR, *,
                 next_white: str = DEFAULT_NEXT_WHITE, draw_points: float = DEFAULT_DRAW_POINTS,
                 thresholds: Thresholds = Thresholds(), progress=None, cube: bool = False,
                 **options) -> MatchReview:
    """Review every game of `match` at its stakes (`MatchRecord.stakes`: its score, the Crawford
    game; a money session, length 0, at money), its cube actions too in a cube match, or with
    `cube` (the Crawford game has none); `options` as `review_game` (sides, width, rollout,
    rollout_policy)."""
    reviews = []
    stakes = match.stakes(next_white, draw_points)
    # the cube decisions of all games, or of none
    if cube or any(s.cube is not None for s in stakes):
        stakes = tuple(s if s.cube is not None else s.with_cube(Cube()) for s in stakes)
    for k, record in enumerate(match.games):
        reviews.append(review_game(record, evaluator, thresholds=thresholds, stakes=stakes[k],
                                   **options))
        if progress is not None:
            progress(k + 1, len(match.games))
        if reviews[-1].params.get("interrupted"):
            break
    params = {**reviews[0].params, "length": match.length, "next_white": next_white,
              "draw_points": draw_points}
    params.pop("match", None)
    return MatchReview(match, tuple(reviews), params)
