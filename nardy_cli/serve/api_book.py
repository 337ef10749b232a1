"""`/api/v1/book`: the opening book as a tree to click through: the first rolls, a first roll's
replies, a position's second turn, and any entry's plays with their figures."""

from __future__ import annotations

import json
from typing import Literal

from fastapi import APIRouter, Query

from ..core.position import START
from ..core.rules import PRESETS
from .inputs import ApiError, blame, position_data, position_of
from .schemas import PositionIn

router = APIRouter(prefix="/api/v1/book", tags=["opening book"])
RULES = PRESETS["federation"]


def _book():
    from ..book.read import load_book
    return load_book()


def _records(frame) -> list[dict]:
    """A DataFrame's rows as JSON data (NaN as null)."""
    return json.loads(frame.to_json(orient="records")) if len(frame) else []


@router.get("", summary="The book's first rolls, the standing after the first exchange")
def first_rolls() -> dict:
    book = _book()
    return {"start": position_data(START), "provenance": book.provenance(),
            "first_rolls": _records(book.first_roll_frame(RULES)),
            "standing": book.standing(RULES), "entries": book.depth_counts()}


@router.get("/tree", summary="A first roll's tree: Black's 21 replies and White's equity after")
def tree(roll: str = Query(..., max_length=5, examples=["6-5"])) -> dict:
    from ..core.dice import parse_dice
    with blame("roll"):
        dice = parse_dice(roll)
    book = _book()
    return {"roll": str(dice), "white": book.entry(START, dice),
            "replies": _records(book.tree(dice, RULES))}


@router.post("/entry", summary="A decision's entry (position and dice), or the position's turn")
def entry(body: PositionIn, view: Literal["entry", "second-turn"] = "entry") -> dict:
    """With dice: the book's entry of that decision (404 when the book lacks it).  With
    `view=second-turn`: each roll's best play in the position from the book."""
    pos = position_of(body)
    book = _book()
    if view == "second-turn":
        return {**position_data(pos), "rolls": _records(book.second_turn(pos.with_dice(None)))}
    if pos.dice is None:
        raise ApiError("an entry is a decision: give the dice", "dice")
    found = book.entry(pos.with_dice(None), pos.dice)
    if found is None:
        raise ApiError(f"the opening book has no entry for {pos}", "position", 404)
    return {**position_data(pos), "entry": found}
