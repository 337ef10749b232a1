"""Game records: round-trips, the variations a person types, and every kind of malformed record."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_cli.core.engine import legal_plays
from nardy_cli.core.errors import GameRecordError
from nardy_cli.core.position import START, parse_position
from nardy_cli.records.game_record import (format_game, format_moves, match_play, parse_game,
    record_from_plays)
from nardy_cli.core.rules import make_rules
from nardy_cli.games.selfplay import play_game, play_games


@settings(max_examples=8)
@given(seed=st.integers(0, 2**31),
       policies=st.sampled_from([("random", "random"), ("racer", "random"),
                                  ("heuristic", "racer")]),
       preset=st.sampled_from(["federation", "classic", "extended"]))
def test_bot_games_round_trip(seed, policies, preset):
    """play -> format -> parse -> replay gives the same record and positions, under every preset.
    Catches: a play formatted as a path that parses back to another result (e.g. chains
    collapsed wrongly), lost comments/tags, turn numbering drift after a Black pass, a replay
    under other rules than the game was played with."""
    record = play_game(*policies, seed=seed, rules=make_rules(preset))
    again = parse_game(format_game(record))
    assert again == record
    assert again.positions() == record.positions()
    assert format_game(again) == format_game(record)


def test_round_trip_keeps_rules_start_comments_and_tags():
    """Catches: overrides or start position dropped by format_game (a replay under the wrong
    rules)."""
    rules = make_rules("classic", last_roll=True, points="koks=3")
    start = parse_position("W:1x10,12x3,19x2 B:1x9,5x3,10x3 b")
    record = play_game("heuristic", "heuristic", position=start, rules=rules, seed=3, max_plies=6)
    text = format_game(record)
    assert '[Position "W:1x10,12x3,19x2 B:1x9,5x3,10x3 b"]' in text and '[LastRoll "on"]' in text
    # Black starts: 1...
    assert text.splitlines()[text.splitlines().index("") + 1].startswith("1... ")
    assert parse_game(text) == record
    annotated = text.replace("\n1... ", "\n{a note} 1... ", 1).replace("*\n", "{end note} *\n")
    again = parse_game(annotated)
    assert again.comment == "a note" and again.plies[-1].comment == "end note"
    assert parse_game(format_game(again)) == again


def test_typed_variations_match_the_same_play():
    """`1/12` = `1/7 7/12` = `1/6 6/12` = `1/6/12`; extra spaces; any order; a pass as -, pass, (no
    play). Catches: matching on step lists instead of the resulting position."""
    want = legal_plays(START, "6-5")[0]
    for text in ("1/12", "1/7 7/12", "1/6 6/12", " 1/6/12 ", "6/12  1/6"):
        assert match_play(text, START, want.dice) == want
    #   W:22,23,24x13 B:7,22x7,23,24x6 b 3-3: Black cannot move (RULES §10)
    blocked = parse_position("W:22,23,24x13 B:7,22x7,23,24x6 b")
    dice = legal_plays(blocked, "3-3")[0].dice
    for text in ("-", "pass", "(no play)", "(No Play)"):
        assert match_play(text, blocked, dice).is_pass
    three = legal_plays(START, "3-3")
    assert {format_moves(p) for p in three} == {"1/7 1/7", "1/10 1/4"}
    assert match_play("1/4(2) 4/7(2)", START,
                      three[0].dice).result == parse_position("W:1x13,7x2 B:1x15 b")


GOOD = """[White "A"]
[Black "B"]
1. 6-5: 1/12   4-2: 1/7
2. 6-5: 1/12
"""

MALFORMED = [
    # (what is wrong, record text, words the one-line error must hold)
    ("illegal play", GOOD.replace("4-2: 1/7", "4-2: 1/8"), ["turn 1 (Black)", "4-2", "'1/8'"]),
    ("illegal pass", GOOD.replace("2. 6-5: 1/12", "2. 6-5: -"), ["turn 2 (White)", "6-5", "'-'"]),
    ("missing play", GOOD.replace("4-2: 1/7", "4-2:"), ["turn 1 (Black)", "4-2", "missing play"]),
    ("bad step token", GOOD.replace("4-2: 1/7", "4-2: 1/x"), ["turn 1 (Black)", "'1/x'"]),
    ("backward step", GOOD.replace("4-2: 1/7", "4-2: 7/1"), ["turn 1 (Black)", "'7/1'"]),
    ("bad dice", GOOD.replace("4-2:", "7-2:"), ["turn 1 (Black)", "'7-2'"]),
    ("dice without colon", GOOD.replace("4-2: 1/7", "4-2 1/7"), ["turn 1", "'4-2'", "colon"]),
    ("wrong turn number", GOOD.replace("2. 6-5", "3. 6-5"), ["turn 2 (White)", "'3.'"]),
    ("result that the replay contradicts", GOOD + "White wins by mars\n", ["result", "not over"]),
    ("result tag contradicted", GOOD.replace('[Black "B"]', '[Black "B"]\n[Result "draw"]'),
     ["Result tag", "'draw'"]),
    ("moves after the end", """[Position "W:24 B:1x15 w"]
