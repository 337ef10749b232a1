"""What a policy is: an evaluator plus a search, asked for one of the distinct results of a roll.

Every policy is asked the same way, `policy.pick(turn) -> index into turn.plays`.
A `CompiledPolicy` is an `Evaluator` with a kernel form (`evaluator.py`) and a
search depth (0, or 1 for `lookahead:NAME`, pruned as `pruning` says); the game
kernel runs it itself (`in_kernel`), so whole games never leave compiled code.
A `PythonPolicy` wraps any object with `choose(position, dice, plays, rng) -> play`
and runs in the Python turn loop.  Callers ask a policy what it is
(`evaluator_name`, `has_evaluator`, `is_random`, `lookahead`, `static_scorer`)
rather than test its class or kind code.

A policy found by name (`module:attribute` or an entry point) remembers that
name as its `source`; `transport` then pickles it as the name alone.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from ..core.errors import PolicyError
from ..kernels.board import kernel_rules
from ..kernels.evaluate import (LOOKAHEAD_WIDTH, NEURAL, NEURAL_MARGIN, NEURAL_WIDTH, EvalArgs,
                                choice_scratch, choose_play, neural_choice, random_choice,
                                scored_choice)
from .evaluator import Evaluator, UserFunction

if TYPE_CHECKING:
    from ..core.outcomes import Valuation
    from ..core.position import Position
    from ..core.rules import Rules


@runtime_checkable
class ChoosesPlays(Protocol):
    """What a user's bot provides: pick one of `plays` (all legal, distinct results)."""

    def choose(self, position: Any, dice: Any, plays: list, rng: np.random.Generator) -> Any: ...


@dataclass
class Turn:
    """One decision put to a policy: the position with its dice and every distinct legal play.

    `boards` holds the plays' results as mover-relative kernel boards (row i is
    plays[i]); `valuation` says what each outcome is worth to each side (money
    points, or match equity at a match score); `rstate` is the compiled policies'
    random stream of the game and `rng` the Python bots' generator, both seeded
    from (seed, game).
    """

    position: Position
    plays: list
    boards: np.ndarray
    rules: Rules
    valuation: Valuation
    rstate: np.ndarray
    rng: np.random.Generator

    @property
    def dice(self):
        """The roll being played."""
        return self.position.dice


class Policy:
    """Base of every policy: a name, a one-line description, and `pick`."""

    name: str
    description: str
    source: str | None
    in_kernel: ClassVar[bool] = False   # True: the compiled game loop can run it without Python
    lookahead = False                    # True: one ply deeper (`lookahead:NAME`)

    def pick(self, turn: Turn) -> int:
        """The index in `turn.plays` of the play this policy makes."""
        raise NotImplementedError

    @property
    def evaluator_name(self) -> str | None:
        """The built-in evaluator it judges results by ('racer', 'heuristic', 'neural'), or None."""
        return None

    @property
    def has_evaluator(self) -> bool:
        """True when its evaluator gives outcome probabilities (heuristic, neural), as truncation
        and VR need."""
        return False

    @property
    def is_random(self) -> bool:
        """True for the uniform random policy, whose own bear-off is what its rollouts measure."""
        return False

    def static_scorer(self) -> CompiledPolicy | None:
        """The compiled policy whose 0-ply scores rank this policy's results, or None (random,
        Python bots)."""
        return None

    def resolvable_as(self, name: str) -> "Policy":
        """This policy, sent to other processes as `name` from now on (see `transport`)."""
        return replace(self, source=name)  # type: ignore[type-var]


