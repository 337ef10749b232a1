"""A game replayed turn by turn, the one loop every record goes through: nardy records and `.mat`
transcripts as they are read, records built from a bot's turns; and the turns of a finished record
as the reviews walk them.

`Replay` keeps the game so far: the position, the turn number, the cube (each action
checked by `cube_actions.CubeTracker`) and the plies.  A reader calls `act` for a cube
action, `roll` when the side to move rolls, `play` with the play's text (matched against
the legal plays of the roll) or a `Play`, and `finish` at the end
(`GameRecord.replayed(replay, ...)` makes the record).  Errors carry no turn: the readers
add the place in their own words.  `Turn` is a turn of a finished record
(`GameRecord.turns()`): its number, position, cube before its actions, actions and ply.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.dice import Dice
from ..core.engine import Outcome, Play, outcome
from ..core.errors import ArgumentError
from ..core.position import BLACK, WHITE, Position, other_side
from ..core.rules import Rules
from ..match.cube import Cube
from .cube_actions import CubeAction, CubeTracker
from .plays import match_play


@dataclass(frozen=True)
class Ply:
    """One side's turn of a game: the position before it, the roll, the play and a comment."""

    number: int          # turn number: White's and Black's plies of a turn share it
    position: Position   # before the play, without dice
    dice: Dice
    play: Play
    comment: str = ""
    # the cube actions before the roll: a double and its answer
    actions: tuple[CubeAction, ...] = ()
    # the cube at the roll (value, owner); None in a cubeless game
    cube: Cube | None = None

    @property
    def side(self) -> str:
        """'w' or 'b': who played."""
        return self.position.turn

    @property
    def label(self) -> str:
        """`12.` for White's ply of turn 12, `12...` for Black's."""
        return f"{self.number}." if self.side == WHITE else f"{self.number}..."


class Replay:
    """A game from `start` under `rules`, its cube followed by `tracker`; `plies` so far."""

    def __init__(self, start: Position, rules: Rules, tracker: CubeTracker) -> None:
        self.start, self.rules, self.tracker = start, rules, tracker
        self.position = start
        self.number = 1          # the turn number of the next ply: White's and Black's share it
        self.plies: list[Ply] = []
        self._roll: tuple[Dice, tuple[CubeAction, ...], Cube] | None = None

    def over(self) -> Outcome | None:
        """How the game has ended in the position reached, None while it goes on."""
        return outcome(self.position, self.rules)

    def act(self, kind: str, value: int | None = None, side: str | None = None) -> CubeAction:
        """A cube action before the roll by `side` (by default: a double by the side to move, an
        answer by the other side), checked; `CubeRecordError` when the cube's rules refuse it."""
        turn = self.position.turn
        if side is None:
            side = turn if kind == "double" else other_side(turn)
        return self.tracker.act(kind, value, side, turn)

    def roll(self, dice: Dice) -> None:
        """The side to move rolls `dice`: the turn's cube actions are over; `CubeRecordError` after
        a drop or with a double unanswered."""
        actions, cube = self.tracker.roll(self.position.turn)
        self._roll = (dice, actions, cube)

    def play(self, play: Play | str) -> Ply:
        """The rolled turn's play: a `Play` of the roll, or its text matched against the legal
        plays (`IllegalPlayError`, `NotationError` otherwise); the ply, the position after it."""
        if self._roll is None:
            raise ArgumentError("a play before its roll: call roll(dice) first")
        (dice, actions, cube), self._roll = self._roll, None
        if isinstance(play, str):
            play = match_play(play, self.position, dice, self.rules)
        ply = Ply(self.number, self.position, dice, play, "", actions, cube)
        self.plies.append(ply)
        if self.position.turn == BLACK:
            self.number += 1
        self.position = play.result
        return ply

    def note(self, text: str) -> bool:
        """Add a comment to the last ply; False when there is no ply yet (the game's comment)."""
        if not self.plies:
            return False
        last = self.plies[-1]
        self.plies[-1] = replace(last, comment=f"{last.comment} {text}".strip())
        return True

    def finish(self) -> tuple[tuple[Ply, ...], tuple[CubeAction, ...]]:
        """The plies (without the cube in a cubeless game) and the cube actions after the last one;
        `CubeRecordError` for a double left unanswered."""
        end_actions = self.tracker.finish()
        plies = (self.plies if self.tracker.is_cube_game
                 else [replace(p, cube=None) for p in self.plies])
        return tuple(plies), end_actions


@dataclass(frozen=True)
class Turn:
    """One turn of a finished record: `index` of its ply (None for the cube actions after the
    last ply, which end the game by a drop), the turn `number`, the `position` before the roll,
    the `cube` before the turn's actions (centred at 1 in a record without the cube), the
    `actions` and the `ply` (None for the end)."""

    index: int | None
    number: int
    position: Position
    cube: Cube
    actions: tuple[CubeAction, ...]
    ply: Ply | None

    @property
    def answer(self) -> tuple[str, ...]:
        """The kinds of the actions after a double (`("take",)`, `("drop",)`, `("beaver",)`), `()`
        when the turn has no double."""
        kinds = tuple(a.kind for a in self.actions)
        return kinds[1:] if kinds[:1] == ("double",) else ()


__all__ = ["Ply", "Replay", "Turn"]
