"""The review page in a real browser: headless Chromium driven by Playwright (tests/webdriver.py).

Skipped when Debian's `chromium` or the `playwright` package is missing
(`apt-get install chromium`; `.ci/run` tries to install it).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from nardy_cli.core.engine import legal_plays
from nardy_cli.core.position import parse_position
from nardy_cli.records.game_record import format_moves, read_game
from nardy_cli.review.game_review import review_game
from nardy_cli.reports.review_page import MWC, game_data, page_data, write_page
from tests.webdriver import Browser, browser_paths

GAMES = Path(__file__).resolve().parent.parent / "games"
PATHS = browser_paths()
pytestmark = pytest.mark.skipif(PATHS is None, reason="headless Chromium is not installed "
                                "(apt-get install chromium; pip install playwright)")


@pytest.fixture(scope="module")
def reviews():
    return (review_game(read_game(GAMES / "bot-game.txt"), "heuristic"),
            review_game(read_game(GAMES / "bearoff-blunder.txt"), "heuristic"))


@pytest.fixture(scope="module")
def pages(reviews, tmp_path_factory):
    folder = tmp_path_factory.mktemp("pages")
    game, bearoff = reviews
    match = page_data([game_data(game, title="Game 1", score="score 0-0"),
                       game_data(bearoff, title="Game 2", score="score 0-1")], title="Match review")
    return {"game": write_page(page_data([game]), folder / "game.html").as_uri(),
            "match": write_page(match, folder / "match.html").as_uri(), "folder": folder}


@pytest.fixture(scope="module")
def browser():
    with Browser(*PATHS) as b:
        yield b


class Page:
    """What the page shows: the ply, the boards' checkers, the move, the loss."""

    def __init__(self, browser: Browser) -> None:
        self.b = browser

    def ply(self) -> int:
        return int(self.b.attribute(self.b.find("#view"), "data-ply"))

    def game(self) -> int:
        return int(self.b.attribute(self.b.find("#view"), "data-game"))

    def text(self, css: str) -> str:
        return self.b.text(self.b.find(css))

    def board(self, name: str = "played") -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The checkers the board's SVG holds (its data attributes), White's and Black's."""
        svg = self.b.find(f'svg[data-board="{name}"]')
        return tuple(tuple(int(v) for v in self.b.attribute(svg, f"data-{side}").split(","))
                     for side in ("white", "black"))

    def stacks(self, name: str = "played") -> dict[tuple[str, int], int]:
        """The stacks drawn on a board: (side, point in the board's numbering) -> count."""
        return {(s["side"], int(s["point"])): int(s["count"]) for s in self.b.execute(
            f"return [...document.querySelectorAll('svg[data-board=\"{name}\"] g.stack')].map(g "
            "=> g.dataset)")}

    def arrows(self, name: str = "played") -> list[tuple[int, int]]:
        """The arrows drawn: (from, to) of each step, 25 for off."""
        return [(int(a["from"]), int(a["to"])) for a in self.b.execute(
            f"return [...document.querySelectorAll('svg[data-board=\"{name}\"] path.arrow')].map(p "
            "=> p.dataset)")]


def _expected_stacks(position, viewer: str) -> dict[tuple[str, int], int]:
    """Stacks of `position` in `viewer`'s numbering."""
    out = {}
    for side in ("w", "b"):
        for i, n in enumerate(position.checkers(side)):
            if n:
                p = i + 1 if side == viewer else (i + 13 if i < 12 else i - 11)
                out[(side, p)] = n
    return out


def _open(browser, url):
    browser.get(url)
    return Page(browser)


def test_arrow_keys_step_through_the_game_showing_board_move_and_loss(browser, pages, reviews):
    """Right arrow three times shows ply 3 (forced: 6-6 from the head), twice more ply 5 (doubtful):
    the board after it, its move, its loss; left goes back, Home to the start, End to the last ply.
    Catches: an off-by-one in the step handler or the board drawn (the page showing ply 2's board or
    ply 4's move), keys that do nothing, Home/End not at the ends."""
    review = reviews[0]
    record = review.record
    page = _open(browser, pages["game"])
    assert page.ply() == 0 and page.text("#ply-label") == f"Ply 0 of {len(record.plies)}"
    assert page.board() == (record.start.white, record.start.black)
    browser.press("ArrowRight", "ArrowRight", "ArrowRight")
    assert page.ply() == 3 and page.text("#ply-label") == f"Ply 3 of {len(record.plies)}"
    assert page.text("#played") == "1/7 8/20" and page.text("#loss") == "forced (one legal play)"
    browser.press("ArrowRight", "ArrowRight")
    ply, row = record.plies[4], review.frame.iloc[4]
    after = record.positions()[5]
    assert page.ply() == 5 and page.text("#turn").startswith("3. ")
    assert page.board() == (after.white, after.black)
    assert page.stacks() == _expected_stacks(after, ply.side)
    assert (page.text("#played") == format_moves(ply.play) == "1/2 20/23"
            and page.text("#roll") == "3-1")
    assert row["mark"] == "doubtful" and page.text("#mark") == "doubtful"
    assert page.text("#loss") == f"{row['lost']:.3f} equity lost"
    assert page.arrows() == [tuple(s) for s in ply.play.steps]
    browser.press("ArrowLeft")
    assert page.ply() == 4 and page.text("#played") == format_moves(record.plies[3].play)
    browser.press("End")
    assert (page.ply() == len(record.plies)
            and page.board() == (record.final.white, record.final.black))
    browser.press("ArrowRight")
    assert page.ply() == len(record.plies)
    browser.press("Home")
    assert page.ply() == 0
    browser.press("ArrowLeft")
    assert page.ply() == 0
    browser.click(browser.find("#next"))
    browser.click(browser.find("#next"))
    browser.click(browser.find("#prev"))
    assert page.ply() == 1 and page.text("#played") == format_moves(record.plies[0].play)