@dataclass(frozen=True)
class CompiledPolicy(Policy):
    """A policy the game kernel runs itself: an evaluator with a kernel form, 0 or 1 ply deep.

    At 0 ply it plays the result its evaluator scores best (the random kind: a
    uniform one); with `lookahead` it searches the candidates `pruning` keeps one
    ply deeper (`kernels.evaluate.choose_play`).
    """

    name: str
    description: str
    evaluator: Evaluator
    lookahead: bool = False
    source: str | None = None   # the name that re-creates it in another process (see `transport`)

    in_kernel: ClassVar[bool] = True

    @property
    def kind(self) -> int:
        """Its evaluator's kind code in the game kernel."""
        return self.evaluator.kernel.kind

    kernel_kind = kind

    @property
    def evaluator_name(self) -> str | None:
        """The built-in evaluator it judges results by; None for `random` and a user's function."""
        ev = self.evaluator
        return ev.name if ev.builtin and not ev.is_random else None

    @property
    def has_evaluator(self) -> bool:
        """True when the kernel values its results as outcome probabilities (heuristic, neural)."""
        return self.evaluator.outcomes

    @property
    def is_random(self) -> bool:
        """True for the uniform random policy."""
        return self.evaluator.is_random

    @property
    def depth(self) -> int:
        """Plies searched beyond the evaluator's own: 0, or 1 for `lookahead:NAME`."""
        return 1 if self.lookahead else 0

    @property
    def pruning(self) -> tuple[int, float | None]:
        """(most candidates searched, equity margin to the 0-ply best or None): the kernel's."""
        return (NEURAL_WIDTH, NEURAL_MARGIN) if self.kind == NEURAL else (LOOKAHEAD_WIDTH, None)

    def static_scorer(self) -> CompiledPolicy | None:
        """Itself: its `static_scores` rank results at 0 ply (None for `random`: it scores none)."""
        return None if self.is_random else self

    def static_scores(self, boards, mover_white: bool, rules: Rules,
                      valuation: Valuation | None = None) -> np.ndarray:
        """Its evaluator's 0-ply score of each mover-relative board just after the mover's play
        (higher: better); the network scores by `valuation` (money under `rules` when None)."""
        return self.evaluator.static_scores(boards, mover_white, rules, valuation)

    def resolvable_as(self, name: str) -> "CompiledPolicy":
        """This policy, pickled as `name` from now on; built-ins are plain data, pickled as such."""
        if isinstance(self.evaluator.kernel, UserFunction):
            return replace(self, source=name)
        return self

    def kernel_params(self, rules: Rules) -> np.ndarray:
        """The kernel's parameter vector under `rules`: padded weights, or the network's."""
        return self.evaluator.kernel.params(rules)

    def kernel_evaluator(self):
        """Its evaluator as the game kernel's first-class function argument."""
        return self.evaluator.kernel.function()

    def pick(self, turn: Turn) -> int:
        """The kernel's choice among the turn's results (same chooser, same random stream)."""
        if isinstance(self.evaluator.kernel, UserFunction):
            from ..kernels.user import best_by
            return int(best_by(turn.boards, len(turn.plays), self.kernel_evaluator()))
        n, rules = len(turn.plays), turn.rules
        if self.is_random:
            return int(random_choice(turn.rstate, n))
        workspace, choice = _scratch()
        params, white = self.kernel_params(rules), turn.position.turn == "w"
        # at 0 ply, only the part of `choose_play` for this kind: called from Python, it compiles
        # that kind's scores alone, not every kind's and the searches (issue 49)
        if not self.lookahead:
            if self.kind == NEURAL:
                return int(neural_choice(turn.boards.copy(), n, params,
                                         turn.valuation.kernel_values(), white,
                                         kernel_rules(rules).last_roll, choice))
            return int(scored_choice(turn.boards.copy(), n, self.kind, params, choice))
        judge = EvalArgs(self.kind, params, turn.valuation.kernel_values())
        return int(choose_play(turn.boards.copy(), n, judge, True, turn.rstate, white,
                               kernel_rules(rules), workspace.arrays(), choice))


_SCRATCH = threading.local()


def _scratch():
    """This thread's kernel scratch for `CompiledPolicy.pick` (a workspace, the chooser's)."""
    found = getattr(_SCRATCH, "arrays", None)
    if found is None:
        from ..kernels.movegen import Workspace
        found = _SCRATCH.arrays = (Workspace(), choice_scratch())
    return found


@dataclass(frozen=True)
class PythonPolicy(Policy):
    """A user's bot: any object with `choose(position, dice, plays, rng)`."""

    name: str
    obj: Any
    description: str = "user policy (Python)"
    source: str | None = None   # the name that re-creates it in another process (see `transport`)
    evaluator: ClassVar[None] = None   # a bot judges by itself, not by an evaluator

    def choose(self, position, dice, plays, rng):
        """Ask the wrapped object for its choice."""
        return self.obj.choose(position, dice, plays, rng)

    def pick(self, turn: Turn) -> int:
        """The bot's choice, checked against the legal plays; a failure is a `PolicyError` naming
        the bot."""
        position, plays = turn.position, turn.plays
        try:
            choice = self.obj.choose(position, turn.dice, plays, turn.rng)
        except Exception as exc:
            raise PolicyError(f"policy {self.name!r} raised {type(exc).__name__}: {exc}") from None
        if (isinstance(choice, (int, np.integer)) and not isinstance(choice, bool)
            and 0 <= choice < len(plays)):
            return int(choice)
        for i, p in enumerate(plays):
            if (choice is p or choice == p
                or (type(choice) is type(p.result) and choice == p.result)):
                return i
        raise PolicyError(f"policy {self.name!r} returned {choice!r}, which is not one of the "
                          f"{len(plays)} legal plays of {turn.dice} in "
                          f"{str(position.with_dice(None))!r}")

