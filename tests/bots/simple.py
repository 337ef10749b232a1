"""Tiny Python bots for the policy and CLI tests."""

from __future__ import annotations


class FirstPlay:
    """Always the first listed play."""

    def choose(self, position, dice, plays, rng):
        return plays[0]


first_play = FirstPlay()


class Broken:
    """A bot whose every choice raises ZeroDivisionError: the CLI must name it in a one-line
    error."""

    def choose(self, position, dice, plays, rng):
        return 1 / 0


class DiesInWorker:
    """A bot whose worker process dies (`os._exit`) at its first choice: a runtime failure, exit
    code 1.

    In the main process it raises instead, so a run that never left the process cannot take pytest
    down.
    """

    def choose(self, position, dice, plays, rng):
        import multiprocessing
        import os
        if multiprocessing.parent_process() is None:
            raise RuntimeError("DiesInWorker chose in the main process")
        os._exit(3)
