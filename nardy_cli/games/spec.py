"""What a batch of games is: the position, rules, the two policies, the seed, and how the games are
cut."""

from __future__ import annotations

import pickle
from collections import abc
from dataclasses import dataclass
from typing import Sequence

from ..core.errors import PolicyError
from ..core.limits import MAX_GAMES  # noqa: F401 (the games layer's name for it)
from ..core.outcomes import Valuation
from ..core.position import Position
from ..core.rules import Rules
from ..match.cube import CubeBots
from ..match.stakes import MONEY, Stakes
from ..policies import Policy, as_policy
from .scoring import Scoring

CHUNK = 1296          # games per job: fixed, so results never depend on the worker count
MAX_PLIES = 20000     # a game still running after this many plies counts as unfinished
DEFAULT_SEED = 20261129


@dataclass(frozen=True)
class GameSpec:
    """Everything a worker needs to play games from one position (picklable: Python bots travel by
    name)."""

    position: Position
    rules: Rules
    white: Policy
    black: Policy
    seed: int
    stratify: bool
    scoring: Scoring = Scoring(exact_bearoff=False, vr=False)
    # what the games are played for: money or a match score (the policies choose by its values),
    # and the cube, with which the games are played (`games.cube_loop`) when the stakes have one
    stakes: Stakes = MONEY
    # how each side uses the cube when the stakes have one
    cube_bots: CubeBots = CubeBots()

    @property
    def values(self) -> Valuation:
        """The valuation the games are played and scored by: the stakes' under `rules`."""
        return self.stakes.valuation(self.rules)

    @property
    def with_cube(self) -> bool:
        """True when the games are played with the cube (the stakes have one)."""
        return self.stakes.cube is not None

    @property
    def in_kernel(self) -> bool:
        """True when both sides are compiled policies, so whole games run in the compiled loop."""
        return self.white.in_kernel and self.black.in_kernel


class Chunks(abc.Sequence):
    """The fixed game ranges [lo, hi) that `games` games are cut into, each made when asked for: a
    billion games' ranges take no memory."""

    def __init__(self, games: int, size: int = CHUNK) -> None:
        self.games, self.size = games, size

    def __len__(self) -> int:
        return -(-self.games // self.size)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return i * self.size, min((i + 1) * self.size, self.games)

    def __eq__(self, other) -> bool:
        return list(self) == list(other) if isinstance(other, (list, Chunks)) else NotImplemented

    def __repr__(self) -> str:
        return f"Chunks({self.games}, {self.size})"


def chunks(games: int, size: int = CHUNK) -> Chunks:
    """The fixed game ranges [lo, hi) that `games` games are cut into (a lazy sequence)."""
    return Chunks(games, size)


class Jobs(abc.Sequence):
    """Jobs made from a sequence when asked for: `Jobs(ranges, lambda r: job)` (a long run's jobs
    take no memory)."""

    def __init__(self, items: Sequence, make) -> None:
        self.items, self.make = items, make

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.make(item) for item in self.items[i]]
        return self.make(self.items[i])


def job_size(games: int, workers: int, size: int = CHUNK) -> int:
    """Games per job: `size`, halved (down to size / 16) while `games` would give fewer jobs than
    workers.

    Each size divides `size`, so the ordered prefix of jobs still passes every
    multiple of `size`, where stop rules look (a short run of a slow policy then
    uses every worker, and its results do not depend on the worker count).
    """
    while size % 2 == 0 and size > CHUNK // 16 and -(-games // size) < workers:
        size //= 2
    return size


def policy_pair(policies: str | Policy | Sequence[str | Policy]) -> tuple[Policy, Policy]:
    """(White's, Black's) policy from one policy for both sides or a pair, each by name or
    object."""
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        policies = (policies, policies)
    if len(policies) != 2:
        raise PolicyError("policies must be one policy or a (white, black) pair")
    pair = as_policy(policies[0]), as_policy(policies[1])
    for p in pair:
        if not getattr(p, "plays_games", True):     # `search2.TwoPlyPolicy`
            raise PolicyError(f"policy {p.name!r} searches two plies a decision, too slow for "
                              "whole games: use it in eval, review or benchmark")
    return pair


def ensure_portable(policies: Sequence[Policy]) -> None:
    """Raise `PolicyError`, before any game, for a policy that cannot be sent to another process."""
    for policy in policies:
        try:
            pickle.dumps(policy)
        except Exception as exc:
            raise PolicyError(
                f"policy {policy.name!r} cannot be sent to worker processes "
                f"({type(exc).__name__}: {exc}): "
                "pass it by name ('module:attribute' or an entry point) so each worker "
                "creates its own, or use workers=1") from None
