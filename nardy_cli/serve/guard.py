"""The local server's guard, one ASGI layer in front of the app: a request whose `Host` header is
not the server's own is refused (a page elsewhere must not reach it through DNS rebinding), so is
one whose `Origin` is another site's (no cross-origin use: the app sends no CORS headers either),
a path that climbs out of its folder (`..`) is refused with 400, and a body over its cap is cut
off with 413."""

from __future__ import annotations

import json

from .config import ServeConfig

UPLOAD_PATHS = ("/api/v1/review", "/api/v1/library/games")


def _reply(status: int, message: str, field: str | None = None):
    body = json.dumps({"error": message, "field": field}).encode()

    async def send_reply(send) -> None:
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
    return send_reply


class Guard:
    """ASGI middleware: Host and Origin checks, and the body caps of `config`."""

    def __init__(self, app, config: ServeConfig) -> None:
        self.app = app
        self.config = config
        self.hosts = config.host_names()

    def cap(self, path: str) -> int:
        """The byte cap of a request body to `path`."""
        return self.config.max_upload if path.startswith(UPLOAD_PATHS) else self.config.max_body

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "").lower()
        if host not in self.hosts:
            await _reply(421, f"refused: Host {host!r} is not this server's name (a page on "
                              "another site may not use it); a reverse proxy's name is allowed "
                              "with --allow-host", "Host")(send)
            return
        origin = headers.get("origin")
        if origin is not None and origin.split("://", 1)[-1].lower() not in self.hosts:
            await _reply(403, f"refused: Origin {origin!r} is another site (no cross-origin "
                              "access)", "Origin")(send)
            return
        path = scope["path"]
        if ".." in path.replace("\\", "/").split("/") or "\x00" in path:
            await _reply(400, f"refused: {path!r} leads outside the server's files", "path")(send)
            return
        cap = self.cap(path)
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > cap):
            await _reply(413, f"refused: the request body ({length} bytes) is over the cap of "
                              f"{cap:,} bytes", "body")(send)
            return
        seen = 0
        refused = False

        async def capped_receive():
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > cap:
                    # answer 413 now; the app sees the client gone and its answer is dropped
                    refused = True
                    await _reply(413, f"refused: the request body is over the cap of {cap:,} "
                                      "bytes", "body")(send)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message):
            if not refused:
                await send(message)
        try:
            await self.app(scope, capped_receive, guarded_send)
        except Exception:
            if not refused:
                raise