1. 6-5: 24/off
2. 6-5: 1/12
""", ["turn 1", "already over", "White wins by koks", "'2.'"]),
    ("bad tag line", GOOD.replace('[Black "B"]', '[Black B]'), ["line 2", "[Black B]"]),
    ("tag given twice", GOOD.replace('[Black "B"]', '[White "C"]'), ["line 2", "'White'"]),
    ("bad start position", '[Position "W:1x16 B:1x15 w"]\n1. 6-5: 1/12\n', ["Position", "1x16"]),
    ("bad rules tag", '[Rules "modern"]\n1. 6-5: 1/12\n', ["rules", "'modern'"]),
    ("unclosed comment", GOOD.replace("4-2: 1/7", "4-2: 1/7 {oops"), ["line 3", "never closed"]),
    ("word after the result", GOOD + "* 3. 6-5: 1/12\n", ["after the result"]),
]


@pytest.mark.parametrize("what,text,words", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_records_are_one_line_errors_naming_the_turn(what, text, words):
    """Every kind of malformed record is rejected with one line naming the turn (or line) and token.
    Catches: a record accepted past an illegal play, or an error that does not say where."""
    with pytest.raises(GameRecordError) as info:
        parse_game(text)
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message, (what, message)


def test_good_record_parses_and_ambiguity_cannot_arise():
    """A distinct legal result for each play means a typed play never matches two (guard stays
    silent)."""
    record = parse_game(GOOD)
    assert [format_moves(p.play) for p in record.plies] == ["1/12", "1/7", "1/12"]
    assert record.result is None and record.final.turn == "b"


def test_bot_games_are_reproducible_and_use_each_games_own_dice():
    """Same seed and game number -> the same record; another game number -> other dice.
    Catches: module-level randomness, or every game of a batch replaying game 0's dice."""
    a = play_games("heuristic", "random", 3, seed=11)
    b = play_games("heuristic", "random", 3, seed=11)
    assert a.records == b.records
    rolls = [tuple(str(p.dice) for p in r.plies[:10]) for r in a.records]
    assert len(set(rolls)) == 3
    assert a.summary()["games"] == 3 and list(a.frame()["game"]) == [1, 2, 3]


def test_record_from_plays_numbers_turns():
    """Catches: turn numbers that do not advance after Black's ply."""
    plays = [(p.dice, p) for p in [legal_plays(START, "6-5")[0]]]
    pos = plays[0][1].result
    reply = legal_plays(pos, "4-2")[0]
    after = legal_plays(reply.result, "6-6")[0]
    record = record_from_plays([*plays, (reply.dice, reply), (after.dice, after)])
    assert [p.label for p in record.plies] == ["1.", "1...", "2."]
    assert parse_game(format_game(record)) == record
    with pytest.raises(GameRecordError):
        parse_game(format_game(record).replace("2.", "2..."))


def test_read_game_accepts_a_bom_and_tag_names_in_any_case(tmp_path):
    """Catches: a file saved by a Windows editor (UTF-8 BOM) or `[white "..."]` read as movetext."""
    path = tmp_path / "g.txt"
    path.write_text('\ufeff[white "Anna"]\n[RESULT "*"]\n1. 6-5: 1/12\n', encoding="utf-8")
    from nardy_cli.records.game_record import read_game
    record = read_game(path)
    assert record.white == "Anna" and len(record.plies) == 1
    with pytest.raises(GameRecordError, match="g.txt"):
        read_game(tmp_path / "missing" / "g.txt")
