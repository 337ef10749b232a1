"""Finding policies by name: built-ins, entry points, and `module:attribute`."""

from __future__ import annotations

import importlib
import os
import sys
from importlib.metadata import entry_points

from numba.core.dispatcher import Dispatcher

from ..errors import PolicyError, UnknownPolicyError
from .base import ChoosesPlays, CompiledPolicy, Policy, PythonPolicy
from .builtin import BUILTINS, lookahead_of

ENTRY_POINT_GROUP = "nardy_cli.policies"


def _plugins() -> dict[str, object]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def known_policies() -> dict[str, str]:
    """Every policy name with a one-line description: built-ins first, then plugins."""
    names = {name: p.description for name, p in BUILTINS.items()}
    names["lookahead:NAME"] = "one-ply expectimax over the opponent's 21 rolls, judged by NAME's evaluator"
    names["lookahead2:NAME"] = ("pruned two-ply search with NAME's evaluator (decisions only: no "
                                "whole games)")
    for name, ep in sorted(_plugins().items()):
        names.setdefault(name, f"plugin from {ep.value}")
    return names


def _wrap(name: str, obj: object) -> Policy:
    if isinstance(obj, Policy):
        return obj
    if isinstance(obj, Dispatcher):  # a user's numba evaluator score(board) -> float
        doc = (obj.py_func.__doc__ or "").strip().splitlines()
        return CompiledPolicy(name, -1, doc[0] if doc else "user evaluator (compiled)", evaluator=obj)
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as exc:
            raise PolicyError(f"policy {name!r}: cannot create {obj.__name__}: {exc}") from None
    if not isinstance(obj, ChoosesPlays):
        raise PolicyError(f"policy {name!r} has no choose(position, dice, plays, rng) method")
    doc = (getattr(obj, "__doc__", None) or "").strip().splitlines()
    return PythonPolicy(name, obj, doc[0] if doc else "user policy (Python)")


def _import_user_module(module: str):
    """Import a `module:attr` policy's module, also from the current folder (as docs/policies.md says)."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)  # kept, so worker processes started later can import it too
    return importlib.import_module(module)


def get_policy(name: str) -> Policy:
    """The policy called `name`; raises `PolicyError` listing the known names."""
    if name in BUILTINS:
        return BUILTINS[name]
    if name.startswith("lookahead:"):
        return lookahead_of(get_policy(name.split(":", 1)[1]), name)
    if name.startswith("lookahead2:"):
        from ..search2 import two_ply_policy
        return two_ply_policy(get_policy(name.split(":", 1)[1]), name)
    plugins = _plugins()
    if name in plugins:
        try:
            return _wrap(name, plugins[name].load()).resolvable_as(name)
        except PolicyError:
            raise
        except Exception as exc:
            raise PolicyError(f"policy plugin {name!r} failed to load: {exc}") from None
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            obj = getattr(_import_user_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise PolicyError(f"cannot import policy {name!r}: {exc}") from None
        return _wrap(name, obj).resolvable_as(name)
    known = ", ".join(known_policies())
    raise UnknownPolicyError(f"unknown policy {name!r}; known policies: {known}", name)


def as_policy(obj: object) -> Policy:
    """A policy from a name, a policy value, or any object with a `choose` method."""
    if isinstance(obj, str):
        return get_policy(obj)
    return _wrap(getattr(obj, "name", None) or type(obj).__name__, obj)
