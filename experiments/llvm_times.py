"""Where a cold command's LLVM time goes: each code library's optimization and emission.

    python experiments/llvm_times.py rollout "W:1x14,12 B:1x15 b" --workers 1 --games 200

runs the `nardy` command in this process with an empty kernel cache (`NUMBA_CACHE_DIR` a new
folder unless set) and prints, per library (a kernel and the code linked into it), the seconds
of numba's three LLVM steps: function passes, module passes (after linking the callees) and
emitting machine code; then their totals and the whole run's wall time. Issue 49's third round
used it to find the levels of the game loop that re-optimized and re-emitted their callees
(docs/speed.md: kernels/lazy_code.py and the `stage` kernels).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections import Counter

STEPS = {"_optimize_functions": "function passes", "_optimize_final_module": "module passes",
         "_finalize_specific": "emission"}


def timed(cls, name: str, seconds: Counter) -> None:
    """Wrap `cls.name` to add its run time to `seconds[(step, library)]`."""
    original = getattr(cls, name)

    def wrapper(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return original(self, *args, **kwargs)
        finally:
            seconds[(STEPS[name], self.name.split(".")[-1])] += time.perf_counter() - start
    setattr(cls, name, wrapper)


def main() -> None:
    os.environ.setdefault("NUMBA_CACHE_DIR", tempfile.mkdtemp(prefix="nardy-llvm-"))
    from numba.core import codegen
    seconds: Counter = Counter()
    timed(codegen.CPUCodeLibrary, "_optimize_functions", seconds)
    timed(codegen.CPUCodeLibrary, "_optimize_final_module", seconds)
    timed(codegen.JITCodeLibrary, "_finalize_specific", seconds)
    from nardy_cli.commands.cli import cli
    start = time.perf_counter()
    try:
        cli.main(args=sys.argv[1:], prog_name="nardy", standalone_mode=False)
    except SystemExit:
        pass
    wall = time.perf_counter() - start
    print(f"{'step':16s} {'library':40s} {'s':>6s}")
    for (step, library), s in seconds.most_common(30):
        print(f"{step:16s} {library:40s} {s:6.2f}")
    for step in STEPS.values():
        total = sum(s for (st, _), s in seconds.items() if st == step)
        print(f"total {step}: {total:.2f} s")
    print(f"wall {wall:.1f} s")


if __name__ == "__main__":
    main()
