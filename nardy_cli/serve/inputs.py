"""Request data turned into the library's values, each failure an `ApiError` naming its field."""

from __future__ import annotations

from contextlib import contextmanager

from ..core.dice import parse_dice
from ..core.errors import NardyError
from ..core.position import Position, parse_position
from ..core.position_id import looks_like_position_id, parse_position_id
from ..core.rules import PRESETS, Rules
from ..match.stakes import MONEY, Stakes


class ApiError(Exception):
    """A request the API refuses: its status (4xx), message and the field at fault."""

    def __init__(self, message: str, field: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.field, self.status = message, field, status


@contextmanager
def blame(field: str | None, status: int = 400):
    """Turn a library error raised inside into an `ApiError` naming `field`."""
    try:
        yield
    except NardyError as exc:
        raise ApiError(str(exc), field, status) from None


def position_of(body) -> Position:
    """The position of a `PositionIn` (its dice included): by board, else by notation or ID."""
    if body.board is not None and body.position is not None:
        raise ApiError("give position or board, not both", "position")
    if body.board is not None:
        with blame("board"):
            pos = Position(tuple(body.board.white), tuple(body.board.black), body.board.turn)
    elif body.position is not None:
        text = body.position.strip()
        with blame("position"):
            pos = (parse_position_id(text) if looks_like_position_id(text)
                   else parse_position(text))
    else:
        raise ApiError("give a position (notation, ID or 'start') or a board", "position")
    if body.dice:
        with blame("dice"):
            pos = pos.with_dice(parse_dice(body.dice))
    return pos


def rules_of(body) -> Rules:
    """The rules preset named by the body."""
    return PRESETS[body.rules]


def stakes_of(body) -> Stakes:
    """Money, or the body's match score; with its cube when given."""
    from ..match.cube import Cube
    from ..match.state import MatchState
    match = getattr(body, "match", None)
    cube = getattr(body, "cube", None)
    if match is None and cube is None:
        return MONEY
    with blame("match"):
        state = (MatchState(match.length, tuple(match.score), crawford=match.crawford)
                 if match is not None else None)
    with blame("cube"):
        return Stakes(state, Cube(cube.value, cube.owner) if cube is not None else None)


def position_data(pos: Position) -> dict:
    """A position as the API answers it: notation, ID, both boards, dice, pips, off."""
    from ..core.position_id import format_position_id
    return {"position": str(pos), "id": format_position_id(pos),
            "board": {"white": list(pos.white), "black": list(pos.black), "turn": pos.turn},
            "dice": str(pos.dice) if pos.dice is not None else None,
            "pips": {"white": pos.pip_count("w"), "black": pos.pip_count("b")},
            "off": {"white": pos.white_off, "black": pos.black_off}}
