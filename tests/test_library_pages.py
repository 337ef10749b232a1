"""The library's output: the quiz and answers pages (in headless Chromium, tests/webdriver.py), the
Anki deck read back as an Anki collection, and the progress chart and page."""

from __future__ import annotations

import json
import sqlite3
import zipfile

import pytest
from click.testing import CliRunner

from nardy_cli.commands.cli import cli
from nardy_cli.library.store import Library
from nardy_cli.reports.anki_deck import MODEL_ID, MODEL_NAME, deck_id
from tests.cases import ROOT
from tests.webdriver import Browser, browser_paths

GAMES = ROOT / "games"
PATHS = browser_paths()
needs_browser = pytest.mark.skipif(PATHS is None, reason="headless Chromium is not installed "
                                   "(apt-get install chromium; pip install playwright)")
COUNT = 6


def run(*args):
    return CliRunner().invoke(cli, list(args), prog_name="nardy")


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A library of heuristic's games (the sample game, match and cube match), its quiz folder
    and its progress folder, written by the commands."""
    folder = tmp_path_factory.mktemp("library-pages")
    db = folder / "library.sqlite"
    with Library(db) as library:
        library.add([GAMES / n for n in ("bot-game.txt", "bot-match.txt", "cube-match.mat")])
        cards = library.quiz("heuristic", COUNT)
    quiz = run("library", "quiz", "--player", "heuristic", "--count", str(COUNT),
               "--output", str(folder / "quiz"), "--db", str(db))
    assert quiz.exit_code == 0, quiz.output
    progress = run("library", "progress", "--player", "heuristic", "--by", "match",
                   "--output", str(folder / "progress"), "--db", str(db))
    assert progress.exit_code == 0, progress.output
    return {"folder": folder, "cards": cards, "quiz": folder / "quiz",
            "progress": folder / "progress", "output": quiz.output}


def test_the_quiz_folder_holds_the_pages_the_deck_and_the_cards(made):
    """Catches a quiz written without one of its parts, or a quiz page that gives the answers
    away."""
    quiz = made["quiz"]
    assert sorted(p.name for p in quiz.iterdir()) == ["answers.html", "quiz.apkg", "quiz.html",
                                                      "quiz.json"]
    assert made["output"].startswith(f"{COUNT} positions written to ")
    data = json.loads((quiz / "quiz.json").read_text())
    assert [c["position_id"] for c in data["cards"]] == [c.position_id for c in made["cards"]]
    page = (quiz / "quiz.html").read_text()
    assert page.count('class="card"') == COUNT and "Equity lost" not in page
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")     # self-contained
    losses = [c.lost for c in made["cards"]]
    assert losses == sorted(losses, reverse=True)
    assert len({c.key for c in made["cards"]}) == COUNT


def test_the_deck_reads_back_as_an_anki_collection(made, tmp_path):
    """Catches a deck Anki cannot import: the .apkg is a zip holding an SQLite collection with the
    note type, the deck and one note (and one card) per position, the answer on the back."""
    with zipfile.ZipFile(made["quiz"] / "quiz.apkg") as z:
        assert "collection.anki2" in z.namelist()
        z.extract("collection.anki2", tmp_path)
    with sqlite3.connect(tmp_path / "collection.anki2") as conn:
        models = json.loads(conn.execute("SELECT models FROM col").fetchone()[0])
        decks = json.loads(conn.execute("SELECT decks FROM col").fetchone()[0])
        notes = conn.execute("SELECT mid, flds, guid FROM notes ORDER BY id").fetchall()
        cards = conn.execute("SELECT count(*), count(DISTINCT nid) FROM cards").fetchone()
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    assert models[str(MODEL_ID)]["name"] == MODEL_NAME
    assert decks[str(deck_id("heuristic"))]["name"] == "nardy::heuristic"
    assert len(notes) == COUNT and cards == (COUNT, COUNT)
    assert len({guid for _, _, guid in notes}) == COUNT
    for (mid, fields, _), card in zip(notes, made["cards"]):
        key, front, back = fields.split("\x1f")
        assert mid == MODEL_ID and key == card.key
        assert "<svg" in front and "What would you play?" in front and card.best not in front
        assert card.best in back and f"{card.equity_best:+.3f}" in back and "<svg" in back


def test_the_progress_folder_holds_the_chart_and_its_page(made):
    """Catches a progress chart not written in both formats, or a page that links it instead of
    holding it."""
    folder = made["progress"]
    assert (folder / "progress.png").read_bytes()[:4] == b"\x89PNG"
    assert "<svg" in (folder / "progress.svg").read_text()
    page = (folder / "progress.html").read_text()
    assert "<svg" in page and "<img" not in page
    data = json.loads((folder / "progress.json").read_text())
    assert [p["match"] for p in data["periods"]] == ["bot-game.txt", "bot-match.txt",
                                                     "cube-match.mat"]


@pytest.fixture(scope="module")
def browser():
    with Browser(*PATHS) as b:
        yield b


def _boxes(b: Browser, css: str) -> list[dict]:
    return b.execute(f"return [...document.querySelectorAll('{css}')].map(e => "
                     "{const r = e.getBoundingClientRect(); return {w: r.width, h: r.height, "
                     "circles: e.querySelectorAll('circle').length}})")


@needs_browser
def test_the_quiz_page_renders_in_chromium(made, browser, tmp_path):
    """Catches a quiz page a browser does not draw: every card shows its board (an SVG of real size
    with checkers), the dice and the question, the page fits its width, and it prints."""
    browser.get((made["quiz"] / "quiz.html").as_uri())
    cards = browser.find_all("section.card")
    assert len(cards) == COUNT
    boards = _boxes(browser, "section.card .board svg")
    assert len(boards) == COUNT
    assert all(b["w"] > 300 and b["h"] > 200 and b["circles"] >= 8 for b in boards), boards
    first = made["cards"][0]
    assert browser.text(cards[0]).startswith(f"1. {first.side.capitalize()} (heuristic) to play "
                                             f"{first.dice}")
    assert "What would you play?" in browser.text(cards[0])
    assert browser.execute("return document.documentElement.scrollWidth <= window.innerWidth")
    browser.screenshot(str(tmp_path / "quiz.png"))
    pdf = browser.print_pdf()
    assert pdf[:5] == b"%PDF-" and pdf.count(b"/Type /Page") >= 2


@needs_browser
def test_the_answers_page_renders_in_chromium(made, browser):
    """Catches an answers page whose plays, equities or boards do not match the cards: each card
    shows the best and the played play with their equities, the loss, and two boards."""
    browser.get((made["quiz"] / "answers.html").as_uri())
    cards = browser.find_all("section.card")
    assert len(cards) == COUNT
    for element, card in zip(cards, made["cards"]):
        text = browser.text(element)
        assert f"best {card.best} {card.equity_best:+.3f}" in text
        assert f"played {card.played} {card.equity_played:+.3f}" in text
        assert f"Equity lost: {card.lost:.3f}" in text
    boards = _boxes(browser, "section.card figure.board svg")
    assert len(boards) == 2 * COUNT and all(b["w"] > 200 and b["circles"] >= 8 for b in boards)


@needs_browser
def test_the_progress_page_renders_in_chromium(made, browser):
    """Catches a progress page whose inline chart does not draw (an SVG of no size)."""
    browser.get((made["progress"] / "progress.html").as_uri())
    box = browser.execute("const r = document.querySelector('figure.chart svg')"
                          ".getBoundingClientRect(); return [r.width, r.height]")
    assert box[0] > 500 and box[1] > 200
    assert "heuristic" in browser.text(browser.find("table.overall"))
