"""Bot policies: how a side picks one of the distinct legal results of its roll.

Two kinds exist.  A `CompiledPolicy` is a numba evaluator that the game kernel
calls without leaving compiled code (the built-ins).  A `PythonPolicy` wraps any
object with `choose(position, dice, plays, rng) -> play`, for users' own bots;
rollouts then drive the game from Python, one call per decision.
"""

from .base import CompiledPolicy, Policy, PythonPolicy
from .registry import as_policy, get_policy, known_policies

__all__ = ["CompiledPolicy", "Policy", "PythonPolicy", "as_policy", "get_policy", "known_policies"]
