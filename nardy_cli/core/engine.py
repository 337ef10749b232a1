"""The Python face of the rules engine: legal plays, applying plays, end of game; a `Play` and its
notation both ways (`format_play`, `parse_play`).

Every rule lives in the compiled kernels (`nardy_cli.kernels`); this module only
converts between `Position` values and the kernels' mover-relative boards.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import numpy as np

from ..kernels import board as kb
from ..kernels.movegen import OVERFLOW, Workspace, enumerate_plays
from .dice import ALL_ROLLS, Dice, as_dice
from .errors import ArgumentError, GameOverError, IllegalPlayError, NotationError, check_type
from .outcomes import CLASS_NAMES
from .position import BLACK, SIDE_NAMES, WHITE, Position, other_side
from .rules import PRESETS, Rules

FEDERATION = PRESETS["federation"]
OFF = 25  # the `to` of a step that bears a checker off


@dataclass(frozen=True, slots=True)
class Play:
    """A legal turn: steps `(from, to)` in the mover's numbering (`to` 25 is off) and its result."""

    steps: tuple[tuple[int, int], ...]
    result: Position
    dice: Dice

    @property
    def is_pass(self) -> bool:
        """True when no step could be played (R3)."""
        return not self.steps

    def __str__(self) -> str:
        return format_play(self.steps)

    def __repr__(self) -> str:
        return f"<Play {format_play(self.steps)!r} -> {str(self.result)!r}>"


def format_step(step: tuple[int, int]) -> str:
    """`1/7` or `22/off`."""
    src, dst = step
    return f"{src}/{'off' if dst == OFF else dst}"


def format_play(steps: "tuple[tuple[int, int], ...] | Play") -> str:
    """Steps (or a `Play`'s steps) in playing order, `1/7 7/12`; a pass is `pass`."""
    if isinstance(steps, Play):
        steps = steps.steps
    what = "a Play or its steps, pairs (from, to) such as ((1, 7), (7, 12))"
    check_type(steps, (tuple, list), "steps", what)
    for step in steps:
        check_type(step, (tuple, list), "steps", what)
        if len(step) != 2 or not all(isinstance(v, int) for v in step):
            check_type(steps, (), "steps", what)
    return " ".join(format_step(s) for s in steps) if steps else "pass"



_STEP_RE = re.compile(r"^([0-9]+)/([0-9]+|off)$")


def parse_steps(text: str) -> tuple[tuple[int, int], ...]:
    """Parse `1/7 7/12` or `22/off` into (from, to) pairs, `to` 25 for off; `pass` is no steps."""
    if text.strip().lower() == "pass":
        return ()
    steps = []
    for token in text.split():
        m = _STEP_RE.match(token.lower())
        if not m:
            raise NotationError(f"bad step {token!r}: expected FROM/TO or FROM/off")
        src = int(m.group(1))
        dst = OFF if m.group(2) == "off" else int(m.group(2))
        if not 1 <= src <= 24 or not 1 <= dst <= OFF or dst <= src:
            raise NotationError(f"bad step {token!r}: points 1-24, moving forward")
        steps.append((src, dst))
    if not steps:
        raise NotationError("empty play: expected steps such as '1/7 7/12'")
    return tuple(steps)


