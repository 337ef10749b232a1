"""The page of `nardy serve` in a real headless Chromium (Debian's `chromium`, driven by
Playwright), in English and Russian: a position set up by clicks and its analysis read, a rollout
started, followed and cancelled, a whole game against the bot with the tutor's warning seen on a
planted bad play, and the opening book clicked through.

Each step is screenshotted; the screenshots of a failed test are kept in
`.pytest_cache/serve-screenshots/<test>/`.  With NARDY_SERVE_SHOTS=DIR the steps of the English
runs are written into DIR as well (docs/serve.md's pictures: `NARDY_SERVE_SHOTS=docs/serve`).
Skipped, with the reason, when chromium or playwright is missing.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.serve_live import CHROMIUM, LiveServer, Shots, browser_missing, free_port

pytestmark = pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
ROOT = Path(__file__).resolve().parent.parent
LANGS = ["en", "ru"]
# the wait for an answer the server may first compile kernels for (the 2-ply search, the cube's
# evaluation: a minute or more from a cold kernel cache on a busy machine), in milliseconds
COMPILING = 180_000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from nardy_cli.serve.config import ServeConfig
    folder = tmp_path_factory.mktemp("serve-library")
    live = LiveServer(ServeConfig(port=free_port(), library=folder / "library.sqlite"))
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, request, tmp_path):
    context = browser.new_context(viewport={"width": 1300, "height": 950})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = re.sub(r"[^\w-]+", "-", request.node.name)
    shots = Shots(page, tmp_path / "shots", ROOT / ".pytest_cache" / "serve-screenshots" / name)
    page.shots = shots
    page.errors = errors
    page.log = []
    page.on("request", lambda r: page.log.append(f"{r.method} {r.url} {r.post_data}"))
    page.on("response", lambda r: page.log.append(f"<- {r.status} {r.url}"))
    yield page
    failed = getattr(request.node, "failed_call", False)
    if failed:      # the page as the failure left it, and its last requests
        shots("at-failure")
        print(f"screenshots kept in {shots.keep()}")
        print("\n".join(page.log[-12:]))
    target = os.environ.get("NARDY_SERVE_SHOTS")
    if target and "[en]" in request.node.name and not failed:
        out = ROOT / target
        out.mkdir(parents=True, exist_ok=True)
        for shot in sorted(shots.folder.glob("*.png")):
            (out / f"{request.node.originalname.removeprefix('test_')}-{shot.name}").write_bytes(
                shot.read_bytes())
    context.close()
    assert errors == [], errors          # a script error on the page fails the test


def words(lang: str, en: str, ru: str) -> str:
    return ru if lang == "ru" else en


def open_page(page, server, lang: str, fragment: str = "") -> None:
    page.goto(f"{server.url}/?lang={lang}{fragment}")
    page.wait_for_selector("[data-testid=board] svg")


@pytest.mark.parametrize("lang", LANGS)
def test_set_up_a_position_by_clicks_and_read_its_analysis(page, server, lang):
    """Catches an editor whose clicks do not reach the position (notation, ID, address), an illegal
    set-up that is not named as it happens, and an analysis (chances, plays) not shown."""
    open_page(page, server, lang)
    assert page.inner_text("[data-testid=tab-book]") == words(lang, "Opening book",
                                                               "Дебютная книга")
    page.click("[data-testid=start]")
    page.wait_for_function("document.querySelector('[data-testid=notation]').textContent"
                           " === 'W:1x15 B:1x15 w'")
    # drag one of White's head checkers from point 1 to point 12 (White's numbering: White to move)
    page.drag_and_drop("[data-testid=point-1]", "[data-testid=point-12]")
    page.drag_and_drop("[data-testid=point-1]", "[data-testid=point-8]")
    page.wait_for_function("document.querySelector('[data-testid=notation]').textContent"
                           " === 'W:1x13,8,12 B:1x15 w'")
    # Black's checkers are added in the view of Black's numbering: Black's 6 is White's 18
    page.select_option("[data-testid=viewer]", "b")
    page.click("[data-testid=colour-b]")
    page.click("[data-testid=point-1]", button="right")
    page.click("[data-testid=point-6]")
    page.wait_for_function("document.querySelector('[data-testid=notation]').textContent"
                           " === 'W:1x13,8,12 B:1x14,6 w'")
    page.shots("set-up")
    # a sixteenth White checker by a click: named at once
    page.click("[data-testid=colour-w]")
    page.click("[data-testid=point-13]")     # Black's 13 is White's 1
    page.wait_for_function("document.querySelector('[data-testid=setup-error]').textContent"
                           ".includes('16')")
    assert "16 checkers" in page.inner_text("[data-testid=setup-error]")
    page.shots("illegal")
    page.click("[data-testid=point-13]", button="right")
    page.wait_for_function("document.querySelector('[data-testid=setup-error]').textContent"
                           " === ''")
    page.select_option("[data-testid=die1]", "4")
    page.select_option("[data-testid=die2]", "2")
    # the server may be compiling the evaluators here (a cold kernel cache): COMPILING's wait
    page.wait_for_selector("[data-testid=ranking] [data-testid=row-2]", timeout=COMPILING)
    from nardy_cli.core.position import parse_position
    from nardy_cli.core.position_id import format_position_id
    pid = format_position_id(parse_position("W:1x13,8,12 B:1x14,6 w"))
    assert page.inner_text("[data-testid=posid]") == pid
    assert f"#pos={pid}&dice=42" in page.url.replace("%2B", "+")   # the ID in the address
    page.wait_for_selector("[data-testid=equity]", timeout=COMPILING)
    assert re.search(r"[+-]\d\.\d{3}", page.inner_text("[data-testid=equity]"))
    page.hover("[data-testid=ranking] [data-testid=row-2]")      # previewed on the board
    page.shots("analysis")
    page.click("[data-testid=rank2]")
    page.wait_for_function("document.querySelector('[data-testid=ranking]').textContent"
                           ".includes('lookahead2:neural')", timeout=COMPILING)
    page.select_option("[data-testid=cube]", "1:centre")
    page.wait_for_selector("[data-testid=cube-decision]", timeout=COMPILING)
    decision = page.inner_text("[data-testid=cube-decision]")
    assert re.search(words(lang, r"no double|double, take|double, pass|too good",
                           r"не удваивать|удвоить, принять|удвоить, отказаться|слишком хорошо"),
                     decision), decision
    page.shots("two-ply-and-cube")


def test_a_drag_the_board_is_redrawn_during_still_moves_the_checker(page, server):
    """Catches a drag whose pointer-up lands on a board redrawn since its pointer-down (the server's
    answer to the previous change arrived mid-drag): it was taken for a click and added a checker
    where it should have moved one, as a fast second drag on a busy machine did."""
    open_page(page, server, "en")
    page.click("[data-testid=start]")
    page.wait_for_function("document.querySelector('[data-testid=notation]').textContent"
                           " === 'W:1x15 B:1x15 w'")

    def centre(point: int) -> tuple[float, float]:
        # The board is redrawn whenever an answer arrives (the start's position and evaluation
        # may still be on their way): a point found a moment before it was replaced has no box.
        for _ in range(100):
            box = page.locator(f"[data-testid=point-{point}]").bounding_box()
            if box is not None:
                return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.wait_for_timeout(50)
        raise AssertionError(f"point {point} never stayed on the board long enough to measure")

    page.mouse.move(*centre(1))
    page.mouse.down()
    page.evaluate("App.redraw()")
    page.mouse.move(*centre(12))
    page.mouse.up()
    page.wait_for_function("document.querySelector('[data-testid=notation]').textContent"
                           " === 'W:1x14,12 B:1x15 w'")
    assert page.inner_text("[data-testid=setup-error]") == ""


@pytest.mark.parametrize("lang", LANGS)
def test_start_a_rollout_see_its_progress_and_cancel_it(page, server, lang):
    """Catches a rollout whose progress never reaches the page or whose cancel does not stop it."""
    open_page(page, server, lang, "#pos=W%3A1x13%2C8%2C12%20B%3A1x13%2C6%2C11%20w&dice=42")
    page.wait_for_selector("[data-testid=ranking] [data-testid=row-3]")
    page.fill("[data-testid=rollout-games]", "100000")
    page.click("[data-testid=rollout]")
    page.wait_for_function("Number(document.querySelector('[data-testid=progress]')"
                           ".getAttribute('data-done')) > 0", timeout=120_000)
    page.shots("rollout-running")
    page.click("[data-testid=cancel]")
    page.wait_for_function("document.querySelector('[data-testid=rollout-status]')"
                           ".getAttribute('data-status') === 'cancelled'", timeout=60_000)
    done = int(page.get_attribute("[data-testid=progress]", "data-done"))
    assert 0 < done < 300_000
    page.shots("rollout-cancelled")


def _game(page):
    return page.get_attribute("[data-testid=game-status]", "data-game")


@pytest.mark.parametrize("lang", LANGS)
def test_play_a_whole_game_against_the_bot_with_the_tutor(page, server, lang):
    """Catches a game that cannot be played to its end from the page, a tutor that does not warn
    before a planted bad play (or plays it anyway), clicks on the board that do not make a play,
    an undo that does not bring the same dice back, and a finished game that cannot be reviewed or
    saved into the library."""
    open_page(page, server, lang)
    page.click("[data-testid=tab-play]")
    page.select_option("[data-testid=bot]", "neural")
    page.click("[data-testid=new-game]")
    page.wait_for_selector("[data-testid=game-status][data-game]")
    warned = clicked = undone = False
    for turn in range(400):
        if page.get_attribute("[data-testid=game-status]", "data-over"):
            break
        page.click("[data-testid=roll]")
        page.wait_for_function("document.querySelector('[data-testid=game-status]').textContent"
                               " && document.querySelector('[data-testid=game-plays]')"
                               ".childElementCount > 0 || document.querySelector("
                               "'[data-testid=game-status]').getAttribute('data-over')")
        if page.get_attribute("[data-testid=game-status]", "data-over"):
            break
        rows = page.locator("[data-testid=game-plays] tbody tr").count()
        before = page.inner_text("[data-testid=history]")
        if not warned and rows >= 4:
            # the planted bad play: the worst of the hint's list
            state = page.evaluate(f"fetch('/api/v1/games/{_game(page)}/hint', {{method: 'POST'}})"
                                  ".then(r => r.json())")
            worst = state["plays"][-1]
            if worst["diff"] <= -0.05:
                page.locator("[data-testid=game-plays] tbody tr",
                             has_text=worst["play"]).first.click()
                page.wait_for_selector("[data-testid=tutor-warning]:not([hidden])")
                page.click("[data-testid=show-best]")
                page.shots("tutor-warning")
                page.click("[data-testid=take-back]")
                assert page.inner_text("[data-testid=history]") == before    # not played
                warned = True
        if not clicked and page.locator("[data-testid=tutor-warning]:not([hidden])").count() == 0:
            # one play made by clicks on the board: a checker, then where it goes
            state = page.evaluate(f"fetch('/api/v1/games/{_game(page)}').then(r => r.json())")
            steps = state["plays"][0]["steps"]
            for a, b in steps:
                page.click(f"[data-testid=point-{a}]")
                page.click("[data-testid=tray]" if b == 25 else f"[data-testid=point-{b}]")
            clicked = True
        else:
            page.locator("[data-testid=game-plays] tbody tr").first.click()
        moved = (f"document.querySelector('[data-testid=history]').innerText !== {before!r}"
                 " || document.querySelector('[data-testid=game-status]')"
                 ".getAttribute('data-over')")
        try:
            page.wait_for_function(f"{moved} || !document.querySelector("
                                   "'[data-testid=tutor-warning]').hidden")
        except Exception:
            page.shots("stuck")
            print("LOG", page.log[-12:])
            raise
        if page.locator("[data-testid=tutor-warning]:not([hidden])").count():
            page.click("[data-testid=play-anyway]")
            page.wait_for_function(moved)
        if clicked and not undone and not page.get_attribute("[data-testid=game-status]",
                                                             "data-over"):
            # undo: the last play and the bot's reply taken back, the same dice to play again
            dice = page.evaluate(f"fetch('/api/v1/games/{_game(page)}').then(r => r.json())")
            mine = [h for h in dice["history"] if h["side"] == dice["person"]]
            shown = page.inner_text("[data-testid=history]")
            page.click("[data-testid=undo]")
            page.wait_for_function("document.querySelector('[data-testid=history]').innerText"
                                   f" !== {shown!r}")
            again = page.evaluate(f"fetch('/api/v1/games/{_game(page)}').then(r => r.json())")
            assert again["dice"] == mine[-1]["dice"] and again["plays"]
            page.shots("undone")
            undone = True
            before = page.inner_text("[data-testid=history]")
            page.locator("[data-testid=game-plays] tbody tr").first.click()
            page.wait_for_function(f"{moved.replace(repr(shown), repr(before))} || "
                                   "!document.querySelector('[data-testid=tutor-warning]').hidden")
            if page.locator("[data-testid=tutor-warning]:not([hidden])").count():
                page.click("[data-testid=play-anyway]")
            page.wait_for_function("document.querySelector('[data-testid=history]').innerText"
                                   f" !== {before!r} || document.querySelector("
                                   "'[data-testid=game-status]').getAttribute('data-over')")
    assert page.get_attribute("[data-testid=game-status]", "data-over"), "the game did not end"
    assert warned and clicked and undone
    page.shots("game-over")
    page.click("[data-testid=review]")
    page.wait_for_selector("[data-testid=review-box] table")
    assert page.get_attribute("[data-testid=review-page]", "href").endswith("/review.html")
    page.fill("[data-testid=player]", "tester")
    page.click("[data-testid=save]")
    page.wait_for_function("document.querySelector('[data-testid=saved]').textContent.length > 0")
    assert "added 1 game" in page.inner_text("[data-testid=saved]")
    page.shots("review-and-saved")


@pytest.mark.parametrize("lang", LANGS)
def test_click_through_the_opening_book(page, server, lang):
    """Catches a book tree that does not open: first rolls, a roll's replies, a reply's second turn,
    an entry's plays."""
    open_page(page, server, lang)
    page.click("[data-testid=tab-book]")
    page.wait_for_selector("[data-testid=book-main] [data-testid=row-1]")
    page.shots("first-rolls")
    page.locator("[data-testid=book-main] tbody tr", has_text="6-5").first.click()
    page.wait_for_selector("[data-testid=book-detail] [data-testid=row-21]")
    page.shots("replies")
    page.locator("[data-testid=book-detail] tbody tr").nth(1).click()
    title = words(lang, "White's second turn", "Второй ход белых")
    page.wait_for_function("document.querySelector('[data-testid=book-detail] h2').textContent"
                           f" === {title!r}")
    page.wait_for_selector("[data-testid=book-detail] [data-testid=row-2]")
    page.locator("[data-testid=book-detail] tbody tr").nth(1).click()
    page.wait_for_selector("[data-testid=book-entry] [data-testid=row-2]")
    page.shots("entry")


