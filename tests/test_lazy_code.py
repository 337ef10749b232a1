"""Machine code is emitted only for what Python calls (kernels/lazy_code.py).

A kernel's library is linked into its callers and never emitted on its own; it
is cached as its linkable module alone, and a later process links that module
into a caller it never saw.  Run in child processes with their own cache, so
the first run is cold and the second warm.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import nardy_cli.kernels.jit  # noqa: F401 - installs kernels/lazy_code.py where numba allows
from nardy_cli.kernels import lazy_code

pytestmark = pytest.mark.skipif(not lazy_code.INSTALLED,
                                reason=f"kernels/lazy_code.py is installed only on numba "
                                       f"{lazy_code.TESTED}")


MODULE = '''
import numpy as np
from nardy_cli.kernels.jit import entry, kernel


@kernel
def inner(a, k):
    if k < 0:
        raise ValueError("negative k:", k)
    s = 0.0
    for i in range(a.size):
        s += a[i] * k
    return s


@kernel
def middle(a, k):
    return inner(a, k) + inner(a, k + 1)


@entry
def outer(a, k):
    return middle(a, k) * 2.0


@entry
def other(a, k):
    return middle(a, k) - 1.0


@kernel(stage=True)
def add_one(x):
    return x + 1


@entry
def twice_plus_two(x):
    return add_one(x) * 2
'''

FIRST = '''
import numpy as np
from nardy_cli.kernels.lazy_code import LINK_ONLY
import lazymod
a = np.arange(4.0)
print(lazymod.outer(a, 2))
(lib_outer,) = [c.library for c in lazymod.outer.overloads.values()]
(lib_middle,) = [c.library for c in lazymod.middle.overloads.values()]
(lib_inner,) = [c.library for c in lazymod.inner.overloads.values()]
print(lib_outer._emitted, lib_middle._emitted, lib_inner._emitted)
print(lib_middle.serialize_using_object_code()[1] == LINK_ONLY)
try:
    lazymod.outer(a, -1)
except ValueError as e:
    print("raised", e)
'''

SECOND = '''
import numpy as np
import lazymod
a = np.arange(4.0)
print(lazymod.outer(a, 2))
print(sum(lazymod.outer.stats.cache_hits.values()), sum(lazymod.middle.stats.cache_hits.values()))
print(lazymod.other(a, 2))
try:
    lazymod.other(a, -1)
except ValueError as e:
    print("raised", e)
'''


def run(tmp_path, script: str) -> list[str]:
    """Run `script` in a child Python with `tmp_path` on its path and as its numba cache."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], env=env,
                         capture_output=True, text=True, check=True, timeout=600)
    return out.stdout.splitlines()


def test_only_entries_are_emitted_and_a_link_only_cache_links_into_a_new_caller(tmp_path):
    """Would catch a kernel emitted though nothing calls its code (the compile it costs is what
    lazy_code removes), a link-only cache entry a later caller cannot link (the second process's
    `other` would fail to compile or load), or environments left unset (the exception raised
    through the cached and newly linked code would crash instead of reaching Python)."""
    (tmp_path / "lazymod.py").write_text(MODULE)
    # outer(a, 2) = 2 * (inner(a, 2) + inner(a, 3)) = 2 * (6 * 2 + 6 * 3) = 60
    assert run(tmp_path, FIRST) == [
        "60.0",
        "True False False",          # only the entry Python called has machine code
        "True",                      # the kernel is cached as its linkable module
        "raised ('negative k:', -1)",
    ]
    assert run(tmp_path, SECOND) == [
        "60.0",
        "1 0",                       # outer loaded whole from its object code; middle not needed
        "29.0",                      # other, compiled now, links middle's cached module
        "raised ('negative k:', -1)",
    ]


STAGE = '''
import lazymod
print(lazymod.twice_plus_two(20))
ir = next(iter(lazymod.twice_plus_two.inspect_llvm().values()))
defined = [l for l in ir.splitlines() if l.startswith("define") and "add_one" in l]
called = [l for l in ir.splitlines() if "call" in l and "add_one" in l]
print(len(defined), len(called) > 0)
'''


def test_a_stage_is_linked_into_its_caller_as_it_is(tmp_path):
    """Would catch a stage linked before its caller is optimized (LLVM then inlines a function
    this small, and re-optimizes a large one in every caller: the compile stages remove)."""
    (tmp_path / "lazymod.py").write_text(MODULE)
    assert run(tmp_path, STAGE) == ["42", "1 True"]
