"""Tiny Python bots for the policy and CLI tests."""

from __future__ import annotations


class FirstPlay:
    """Always the first listed play."""

    def choose(self, position, dice, plays, rng):
        return plays[0]


first_play = FirstPlay()


class Broken:
    """A bot whose every choice raises ZeroDivisionError: the CLI must name it in a one-line error."""

    def choose(self, position, dice, plays, rng):
        return 1 / 0
