"""Speed of `nardy benchmark` and the error-rate table of docs/strength.md, on the shipped database.

`python experiments/error_rates.py [FILE]` (default: the shipped database) measures each policy's
decisions on it repeated to at least 1,500 decisions (the figures of docs/strength.md's
"Error rates against the benchmark database"), then prints the table of error
rates per phase (mean loss ± SE in millipoints, agreement in brackets), the
decisions, the selection bias and its analytic bound, and the paired comparison of each policy with
the next (`benchmark.compare`).
"""

from __future__ import annotations

import dataclasses
import datetime
import math
import time

import numpy as np

from nardy_cli.benchmark.measure import measure_policy
from nardy_cli.benchmark.db import Benchmark, default_benchmark_path, read_benchmark

POLICIES = ("heuristic", "neural", "lookahead:neural", "lookahead2:neural")


def speed(bench: Benchmark, n: int = 1500) -> None:
    """Seconds each policy takes for `n` or more decisions (the database repeated), in this
    process."""
    k = -(-n // len(bench.positions))
    many = Benchmark(bench.settings, tuple(dataclasses.replace(p, index=i)
                                           for i, p in enumerate(list(bench.positions) * k)),
                     bench.path)
    measure_policy(bench, "neural")          # compile and load the network first
    for policy in POLICIES:
        start = time.perf_counter()
        result = measure_policy(many, policy)
        print(f"{policy}: {len(result.decisions)} decisions in {time.perf_counter() - start:.1f} s")


def table(bench: Benchmark) -> None:
    """The markdown table of docs/strength.md."""
    results = {p: measure_policy(bench, p) for p in POLICIES}
    frames = {p: r.frame().set_index("phase") for p, r in results.items()}
    phases = list(frames["neural"].index)
    print(f"\n{datetime.date.today()}: {len(bench.positions)} positions\n")
    print("| policy | " + " | ".join(phases) + " |")
    print("|---|" + "---:|" * len(phases))
    for policy, f in frames.items():
        cells = [f"{f.loc[ph, 'error_mp']:.1f} ± {f.loc[ph, 'error_se_mp']:.1f} "
                 f"({f.loc[ph, 'agreement']:.0%})"
                 for ph in phases]
        print(f"| `{policy}` | " + " | ".join(cells) + " |")
    f = frames["neural"]
    print("| decisions | " + " | ".join(str(int(f.loc[ph, "decisions"])) for ph in phases) + " |")
    print("| selection bias | " + " | ".join(f"+{abs(f.loc[ph, 'bias_mp']):.1f}" for ph in phases)
          + " |")
    bound = np.mean([math.sqrt(2 * math.log(len(p.rolled))) * max(c.diff_se for c in p.rolled)
                     if len(p.rolled) > 1 else 0.0 for p in bench.positions]) * 1000
    print("\nbound on the selection bias (sqrt(2 ln k) x the largest difference SE, mean): "
          f"{bound:.1f} mp")
    print("choices valued at 1-ply: "
          + ", ".join(f"{p} {int(f.loc['all', 'unrolled'])}" for p, f in frames.items()))
    pairs(results)


def pairs(results: dict) -> None:
    """The paired comparisons of each policy with the next (`benchmark.compare`): the mean
    difference ± SE and its 95% interval."""
    from nardy_cli.benchmark.measure import compare
    print("\n| A | B | A − B, all (mp) | 95% interval |\n|---|---|---:|---|")
    for a, b in zip(POLICIES, POLICIES[1:]):
        row = compare(results[a], results[b]).frame().set_index("phase").loc["all"]
        print(f"| `{a}` | `{b}` | {row['diff_mp']:+.1f} ± {row['diff_se_mp']:.1f} | "
              f"[{row['ci95_low_mp']:+.1f}, {row['ci95_high_mp']:+.1f}] |")


if __name__ == "__main__":
    import sys
    bench = read_benchmark(sys.argv[1] if len(sys.argv) > 1 else default_benchmark_path())
    speed(bench)
    table(bench)
