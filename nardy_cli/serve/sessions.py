"""The server's game sessions against a bot, in memory by id, each with its tutor settings; a
saved game is a record file in the library's folder (and in the library when a player is named)."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..games.session import GameSession
from ..review.game_review import Thresholds
from .inputs import ApiError, position_data


@dataclass
class Seat:
    """A session and how the person plays it: tutor on or off, its evaluator and thresholds."""

    session: GameSession
    tutor: bool
    tutor_evaluator: str
    thresholds: Thresholds
    last_bot: list
    saved: str | None = None


class Sessions:
    """Sessions by id, at most `limit` (the oldest is dropped past it)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.seats: OrderedDict[str, Seat] = OrderedDict()
        self.lock = threading.Lock()

    def add(self, seat: Seat) -> str:
        with self.lock:
            key = secrets.token_hex(8)
            self.seats[key] = seat
            while len(self.seats) > self.limit:
                self.seats.popitem(last=False)
        return key

    def get(self, key: str) -> Seat:
        seat = self.seats.get(key)
        if seat is None:
            raise ApiError(f"no game {key!r} (games are kept while the server runs)", "game_id",
                           404)
        return seat


def seat_data(key: str, seat: Seat) -> dict:
    """A session as the API answers it: the position (with the dice rolled), whose turn, the legal
    plays when the person is to play, the game so far, the bot's last plays and the result."""
    s = seat.session
    pos = s.position.with_dice(s.dice)
    over = s.result
    plays = []
    if over is None and s.dice is not None and s.to_move == "person":
        plays = [{"play": str(p), "steps": [list(st) for st in p.steps], "result": str(p.result)}
                 for p in s.legal()]
    history = [{"side": (s.plays[i - 1][1].result if i else s.start).turn, "dice": str(d),
                "play": str(p), "result": str(p.result)} for i, (d, p) in enumerate(s.plays)]
    return {**position_data(pos), "game_id": key, "to_move": None if over else s.to_move,
            "person": s.person, "bot": s.bot, "plays": plays, "history": history,
            "bot_plays": seat.last_bot,
            "result": None if over is None else {"winner": over.winner, "class": over.kind},
            "tutor": {"on": seat.tutor, "evaluator": seat.tutor_evaluator,
                      "thresholds": [seat.thresholds.doubtful, seat.thresholds.error,
                                     seat.thresholds.blunder]},
            "match": s.stakes.match.to_dict() if s.stakes.match is not None else None,
            "cube": _cube_data(s),
            "saved": seat.saved}


def save_record(seat: Seat, folder: Path, key: str) -> Path:
    """Write the session's game as a record file in `folder` (the library's folder's `games/`)."""
    from ..records.game_record import format_game
    folder.mkdir(parents=True, exist_ok=True)
    day = date.today().strftime("%Y.%m.%d")
    path = folder / f"serve-{date.today():%Y%m%d}-{key}.txt"
    path.write_text(format_game(seat.session.record(day)))
    return path


def _cube_data(s: GameSession) -> dict | None:
    """The cube of a cube game: value, owner, whether the person may double now, and the value of
    a double waiting for the person's answer."""
    cube = s.cube
    if cube is None:
        return None
    offer = s.tracker().offer
    return {"value": cube.value, "owner": cube.owner, "may_double": s.may_double(s.person),
            "offered": offer.value if offer is not None and offer.side != s.person else None}
