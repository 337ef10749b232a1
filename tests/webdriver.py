"""Headless Chromium for the page tests, driven by Playwright (a well-kept library) with Debian's
own `chromium` (`executable_path`; `playwright install` is never needed).

`browser_paths()` finds chromium (None when it or playwright is missing); `Browser` opens one
headless page with a fresh profile and offers the few calls the page tests need: open a URL, find
elements, click, press keys, read text and attributes, run a script, take a screenshot, print a
PDF.  Its calls are those of the hand-written W3C WebDriver client it replaced, so the review,
library and cube page tests did not change; the `nardy serve` tests use Playwright directly.
"""

from __future__ import annotations

import shutil

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def browser_paths() -> tuple[str, None] | None:
    """(chromium, None) when Debian's chromium and playwright are installed, else None (the second
    member stands where chromedriver's path stood)."""
    chromium = next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return None
    return (chromium, None) if chromium else None


class WebDriverError(RuntimeError):
    """A failed browser call."""


class Browser:
    """One headless Chromium page, through Playwright."""

    def __init__(self, chromium: str, driver: None = None, *, width: int = 1320,
                 height: int = 1100, timeout: float = 30.0) -> None:
        from playwright.sync_api import sync_playwright
        self._playwright = sync_playwright().start()
        try:
            self._browser = self._playwright.chromium.launch(executable_path=chromium,
                                                             args=CHROMIUM_ARGS)
            self.page = self._browser.new_page(viewport={"width": width, "height": height})
            self.page.set_default_timeout(timeout * 1000)
        except BaseException:
            self._playwright.stop()
            raise

    def get(self, url: str) -> None:
        """Open `url` and wait for its load event."""
        self.page.goto(url, wait_until="load")

    def find(self, css: str):
        """The first element matching the CSS selector."""
        found = self.page.query_selector(css)
        if found is None:
            raise WebDriverError(f"no such element: {css}")
        return found

    def find_all(self, css: str) -> list:
        """Every element matching the CSS selector."""
        return self.page.query_selector_all(css)

    def click(self, element) -> None:
        """Click the element's centre, as a mouse would."""
        element.click()

    def text(self, element) -> str:
        """The element's rendered text, a table's cells joined by spaces as WebDriver's element
        text joins them."""
        return element.evaluate("e => (e.innerText ?? e.textContent).replace(/\\t/g, ' ')"
                                ".trim()")

    def attribute(self, element, name: str) -> str | None:
        """An attribute of the element."""
        return element.get_attribute(name)

    def press(self, *keys: str) -> None:
        """Press and release each key in turn (`ArrowLeft`, `Home`, ...) on the focused page."""
        for key in keys:
            self.page.keyboard.press(key)

    def select(self, css: str, value: str) -> None:
        """Choose the option with `value` in a <select>, as a person would."""
        self.page.select_option(css, value)

    def execute(self, script: str, *args):
        """Run `script` (a function body that may read `arguments`) in the page; its value."""
        return self.page.evaluate("([body, args]) => new Function(body).apply(null, args)",
                                  [script, list(args)])

    def execute_async(self, script: str, *args):
        """Run `script` in the page; it returns by calling its last argument (a callback)."""
        return self.page.evaluate("([body, args]) => new Promise(done => "
                                  "new Function(body).apply(null, [...args, done]))",
                                  [script, list(args)])

    def screenshot(self, path: str) -> None:
        """A PNG of the window."""
        self.page.screenshot(path=path)

    def print_pdf(self) -> bytes:
        """The page printed (print media: page breaks, print styles) as a PDF."""
        return self.page.pdf(print_background=True)

    def close(self) -> None:
        """Close the browser and Playwright."""
        try:
            self._browser.close()
        finally:
            self._playwright.stop()

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