def parse_play(position: Position, text: str, dice: Dice | str | None = None,
               rules: Rules = FEDERATION) -> Play:
    """The legal play that `text` describes in `position`: exact steps, or checker paths such as
    `1/12`.

    The position comes first, as in `legal_plays(position, dice)`.
    """
    check_arguments(position, rules, "parse_play(position, text, dice)")
    check_type(text, str, "text", "the play's text such as '1/7 7/12'")
    steps = parse_steps(text)
    plays = legal_plays(position, dice, rules)
    for play in plays:
        if play.steps == steps:
            return play
    # Accept any order of steps and whole checker paths: match on the moved checkers.
    moved = _moves_signature(steps)
    matches = [p for p in plays if _moves_signature(p.steps) == moved]
    if not matches:
        matches = [p for p in plays if _net_signature(p.steps) == _net_signature(steps)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise IllegalPlayError(f"ambiguous play {text.strip()!r} in {str(position)!r}")
    raise IllegalPlayError(f"illegal play {text.strip()!r} for {_dice_of(position, dice)} in "
                           f"{str(position)!r}")


def _moves_signature(steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(steps))


def _net_signature(steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Points left and points reached, net of steps that chain through a point."""
    srcs = sorted(s for s, _ in steps)
    dsts = sorted(d for _, d in steps)
    for p in list(srcs):
        if p in dsts:
            srcs.remove(p)
            dsts.remove(p)
    return tuple(srcs), tuple(dsts)


_HALF_TURN = np.r_[12:24, 0:12]  # index map between the two numberings
_local = threading.local()


def _workspace(capacity: int = 0) -> Workspace:
    ws = getattr(_local, "ws", None)
    if ws is None or ws.boards.shape[0] < capacity:
        ws = _local.ws = Workspace(max(capacity, 4096))
    return ws


def check_arguments(position: Position, rules: Rules, call: str = "") -> None:
    """`ArgumentTypeError` naming the argument when `position` is not a `Position` or `rules` not a
    `Rules`."""
    check_type(position, Position, "position", "a Position (e.g. parse_position('start'))",
               f" (the position comes first: {call})" if call and isinstance(position, str) else "")
    check_type(rules, Rules, "rules", "a Rules (e.g. make_rules('federation'))")


def _dice_of(position: Position, dice: Dice | str | tuple[int, int] | None) -> Dice:
    check_type(dice, (Dice, str, tuple, list, type(None)), "dice",
               "a Dice, text such as '6-5' or a pair such as (6, 5)")
    if dice is None:
        if position.dice is None:
            raise ArgumentError(f"no {{dice}} given and the position {str(position)!r} "
                                "carries none")
        return position.dice
    return as_dice(dice)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winner ('w', 'b' or None for a draw) and the class (R9)."""

    winner: str | None
    kind: str  # oin | home-mars | mars | koks | draw

    def __str__(self) -> str:
        return "draw" if self.winner is None else f"{SIDE_NAMES[self.winner]} wins by {self.kind}"




def require_in_play(position: Position, rules: Rules = FEDERATION) -> None:
    """Raise `GameOverError`, naming the result, when the game is already over in `position`."""
    done = outcome(position, rules)
    if done is not None:
        raise GameOverError(f"the game is already over in {str(position)!r}: {done}")


def outcome(position: Position, rules: Rules = FEDERATION) -> Outcome | None:
    """The result of a finished game (R8, R9), or None while the game goes on."""
    check_arguments(position, rules)
    board, _, _ = position.board()
    status = kb.game_status(board, position.turn == WHITE, rules.last_roll)
    if status == kb.IN_PLAY:
        return None
    if status == kb.DRAWN:
        return Outcome(None, "draw")
    winner = WHITE if status == kb.WHITE_WON else BLACK
    loser_view = board if position.turn != winner else np.ascontiguousarray(-board[_HALF_TURN])
    return Outcome(winner, CLASS_NAMES[kb.loser_class(loser_view)])


def enumerate_board(board: np.ndarray, opp_off: int, dice: Dice, rules: Rules):
    """Run the kernel on a mover-relative board: (boards, step_from, step_die, count, steps)."""
    ws = _workspace()
    while True:
        count, nsteps = enumerate_plays(board, opp_off, dice.high, dice.low, rules.head_code,
                                        rules.block_code, *ws.arrays())
        if count != OVERFLOW:
            return ws.boards[:count], ws.step_from[:count], ws.step_die[:count], count, nsteps
        ws = _workspace(ws.boards.shape[0] * 4)


def legal_plays(position: Position, dice: Dice | str | tuple[int, int] | None = None,
                rules: Rules = FEDERATION) -> list[Play]:
    """Every distinct legal play of the roll (R1-R7), each with one canonical step order.

    `dice` may be a `Dice`, text such as `"6-5"` or a pair such as `(6, 5)`.

    A position where no step is legal gives a single pass.  Raises `GameOverError`
    on a finished game and `ArgumentError` when no dice are given or carried (`ArgumentTypeError`
    for an argument of the wrong type).
    """
    check_arguments(position, rules, "legal_plays(position, dice)")
    dice = _dice_of(position, dice)
    require_in_play(position, rules)
    board, _, opp_off = position.board()
    return plays_from_kernel(position, dice, *enumerate_board(board, opp_off, dice, rules))


def roll_plays(position: Position, dice: Dice | None = None,
               rules: Rules = FEDERATION) -> list[tuple[Dice, list[Play]]]:
    """The legal plays of `dice`, else of the position's dice, else of each of the 21 rolls."""
    if dice is None:
        dice = position.dice
    rolls = [dice] if dice is not None else list(ALL_ROLLS)
    return [(d, legal_plays(position, d, rules)) for d in rolls]


def plays_from_kernel(position: Position, dice: Dice, boards: np.ndarray, step_from: np.ndarray,
                      step_die: np.ndarray, count: int, nsteps: int) -> list[Play]:
    """`Play` values from the kernel's output arrays for `position`'s mover."""
    mine = np.maximum(boards, 0).tolist()
    froms = (step_from[:, :nsteps] + 1).tolist()
    tos = np.minimum(step_from[:, :nsteps].astype(np.int16) + step_die[:, :nsteps] + 1,
                     OFF).tolist()
    nxt = other_side(position.turn)
    make = Position.unchecked
    plays = []
    if position.turn == WHITE:  # the opponent's checkers do not move during the turn
        theirs = position.black
        for i in range(count):
            plays.append(Play(tuple(zip(froms[i], tos[i])), make(tuple(mine[i]), theirs, nxt),
                              dice))
    else:
        theirs = position.white
        for i in range(count):
            plays.append(Play(tuple(zip(froms[i], tos[i])), make(theirs, tuple(mine[i]), nxt),
                              dice))
    return plays


def apply_play(position: Position, play: Play | str, dice: Dice | str | None = None,
               rules: Rules = FEDERATION) -> Position:
    """The position after a legal play (a `Play` or its text); raises `IllegalPlayError`
    otherwise."""
    check_arguments(position, rules, "apply_play(position, play, dice)")
    check_type(play, (Play, str), "play", "a Play or its text such as '1/7 7/12'")
    if isinstance(play, str):
        play = parse_play(position, play, dice, rules)
    elif play not in legal_plays(position, dice if dice is not None else play.dice, rules):
        raise IllegalPlayError(f"illegal play {str(play)!r} in {str(position)!r}")
    return play.result


__all__ = ["OFF", "Play", "format_step", "format_play", "parse_steps", "parse_play", "Outcome",
           "outcome", "legal_plays", "roll_plays", "apply_play", "enumerate_board",
           "plays_from_kernel"]
