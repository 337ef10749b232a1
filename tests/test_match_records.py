"""Match records: a whole match in one record file, its scores following game by game from the
results."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from nardy_cli.core.errors import ArgumentError, GameRecordError, MatchRecordError
from nardy_cli.records.match_record import (DRAW_POINTS, MatchRecord, format_match, game_points,
    parse_match, parse_record, read_record, resignation, select_game)
from nardy_cli.records.game_record import format_game, parse_game, read_game
from nardy_cli.core.rules import make_rules
from nardy_cli.games.selfplay import play_game

ROOT = Path(__file__).resolve().parent.parent

# Short games from bear-off positions: White bears off its last two with 2-1; Black, all home, has
# its last roll (R8): 3-1 leaves a checker (White wins by oin), 3-2 takes both off (a draw).
MATCH = """[Match "3"]
[Event "Club night"]

[Game "1"]
[White "Anna"]
[Black "Boris"]
[Score "0-0"]
[Position "W:23,24 B:22,23 w"]
[Result "White wins by oin"]

1. 2-1: 23/off 24/off    3-1: 22/off 23/24
White wins by oin

[Game "2"]
[White "Boris"]
[Black "Anna"]
[Score "0-1"]
[Position "W:23,24 B:22,23 w"]

1. 2-1: 23/off 24/off    3-2: 22/off 23/off
draw

[Game "3"]
[White "Anna"]
[Black "Boris"]
[Score "1.5-0.5"]
[Position "W:23,24 B:22,23 w"]
1. 2-1: 23/off 24/off    3-1: 22/off 23/24
"""

KOKS = """
[Game "4"]
[White "Boris"]
[Black "Anna"]
[Score "0.5-2.5"]
[Position "W:24 B:1x15 w"]
1. 6-5: 24/off
"""


def test_scores_follow_the_results_by_player_across_colour_changes():
    """The score before each game is the players' points so far, in that game's colours; a draw
    gives each half a point. Catches: scores kept per colour instead of per player (game 2's Score
    would read '1-0'), or a draw counted as 0."""
    match = parse_match(MATCH)
    assert match.length == 3 and match.tags == (("Event", "Club night"),)
    assert match.players == ("Anna", "Boris")
    assert [(g.white, g.black) for g in match.games] == [("Anna", "Boris"), ("Boris", "Anna"),
                                                         ("Anna", "Boris")]
    assert match.scores() == ((0, 0), (0, 1), (1.5, 0.5))
    assert game_points(match.games[1]) == (DRAW_POINTS, DRAW_POINTS) == (0.5, 0.5)
    assert match.final_score == (2.5, 0.5) and not match.is_over and match.winner is None
    over = parse_match(MATCH + KOKS)
    assert over.final_score == (2.5, 2.5) and not over.is_over   # koks: 2 points to Boris
    assert all(not any(k in ("Game", "Score") for k, _ in g.tags) for g in over.games)


def test_match_round_trips_and_its_text_is_stable():
    """format_match -> parse_match is the identity; the text it writes is canonical.
    Catches: the Score tag written in players' order instead of the game's colours, or a game's own
    Game tag written twice."""
    match = parse_match(MATCH)
    text = format_match(match)
    assert parse_match(text) == match and format_match(parse_match(text)) == text
    assert text.splitlines()[:8] == ['[Match "3"]', '[Event "Club night"]', "", '[Game "1"]',
                                     '[White "Anna"]', '[Black "Boris"]', '[Score "0-0"]',
                                     '[Date "?"]']
    assert '[Game "2"]\n[White "Boris"]\n[Black "Anna"]\n[Score "0-1"]' in text


def test_a_bot_match_with_alternating_colours_scores_and_ends():
    """The way `nardy play --match` scores a match: add games to a MatchRecord until it is over.
    Catches: a game accepted after the match ended, or Game tags of bot records kept twice."""
    games = []
    seats = ("racer", "random")
    for g in range(40):
        white, black = seats if g % 2 == 0 else seats[::-1]
        games.append(play_game(white, black, seed=5, game=g))
        match = MatchRecord(3, tuple(games))
        if match.is_over:
            break
    assert match.is_over and match.winner in seats and max(match.final_score) >= 3
    assert parse_match(format_match(match)) == match
    with pytest.raises(MatchRecordError,
                       match=r"^game \d+: the match is over: '(racer|random)' reached 3 points"):
        MatchRecord(3, tuple(games) + (play_game(*seats, seed=5, game=99),))


def _replace(old: str, new: str) -> str:
    assert old in MATCH
    return MATCH.replace(old, new, 1)


BAD = [
    ("a score that does not follow", _replace('[Score "0-1"]', '[Score "1-0"]'),
     "game 2: Score tag '1-0' does not follow from the games before: expected '0-1' "
     "(Boris 0, Anna 1)"),
    ("a draw counted as nothing", _replace('[Score "1.5-0.5"]', '[Score "1-0"]'),
     "game 3: Score tag '1-0' does not follow from the games before: expected '1.5-0.5' (Anna "
     "1.5, Boris 0.5)"),
    ("a malformed score", _replace('[Score "0-1"]', '[Score "0:1"]'),
     "game 2: bad Score '0:1': expected White's and Black's points such as '3-1' or '3.5-2'"),
    ("no score", _replace('[Score "0-1"]\n', ''),
     "game 2: no Score tag: write the points White and Black have before the game, e.g. "
     "[Score \"0-0\"]"),
    ("games out of order", _replace('[Game "2"]', '[Game "3"]'),
     "game 2: Game tag '3' should be '2' (line 14): games are numbered in order"),
    ("a third player", _replace('[White "Boris"]', '[White "Boris2"]'),
     "game 2: players 'Boris2' (White) and 'Anna' (Black) are not the match's players "
     "'Anna' and 'Boris'"),
    ("an illegal play in a game", _replace("3-2: 22/off 23/off", "3-2: 22/off 22/off"),
     "game 2: turn 1 (Black) 3-2: illegal play '22/off 22/off': moves more checkers than "
     "stand on a point (line 20)"),
    ("an unfinished game followed by another",
     MATCH + KOKS.replace("1. 6-5: 24/off\n", "") + KOKS.replace(
        '"4"', '"5"'), "game 5: game 4 is not finished, but the match goes on"),
    ("no Match tag", MATCH.replace('[Match "3"]\n', ""),
     "no Match tag: a match record starts with [Match \"N\"] (0 for a money session)"),
    ("a bad match length", MATCH.replace('[Match "3"]', '[Match "seven"]'),
     "bad Match tag 'seven': expected the match length, a whole number (0 for a money session)"),
    ("moves in the match header", MATCH.replace('[Event "Club night"]', '1. 6-5: 1/12'),
     "line 2: '1. 6-5: 1/12' before game 1: the match header holds only tags"),
]


@pytest.mark.parametrize("what, text, message", BAD, ids=[b[0] for b in BAD])
def test_bad_match_records_are_one_line_errors_naming_the_game(what, text, message):
    """Each way a match record can be wrong is one line naming the game and the tag or token.
    Catches: a match accepted with scores that do not follow, a third player, an unfinished game in
    the middle, or an error without the game's number (line numbers counted within the game)."""
    with pytest.raises(GameRecordError) as info:
        parse_match(text)
    assert str(info.value) == message


