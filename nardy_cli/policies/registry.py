"""The one registry: every policy and evaluator name resolved once per process.

A name is, in this order: a built-in (`builtin.BUILTINS`), one registered in
this process (`register`), `lookahead:NAME` (NAME's evaluator one ply deeper),
an entry point of the group `nardy_cli.policies` (a plugin), or
`module:attribute`.  What a name gives is a `Policy` (a built-in, a bot with
`choose`, a user's numba function) or, for an object with only
`equities(boards, white, rules)`, an `Evaluator` with a Python form alone (review
can use it; games cannot).  An unknown name is an `UnknownPolicyError` listing the
known names.  Rollouts, duels, review, eval/analyze and the benchmark all ask here.
"""

from __future__ import annotations

import importlib
import os
import sys
from functools import lru_cache
from importlib.metadata import entry_points

from ..core.errors import PolicyError, UnknownPolicyError
from .base import ChoosesPlays, CompiledPolicy, Policy, PythonPolicy
from .builtin import BUILTINS, lookahead_of
from .evaluator import Evaluator, UserFunction

ENTRY_POINT_GROUP = "nardy_cli.policies"
_REGISTERED: dict[str, object] = {}


@lru_cache(maxsize=1)
def _plugins() -> dict[str, object]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def register(name: str, obj: object) -> None:
    """Make `obj` (a policy, a bot, a numba function, an evaluator, a class) known as `name`."""
    _REGISTERED[name] = obj
    resolve.cache_clear()


def known_policies() -> dict[str, str]:
    """Every name with a one-line description: built-ins, then registered names and plugins."""
    names = {name: p.description for name, p in BUILTINS.items()}
    names["lookahead:NAME"] = ("one-ply expectimax over the opponent's 21 rolls, judged by NAME's "
                               "evaluator")
    names["lookahead2:NAME"] = ("pruned two-ply search with NAME's evaluator (decisions only: no "
                                "whole games)")
    for name, obj in _REGISTERED.items():
        names.setdefault(name, _first_line(obj) or "registered in this process")
    for name, ep in sorted(_plugins().items()):
        names.setdefault(name, f"plugin from {ep.value}")
    return names


def _first_line(obj: object) -> str:
    doc = (getattr(obj, "__doc__", None) or "").strip().splitlines()
    return doc[0] if doc else ""


def wrap(name: str, obj: object) -> Policy | Evaluator:
    """`obj` as what it can be: a policy, or an evaluator that only values results (`equities`)."""
    if isinstance(obj, Policy):
        return obj
    if isinstance(obj, Evaluator):
        return CompiledPolicy(name, obj.description, obj) if obj.kernel is not None else obj
    from numba.core.dispatcher import Dispatcher
    if isinstance(obj, Dispatcher):  # a user's numba evaluator score(board) -> float
        description = _first_line(obj.py_func) or "user evaluator (compiled)"
        evaluator = Evaluator(name, description, UserFunction(obj, name))
        return CompiledPolicy(name, description, evaluator)
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as exc:
            raise PolicyError(f"policy {name!r}: cannot create {obj.__name__}: {exc}") from None
    if isinstance(obj, ChoosesPlays):
        return PythonPolicy(name, obj, _first_line(obj) or "user policy (Python)")
    if callable(getattr(obj, "equities", None)):
        description = _first_line(obj) or "user evaluator (Python)"
        return Evaluator(getattr(obj, "name", None) or name, description, python=obj)
    raise PolicyError(f"policy {name!r} has no choose(position, dice, plays, rng) method "
                      "(nor equities(boards, white, rules), as an evaluator)")


def _import_user_module(module: str):
    """Import a `module:attr` policy's module, also from the current folder (docs/policies.md)."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)  # kept, so worker processes started later can import it too
    return importlib.import_module(module)


@lru_cache(maxsize=None)
def resolve(name: str) -> Policy | Evaluator:
    """What `name` names, found once per process; `UnknownPolicyError` lists the known names."""
    if name in BUILTINS:
        return BUILTINS[name]
    if name in _REGISTERED:
        return _named(wrap(name, _REGISTERED[name]), name)
    if name.startswith("lookahead:"):
        return lookahead_of(get_policy(name.split(":", 1)[1]), name)
    if name.startswith("lookahead2:"):
        from .two_ply import two_ply_policy
        return two_ply_policy(get_policy(name.split(":", 1)[1]), name)
    plugins = _plugins()
    if name in plugins:
        try:
            obj = plugins[name].load()
        except Exception as exc:
            raise PolicyError(f"policy plugin {name!r} failed to load: {exc}") from None
        return _named(wrap(name, obj), name)
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            obj = getattr(_import_user_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise PolicyError(f"cannot import policy {name!r}: {exc}") from None
        return _named(wrap(name, obj), name)
    known = ", ".join([*known_policies(), "module:attribute"])
    raise UnknownPolicyError(f"unknown policy {name!r}; known policies: {known}", name)


def _named(found: Policy | Evaluator, name: str) -> Policy | Evaluator:
    """A policy found by name travels to other processes as that name (`transport`)."""
    return found.resolvable_as(name) if isinstance(found, Policy) else found


def get_policy(name: str) -> Policy:
    """The policy called `name`; raises `PolicyError` (`UnknownPolicyError`: the known names)."""
    found = resolve(name)
    if isinstance(found, Evaluator):
        raise PolicyError(f"policy {name!r} is an evaluator with no choose(position, dice, plays, "
                          "rng) method: it can review games but not play them")
    return found


def as_policy(obj: object) -> Policy:
    """A policy from a name, a policy value, or any object with a `choose` method."""
    if isinstance(obj, str):
        return get_policy(obj)
    found = wrap(getattr(obj, "name", None) or type(obj).__name__, obj)
    if isinstance(found, Evaluator):
        raise PolicyError(f"policy {found.name!r} has no choose(position, dice, plays, rng) method")
    return found
