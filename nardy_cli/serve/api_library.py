"""`/api/v1/review` and `/api/v1/library`: a game or `.mat` uploaded and reviewed in memory, and the
player's library (its players, their ratings, their quizzes) from its SQLite file."""

from __future__ import annotations

import json

from fastapi import APIRouter, Query, Request

from .inputs import ApiError, blame
from .schemas import RecordIn

router = APIRouter(prefix="/api/v1", tags=["review and library"])


def _records(frame) -> list[dict]:
    return json.loads(frame.to_json(orient="records")) if len(frame) else []


@router.post("/review", summary="Review an uploaded game record or .mat transcript")
def review(body: RecordIn) -> dict:
    """The text is parsed in memory (never written); a game is reviewed decision by decision, a
    match game by game at their scores."""
    from ..records.files import parse_games
    from ..records.game_record import GameRecord
    from ..review.game_review import review_game
    from ..review.match_review import review_match
    from .api_games import review_data
    with blame("text"):
        record = parse_games(body.text)
    with blame("text"):
        if isinstance(record, GameRecord):
            return {"kind": "game", **review_data(review_game(record, body.evaluator))}
        result = review_match(record, body.evaluator)
    return {"kind": "match", **json.loads(json.dumps(result.to_dict(), default=str))}


def _library(request: Request):
    from ..library.store import Library
    path = request.app.state.config.library_path()
    if not path.exists():
        raise ApiError(f"no library yet at {path}: save a game into it first", "library", 404)
    return Library(path, create=False)


@router.get("/library/players", summary="The library's players")
def players(request: Request) -> dict:
    with _library(request) as lib:
        return {"players": lib.players(), "sources": _records(lib.sources())}


@router.get("/library/stats", summary="Ratings of play per player")
def stats(request: Request, player: str | None = Query(None, max_length=60)) -> dict:
    with _library(request) as lib, blame("player"):
        return {"stats": _records(lib.stats(player))}


@router.get("/library/quiz", summary="A player's costliest distinct mistakes")
def quiz(request: Request, player: str = Query(..., max_length=60),
         count: int = Query(20, ge=1, le=100)) -> dict:
    with _library(request) as lib, blame("player"):
        cards = lib.quiz(player, count)
    return {"player": player, "cards": [_card(c) for c in cards]}


def _card(card) -> dict:
    from dataclasses import asdict, is_dataclass
    data = asdict(card) if is_dataclass(card) else dict(card.__dict__)
    return json.loads(json.dumps(data, default=str))
