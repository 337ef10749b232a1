"""The position ID: 14 characters that round-trip every position, and a clear error for a corrupted
one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy_cli.core.errors import InvalidPositionError, NardyError, PositionIdError
from nardy_cli.core.position import START, Position, parse_position
from nardy_cli.core.position_id import (ALPHABET, format_position_id, looks_like_position_id,
    parse_position_id)
from nardy_cli.core.positions_file import parse_positions_text, resolve_positions

from .randomgames import random_game_positions

ROOT = Path(__file__).resolve().parent.parent


def test_start_and_a_reply_have_known_ids():
    """Pins the bit layout: changing it would break every ID already shared. Catches: the side to
    move dropped, or the sides' order swapped (Black's checkers read as White's)."""
    assert format_position_id(START) == "H__AAAA__4AAAA"
    reply = parse_position("W:1x14,12 B:1x15 b")
    assert format_position_id(reply) == "P_+ACAA__4AAAA"
    assert parse_position_id("P_+ACAA__4AAAA") == reply
    # no dice in it
    assert format_position_id(parse_position("W:1x14,12 B:1x15 b 6-5")) == "P_+ACAA__4AAAA"


def test_thousands_of_positions_from_random_games_round_trip():
    """Catches: a count of 15 on one point, an empty side or the last point (24) encoded wrongly."""
    seen = {}
    for pos, _ in random_game_positions(3000, seed=24, greedy=0.3):
        pos = pos.with_dice(None)
        key = format_position_id(pos)
        assert len(key) == 14 and key[0] in "ABCDEFGHIJKLMNOP"
        assert parse_position_id(key) == pos
        assert seen.setdefault(key, pos) == pos          # one ID, one position
    assert len(seen) > 2000


@st.composite
def any_position(draw) -> Position:
    """Any position obeying R1 and the checker counts (blocks not checked): each side 0-15
    checkers."""
    white, black = [0] * 24, [0] * 24
    for counts, other, offset in ((white, black, 12), (black, white, 12)):
        for _ in range(draw(st.integers(0, 15))):
            free = [i for i in range(24) if not other[(i + offset) % 24]]
            counts[draw(st.sampled_from(free))] += 1
    return Position.unchecked(tuple(white), tuple(black), draw(st.sampled_from("wb")))


@given(any_position())
def test_any_position_round_trips(pos):
    """Catches: a layout that overflows 84 bits when both sides have all 15 checkers on the board
    spread out."""
    assert parse_position_id(format_position_id(pos), check_blocks=False) == pos


def test_every_accepted_id_is_the_canonical_id_of_its_position():
    """A random string is either rejected or the ID the position itself writes, so no position has
    two IDs. Catches: padding or reserved bits ignored on reading (two IDs for one position)."""
    rng = random.Random(3)
    accepted = 0
    for _ in range(20000):
        text = rng.choice(ALPHABET[:16]) + "".join(rng.choice(ALPHABET) for _ in range(13))
        try:
            pos = parse_position_id(text, check_blocks=False)
        except NardyError:
            continue
        accepted += 1
        assert format_position_id(pos) == text
    ids = [format_position_id(p.with_dice(None)) for p, _ in random_game_positions(50, seed=5)]
    for key in ids:                       # one character changed: rejected or another position
        for i in range(14):
            for c in "Ab+_9":
                if c == key[i]:
                    continue
                wrong = key[:i] + c + key[i + 1:]
                try:
                    assert parse_position_id(wrong, check_blocks=False) != parse_position_id(key)
                except NardyError:
                    pass


CORRUPT = [
    ("bad character", "H__AAAA__4AA!A", PositionIdError,
     "bad position ID 'H__AAAA__4AA!A': character '!' is not one of A-Z a-z 0-9 + _"),
    ("too short", "H__AAAA__4AAA", PositionIdError,
     "bad position ID 'H__AAAA__4AAA': 13 characters, expected 14"),
    ("too long", "H__AAAA__4AAAAA", PositionIdError,
     "bad position ID 'H__AAAA__4AAAAA': 15 characters, expected 14"),
    ("reserved bits", "X__AAAA__4AAAA", PositionIdError,
     "bad position ID 'X__AAAA__4AAAA': not a nardy position ID (it starts with a letter A-P)"),
    ("too many checkers", "H___AAA__4AAAA", PositionIdError,
     "bad position ID 'H___AAA__4AAAA': White has more than 15 checkers"),
    ("bad padding", "H__AAAA__4AAAB", PositionIdError,
     "bad position ID 'H__AAAA__4AAAB': bad padding (bits set after Black's point 24)"),
    ("both colours on a point", format_position_id(Position.unchecked(
        (1,) + (0,) * 23, (0,) * 12 + (1,) + (0,) * 11, "w")), PositionIdError,
     "bad position ID 'EAAAAACAAAAAAA': both colours on one point: W1 = B13"),
    ("a forbidden block", format_position_id(Position.unchecked(
        (0,) * 6 + (1,) * 6 + (0,) * 12, (15,) + (0,) * 23, "w")), InvalidPositionError,
     "bad position ID 'AFVQAH__AAAAAA': forbidden block W7-W12: White holds six or more points in "
     "a row with no Black checker past it (R6)"),
]


@pytest.mark.parametrize("what, text, kind, message", CORRUPT, ids=[c[0] for c in CORRUPT])
def test_a_corrupted_id_is_one_clear_error_quoting_it(what, text, kind, message):
    """Catches: a corrupted ID decoded into some position silently, or an error that does not quote
    it."""
    with pytest.raises(kind) as info:
        parse_position_id(text)
    assert str(info.value) == message


def test_the_id_never_collides_with_a_name_a_file_or_the_notation():
    """Every POSITION form keeps its meaning, and an ID is read wherever a position is.
    Catches: `start`, a positions-file name or a notation taken for an ID (or an ID for a file
    name)."""
    for text in ("start", "W:1x15 B:1x15 w", "positions/study.txt", "positions/study.txt:race",
                 "study.txt", "reply-to-six-five", "W:1x14,12"):
        assert not looks_like_position_id(text), text
    names = [line.split(":")[0] for path in (ROOT / "positions").glob("*.txt")
             for line in path.read_text().splitlines() if line and not line.startswith("#")
             and ":" in line]
    assert names and not any(looks_like_position_id(n) for n in names)
    assert resolve_positions("P_+ACAA__4AAAA")[0].position == parse_position("W:1x14,12 B:1x15 b")
    assert parse_positions_text("reply: "
                                "P_+ACAA__4AAAA\n")[0].position == parse_position("W:1x14,12 "
                                                                                  "B:1x15 b")
    with pytest.raises(PositionIdError, match="13 characters"):
        resolve_positions("P_+ACAA__4AAA")
