"""Review page (issue 24 target): a 100-ply game's page loads and steps in under a second in
headless Chromium, and weighs under 2 MB.

Reviews the 100-ply game of experiments/review.py (neural, 0-ply), writes its page, and opens it
`--runs` times in headless Chromium through chromedriver (tests/webdriver.py): the page's own
load time (navigation start to the end of its script, which draws the first board and the graph),
the time to step through all 100 plies by key events inside the page (each a full redraw of both
boards), the slowest of ten steps until the second animation frame after it (the new boards
painted), and 100 right-arrow presses sent through WebDriver one at a time (what a test or a
person's keyboard does, the driver's round trip included).  Run from the repository root:
`python experiments/review_page.py [--runs N]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "experiments")]

from review import hundred_ply_game  # noqa: E402  (experiments/review.py)

from nardy_cli.records.game_record import parse_game  # noqa: E402
from nardy_cli.review.game_review import review_game  # noqa: E402
from nardy_cli.reports.review_page import page_data, write_page  # noqa: E402
from tests.webdriver import Browser, browser_paths  # noqa: E402

STEP_ALL = """
const t0 = performance.now();
for (let k = 0; k < arguments[0]; k++)
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
const ms = performance.now() - t0;
return [ms, Number(document.getElementById('view').dataset.ply)];
"""
PAINTED = """
const done = arguments[arguments.length - 1], t0 = performance.now();
document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0)));
"""
LOAD = """
const nav = performance.getEntriesByType('navigation')[0];
return [nav.domContentLoadedEventEnd, nav.loadEventEnd, window.reviewPageReady === true];
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    paths = browser_paths()
    if paths is None:
        sys.exit("headless Chromium is not installed (apt-get install chromium chromium-driver)")
    record = parse_game(hundred_ply_game())
    review = review_game(record, "neural")
    with tempfile.TemporaryDirectory() as tmp:
        page = write_page(page_data([review]), Path(tmp) / "review.html")
        size = page.stat().st_size
        print(f"page of a {len(record.plies)}-ply game: {size / 1e6:.3f} MB ({size} bytes; "
              "target under 2 MB)")
        loads, steps, presses, painted = [], [], [], []
        with Browser(*paths) as browser:
            for _ in range(args.runs):
                start = time.perf_counter()
                browser.get(page.as_uri())
                opened = time.perf_counter() - start
                ready, loaded, ok = browser.execute(LOAD)
                assert ok, "the page's script did not finish"
                ms, ply = browser.execute(STEP_ALL, len(record.plies))
                assert ply == len(record.plies), ply
                browser.press("Home")
                painted.append(max(browser.execute_async(PAINTED) for _ in range(10)))
                browser.press("Home")
                start = time.perf_counter()
                for _ in range(len(record.plies)):
                    browser.press("ArrowRight")
                pressed = time.perf_counter() - start
                assert int(browser.attribute(browser.find("#view"),
                                             "data-ply")) == len(record.plies)
                loads.append((loaded, opened))
                steps.append(ms)
                presses.append(pressed)
                print(f"  load {loaded:6.1f} ms in the page (DOM ready {ready:6.1f} ms), "
                      f"{opened * 1000:6.1f} ms "
                      f"for WebDriver's get; 100 steps {ms:6.1f} ms in the page, "
                      "100 key presses through "
                      f"WebDriver {pressed * 1000:6.1f} ms; slowest of 10 steps to its second "
                      "painted frame "
                      f"{painted[-1]:5.1f} ms")
        print(f"median over {args.runs} runs: load {statistics.median(l for l, _ in loads):.1f} "
              "ms, "
              f"100 steps {statistics.median(steps):.1f} ms ({statistics.median(steps) / 100:.2f} "
              "ms a step), "
              f"100 WebDriver key presses {statistics.median(presses) * 1000:.0f} ms, "
              "a step to its second painted "
              f"frame at most {max(painted):.1f} ms "
              f"(targets: load and step under 1 s)")


if __name__ == "__main__":
    main()
