"""A study set from a player's own mistakes: the costliest distinct positions they misplayed.

`select_cards` takes a player's decisions (`Library.decisions`), keeps the checker plays that
lost at least `MIN_LOST`, keeps one row per position and roll (the costliest, counting how often
the player met it), and returns the `count` costliest as `QuizCard`s: everything a quiz page, its
answers page or a flash card shows.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..core.errors import ArgumentError
from ..core.i18n import _

MIN_LOST = 0.001     # equity: a smaller loss is no mistake worth drilling


@dataclass(frozen=True)
class QuizCard:
    """One misplayed position: the position with its dice, the score and cube, and the answer."""

    number: int
    player: str
    opponent: str
    side: str                  # 'white' or 'black': the player's colour
    position: str              # notation with the dice
    position_id: str
    dice: str
    phase: str
    match_length: int          # 0: money
    score_player: float | None
    score_opponent: float | None
    crawford: bool
    cube_value: int | None     # None: a game without the cube
    cube_owner: str | None
    played: str
    best: str
    equity_played: float
    equity_best: float
    lost: float
    played_result: str
    best_result: str
    source: str
    game: int
    turn: str
    day: str
    times: int                 # how often the player misplayed this position and roll

    @property
    def key(self) -> str:
        """What makes a card distinct: the position ID and the dice."""
        return f"{self.position_id} {self.dice}"

    def score_text(self) -> str:
        """`money`, or the match and the score from the player's side: `5-point match, 1-3
        (Crawford)`; in the language in use."""
        if not self.match_length:
            return _("money game")
        text = _("{length}-point match, {player} {mine:g}, {opponent} {theirs:g}").format(
            length=self.match_length, player=self.player, mine=self.score_player,
            opponent=self.opponent, theirs=self.score_opponent)
        return text + (_(" (Crawford game)") if self.crawford else "")

    def cube_text(self) -> str:
        """`no cube`, `cube 1, centred`, `cube 2, owned by the player` (by name); in the language in
        use."""
        if self.cube_value is None:
            return _("no cube")
        if self.cube_owner in (None, "centre"):
            return _("cube {value}, centred").format(value=self.cube_value)
        owner = self.player if self.cube_owner == self.side else self.opponent
        return _("cube {value}, owned by {owner}").format(value=self.cube_value, owner=owner)


def select_cards(decisions: pd.DataFrame, player: str, count: int = 20) -> list[QuizCard]:
    """The player's `count` costliest distinct mistakes (one per position and roll), costliest
    first; fewer when the player made fewer."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ArgumentError(f"{{count}} must be a whole number of cards, 1 or more, got {count!r}")
    mine = decisions[(decisions["player"] == player) & ~decisions["forced"].astype(bool)]
    mine = mine[mine["lost"] >= MIN_LOST]
    if mine.empty:
        return []
    mine = mine.sort_values(["lost", "day", "source_id", "game", "ply"],
                            ascending=[False, True, True, True, True], kind="stable")
    times = mine.groupby(["position_id", "dice"]).size()
    first = mine.drop_duplicates(["position_id", "dice"]).head(count)
    cards = []
    for k, row in enumerate(first.to_dict(orient="records"), 1):
        score = row["score_player"]
        cards.append(QuizCard(
            number=k, player=player, opponent=row["opponent"], side=row["side"],
            position=row["position"], position_id=row["position_id"], dice=row["dice"],
            phase=row["phase"], match_length=int(row["match_length"] or 0),
            score_player=None if pd.isna(score) else float(score),
            score_opponent=None if pd.isna(score) else float(row["score_opponent"]),
            crawford=bool(row["crawford"]),
            cube_value=None if pd.isna(row["cube_value"]) else int(row["cube_value"]),
            cube_owner=None if pd.isna(row["cube_value"]) else row["cube_owner"],
            played=row["played"], best=row["best"], equity_played=float(row["equity_played"]),
            equity_best=float(row["equity_best"]), lost=float(row["lost"]),
            played_result=row["played_result"], best_result=row["best_result"],
            source=row["source"], game=int(row["game"]), turn=row["turn"], day=row["day"],
            times=int(times[(row["position_id"], row["dice"])])))
    return cards


__all__ = ["QuizCard", "select_cards", "MIN_LOST"]
