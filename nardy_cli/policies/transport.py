"""How policies travel to worker processes and Dask workers: by name when they have one.

A policy found by name (`module:attribute` or an entry point) is pickled as that
name alone; each worker resolves it itself, once per process (importing the
module, creating the class), so a bot holding a lock, a model handle or a
connection is never pickled, and its state is per worker.  A policy without a
name is pickled as its fields, which works only for picklable objects (the games
layer checks this before any game starts).
"""

from __future__ import annotations

import copyreg
from dataclasses import fields
from functools import lru_cache

from ..core.errors import PolicyError
from .base import CompiledPolicy, Policy, PythonPolicy
from .registry import get_policy


@lru_cache(maxsize=None)
def policy_by_name(name: str) -> Policy:
    """The policy called `name`, resolved once in this process; a failure says it happened on a
    worker."""
    try:
        return get_policy(name)
    except PolicyError as exc:
        raise PolicyError(f"on a worker process: {exc}") from None


def _reduce(policy: Policy):
    if policy.source is not None:
        return policy_by_name, (policy.source,)
    values = tuple(getattr(policy, f.name) for f in fields(policy))  # type: ignore[arg-type]
    return type(policy), values


for _cls in (CompiledPolicy, PythonPolicy):
    copyreg.pickle(_cls, _reduce)
