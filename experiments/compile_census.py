"""Where a cold run's compile time goes, by kernel, over every process it started.

    rm -f /tmp/census.log
    export NARDY_COMPILE_CENSUS=/tmp/census.log PYTHONPATH=experiments/census
    NUMBA_CACHE_DIR=$(mktemp -d) nardy rollout start --games 100   # or a fresh clone's .ci/run
    python experiments/compile_census.py /tmp/census.log [--top 40]

prints the total exclusive compile CPU (each kernel's own compile, without its callees'), then the
kernels by it: seconds, compiles (one per signature and process that compiled it), the running
share.  Issue 49's sixth round used it on a cold test suite (docs/speed.md).
"""

from __future__ import annotations

import argparse
import collections


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log")
    ap.add_argument("--top", type=int, default=40)
    opts = ap.parse_args()
    seconds: collections.Counter = collections.Counter()
    compiles: collections.Counter = collections.Counter()
    with open(opts.log) as log:
        for line in log:
            _, name, own, *_ = line.rstrip("\n").split("\t")
            name = name.replace("nardy_cli.", "")
            seconds[name] += float(own)
            compiles[name] += 1
    total = sum(seconds.values())
    print(f"exclusive compile CPU {total:.1f} s in {sum(compiles.values())} compiles")
    running = 0.0
    for name, s in seconds.most_common(opts.top):
        running += s
        print(f"{s:7.1f} s {compiles[name]:4d} {100 * running / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
