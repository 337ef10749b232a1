"""Running the app on uvicorn: one process (rollouts in its worker processes), stopped by Ctrl-C
with its workers."""

from __future__ import annotations

import threading
import webbrowser

from .config import LOOPBACK, ServeConfig


def address(config: ServeConfig) -> str:
    """The page's address for a browser."""
    host = "127.0.0.1" if config.host in ("0.0.0.0", "::") else config.host
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{config.port}/"


def exposed(config: ServeConfig) -> bool:
    """True when the server listens beyond this machine."""
    return config.host not in LOOPBACK


def serve(config: ServeConfig, open_browser: bool = False, on_ready=None) -> None:
    """Serve until interrupted; `on_ready(address)` is called once the server listens."""
    import uvicorn
    from .app import create_app
    app = create_app(config)
    server = uvicorn.Server(uvicorn.Config(app, host=config.host, port=config.port,
                                           log_level="warning", timeout_graceful_shutdown=3,
                                           lifespan="on"))
    url = address(config)

    def announce() -> None:
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        if server.started:
            if on_ready is not None:
                on_ready(url)
            if open_browser:
                webbrowser.open(url)
    threading.Thread(target=announce, daemon=True).start()
    server.run()
