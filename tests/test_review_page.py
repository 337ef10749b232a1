"""The interactive review page's data and file (the page itself in a browser:
test_review_browser.py)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.core.errors import ArgumentError
from nardy_cli.records.game_record import parse_game, read_game
from nardy_cli.review.game_review import review_game
from nardy_cli.reports.review_page import MWC, game_data, page_data, page_html

def _counts(text: str):
    from nardy_cli.core.position import parse_position
    pos = parse_position(text, check_blocks=False)
    return pos.white, pos.black


GAMES = Path(__file__).resolve().parent.parent / "games"


def blob(html: str) -> dict:
    """The page's data, read back from its JSON script element."""
    text = re.search(r'<script type="application/json" id="review-data">(.*?)</script>', html,
                     re.S).group(1)
    return json.loads(text)


@pytest.fixture(scope="module")
def bearoff():
    return review_game(read_game(GAMES / "bearoff-blunder.txt"), "heuristic")


@pytest.fixture(scope="module")
def bot_game():
    return review_game(read_game(GAMES / "bot-game.txt"), "heuristic")


def test_bear_off_blunder_data_has_the_boards_steps_and_best_play(bearoff):
    """White (W22, W24, 13 off) rolls 3-1 and plays 22/23 23/off, where 22/off 24/off was best
    (loses 1.0). Catches: boards shifted by a ply, the played steps merged into one path (22/off, so
    one arrow), the best play's steps or board taken from the played play, a forced ply given a
    loss."""
    g = game_data(bearoff)
    record = bearoff.record
    assert g["boards"] == [[list(p.white), list(p.black)] for p in record.positions()]
    assert g["turns"] == ["w", "b", "w"]
    first, second = g["plies"]
    assert (first["label"], first["dice"], first["played"], first["steps"]) == ("1.", [3, 1],
                                                                                "22/off",
                                                                                  [[22, 23],
                                                                                   [23, 25]])
    assert (first["mark"], first["loss"], first["best"]) == ("blunder", 1.0, "22/off 24/off")
    assert sorted(first["best_steps"]) == [[22, 25], [24, 25]]
    assert first["best_board"] == [[0] * 24, [0] * 23 + [2]]
    assert second["forced"] and second["loss"] is None and "best" not in second
    assert g["score"] == "Black wins by oin"
    assert g["summary"][0] == {"side": "w", "player": "Student", "decisions": 1, "loss": 1.0,
                               "mean": 1.0, "doubtful": 0, "error": 0, "blunder": 1}


def test_best_play_equal_to_the_played_one_has_no_second_board(bot_game):
    """Catches: a best board (and its bytes) written for every ply although the play made was the
    best."""
    plies = {p["n"]: p for p in game_data(bot_game)["plies"]}
    rows = bot_game.decisions()
    same = {int(r.ply) for r in rows.itertuples()
            if r.best_result == str(bot_game.record.plies[r.ply - 1].play.result)}
    assert 0 < len(same) < len(rows)
    for r in rows.itertuples():
        p = plies[r.ply]
        assert (p["best_board"] is None) == (r.ply in same), r.ply
        if p["best_board"] is not None:
            assert p["best_board"] == [list(x) for x in _counts(r.best_result)]


def test_unreviewed_side_is_stepped_through_but_not_scored():
    """`--side black`: White's plies are on the page (boards, moves) with no loss.
    Catches: the page built from the review's rows only, skipping the other side's plies."""
    record = read_game(GAMES / "bearoff-blunder.txt")
    g = game_data(review_game(record, "heuristic", sides=("b",)))
    assert [p["reviewed"] for p in g["plies"]] == [False, True]
    assert "loss" not in g["plies"][0] and len(g["boards"]) == 3
    assert [s["side"] for s in g["summary"]] == ["b"]


