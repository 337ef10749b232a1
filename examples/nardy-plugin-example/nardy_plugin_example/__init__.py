"""An example nardy policy plugin: always leave yourself the fewest pips, ties broken at random."""

from __future__ import annotations


class LeastPips:
    """Plays the move that leaves the fewest pips to travel (a Python policy)."""

    def choose(self, position, dice, plays, rng):
        """Return one of `plays`: the one whose result leaves the mover the fewest pips."""
        mover = position.turn
        best = min(play.result.pip_count(mover) for play in plays)
        choices = [play for play in plays if play.result.pip_count(mover) == best]
        return choices[int(rng.integers(len(choices)))]
