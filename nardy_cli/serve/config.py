"""A server's settings: where it listens, which `Host` names it answers, and its caps."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

LOOPBACK = ("127.0.0.1", "localhost", "::1")
DEFAULT_PORT = 8151


@dataclass(frozen=True)
class ServeConfig:
    """What a server answers and how much it takes.

    `allowed_hosts` are extra names a `Host` header may carry (a reverse proxy's name); the
    listening address, and the loopback names when it listens on loopback, are always allowed.
    `library` is the library's SQLite file (None: the default one); saved games go into its folder.
    """

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    allowed_hosts: tuple[str, ...] = ()
    library: Path | None = None
    max_body: int = 64 * 1024              # bytes of a JSON request
    max_upload: int = 1024 * 1024          # bytes of an uploaded game or .mat
    max_rollout_games: int = 100_000       # games of one rollout job
    max_jobs: int = 2                      # rollout jobs running at once
    max_sessions: int = 200                # game sessions kept in memory
    job_workers: int = 1                   # worker processes of one rollout job
    warm_worker: bool = True               # keep a rollout worker started ahead of a job
    executor: str = "local"
    scheduler: str | None = None
    extra: dict = field(default_factory=dict, compare=False)

    def host_names(self) -> set[str]:
        """Every `Host` header value answered: each name alone and with the port."""
        names = {self.host, *self.allowed_hosts}
        if self.host in LOOPBACK or self.host in ("0.0.0.0", "::"):
            names |= set(LOOPBACK)
        out = set()
        for name in names:
            bare = name.strip("[]").lower()
            shown = f"[{bare}]" if ":" in bare else bare
            out |= {shown, f"{shown}:{self.port}"}
        return out

    def library_path(self) -> Path:
        """The library's database file."""
        if self.library is not None:
            return Path(self.library)
        from ..library.store import default_path
        return default_path()
