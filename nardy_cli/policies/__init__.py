"""Bot policies and evaluators: how a side picks one of the distinct legal results of its roll.

Every policy is asked the same way, `policy.pick(turn)`.  A `CompiledPolicy` is
an `Evaluator` with a kernel form (the built-in weights, a user's numba
function, the network) and a search depth; the game kernel calls it without
leaving compiled code.  A `PythonPolicy` wraps any object with
`choose(position, dice, plays, rng) -> play`, for users' own bots; games then
run in the Python turn loop, one call per decision.  One registry
(`registry.resolve`) finds every name once per process; policies found by name
travel to worker processes as their name (`transport`).
"""

from . import transport  # registers how policies are pickled: by name when they have one
from .base import CompiledPolicy, Policy, PythonPolicy, Turn
from .evaluator import Evaluator
from .registry import as_policy, get_policy, known_policies, register, resolve

__all__ = ["CompiledPolicy", "Evaluator", "Policy", "PythonPolicy", "Turn", "as_policy",
           "get_policy", "known_policies", "register", "resolve", "transport"]