@pytest.mark.parametrize("lang", LANGS)
def test_double_the_bot_in_a_game_with_the_cube(page, server, lang):
    """Catches a cube game the page cannot start, a tutor silent on a very bad double, a Double
    button that does nothing once confirmed, and the bot's take not shown (the cube at 2 on its
    side, no second double for the person)."""
    open_page(page, server, lang)
    page.click("[data-testid=tab-play]")
    page.select_option("[data-testid=bot]", "neural")
    page.check("[data-testid=with-cube]")
    page.click("[data-testid=new-game]")
    page.wait_for_function("document.querySelector('[data-testid=cube-state]').textContent"
                           ".includes('1')")
    assert page.is_enabled("[data-testid=double]")
    page.click("[data-testid=double]")
    # the tutor: doubling the opening position is very bad (no double is right)
    page.wait_for_selector("[data-testid=tutor-warning]:not([hidden])")
    assert page.get_attribute("[data-testid=tutor-warning]", "data-mark") == "very bad"
    page.shots("cube-tutor")
    page.click("[data-testid=play-anyway]")
    page.wait_for_function("document.querySelector('[data-testid=cube-state]').textContent"
                           ".includes('2')")
    assert words(lang, "nardy takes", "nardy принимает") in page.inner_text(
        "[data-testid=game-status]")
    assert words(lang, "Black", "Чёрные") in page.inner_text("[data-testid=cube-state]")
    assert not page.is_enabled("[data-testid=double]")
    page.click("[data-testid=roll]")
    page.wait_for_selector("[data-testid=game-plays] tbody tr")
    page.shots("cube-taken")