def test_a_game_after_the_match_is_over_is_rejected():
    """Catches: games accepted after a player reached the match length (Anna reaches 3.5 in game 4
    here)."""
    text = MATCH + KOKS.replace("W:24 B:1x15 w", "W:1x15 B:23 w").replace("6-5: 24/off",
                                                                          "6-5: 1/12   6-5: 23/off")
    match = parse_match(text)
    assert match.final_score == (4.5, 0.5) and match.winner == "Anna"
    fifth = KOKS.replace('"4"', '"5"').replace("0.5-2.5", "0.5-4.5")
    with pytest.raises(MatchRecordError) as info:
        parse_match(text + fifth)
    assert str(info.value) == "game 5: the match is over: 'Anna' reached 3 points in game 4"


def test_resignation_gives_the_points_conceded():
    """`[Resigned "Black 2"]` ends an unfinished game: White gains 2 points. Catches: a resigned
    game counted as unfinished (the match could not go on), a resignation of a finished game, or
    points no class scores (also when the match is built from games, not read)."""
    head, third = MATCH.split('[Game "3"]')
    text = head + '[Game "3"]' + third.replace('[Score "1.5-0.5"]',
                                               '[Score "1.5-0.5"]\n[Resigned "Black 2"]').replace(
        "1. 2-1: 23/off 24/off    3-1: 22/off 23/24\n", "1. 2-1: 23/24 24/off\n")
    match = parse_match(text)
    assert (resignation(match.games[2]).points == 2 and match.final_score == (3.5, 0.5)
            and match.winner == "Anna")
    with pytest.raises(MatchRecordError,
                       match=r"^game 1: Resigned tag 'Black 2' on a finished game"):
        parse_match(MATCH.replace('[Score "0-0"]', '[Score "0-0"]\n[Resigned "Black 2"]'))
    with pytest.raises(MatchRecordError,
                       match=r"^game 3: Resigned tag 'Black 5': a resignation gives the points "
                             r"of a win class \(1, 2\)$"):
        parse_match(text.replace("Black 2", "Black 5"))
    games = parse_match(text).games
    bad = replace(games[2], tags=(("Resigned", "Black 5"),))
    with pytest.raises(MatchRecordError,
                       match=r"^game 3: Resigned tag 'Black 5': a resignation gives"):
        MatchRecord(3, games[:2] + (bad,))


def test_single_records_are_unchanged_and_either_kind_reads():
    """Catches: the money-game format changed by the match format (every record of games/ reads as
    before), or a match file read as one game."""
    for path in sorted((ROOT / "games").glob("*.txt")):
        if "[Match" in path.read_text():
            assert isinstance(read_record(path), MatchRecord)      # games/bot-match.txt
            continue
        assert read_record(path) == read_game(path)
        assert format_game(read_record(path)) == format_game(read_game(path))
    assert isinstance(parse_record(MATCH), MatchRecord)
    assert parse_record(format_game(parse_match(MATCH).games[0])) == parse_game(format_game(
        parse_match(MATCH).games[0]))


def test_read_record_names_the_file(tmp_path):
    """Catches: a match file's error without the file's name."""
    path = tmp_path / "club.txt"
    path.write_text(_replace('[Score "0-1"]', '[Score "1-0"]'))
    with pytest.raises(MatchRecordError, match=r"^club\.txt: game 2: Score tag '1-0'"):
        read_record(path)


def test_select_game_picks_one_game_of_a_match():
    """Catches: review silently taking game 1 of a match of several games."""
    match = parse_match(MATCH)
    assert select_game(match, 2) == match.games[1]
    with pytest.raises(ArgumentError) as info:
        select_game(match)
    assert info.value.message({"number": "--game"}) == ("the record holds a match of 3 games: "
                                                        "choose one with --game 1-3")
    assert select_game(match.games[0]) == match.games[0]


def test_points_come_from_the_games_rules():
    """Catches: match points taken from the federation table whatever the rules (extended: koks =
    4)."""
    game = parse_game('[Rules "extended"]\n[Position "W:24 B:1x15 w"]\n1. 6-5: 24/off\n')
    assert game.rules == make_rules("extended") and game_points(game) == (4, 0)
