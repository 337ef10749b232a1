"""Cube actions in game records: `Doubles => 2`, `Takes`, `Drops`, `Beavers => 4`, checked turn by
turn.

A record's cube actions come before a ply's roll (the cube is turned before the roll):
the side on roll doubles, its opponent takes, drops or (money games with the Beavers
rule) beavers.  `CubeTracker` follows the cube through a game, refuses what the
rules do not allow (a double by the side that does not own the cube, a take with no
double, anything after a drop, a double in the Crawford game, a beaver without the
Beavers rule) and gives the cube before every roll as a `Cube` (value, owner and the
game's cube rules, from its tags).  A game is a cube game when it holds a cube action
or a `Cube`, `Jacoby` or `Beavers` tag set to `on`.  Messages name no turn: the record
readers add it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import CubeRecordError
from ..core.position import SIDE_NAMES, other_side
from ..match.cube import Cube

KINDS = ("double", "take", "drop", "beaver")
CUBE_TAGS = ("Cube", "Jacoby", "Beavers")
ON_WORDS = ("on", "true", "yes")
OFF_WORDS = ("off", "false", "no")

_ACTION_RE = re.compile(r"^(doubles?|beavers?)(?:\s*=>\s*([0-9]+))?$|^(takes?|drops?|passe?s?)$",
                        re.I)


@dataclass(frozen=True)
class CubeAction:
    """One cube action before a roll: `kind` (double, take, drop, beaver) by `side` ('w'/'b').

    `value` is the cube's value the action is about: a double's and a beaver's new value,
    the value of the double a take accepts or a drop refuses.
    """

    kind: str
    side: str
    value: int

    def __str__(self) -> str:
        """As transcripts write it: `Doubles => 2`, `Takes`, `Drops`, `Beavers => 4`."""
        if self.kind in ("double", "beaver"):
            return f"{self.kind.capitalize()}s => {self.value}"
        return f"{self.kind.capitalize()}s"


def parse_action(text: str) -> tuple[str, int | None]:
    """(kind, value or None) of `Doubles => 2`, `Doubles`, `Takes`, `Drops`, `Passes`,
    `Beavers => 4`.

    Raises `CubeRecordError` quoting anything else.
    """
    m = _ACTION_RE.match(" ".join(text.split()))
    if not m:
        raise CubeRecordError(f"bad cube action {text.strip()!r}: expected 'Doubles => 2', "
                              "'Takes', 'Drops' or 'Beavers => 4'")
    if m.group(1):
        return ("double" if m.group(1).lower().startswith("d") else "beaver"), (int(m.group(2))
                                                                                if m.group(2)
                                                                                else None)
    word = m.group(3).lower()
    return ("take" if word.startswith("t") else "drop"), None


def tag_flag(tags: dict[str, str], name: str) -> bool:
    """A cube rule tag (`[Jacoby "on"]`) as a flag; raises `CubeRecordError` for a value that is not
    on or off."""
    value = tags.get(name)
    if value is None:
        return False
    if value.strip().lower() in ON_WORDS:
        return True
    if value.strip().lower() in OFF_WORDS:
        return False
    raise CubeRecordError(f"bad {name} tag {value!r}: expected on or off")


class CubeTracker:
    """The cube through one game: each action checked, the cube before every roll, the drop that
    ends it."""

    def __init__(self, tags: dict[str, str], crawford: bool = False) -> None:
        self.jacoby = tag_flag(tags, "Jacoby")
        self.beavers = tag_flag(tags, "Beavers")
        self.tagged = tag_flag(tags, "Cube") or self.jacoby or self.beavers
        self.crawford = crawford
        self.value, self.owner = 1, "centre"
        self.offer: CubeAction | None = None     # a double waiting for its answer
        self.dropped: CubeAction | None = None   # the drop that ended the game
        self.acted = False                       # any action seen: the game is a cube game
        self.turn_actions: list[CubeAction] = []

    def act(self, kind: str, value: int | None, side: str, on_roll: str) -> CubeAction:
        """Check an action by `side` while `on_roll` is about to roll; the action, with its value
        filled in."""
        self.acted = True
        name = SIDE_NAMES[side]
        if self.dropped is not None:
            raise CubeRecordError(f"{kind} by {name} after {SIDE_NAMES[self.dropped.side]}'s "
                                  "drop: the drop ended the game")
        if kind == "double":
            return self._double(value, side, on_roll)
        if self.offer is None:
            raise CubeRecordError(f"{name} {'beaver' if kind == 'beaver' else kind}s, "
                                  "but nobody has doubled")
        if side == self.offer.side:
            raise CubeRecordError(f"{name} answers its own double ({kind}): "
                                  "the opponent takes or drops")
        offered = self.offer.value
        if kind == "beaver":
            if not self.beavers:
                raise CubeRecordError(f"{name} beavers, but the game has no Beavers rule (a "
                                      "money-game rule: [Beavers \"on\"])")
            if value is not None and value != 2 * offered:
                raise CubeRecordError(f"a beaver of a double to {offered} turns the cube to "
                                      f"{2 * offered}, not {value}")
            action = CubeAction("beaver", side, 2 * offered)
            self.value, self.owner = 2 * offered, SIDE_NAMES[side].lower()
        elif kind == "take":
            action = CubeAction("take", side, offered)
            self.value, self.owner = offered, SIDE_NAMES[side].lower()
        else:
            action = CubeAction("drop", side, offered)
            self.dropped = action
        self.offer = None
        self.turn_actions.append(action)
        return action

    def _double(self, value: int | None, side: str, on_roll: str) -> CubeAction:
        name = SIDE_NAMES[side]
        if self.offer is not None:
            raise CubeRecordError(f"{name} doubles while {SIDE_NAMES[self.offer.side]}'s double to "
                                  f"{self.offer.value} waits for its answer (no raccoons)")
        if side != on_roll:
            raise CubeRecordError(f"{name} doubles after its roll: the cube is turned before the "
                                  "roll, and it is "
                                  f"{SIDE_NAMES[on_roll]}'s turn")
        if self.crawford:
            raise CubeRecordError(f"{name} doubles in the Crawford game: "
                                  "no double until the game after it")
        if self.owner not in ("centre", name.lower()):
            raise CubeRecordError(f"{name} doubles, but {self.owner.capitalize()} owns the cube at "
                                  f"{self.value}: "
                                  "only the cube's owner may double")
        if value is not None and value != 2 * self.value:
            raise CubeRecordError(f"a double of the cube at {self.value} turns it to "
                                  f"{2 * self.value}, not {value}")
        action = CubeAction("double", side, 2 * self.value)
        self.offer = action
        self.turn_actions.append(action)
        return action

    def roll(self, side: str) -> tuple[tuple[CubeAction, ...], Cube]:
        """`side` rolls: the turn's actions so far and the cube at the roll; raises after a drop or
        an unanswered double."""
        if self.dropped is not None:
            raise CubeRecordError(f"a roll after {SIDE_NAMES[self.dropped.side]}'s drop: "
                                  "the drop ended the game")
        if self.offer is not None:
            raise CubeRecordError(f"{SIDE_NAMES[side]} rolls, but {SIDE_NAMES[self.offer.side]}'s "
                                  "double to "
                                  f"{self.offer.value} has no answer: "
                                  "write 'Takes' or 'Drops' before the roll")
        actions, self.turn_actions = tuple(self.turn_actions), []
        return actions, self.state

    def finish(self) -> tuple[CubeAction, ...]:
        """The actions after the last roll (a double and its drop); raises for a double left
        unanswered."""
        if self.offer is not None:
            raise CubeRecordError(f"{SIDE_NAMES[self.offer.side]}'s double to {self.offer.value} "
                                  "has no answer: write 'Takes' or 'Drops'")
        actions, self.turn_actions = tuple(self.turn_actions), []
        return actions

    @property
    def state(self) -> Cube:
        """The cube now: its value and owner, with the game's cube rules (its tags)."""
        return Cube(self.value, self.owner, self.jacoby, self.beavers)

    @property
    def is_cube_game(self) -> bool:
        """True when the game holds a cube action or a cube tag set to on."""
        return self.acted or self.tagged


def drop_winner(action: CubeAction) -> str:
    """The side that wins by a drop: the doubler."""
    return other_side(action.side)


__all__ = ["KINDS", "CUBE_TAGS", "CubeAction", "CubeTracker", "parse_action", "tag_flag",
           "drop_winner"]
