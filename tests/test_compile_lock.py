"""The compile lock (nardy_cli/core/compile_lock.py): a kernel two worker processes want at once
compiles in one of them; the other waits and loads it from the cache.

Bug it catches: a lock that does not look in the cache again once it holds it
(or no lock at all) lets the second process compile its own copy, which is what
made a cold `make test` compile the game loop two or three times over.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

KERNEL = """
from numba import njit

@njit(cache=True)
def triangle(n):
    s = 0
    for i in range(n):
        s += i
    return s
"""

# A: announce the compile (flag file), hold it 2 s (inside the lock, before the save), run.
# B: start once A is compiling, run, say whether it compiled.
RUNNER = """
import sys, time, os
sys.path[:0] = [{root!r}, {tmp!r}]
from nardy_cli.core.compile_lock import install
install()
from numba.core import event
flag = {flag!r}
compiled = []

class Hold(event.Listener):
    def on_start(self, ev):
        compiled.append(1)
        open(flag, "w").close()
    def on_end(self, ev):
        if sys.argv[1] == "A":
            time.sleep(2.0)

event.register("numba:compile", Hold())
if sys.argv[1] == "B":
    while not os.path.exists(flag):
        time.sleep(0.02)
import kernel_mod
assert kernel_mod.triangle(10) == 45
print(sys.argv[1], "compiled" if compiled else "loaded")
"""


def test_a_kernel_two_processes_want_at_once_compiles_once(tmp_path):
    (tmp_path / "kernel_mod.py").write_text(KERNEL)
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(RUNNER.format(root=str(ROOT), tmp=str(tmp_path),
                                                    flag=str(tmp_path / "compiling"))))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    a = subprocess.Popen([sys.executable, str(script), "A"], env=env, stdout=subprocess.PIPE,
                         text=True)
    b = subprocess.Popen([sys.executable, str(script), "B"], env=env, stdout=subprocess.PIPE,
                         text=True)
    deadline = time.time() + 120
    out_a = a.communicate(timeout=max(1, deadline - time.time()))[0]
    out_b = b.communicate(timeout=max(1, deadline - time.time()))[0]
    assert (a.returncode, b.returncode) == (0, 0)
    assert out_a.strip() == "A compiled"
    assert out_b.strip() == "B loaded"
