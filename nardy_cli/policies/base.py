"""What a policy is: a description of how a side picks one of the distinct legal results of its roll.

Every policy is asked the same way, `policy.pick(turn) -> index into turn.plays`.
Two kinds exist.  A `CompiledPolicy` (a built-in evaluator, a user's numba
evaluator, the network) also runs inside the compiled game loop (`in_kernel`), so
whole games never leave compiled code; a `PythonPolicy` wraps any object with
`choose(position, dice, plays, rng) -> play` and runs in the Python turn loop.
Callers ask a policy what it is (`evaluator_name`, `has_evaluator`, `is_random`,
`lookahead`, `static_scorer`) rather than test its class or kind code.

A policy found by name (`module:attribute` or an entry point) remembers that
name as its `source`; `transport` then pickles it as the name alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from ..errors import PolicyError
from ..kernels.board import kernel_rules
from ..kernels.evaluate import (HEURISTIC, N_WEIGHTS, NEURAL, RACER, RANDOM, EvalArgs,
                                choice_scratch, choose_play, opponent_terms, static_score)

if TYPE_CHECKING:
    from ..kernels.movegen import Workspace
    from ..outcomes import Valuation
    from ..position import Position
    from ..rules import Rules


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
    scratch: Workspace
    choice: tuple

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
    lookahead = False                    # True: searches one ply deeper than its evaluator (`lookahead:NAME`)

    def pick(self, turn: Turn) -> int:
        """The index in `turn.plays` of the play this policy makes."""
        raise NotImplementedError

    @property
    def evaluator_name(self) -> str | None:
        """The built-in evaluator it judges results by ('racer', 'heuristic', 'neural'), or None."""
        return None

    @property
    def has_evaluator(self) -> bool:
        """True when its evaluator gives outcome probabilities (heuristic, neural), as truncation and VR need."""
        return self.evaluator_name in OUTCOME_EVALUATORS

    @property
    def is_random(self) -> bool:
        """True for the uniform random policy, whose own bear-off is what its rollouts measure."""
        return False

    def static_scorer(self) -> CompiledPolicy | None:
        """The compiled policy whose 0-ply scores rank this policy's results, or None (random, Python bots)."""
        return None

    def resolvable_as(self, name: str) -> "Policy":
        """This policy, sent to other processes as `name` from now on (see `transport`)."""
        return replace(self, source=name)  # type: ignore[type-var]