def test_match_data_is_a_list_of_games_with_titles_and_scores(bearoff, bot_game):
    """Catches: a page that holds one game only, or loses the score line a match review gives each
    game."""
    data = page_data([game_data(bot_game, title="Game 1", score="0-0"),
                      game_data(bearoff, title="Game 2", score="0-1")], title="Match")
    assert data["title"] == "Match" and [(g["title"], g["score"]) for g in data["games"]] == [
        ("Game 1", "0-0"), ("Game 2", "0-1")]
    assert page_data([bearoff])["title"] == "Game review: Student (White) vs Coach (Black)"
    with pytest.raises(ArgumentError, match="at least one game"):
        page_data([])


def test_the_loss_is_read_from_the_columns_given_with_their_units(bearoff):
    """A match review plugs in match winning chances: other columns, `MWC` units.
    Catches: the page reading the equity columns whatever it is told, or dropping the units."""
    frame = bearoff.frame.assign(mwc_lost=bearoff.frame["lost"] / 4, mwc=0.3, mwc_best=0.55,
                                 mwc_white=0.3)
    review = dataclasses.replace(bearoff, frame=frame)
    columns = {"loss": "mwc_lost", "value": "mwc", "best_value": "mwc_best", "graph": "mwc_white",
               "best": "best", "best_result": "best_result"}
    data = page_data([game_data(review, columns=columns)], units=MWC)
    ply = data["games"][0]["plies"][0]
    assert (ply["loss"], ply["value"], ply["best_value"], ply["graph"]) == (0.25, 0.3, 0.55, 0.3)
    assert data["units"]["percent"]
    assert data["units"]["loss"] == "cubeless match winning chance lost"


def test_page_is_self_contained_and_its_data_cannot_break_out_of_the_script(bot_game):
    """Catches: a script, style or font loaded from the network (a CDN), and a player's name such as
    `</script>` ending the data early (the page would show nothing, or run the name as HTML)."""
    record = dataclasses.replace(bot_game.record, white="</script><b>x</b>&")
    html = page_html(page_data([dataclasses.replace(bot_game, record=record)]))
    assert blob(html)["games"][0]["white"] == "</script><b>x</b>&"
    assert html.count("</script>") == 2 and "<b>x</b>" not in html
    # a name, not a fetch
    assert re.findall(r"https?://[^\s\"'`]+", html) == ["http://www.w3.org/2000/svg"]
    # url(#id): in the page
    assert not re.search(r"<link|<script[^>]*\bsrc=|<img|@import|url\((?!#)", html)
    assert len(html.encode()) < 2_000_000


def test_cli_review_html_writes_the_interactive_page(tmp_path):
    """Catches: `nardy review --output DIR --html` without review.html, or with a page of another
    game."""
    (tmp_path / "g.txt").write_text((GAMES / "bearoff-blunder.txt").read_text())
    out = CliRunner().invoke(cli, ["review", str(tmp_path / "g.txt"), "--evaluator", "heuristic",
                                   "--output", str(tmp_path / "r"), "--html"],
                             catch_exceptions=False)
    assert out.exit_code == 0, out.output
    data = blob((tmp_path / "r" / "review.html").read_text())
    assert [p["played"] for p in data["games"][0]["plies"]] == ["22/off", "24/off 24/off"]
    assert {"report.html", "report.md"} <= {p.name for p in (tmp_path / "r").iterdir()}
    out = CliRunner().invoke(cli, ["review", str(tmp_path / "g.txt"), "--evaluator", "heuristic",
                                   "--output", str(tmp_path / "s")], catch_exceptions=False)
    assert not (tmp_path / "s" / "review.html").exists()


def test_a_game_with_a_pass_has_no_steps():
    """Catches: a pass (no step, `-`) written as a step or breaking the page's data."""
    # W7 = B19 and W18 = B6 held
    record = parse_game('[Position "W:1x14,12 B:6x7,19x8 w"]\n1. 6-6: -\n')
    ply = game_data(review_game(record, "heuristic"))["plies"][0]
    assert ply["played"] == "-" and ply["steps"] == [] and ply["forced"]
