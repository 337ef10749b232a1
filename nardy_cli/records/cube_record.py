"""Cube games as records: a record built from (cube actions, dice, play) turns, the cube at the
start and at the end of a game, what the game's points are multiplied by and whether Jacoby counts
every win as an oin (the points themselves: `points.game_points`).
"""

from __future__ import annotations

from ..core.dice import Dice
from ..core.errors import NardyError
from ..core.engine import Play
from ..core.position import SIDE_NAMES, START, Position
from ..core.rules import Rules
from ..match.cube import Cube
from .cube_actions import CubeTracker
from .game_record import FEDERATION, GameRecord
from .replay import Replay


def record_from_turns(turns: list[tuple[tuple[str, ...], Dice, Play]], start: Position = START,
                      rules: Rules = FEDERATION, *, end: tuple[str, ...] = (), cube: bool = False,
                      crawford: bool = False, **fields) -> GameRecord:
    """A record from (cube actions, dice, play) turns played in order from `start`, and the cube
    actions after the last turn (`end`, e.g. `("double", "drop")`).

    A turn's actions are the kinds `double`, `take`, `drop`, `beaver` before its roll (the side on
    roll doubles, the other side answers), checked as a record's are (`CubeRecordError` naming the
    turn). The record is a cube game when it holds an action, `cube=True` or a cube tag
    (`tags=(("Cube", "on"),)`); then every ply carries the cube at its roll (`cube=True` adds the
    tag `Cube "on"` when no cube tag is given, so the record's text reads back as a cube game).
    `crawford`: the Crawford game of a match.
    """
    tracker = CubeTracker(dict(fields.get("tags", ())), crawford)
    # a cube game where nobody doubles says so in a tag, so it reads back
    if cube and not tracker.tagged:
        fields["tags"] = (*fields.get("tags", ()), ("Cube", "on"))
        tracker.tagged = True
    replay = Replay(start, rules, tracker)
    for kinds, dice, play in [*turns, (tuple(end), None, None)]:
        try:
            for kind in kinds:
                replay.act(kind)
            if dice is None:
                break
            replay.roll(dice)
        except NardyError as exc:
            raise type(exc)(f"turn {replay.number} ({SIDE_NAMES[replay.position.turn]}): "
                            f"{exc}") from None
        replay.play(play)
    return GameRecord.replayed(replay, **fields)


def start_cube(record: GameRecord) -> Cube:
    """The cube the game starts with: centred, with the cube rules of its tags (Jacoby, Beavers)."""
    return record.start_cube()


def final_cube(record: GameRecord) -> Cube | None:
    """The cube when the game ended (a dropped double leaves it where it was); None in a cubeless
    game."""
    if not record.is_cube_game:
        return None
    state = record.plies[-1].cube if record.plies else None
    state = state or start_cube(record)
    for a in record.end_actions:
        if a.kind in ("take", "beaver"):
            state = state.taken(a.value, a.side)
    return state


def cube_factor(record: GameRecord) -> int:
    """What the game's points are multiplied by: the cube's value at the end (1 in a cubeless
    game)."""
    cube = final_cube(record)
    return 1 if cube is None else cube.value


def jacoby_centred(record: GameRecord) -> bool:
    """True when the Jacoby rule counts every win as an oin: the rule is on and the cube was never
    turned."""
    cube = final_cube(record)
    return cube is not None and cube.jacoby_centred


__all__ = ["record_from_turns", "start_cube", "final_cube", "cube_factor", "jacoby_centred"]
