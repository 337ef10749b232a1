"""Bot games kept whole: play a game turn by turn between two policies and return its record.

The games are the games layer's Python turn loop (`games.python_loop`), unstratified:
the same dice, and for a compiled policy the same choices, as the game kernel, so
game `i` here is game `i` of an unstratified rollout with the same seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .dice import Dice
from .errors import ArgumentError
from .games import DEFAULT_SEED, GameSpec, python_loop
from .outcomes import class_code, class_points
from .kernels.game import N_DEFICIT
from .kernels.movegen import Workspace
from .play import Play
from .policies import Policy, as_policy
from .position import START, WHITE, Position
from .records import GameRecord, parse_date_tag, record_from_plays
from .rules import PRESETS, Rules

MAX_PLIES = 2000


@dataclass(frozen=True)
class PlayedGames:
    """Records of games between two policies, and a per-game summary."""

    records: tuple[GameRecord, ...]
    white: str
    black: str
    seed: int

    def frame(self) -> pd.DataFrame:
        """One row per game: plies, result, points for White."""
        rows = []
        for i, r in enumerate(self.records):
            rows.append({"game": i + 1, "white": r.white, "black": r.black, "plies": len(r.plies),
                         "result": "*" if r.result is None else str(r.result),
                         "white_points": points_for_white(r)})
        return pd.DataFrame(rows, columns=["game", "white", "black", "plies", "result", "white_points"])

    def summary(self) -> dict:
        """Games, White's mean points, wins of each side and draws."""
        f = self.frame()
        return {"games": len(f), "white": self.white, "black": self.black, "seed": self.seed,
                "white_wins": int((f["white_points"] > 0).sum()), "black_wins": int((f["white_points"] < 0).sum()),
                "draws": int(sum(1 for r in self.records if r.result is not None and r.result.winner is None)),
                "unfinished": int(sum(1 for r in self.records if r.result is None)),
                "white_points_per_game": float(f["white_points"].mean()) if len(f) else 0.0,
                "mean_plies": float(f["plies"].mean()) if len(f) else 0.0}


def points_for_white(record: GameRecord) -> float:
    """Points White scored (negative when Black won; 0 for a draw or an unfinished game)."""
    res = record.result
    if res is None or res.winner is None:
        return 0.0
    pts = class_points(record.rules.points)[class_code(res.kind)]
    return float(pts if res.winner == WHITE else -pts)


def play_game(white: str | Policy, black: str | Policy, *, position: Position = START,
              rules: Rules = PRESETS["federation"], seed: int = DEFAULT_SEED, game: int = 0,
              max_plies: int = MAX_PLIES, date: str = "?", valuation=None, tags: tuple = ()) -> GameRecord:
    """Play game number `game` from `position` (its dice, if any, are the first roll) and record it; the
    policies choose by `valuation` (a match score's values; money when None)."""
    sides = {"w": as_policy(white), "b": as_policy(black)}
    spec = GameSpec(position, rules, sides["w"], sides["b"], seed, stratify=False, valuation=valuation)
    played: list[tuple[Dice, Play]] = []
    python_loop.play_game(spec, sides["w"], sides["b"], game, max_plies, np.zeros((2, N_DEFICIT), dtype=np.int64),
                          Workspace(), on_play=lambda dice, play: played.append((dice, play)))
    return record_from_plays(played, position.with_dice(None), rules, white=sides["w"].name,
                             black=sides["b"].name, date=date,
                             tags=(("Seed", str(seed)), ("Game", str(game + 1))) + tuple(tags))


def play_games(white: str | Policy, black: str | Policy, games: int = 1, *, position: Position = START,
               rules: Rules = PRESETS["federation"], seed: int = DEFAULT_SEED, date: str = "?",
               max_plies: int = MAX_PLIES) -> PlayedGames:
    """Games 0..games-1 between `white` and `black`, each recorded; `date` is `YYYY.MM.DD` or `?`."""
    if games < 1:
        raise ArgumentError(f"{{games}} must be at least 1, got {games}")
    date = parse_date_tag(date)
    w, b = as_policy(white), as_policy(black)
    records = tuple(play_game(w, b, position=position, rules=rules, seed=seed, game=g, date=date,
                              max_plies=max_plies) for g in range(games))
    return PlayedGames(records, w.name, b.name, seed)