@dataclass(frozen=True, eq=True)
class CompiledPolicy(Policy):
    """A policy the game kernel runs itself: a built-in evaluator kind and its weights,
    or a user's numba `evaluator(board) -> float` of the board after the mover's play.

    `weights` may be any length (a tuple or a float64 array): the kernel gets them
    zero-padded to at least `N_WEIGHTS`.
    """

    name: str
    kind: int
    description: str
    weights: Any = field(default=(0.0,) * N_WEIGHTS)
    lookahead: bool = False
    evaluator: Any = None   # a user's numba function score(board) -> float, or None for a built-in
    network: Any = None     # the neural kind's `Network`; None means the shipped one
    single: bool = False    # the neural kind scores a turn's results in single precision (`Network.kernel_params`)
    source: str | None = None   # the name that re-creates it in another process (see `transport`)

    in_kernel: ClassVar[bool] = True

    @property
    def evaluator_name(self) -> str | None:
        """The built-in evaluator it judges results by; None for `random` and a user's function."""
        return EVALUATOR_NAMES.get(self.kind) if self.evaluator is None else None

    @property
    def is_random(self) -> bool:
        """True for the uniform random policy."""
        return self.evaluator is None and self.kind == RANDOM

    def static_scorer(self) -> CompiledPolicy | None:
        """Itself: its `static_scores` rank results at 0 ply (None for `random`, which scores nothing)."""
        return None if self.is_random else self

    def static_scores(self, boards, mover_white: bool, rules=None, valuation=None) -> np.ndarray:
        """Its evaluator's 0-ply score of each mover-relative board just after the mover's play (higher: better).

        The network scores by `valuation` (money under `rules` when None); the other evaluators ignore it.
        """
        if self.evaluator is not None:
            return np.array([float(self.evaluator(board)) for board in boards])
        if self.is_random:
            raise PolicyError(f"policy {self.name!r} scores no results")
        from ..outcomes import money_valuation
        from ..rules import PRESETS
        scratch = choice_scratch()
        params = self.kernel_params(rules)
        values = (valuation or money_valuation(rules or PRESETS["federation"])).kernel_values()
        scores = np.empty(len(boards))
        for i, board in enumerate(boards):
            opponent_terms(board, scratch.opp)
            scores[i] = static_score(board, self.kind, params, values, mover_white, scratch)
        return scores

    def resolvable_as(self, name: str) -> "CompiledPolicy":
        """This policy, pickled as `name` from now on; built-ins are plain data and pickle as they are."""
        return replace(self, source=name) if self.evaluator is not None else self

    def weight_array(self, rules=None) -> np.ndarray:
        """The kernel's parameter vector: weights padded to the fixed length, or the network under `rules`
        (its last-roll option)."""
        if self.kind == NEURAL:
            from ..network import default_network
            from ..rules import PRESETS
            net = self.network if self.network is not None else default_network()
            return net.kernel_params(rules if rules is not None else PRESETS["federation"], single=self.single)
        weights = np.asarray(self.weights, dtype=np.float64).ravel()
        w = np.zeros(max(N_WEIGHTS, weights.size), dtype=np.float64)
        w[: weights.size] = weights
        return w

    @property
    def kernel_kind(self) -> int:
        """Its kind code in the game kernel: the built-in evaluator's, or `kernels.user.USER` for a user's function."""
        if self.evaluator is None:
            return self.kind
        from ..kernels.user import USER
        return USER

    def kernel_evaluator(self):
        """Its evaluator as the game kernel's first-class function argument (`no_evaluator` for a built-in)."""
        from ..kernels import user
        if self.evaluator is None:
            return user.no_evaluator()
        try:
            return user.first_class(self.evaluator)
        except Exception as exc:   # numba's typing and lowering errors have no common base
            lines = [line for line in str(exc).splitlines() if line.strip() and not line.startswith("Failed in")]
            raise PolicyError(f"policy {self.name!r}: its evaluator cannot score a board (int8[24] -> float): "
                              f"{lines[0] if lines else type(exc).__name__}") from None

    def pick(self, turn: Turn) -> int:
        """The kernel's choice among the turn's results (same chooser, same random stream)."""
        if self.evaluator is not None:
            from ..kernels.user import best_by
            return int(best_by(turn.boards, len(turn.plays), self.kernel_evaluator()))
        rules = turn.rules
        judge = EvalArgs(self.kind, self.kernel_params(rules), turn.valuation.kernel_values())
        return int(choose_play(turn.boards.copy(), len(turn.plays), judge, self.lookahead,
                               turn.rstate, turn.position.turn == "w", kernel_rules(rules),
                               turn.scratch.arrays(), turn.choice))

    def kernel_params(self, rules) -> np.ndarray:
        """`weight_array(rules)`, computed once per rules (the network's vector is not free)."""
        cached = self.__dict__.get("_params_cache")
        if cached is None or cached[0] is not rules:
            cached = (rules, self.weight_array(rules))
            object.__setattr__(self, "_params_cache", cached)
        return cached[1]


EVALUATOR_NAMES = {RACER: "racer", HEURISTIC: "heuristic", NEURAL: "neural"}
"""The built-in evaluators by kernel kind code (`random` has none)."""

OUTCOME_EVALUATORS = ("heuristic", "neural")
"""The evaluators whose scores are outcome probabilities."""


@dataclass(frozen=True)
class PythonPolicy(Policy):
    """A user's bot: any object with `choose(position, dice, plays, rng)`."""

    name: str
    obj: Any
    description: str = "user policy (Python)"
    source: str | None = None   # the name that re-creates it in another process (see `transport`)

    def choose(self, position, dice, plays, rng):
        """Ask the wrapped object for its choice."""
        return self.obj.choose(position, dice, plays, rng)

    def pick(self, turn: Turn) -> int:
        """The bot's choice, checked against the legal plays; a failure is a `PolicyError` naming the bot."""
        position, plays = turn.position, turn.plays
        try:
            choice = self.obj.choose(position, turn.dice, plays, turn.rng)
        except Exception as exc:
            raise PolicyError(f"policy {self.name!r} raised {type(exc).__name__}: {exc}") from None
        if isinstance(choice, (int, np.integer)) and not isinstance(choice, bool) and 0 <= choice < len(plays):
            return int(choice)
        for i, p in enumerate(plays):
            if choice is p or choice == p or (type(choice) is type(p.result) and choice == p.result):
                return i
        raise PolicyError(f"policy {self.name!r} returned {choice!r}, which is not one of the "
                          f"{len(plays)} legal plays of {turn.dice} in {str(position.with_dice(None))!r}")

