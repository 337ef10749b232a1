"""`/api/v1/games`: games against a bot, one decision a request, with the tutor's warning before a
play that loses more than its thresholds, hints, taking back, the review and saving."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ..games.session import GameSession
from ..review.game_review import Thresholds
from .inputs import ApiError, blame
from .schemas import CubeActionIn as CubeIn
from .schemas import PlayIn, RollIn, SaveIn, SessionIn
from .sessions import Seat, save_record, seat_data

router = APIRouter(prefix="/api/v1/games", tags=["games"])


def _sessions(request: Request):
    return request.app.state.sessions


def _bot_turns(seat: Seat) -> None:
    """The bot acts while it is its turn and the game goes on: its cube action (a double, or its
    answer to the person's), then its roll and play."""
    s = seat.session
    seat.last_bot = []
    bot = "wb".replace(s.person, "")
    while s.result is None and s.to_move == "bot":
        before = len(s.pending)
        play = s.bot_turn()
        acts = s.pending[before:] if play is None else s.actions[-1][before:]
        cube = [kind for kind, side in acts if side == bot]
        if play is None:
            seat.last_bot.append({"cube": cube})
            continue
        seat.last_bot.append({"cube": cube, "dice": str(play.dice), "play": str(play),
                              "result": str(play.result)})


@router.post("", summary="Start a game against a bot")
def new_game(body: SessionIn, request: Request) -> dict:
    """A new game from the start; when the bot has White it plays its first turn at once."""
    import secrets
    from ..core.rules import PRESETS
    from .inputs import stakes_of
    with blame("thresholds"):
        thresholds = Thresholds(*body.thresholds)
    seed = body.seed if body.seed is not None else secrets.randbelow(2**62)
    with blame("match"):
        stakes = stakes_of(body)
        if body.with_cube:
            from ..match.cube import Cube
            stakes = stakes.with_cube(Cube())
        session = GameSession(body.bot, body.side, PRESETS[body.rules], stakes, seed)
    seat = Seat(session, body.tutor, body.tutor_evaluator, thresholds, [])
    with blame("bot"):
        _bot_turns(seat)
    key = _sessions(request).add(seat)
    return seat_data(key, seat)


@router.get("/{game_id}", summary="A game's state")
def game(game_id: str, request: Request) -> dict:
    return seat_data(game_id, _sessions(request).get(game_id))


@router.post("/{game_id}/roll", summary="Roll the person's dice (or type them in)")
def roll(game_id: str, body: RollIn, request: Request) -> dict:
    seat = _sessions(request).get(game_id)
    if seat.session.to_move != "person":
        raise ApiError("it is not your turn", "game_id", 409)
    with blame("dice", 409 if body.dice is None else 400):
        seat.session.roll(body.dice)
    return seat_data(game_id, seat)


@router.post("/{game_id}/play", summary="Make the person's play (the tutor may warn first)")
def play(game_id: str, body: PlayIn, request: Request) -> dict:
    """With the tutor on and `confirm` false, a play that loses at least the doubtful threshold
    is not made: the answer's `warning` says how much it loses and which play is best."""
    seat = _sessions(request).get(game_id)
    s = seat.session
    if s.to_move != "person" or s.dice is None:
        raise ApiError("roll the dice first" if s.to_move == "person" else "it is not your turn",
                       "game_id", 409)
    with blame("play"):
        chosen = next((p for p in s.legal() if str(p) == body.play), None)
        if chosen is None:
            from ..core.engine import parse_play
            chosen = parse_play(s.position, body.play, s.dice, s.rules)
    if seat.tutor and not body.confirm and len(s.legal()) > 1:
        from ..review.tutor import judge_play
        verdict = judge_play(s.position, s.dice, chosen, seat.tutor_evaluator, s.rules,
                             s.stakes, seat.thresholds)
        if verdict.warns:
            return {**seat_data(game_id, seat), "warning": verdict.to_dict(), "made": False}
    s.play(chosen)
    _bot_turns(seat)
    return {**seat_data(game_id, seat), "made": True, "warning": None}


@router.post("/{game_id}/double", summary="Double before your roll (the bot answers)")
def double(game_id: str, request: Request, body: CubeIn | None = None) -> dict:
    """With the tutor on and `confirm` false, a double that loses at least the doubtful
    threshold is not made: the answer's `warning` says how much and what is best."""
    return _cube(game_id, "double", request, body)


@router.post("/{game_id}/take", summary="Take the bot's double (then it rolls and plays)")
def take(game_id: str, request: Request, body: CubeIn | None = None) -> dict:
    return _cube(game_id, "take", request, body)


@router.post("/{game_id}/drop", summary="Drop the bot's double (the game ends)")
def drop(game_id: str, request: Request, body: CubeIn | None = None) -> dict:
    return _cube(game_id, "drop", request, body)


def _cube(game_id: str, kind: str, request: Request, body) -> dict:
    seat = _sessions(request).get(game_id)
    s = seat.session
    with blame("game_id", 409):
        if kind == "double" and not s.may_double(s.person):
            s.double(s.person)                       # raises, saying why not
        if kind != "double" and (s.tracker().offer is None or s.to_move != "person"):
            s.answer(kind, s.person)                 # raises, saying why not
        if seat.tutor and not (body and body.confirm):
            from ..review.tutor import judge_cube
            offer = s.tracker().offer
            stakes = s.cube_stakes() if kind == "double" else s.stakes.with_cube(
                _cube_before(offer))
            verdict = judge_cube(s.position, stakes, kind, s.rules, seat.thresholds)
            if verdict.warns:
                return {**seat_data(game_id, seat), "warning": verdict.to_dict(), "made": False}
        if kind == "double":
            s.double(s.person)
        else:
            s.answer(kind, s.person)
        _bot_turns(seat)
    return {**seat_data(game_id, seat), "made": True, "warning": None}


def _cube_before(offer):
    """The cube as it stood when `offer` was made."""
    from ..match.cube import Cube
    return Cube(offer.value // 2, "centre" if offer.value == 2
                else ("white" if offer.side == "w" else "black"))


@router.post("/{game_id}/hint", summary="The best plays of the rolled dice")
def hint(game_id: str, request: Request) -> dict:
    from ..analysis.depth_rank import rank_at_depth
    seat = _sessions(request).get(game_id)
    s = seat.session
    if s.dice is None or s.to_move != "person":
        raise ApiError("a hint needs your rolled dice", "game_id", 409)
    ranking = rank_at_depth(s.position, s.dice, seat.tutor_evaluator, s.rules, s.stakes)
    return ranking.to_dict()


@router.post("/{game_id}/undo", summary="Take back your last play (and the bot's replies)")
def undo(game_id: str, request: Request) -> dict:
    seat = _sessions(request).get(game_id)
    with blame("game_id", 409):
        seat.session.take_back()
    seat.last_bot = []
    return seat_data(game_id, seat)


@router.get("/{game_id}/review", summary="The game's review, decision by decision")
def review(game_id: str, request: Request) -> dict:
    from ..review.game_review import review_game
    seat = _sessions(request).get(game_id)
    s = seat.session
    if not s.plays:
        raise ApiError("nothing to review: no play made yet", "game_id", 409)
    sides = (s.person,)
    with blame("game_id", 409):
        result = review_game(s.record(), seat.tutor_evaluator, sides=sides,
                             thresholds=seat.thresholds, stakes=s.stakes)
    return review_data(result)


@router.get("/{game_id}/review.html", summary="The game's interactive review page",
            response_class=HTMLResponse)
def review_page(game_id: str, request: Request):
    """The review page `nardy review --html` writes (board, decisions, marks, luck), for this
    game: one self-contained HTML page."""
    from ..reports.review_page import game_data, page_data, page_html
    from ..review.game_review import review_game
    seat = _sessions(request).get(game_id)
    s = seat.session
    if not s.plays:
        raise ApiError("nothing to review: no play made yet", "game_id", 409)
    with blame("game_id", 409):
        result = review_game(s.record(), seat.tutor_evaluator, sides=(s.person,),
                             thresholds=seat.thresholds, stakes=s.stakes)
    return HTMLResponse(page_html(page_data([game_data(result)])))


def review_data(result) -> dict:
    """A `GameReview` as JSON data (NaN as null)."""
    import json
    return {"params": result.params,
            "summary": json.loads(result.summary().to_json(orient="records")),
            "plies": json.loads(result.frame.to_json(orient="records"))}


@router.post("/{game_id}/save", summary="Save the game as a record, and into the library")
def save(game_id: str, body: SaveIn, request: Request) -> dict:
    """The record is written into the library's folder (`games/`); with a `player` the game is
    reviewed into the library under that name (the person's side plays as `player`)."""
    seat = _sessions(request).get(game_id)
    config = request.app.state.config
    if not seat.session.plays:
        raise ApiError("nothing to save: no play made yet", "game_id", 409)
    library = config.library_path()
    path = save_record(seat, library.parent / "games", game_id)
    seat.saved = str(path)
    out = {"saved": str(path), "library": None}
    if body.player:
        from ..library.store import Library
        from ..records.game_record import format_game
        record = seat.session.record()
        from dataclasses import replace
        named = replace(record, **{"white" if seat.session.person == "w" else "black":
                                   body.player.strip()})
        path.write_text(format_game(named))
        with blame("player"), Library(library) as lib:
            added = lib.add([path])
        out["library"] = [a.note for a in added]
    return out
