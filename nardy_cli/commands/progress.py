"""Progress bars on stderr for long runs (tqdm): done/total, rate, time left and the running
estimate.

Bars appear only on a terminal and only for runs longer than a second; `--quiet`
turns them off. Output on stdout (tables, CSV, JSON) is never touched.
"""

from __future__ import annotations

import sys

from ..reports.render import number


def _bar(total: int, label: str, unit: str, enabled: bool, delay: float):
    import shutil

    from tqdm import tqdm
    # a terminal that reports 0x0 (some ptys) gets 100x24
    size = shutil.get_terminal_size((100, 24))
    return tqdm(total=total, desc=label.rstrip(": ") or None, unit=f" {unit}", unit_scale=False,
                file=sys.stderr, delay=delay, disable=not (enabled and sys.stderr.isatty()),
                ncols=size.columns, nrows=size.lines,
                # updates come once per chunk
                leave=False, smoothing=0.1, mininterval=0, miniters=1)


class Progress:
    """Games done, games per second, time left and the running `equity ± SE` (shown as `± x (SE)`; a
    result line's `± x (95%)` is 1.96 SE); call with partial results."""

    def __init__(self, total: int, label: str = "", enabled: bool = True,
                 delay: float = 1.0) -> None:
        self.total = total
        self.bar = _bar(total, label, "games", enabled, delay)
        self.enabled = not self.bar.disable

    def __call__(self, result) -> None:
        """Take a partial `RolloutResult`."""
        self.update(result.games, result.equity, result.equity_se)

    def update(self, done: int, value: float, se: float, what: str = "equity") -> None:
        """Move to `done` games with the running estimate `value` ± `se`."""
        if not self.enabled:
            return
        self.bar.set_postfix_str(f"{what} {number(value, '{:+.4f}')} ± {se:.4f} (SE)",
                                 refresh=False)
        self.bar.update(max(done - self.bar.n, 0))

    def close(self) -> None:
        """Remove the bar."""
        self.bar.close()


class StepBar:
    """A bar for work counted in steps (plays analysed, positions, rounds): call with (done,
    total)."""

    def __init__(self, label: str, enabled: bool, unit: str = "steps", delay: float = 1.0) -> None:
        self.bar = _bar(0, label, unit, enabled, delay)
        self.enabled = not self.bar.disable

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.bar.total != total:
            self.bar.total = total
            if not done and self.bar.delay == 0:
                self.bar.refresh()      # a bar shown at once shows its total at once
        self.bar.update(max(done - self.bar.n, 0))

    def close(self) -> None:
        """Remove the bar."""
        self.bar.close()


class StageBars:
    """One `StepBar` per stage of a staged run, each with its own label and unit: call with (stage,
    done, total)."""

    UNITS = {"0-ply": "plays", "1-ply": "plays", "2-ply": "plays", "rollouts": "games per play"}

    def __init__(self, label: str, enabled: bool) -> None:
        self.label, self.enabled = label, enabled
        self.stage: str | None = None
        self.bar: StepBar | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage != self.stage:
            self.close()
            self.stage = stage
            # the rollouts' bar shows at once: its first update may be a slow policy's whole job
            # away
            self.bar = StepBar(f"{self.label} {stage}", self.enabled,
                               unit=self.UNITS.get(stage, "steps"),
                               delay=0.0 if stage == "rollouts" else 1.0)
        self.bar(done, total)

    def close(self) -> None:
        """Remove the current stage's bar."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class BookProgress:
    """A book build's progress over the whole book: a bar with the time left on a terminal, else
    (a build in the background) a line on stderr every `every` seconds with the same figures."""

    def __init__(self, label: str, enabled: bool, every: float = 60.0) -> None:
        import time
        self.label, self.enabled, self.every = label, enabled, every
        self.bar = None
        self.start = self.first = None
        self.last = time.monotonic()
        self.tty = sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        import time
        if not self.enabled:
            return
        now = time.monotonic()
        if self.first is None:
            self.first, self.start = done, now
            if self.tty:
                self.bar = _bar(total, self.label, "entries", True, 0)
                self.bar.update(done)
                self.bar.unpause()
                self.bar.start_t = self.bar.last_print_t = self.bar._time()
                self.bar.initial = done
            return
        if self.bar is not None:
            self.bar.update(max(done - self.bar.n, 0))
            return
        if now - self.last >= self.every or done == total:
            self.last = now
            rate = (done - self.first) / max(now - self.start, 1e-9)
            left = (total - done) / rate if rate > 0 else float("nan")
            print(f"{self.label}: {done:,}/{total:,} entries, {rate * 3600:,.0f} an hour, "
                  f"about {left / 60:,.0f} min left", file=sys.stderr, flush=True)

    def close(self) -> None:
        """Remove the bar."""
        if self.bar is not None:
            self.bar.close()
