"""Notation (RULES.md §9): round trips, canonical form, and errors that quote the token."""

from __future__ import annotations

import pytest

from nardy_cli import Position, apply_play, legal_plays, parse_dice, parse_play, parse_position
from nardy_cli.core.errors import (DiceError, IllegalPlayError, InvalidPositionError, NardyError,
    NotationError)
from nardy_cli.core.positions_file import format_positions, parse_positions_text, resolve_positions


@pytest.mark.parametrize("text, canonical", [
    ("W:1x15 B:1x15 w", "W:1x15 B:1x15 w"),
    ("start", "W:1x15 B:1x15 w"),
    ("W:12,1x14  B:1x15   b", "W:1x14,12 B:1x15 b"),
    ("W:1x14,12 B:1x15 b 5-6", "W:1x14,12 B:1x15 b 6-5"),
    ("W:1x14,12 B:1x15 b 56", "W:1x14,12 B:1x15 b 6-5"),
    ("W:24x1 B:- w", "W:24 B:- w"),
])
def test_canonical_form(text, canonical):
    pos = parse_position(text)
    assert str(pos) == canonical
    assert parse_position(str(pos)) == pos
    assert eval(repr(pos)) == pos and hash(eval(repr(pos))) == hash(pos)


@pytest.mark.parametrize("text, token", [
    ("W:1x15 B:1x15 x", "'x'"),
    ("W:25 B:1x15 w", "'25'"),
    ("W:1x0,2x15 B:1x15 w", "'1x0'"),
    ("W:1x5,1x10 B:1x15 w", "'1x10'"),
    ("W:1x16 B:1x15 w", "'1x16'"),
    ("W:1x15 B:1x15 w 7-1", "'7-1'"),
    ("W:1x15 B:1x15 w 6-0", "'6-0'"),
    ("W:1x14,13 B:1x15 w", "W13 = B1"),
    ("W:1x15 w", "'B:'"),
    ("W:1x15 B:1x15", "side to move"),
    ("W:1x15 B:1x15 w foo", "'foo'"),
    ("W:1xa B:1x15 w", "'1xa'"),
])
def test_bad_positions_name_the_token(text, token):
    with pytest.raises(NardyError) as err:
        parse_position(text)
    assert token in str(err.value)


def test_forbidden_block_is_invalid_input():
    # White W20-W24 + W1 = B8-B13 with every Black checker behind it (R6)
    with pytest.raises(InvalidPositionError, match="forbidden block"):
        parse_position("W:1x5,18,20x2,21x2,22x2,23x2,24 B:1x11,2,3,4,5 w")


def test_dice():
    assert str(parse_dice("5-6")) == "6-5" and parse_dice("66").is_double
    assert eval(repr(parse_dice("3-1"))) == parse_dice("31")
    with pytest.raises(DiceError, match="'0-1'"):
        parse_dice("0-1")


def test_plays_round_trip_and_paths():
    pos = parse_position("start")
    (play,) = legal_plays(pos, "6-5")
    assert str(play) == "1/7 7/12"
    assert parse_play(pos, "1/7 7/12", "6-5") == play
    assert parse_play(pos, "1/12", "6-5") == play          # one checker's whole path
    assert parse_play(pos, "1/6 6/12", "6-5") == play      # the other order of the same play
    assert apply_play(pos, "1/12", "6-5") == play.result
    with pytest.raises(IllegalPlayError, match="'1/13'"):
        parse_play(pos, "1/13", "6-5")
    with pytest.raises(NotationError, match="'1-7'"):
        parse_play(pos, "1-7", "6-5")
    off = parse_position("W:22x2,24x3 B:1x15 w")
    (bear,) = legal_plays(off, "6-5")
    assert str(bear) == "22/off 22/off" and parse_play(off, "22/off 22/off", "6-5") == bear


def test_a_play_is_parsed_beside_where_it_is_formatted():
    """Catches `parse_play` and `format_play` drifting apart into two modules again (issue 37): the
    notation's two directions, and `Play` itself, live in one module."""
    import nardy_cli
    homes = {nardy_cli.parse_play.__module__, nardy_cli.format_play.__module__,
             nardy_cli.Play.__module__}
    assert homes == {"nardy_cli.core.engine"}


def test_positions_file_round_trip(tmp_path):
    text = "# comment\n\nopening: W:1x14,12 B:1x15 b   # after 6-5\nstart-pos: start\n"
    items = parse_positions_text(text, "f.txt")
    assert [i.name for i in items] == ["opening", "start-pos"]
    assert parse_positions_text(format_positions(items)) == items
    path = tmp_path / "p.txt"
    path.write_text(format_positions(items))
    assert resolve_positions(str(path)) == items
    assert resolve_positions(f"{path}:opening") == items[:1]
    with pytest.raises(NardyError, match="'nope'"):
        resolve_positions(f"{path}:nope")


@pytest.mark.parametrize("text, needle", [
    ("Bad Name: start\n", "name"),
    ("a: start\na: start\n", "used twice"),
    ("a: W:1x16 B:1x15 w\n", ":1:"),
])
def test_positions_file_errors(text, needle):
    with pytest.raises(NardyError, match=needle):
        parse_positions_text(text, "f.txt")


def test_position_is_frozen_and_hashable():
    pos = parse_position("start")
    with pytest.raises(AttributeError):
        pos.turn = "b"  # type: ignore[misc]
    assert len({pos, parse_position("W:1x15 B:1x15 w")}) == 1
    assert pos.pip_count("w") == 360 == pos.pip_count("b")
    with pytest.raises(InvalidPositionError):
        Position(pos.white, pos.black, "x")


def test_a_position_shows_its_board_in_a_notebook():
    """Catches a `Position` that a notebook shows only as `Position.parse('...')` text: `_repr_svg_`
    draws the board, each side's checkers on its own points (White's W1 bottom left, Black's B1 =
    W13 top right)."""
    import xml.etree.ElementTree as ET

    from nardy_cli.core.board_svg import MAX_DRAWN, _slot, _x
    pos = parse_position("W:1x14,12 B:1x15 b 6-5")
    root = ET.fromstring(pos._repr_svg_())
    ns = "{http://www.w3.org/2000/svg}"
    circles = [(float(c.get("cx")), float(c.get("cy")), c.get("fill"))
               for c in root.iter(f"{ns}circle")]
    white = {(x, y) for x, y, fill in circles if fill == "#fbfaf5"}
    black = {(x, y) for x, y, fill in circles if fill == "#2b2b2b"}
    assert len(white) == MAX_DRAWN + 1 and len(black) == MAX_DRAWN
    assert ({x for x, _ in white} == {_x(_slot(1)[0]), _x(_slot(12)[0])}
            and {x for x, _ in black} == {_x(_slot(13)[0])})
    # Black's head is on the top row
    assert max(y for _, y in black) < min(y for _, y in white)
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert "Black to move, to play 6-5" in texts and "W:1x14,12 B:1x15 b 6-5" in texts
    assert "14" in texts and "15" in texts                               # the stacks are counted
