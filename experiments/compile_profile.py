"""Where a cold command's compile goes: each kernel's compile time, with and without its callees.

    python experiments/compile_profile.py -- rollout "W:1x14,12 B:1x15 b" --policy random \
        --games 100 --workers 1 -q

runs the `nardy` command in this process with an empty kernel cache (`NUMBA_CACHE_DIR`
a new folder, so numba writes its cache there and the package's own cache is not
read) and prints, for every kernel compiled, its inclusive and exclusive seconds,
the wall time, the CPU time and the size of the cache written. `--keep DIR` uses DIR
as the cache (a second run then shows what a warm run still compiles). `--json`
prints one JSON object instead of the table (experiments/compile_times.py uses it).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path


def _cpu() -> float:
    """CPU seconds of this process and its waited-for children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", help="cache folder to use (default: a new empty one)")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="nardy's arguments after --")
    opts = parser.parse_args()
    args = opts.command[1:] if opts.command[:1] == ["--"] else opts.command
    cache = Path(opts.keep or tempfile.mkdtemp(prefix="nardy-cold-"))
    os.environ["NUMBA_CACHE_DIR"] = str(cache)
    start, cpu0 = time.perf_counter(), _cpu()

    from numba.core import event

    stack: list[list] = []
    rows: dict[str, list[float]] = {}
    signatures: dict[str, list[str]] = {}

    class Log(event.Listener):
        def on_start(self, ev):
            stack.append([time.perf_counter(), 0.0])

        def on_end(self, ev):
            t0, children = stack.pop()
            spent = time.perf_counter() - t0
            if stack:
                stack[-1][1] += spent
            func = getattr((ev.data or {}).get("dispatcher"), "py_func", None)
            name = f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', '?')}"
            row = rows.setdefault(name.replace("nardy_cli.", ""), [0.0, 0.0, 0])
            row[0] += spent
            row[1] += spent - children
            row[2] += 1
            signatures.setdefault(name.replace("nardy_cli.", ""), []).append(
                str((ev.data or {}).get("args")))

    event.register("numba:compile", Log())
    from nardy_cli.commands.cli import cli as nardy

    code = 0
    try:
        nardy.main(args=args, prog_name="nardy", standalone_mode=False)
    except SystemExit as stop:
        code = stop.code or 0
    wall, cpu = time.perf_counter() - start, _cpu() - cpu0
    size = sum(f.stat().st_size for f in cache.rglob("*") if f.is_file())
    top = sorted(rows.items(), key=lambda kv: -kv[1][1])
    if opts.json:
        print(json.dumps({"command": args, "wall": wall, "cpu": cpu, "cache_bytes": size,
                          "compiles": sum(r[2] for r in rows.values()),
                          "compile_s": sum(r[1] for r in rows.values()),
                          "kernels": {k: [round(v[0], 2), round(v[1], 2), v[2]] for k, v in top},
                          "exit": code}))
        return
    print(f"\n{'kernel':<48} {'incl s':>7} {'excl s':>7} {'n':>3}", file=sys.stderr)
    for name, (incl, excl, n) in top[:40]:
        print(f"{name:<48} {incl:7.2f} {excl:7.2f} {n:3d}", file=sys.stderr)
    if os.environ.get("SIGNATURES"):
        for name, sigs in signatures.items():
            if len(sigs) > 1 and name.startswith("kernels"):
                print(name, *sigs, sep="\n   ", file=sys.stderr)
    print(f"compiles: {sum(r[2] for r in rows.values())} kernels, "
          f"{sum(r[1] for r in rows.values()):.1f} s; wall {wall:.1f} s, CPU {cpu:.1f} s, "
          f"cache {size / 1e6:.1f} MB in {cache}", file=sys.stderr)


if __name__ == "__main__":
    main()
