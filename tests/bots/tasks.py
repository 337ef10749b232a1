"""Module-level tasks for the executor tests (worker processes import them by reference)."""

from __future__ import annotations

import threading


class Count:
    """A tally that sums job counts."""

    def __init__(self, n: int = 0):
        self.n = n

    def add(self, other: "Count") -> None:
        self.n += other.n


def count_games(payload, lo: int, hi: int) -> Count:
    """Counts the job's games; `payload` is whatever the test needs to send."""
    return Count(hi - lo)


def unsendable_result(payload, lo: int, hi: int):
    """Returns an object that cannot be pickled back to the caller."""
    return threading.Lock()
