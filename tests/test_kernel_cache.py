"""The kernels' numba cache is dropped when, and only when, a kernel source changes."""

from __future__ import annotations

import importlib
import os
import pkgutil

from numba.core.registry import CPUDispatcher

import nardy_cli.kernels
from nardy_cli.kernels import drop_stale_cache


def _package(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.py").write_text("y = 2\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    drop_stale_cache(tmp_path)  # the stamp of these sources
    (cache / "a.f-1.py311.nbi").write_text("index")
    (cache / "a.f-1.py311.1.nbc").write_text("code")
    return cache


def test_edit_in_any_source_drops_the_cache(tmp_path):
    """Catches a stale cache kept after another kernel file changed (numba checks only a
    function's own file), e.g. a fast path that trusts an old stamp."""
    cache = _package(tmp_path)
    drop_stale_cache(tmp_path)
    assert len(list(cache.glob("*.nb?"))) == 2  # nothing changed: kept
    (tmp_path / "b.py").write_text("y = 3\n")
    drop_stale_cache(tmp_path)
    assert list(cache.glob("*.nb?")) == []


def test_touch_without_change_keeps_the_cache(tmp_path):
    """Catches a check on file times alone, which would recompile every kernel after a checkout."""
    cache = _package(tmp_path)
    os.utime(tmp_path / "a.py", ns=(1, 1))
    drop_stale_cache(tmp_path)
    assert len(list(cache.glob("*.nb?"))) == 2
    drop_stale_cache(tmp_path)
    assert len(list(cache.glob("*.nb?"))) == 2


def test_edit_in_a_folder_the_cache_also_depends_on_drops_it(tmp_path):
    """Catches `training/td.py`'s cached self-play loop kept after a kernel it compiled in changed
    (numba checks only td.py itself): the loop would go on playing by the old chooser."""
    here, kernels = tmp_path / "training", tmp_path / "kernels"
    here.mkdir()
    kernels.mkdir()
    (kernels / "evaluate.py").write_text("x = 1\n")
    cache = _package(here)
    drop_stale_cache(here, also=(kernels,))                 # the stamp of both folders' sources
    (cache / "a.f-1.py311.nbi").write_text("index")
    (cache / "a.f-1.py311.1.nbc").write_text("code")
    drop_stale_cache(here, also=(kernels,))
    assert len(list(cache.glob("*.nb?"))) == 2              # nothing changed: kept
    (kernels / "evaluate.py").write_text("x = 2\n")
    drop_stale_cache(here, also=(kernels,))
    assert list(cache.glob("*.nb?")) == []


def _kernels():
    for info in pkgutil.iter_modules(nardy_cli.kernels.__path__):
        module = importlib.import_module(f"nardy_cli.kernels.{info.name}")
        for name, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher) and obj.__module__ == module.__name__:
                yield f"{info.name}.{name}", obj


def test_leaves_call_only_leaves_inline_or_counted_kernels():
    """Catches a leaf (`jit.leaf`, no reference counts) calling a plain `njit` kernel: numba
    compiles that callee with the leaf's `_nrt=False` when the leaf is the first to need it, and
    the callee then fails to compile if it allocates (`enumerate_plays` did, from an empty cache
    when the first command was a lookahead's reply search)."""
    wrong = []
    for name, kernel in _kernels():
        if kernel.targetoptions.get("_nrt") is not False:
            continue
        names = kernel.py_func.__globals__
        for called in kernel.py_func.__code__.co_names:
            callee = names.get(called)
            if (isinstance(callee, CPUDispatcher) and "_nrt" not in callee.targetoptions
                    and callee.targetoptions.get("inline") != "always"):
                wrong.append(f"{name} -> {called}")
    assert wrong == []
