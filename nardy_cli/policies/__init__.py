"""Bot policies: how a side picks one of the distinct legal results of its roll.

Every policy is asked the same way, `policy.pick(turn)`.  A `CompiledPolicy` is
a numba evaluator that the game kernel calls without leaving compiled code (the
built-ins, users' numba evaluators, the network).  A `PythonPolicy` wraps any
object with `choose(position, dice, plays, rng) -> play`, for users' own bots;
games then run in the Python turn loop, one call per decision.  Policies found
by name travel to worker processes as their name (`transport`).
"""

from . import transport  # registers how policies are pickled: by name when they have one
from .base import CompiledPolicy, Policy, PythonPolicy, Turn
from .registry import as_policy, get_policy, known_policies

__all__ = ["CompiledPolicy", "Policy", "PythonPolicy", "Turn", "as_policy", "get_policy", "known_policies", "transport"]
