"""A live `nardy serve` app on a free loopback port in a thread of the test process, and a headless
Chromium (Debian's `chromium`, driven by Playwright) for the browser tests.

Playwright is used with the system's browser only (`executable_path`), never `playwright install`.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if Path(p).exists()),
                None)


def browser_missing() -> str | None:
    """Why browser tests cannot run here, or None."""
    if CHROMIUM is None:
        return "Debian's chromium is not installed (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright; no browser download needed)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """uvicorn serving `create_app(config)` in a thread until `stop()`."""

    def __init__(self, config) -> None:
        import uvicorn
        from nardy_cli.serve.app import create_app
        self.config = config
        self.url = f"http://127.0.0.1:{config.port}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1",
                                                    port=config.port, log_level="warning",
                                                    timeout_graceful_shutdown=2))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)


class Shots:
    """Screenshots of each step of a browser test, into `folder`; kept (copied to
    `failed_folder`) when the test fails."""

    def __init__(self, page, folder: Path, failed_folder: Path) -> None:
        self.page, self.folder, self.failed_folder = page, folder, failed_folder
        folder.mkdir(parents=True, exist_ok=True)
        self.n = 0

    def __call__(self, name: str) -> Path:
        self.n += 1
        path = self.folder / f"{self.n:02d}-{name}.png"
        self.page.screenshot(path=str(path))
        return path

    def keep(self) -> Path:
        shutil.copytree(self.folder, self.failed_folder, dirs_exist_ok=True)
        return self.failed_folder
