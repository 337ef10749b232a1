"""A tiny W3C WebDriver client over urllib: chromedriver and headless Chromium, no Selenium.

`browser_paths()` finds Debian's chromium and chromedriver (None when either is missing);
`Browser` starts chromedriver on a free local port, opens one headless session with a
fresh profile, and offers the few calls the page tests need: open a URL, find elements,
click, press keys, read text and attributes, run a script, take a screenshot.
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
KEYS = {"ArrowLeft": "\ue012", "ArrowRight": "\ue014", "Home": "\ue011", "End": "\ue010"}
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def browser_paths() -> tuple[str, str] | None:
    """(chromium, chromedriver) when both are installed, else None."""
    chromium = next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)
    driver = shutil.which("chromedriver")
    return (chromium, driver) if chromium and driver else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriverError(RuntimeError):
    """An error answer of the driver (its `error` and `message`)."""


class Browser:
    """One headless Chromium session driven through chromedriver's HTTP API."""

    def __init__(self, chromium: str, driver: str, *, width: int = 1320, height: int = 1100,
                 timeout: float = 30.0) -> None:
        self.profile = tempfile.mkdtemp(prefix="nardy-chromium-")
        self.port = _free_port()
        self.process = subprocess.Popen([driver, f"--port={self.port}"], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        self.session = None
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    if self._call("GET", "/status")["ready"]:
                        break
                except (urllib.error.URLError, ConnectionError):
                    pass
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise WebDriverError("chromedriver did not start")
                time.sleep(0.05)
            args = [*CHROMIUM_ARGS, f"--user-data-dir={self.profile}",
                    f"--window-size={width},{height}"]
            caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome",
                                                     "goog:chromeOptions": {"binary": chromium,
                                                                            "args": args}}}}
            self.session = self._call("POST", "/session", caps)["sessionId"]
        except BaseException:
            self.close()
            raise

    def _call(self, method: str, path: str, body: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return json.loads(resp.read())["value"]
        except urllib.error.HTTPError as exc:
            value = json.loads(exc.read() or b"{}").get("value", {})
            raise WebDriverError(f"{value.get('error')}: "
                                 f"{value.get('message', '')[:300]}") from None

    def _s(self, method: str, path: str, body: dict | None = None):
        return self._call(method, f"/session/{self.session}{path}", body)

    def get(self, url: str) -> None:
        """Open `url` and wait for its load event."""
        self._s("POST", "/url", {"url": url})

    def find(self, css: str) -> str:
        """The first element matching the CSS selector (an element id)."""
        return self._s("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def find_all(self, css: str) -> list[str]:
        """Every element matching the CSS selector."""
        return [e[ELEMENT]
                for e in self._s("POST", "/elements", {"using": "css selector", "value": css})]

    def click(self, element: str) -> None:
        """Click the element's centre, as a mouse would."""
        self._s("POST", f"/element/{element}/click", {})

    def text(self, element: str) -> str:
        """The element's rendered text."""
        return self._s("GET", f"/element/{element}/text")

    def attribute(self, element: str, name: str) -> str | None:
        """An attribute of the element."""
        return self._s("GET", f"/element/{element}/attribute/{name}")

    def press(self, *keys: str) -> None:
        """Press and release each key in turn (names of `KEYS`) on the focused page."""
        actions = []
        for key in keys:
            code = KEYS.get(key, key)
            actions += [{"type": "keyDown", "value": code}, {"type": "keyUp", "value": code}]
        self._s("POST", "/actions",
                {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})

    def select(self, css: str, value: str) -> None:
        """Choose the option with `value` in a <select>, as a person would with the mouse."""
        self.click(self.find(css))
        self.click(self.find(f'{css} option[value="{value}"]'))

    def execute(self, script: str, *args):
        """Run `script` (a function body) in the page and return its value."""
        return self._s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def execute_async(self, script: str, *args):
        """Run `script` in the page; it returns by calling its last argument (a callback)."""
        return self._s("POST", "/execute/async", {"script": script, "args": list(args)})

    def screenshot(self, path: str) -> None:
        """A PNG of the window."""
        with open(path, "wb") as f:
            f.write(base64.b64decode(self._s("GET", "/screenshot")))

    def print_pdf(self) -> bytes:
        """The page printed (print media: page breaks, print styles) as a PDF."""
        return base64.b64decode(self._s("POST", "/print", {"background": True}))

    def close(self) -> None:
        """End the session and chromedriver, and remove the profile."""
        try:
            if self.session:
                self._s("DELETE", "")
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
