"""Bots shaped like real ones (issue 13): a lock in the object, so they cannot be pickled.

With NARDY_TEST_PID_DIR set, a bot leaves an empty file named after each process
it chooses in, so a test can see that games really ran on several workers.
"""

from __future__ import annotations

import os
import threading


class Bot:
    """First play, behind a lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.noted_pid = None

    def choose(self, position, dice, plays, rng):
        with self.lock:
            _note_process(self)
            return plays[0]


policy = Bot()


class Failing:
    """Raises on its first decision, as a bot whose connection dropped would."""

    def __init__(self):
        self.lock = threading.Lock()

    def choose(self, position, dice, plays, rng):
        raise ConnectionError("model server went away")


def _note_process(bot) -> None:
    folder = os.environ.get("NARDY_TEST_PID_DIR")
    if folder and bot.noted_pid != os.getpid():
        bot.noted_pid = os.getpid()
        open(os.path.join(folder, str(os.getpid())), "w").close()
