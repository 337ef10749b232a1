"""A progress line on stderr for long runs: games done, games per second, equity ± SE."""

from __future__ import annotations

import sys
import time

import click


class Progress:
    """Call with each partial result; draws only on a terminal and only after the first second."""

    def __init__(self, total: int, label: str = "", enabled: bool = True, delay: float = 1.0) -> None:
        self.total = total
        self.label = label
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.delay = delay
        self.drawn = False

    def __call__(self, result) -> None:
        """Take a partial `RolloutResult`."""
        self.update(result.games, result.equity, result.equity_se)

    def update(self, done: int, value: float, se: float, what: str = "equity") -> None:
        """Redraw with `done` games and the running estimate `value` ± `se`."""
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.start
        if elapsed < self.delay:
            return
        width = 24
        filled = int(width * min(done / self.total, 1.0)) if self.total else width
        rate = done / elapsed if elapsed > 0 else 0.0
        line = (f"\r{self.label}[{'#' * filled}{'.' * (width - filled)}] {done:,}/{self.total:,} games  "
                f"{rate:,.0f} games/s  {what} {value:+.4f} ± {se:.4f} ")
        click.echo(line, err=True, nl=False)
        self.drawn = True

    def close(self) -> None:
        """End the progress line."""
        if self.drawn:
            click.echo("", err=True)
            self.drawn = False