def test_a_click_on_the_graph_jumps_to_that_ply(browser, pages, reviews):
    """Catches: a graph that is only a picture, or a click that lands one ply off (a band per
    ply)."""
    review = reviews[0]
    page = _open(browser, pages["game"])
    for n in (40, 1, 77):
        browser.click(browser.find(f'#graph rect.hit[data-ply="{n}"]'))
        ply = review.record.plies[n - 1]
        assert page.ply() == n and page.text("#played") == format_moves(ply.play)
        assert page.text("#turn").startswith(ply.label)


def test_error_links_jump_to_the_mistake_with_its_best_play_drawn(browser, pages, reviews):
    """Every error and blunder is listed; a click shows its ply with its mark, loss and the best
    play's board and arrows.  Catches: a missing or extra mistake, a link to the wrong ply, a best
    board that shows the played result or the best play's arrows of another play."""
    review = reviews[0]
    page = _open(browser, pages["game"])
    bad = review.frame[review.frame["mark"].isin(["error", "blunder"])]
    links = browser.find_all("#mistakes a.mistake")
    assert len(links) == len(bad) > 0
    for link, (_, row) in zip(links, bad.iterrows()):
        browser.click(link)
        assert page.ply() == row["ply"]
        assert (page.text("#mark") == row["mark"]
                and page.text("#loss") == f"{row['lost']:.3f} equity lost")
        assert page.text("#best") == row["best"]
        best = parse_position(row["best_result"], check_blocks=False)
        assert page.board("best") == (best.white, best.black)
        ply = review.record.plies[row["ply"] - 1]
        best_play = next(p for p in legal_plays(ply.position, ply.dice, review.record.rules)
                         if str(p.result) == row["best_result"])
        assert page.arrows("best") == [tuple(s) for s in best_play.steps]
        after = review.record.positions()[row["ply"]]
        assert page.board() == (after.white, after.black)


def test_a_match_page_selects_its_games(browser, pages, reviews):
    """Two games from two records: the selector switches to game 2 at its start; its blunder shows
    the best play bearing off both checkers.  Catches: a selector that does not change the boards, a
    game switch that keeps the old ply, arrow keys captured by the selector afterwards."""
    page = _open(browser, pages["match"])
    assert page.game() == 0 and page.text("#game-title") == "Game 1"
    browser.select("#game-select", "1")
    bearoff = reviews[1].record
    assert page.game() == 1 and page.ply() == 0 and page.text("#game-score") == "\u2014 score 0-1"
    assert page.board() == (bearoff.start.white, bearoff.start.black)
    browser.press("ArrowRight")
    assert page.ply() == 1 and page.text("#played") == "22/off" and page.text("#mark") == "blunder"
    assert page.text("#loss") == "1.000 equity lost" and page.text("#best") == "22/off 24/off"
    assert (page.arrows() == [(22, 23), (23, 25)]
            and sorted(page.arrows("best")) == [(22, 25), (24, 25)])
    # Black's B24 is W12: all White's checkers are off
    assert page.stacks("best") == {("b", 12): 2}
    browser.press("ArrowRight")
    assert page.text("#loss") == "forced (one legal play)"


def test_the_address_keeps_the_place(browser, pages, reviews):
    """`match.html#g2-p1` opens game 2 after its first ply, and a changed address moves the page
    there. Catches: a link to a ply (or a reload) that lands on game 1's start."""
    page = _open(browser, pages["match"] + "#g2-p1")
    assert (page.game(), page.ply()) == (1, 1) and page.text("#played") == "22/off"
    browser.execute("location.hash = '#g1-p34'")
    assert (page.game(), page.ply()) == (0, 34)
    assert page.text("#played") == format_moves(reviews[0].record.plies[33].play)
    browser.press("ArrowRight")
    assert browser.execute("return location.hash") == "#g1-p35"


