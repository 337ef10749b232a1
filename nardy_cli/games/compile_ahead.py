"""The second core's share of a cold game loop's compile: the network's turn pass.

numba compiles one function at a time, on one core, and a game loop's compile
is one tree: the loop, the game, the turn step, the picker, the network's turn
pass. The turn pass (`turnpass.turn_scores`, about a third of a cold neural
rollout's compile) is typed from the scratch the loop makes and the arrays Python
passes, so another process can compile it without the loop: `pickers.TURN_PASSES`
holds, for each network picker, a kernel making exactly the picker's calls.

When a game loop that a network side plays is about to compile (its signature is
in neither memory nor the kernel cache), `start_helper` sends the turn pass's
signature to a helper process (this module's `main`) and returns at once. The
helper compiles and caches the turn pass while this process compiles the rest of
the loop; the compile lock (`core/compile_lock.py`) makes whichever reaches the
turn pass second wait for it and load it, so it is compiled once either way, and
a helper that starts late only costs its own CPU. `stop_helper` ends the helper
once the loop is compiled. No helper starts on one core, or with
`NARDY_COMPILE_AHEAD=0` in the environment. Nothing here changes a result:
the loop's code is the same whichever process compiled its parts.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Sequence

from ..kernels import game, pickers


def _network_picker(args: Sequence) -> type | None:
    """The class of the first network picker among a game loop's `args` (None: no side picks by
    the network)."""
    return next((type(p) for a in args if type(a) is tuple for p in a
                 if type(p) in pickers.TURN_PASSES), None)


def plan(args: Sequence) -> tuple[str, tuple] | None:
    """(name of the network picker, the signature of its turn pass) of a game loop called with
    `args`, or None when no side picks by the network."""
    setup = next((a for a in args if isinstance(a, game.GameSetup)), None)
    sides = next((a for a in args if isinstance(a, game.SidePolicies)), None)
    picker = _network_picker(args)
    if setup is None or sides is None or picker is None:
        return None
    probe = pickers.TURN_PASSES[picker]
    values = (sides.params, sides.values, setup.rules, True)
    return picker.__name__, tuple(probe.typeof_pyval(v) for v in values)


def compile_turn_pass(picker: str, sig: tuple) -> None:
    """Compile (or load) the turn pass of the network picker class named `picker` for `sig`."""
    next(p for cls, p in pickers.TURN_PASSES.items() if cls.__name__ == picker).compile(sig)


def enabled() -> bool:
    """Whether a helper may start: this process may run on two cores or more, and the environment
    does not say `NARDY_COMPILE_AHEAD=0`."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) > 1 and os.environ.get("NARDY_COMPILE_AHEAD", "1") != "0"


def is_cached(dispatcher, args: Sequence) -> bool:
    """Whether `dispatcher` called with `args` runs without compiling: its signature is compiled
    in this process or in the kernel cache (a cache that cannot be read counts as cached: no
    helper then)."""
    try:
        sig = tuple(dispatcher.typeof_pyval(a) for a in args)
        if sig in dispatcher.overloads:
            return True
        cache = dispatcher._cache
        key = cache._index_key(sig, dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:
        return True


def start_helper(loop, args: Sequence) -> subprocess.Popen | None:
    """The helper compiling the network turn pass of `loop` called with `args`, started when that
    loop would compile; None when it is cached or no side picks by the network."""
    # the cheap checks first: a warm run's every chunk passes here
    if not enabled() or _network_picker(args) is None or is_cached(loop, args):
        return None
    found = plan(args)
    if found is None:
        return None
    from ..core import compile_lock
    compile_lock.install()
    # this very nardy, wherever it was imported from
    root = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    helper = subprocess.Popen([sys.executable, "-c", f"from {__name__} import main; main()"],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=path))
    try:
        helper.stdin.write(pickle.dumps(found))
        helper.stdin.close()
    except OSError:         # the helper died at once: this process compiles it all
        pass
    return helper


def stop_helper(helper: subprocess.Popen | None) -> None:
    """End the helper (its part is cached by now, or no longer needed) and reap it."""
    if helper is not None and helper.poll() is None:
        helper.terminate()
        helper.wait()


def main() -> None:
    """The helper: compile the turn pass of the picker and signature read from stdin."""
    from ..core import compile_lock
    compile_lock.install()
    compile_turn_pass(*pickle.loads(sys.stdin.buffer.read()))