def test_match_winning_chances_show_as_percentages(browser, pages, reviews):
    """Catches: the page printing equity units when the data says match winning chance."""
    bearoff = reviews[1]
    frame = bearoff.frame.assign(mwc_lost=0.125, mwc=0.4, mwc_best=0.525, mwc_white=0.4)
    columns = {"loss": "mwc_lost", "value": "mwc", "best_value": "mwc_best", "graph": "mwc_white",
               "best": "best", "best_result": "best_result"}
    data = page_data([game_data(dataclasses.replace(bearoff, frame=frame), columns=columns)],
                     units=MWC)
    page = _open(browser, write_page(data, pages["folder"] / "mwc.html").as_uri())
    browser.press("ArrowRight")
    assert page.text("#loss") == "12.5% cubeless match winning chance lost"
    assert page.text("#best-value") == "(52.5%)"


def test_the_page_speaks_russian_when_written_in_russian(browser, reviews, tmp_path):
    """Catches a Russian review page whose script shows English (its words not carried in the data,
    or the script's `_` not filling the fields) and an English page changed by the Russian words."""
    from nardy_cli.core.i18n import using_language
    with using_language("ru"):
        url = write_page(page_data([reviews[1]]), tmp_path / "ru.html").as_uri()
    page = _open(browser, url)
    n = len(reviews[1].record.plies)
    assert (page.text("#ply-label") == f"Полуход 0 из {n}"
            and page.text("#turn") == "начало, ходят Белые")
    assert page.text("#graph-title") == ("эквити белых после хода (щёлкните полуход, "
                                         "чтобы перейти к нему)")
    browser.press("ArrowRight")
    assert page.ply() == 1 and page.text("#mark") == "зевок"
    assert page.text("#loss").endswith(" потеря эквити")
    assert "номера белых" in page.text("svg[data-board='played'] text.pips")
    page = _open(browser, write_page(page_data([reviews[1]]), tmp_path / "en.html").as_uri())
    assert (page.text("#ply-label") == f"Ply 0 of {n}"
            and page.text("#turn") == "start, White to move")


def test_a_match_review_page_shows_every_board_and_prints_a_page_per_game(browser, tmp_path):
    """Bug caught (issue 41): a match review with no printable page, or a page whose inlined boards
    do not load, or whose games run into each other on paper (the print styles lost). The
    screenshot and the PDF are left in the test's folder to look at."""
    import re
    from nardy_cli.records.files import read_games
    from nardy_cli.reports.match_report import write_match_review
    from nardy_cli.review.match_review import review_match
    review = review_match(read_games(GAMES / "cube-match.mat"), "heuristic")
    folder = write_match_review(review, tmp_path / "match", html=True)
    browser.get((folder / "report.html").as_uri())
    loaded = browser.execute("return [...document.images].map(i => i.complete && i.naturalWidth)")
    marked = sum(len(g.decisions()[g.decisions()["mark"] != ""]) for g in review.games)
    assert len(loaded) == len(review.games) + marked and all(w > 0 for w in loaded)
    assert browser.execute("return document.querySelectorAll('h2.page').length") == 2
    # on paper: each game from a fresh page, a decision's heading, text and board kept together
    kept = browser.execute("return [...document.querySelectorAll('section.keep')].map(s => "
                           "[s.querySelectorAll('h4').length, s.querySelectorAll('img').length])")
    assert kept == [[1, 1]] * marked
    rules = browser.execute("""return [...document.styleSheets[0].cssRules]
        .filter(r => r.media && r.media.mediaText === 'print')
        .flatMap(r => [...r.cssRules].map(c => [c.selectorText, c.style.breakBefore,
                                                 c.style.breakInside]))""")
    assert [".page", "page", ""] in rules
    assert any(".keep" in selector and inside == "avoid" for selector, _, inside in rules)
    browser.screenshot(str(tmp_path / "match.png"))
    pdf = browser.print_pdf()
    (tmp_path / "match.pdf").write_bytes(pdf)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) > len(review.games)


def test_the_russian_graph_legend_does_not_overlap_its_caption(browser, reviews, tmp_path):
    """Bug caught (issue 41): in a Russian match review page the caption "оценки по нормированной
    потере эквити:" ran over the first mark of the graph's legend (its place was fixed for the
    English words)."""
    from nardy_cli.core.i18n import using_language
    bearoff = reviews[1]
    frame = bearoff.frame.assign(mwc_lost=0.125, mwc=0.4, mwc_best=0.525, mwc_white=0.4)
    columns = {"loss": "mwc_lost", "value": "mwc", "best_value": "mwc_best", "graph": "mwc_white",
               "best": "best", "best_result": "best_result"}
    with using_language("ru"):
        data = page_data([game_data(dataclasses.replace(bearoff, frame=frame), columns=columns)],
                         units=MWC)
        url = write_page(data, tmp_path / "ru-mwc.html").as_uri()
    _open(browser, url)
    caption, first = browser.execute("""
        const svg = document.getElementById('graph-svg');
        const caption = [...svg.querySelectorAll('text')]
          .find(t => t.textContent.startsWith('оценки'));
        const mark = [...svg.querySelectorAll('circle')].find(c => !c.classList.contains('point')
                                                                 && c.id !== 'graph-dot');
        const a = caption.getBBox(), b = mark.getBBox();
        return [[a.x, a.x + a.width], [b.x, b.x + b.width]];""")
    assert caption[1] <= first[0], (caption, first)
