"""Every trained network's error rate on the benchmark database, paired against the shipped one.

`python benchmarks/network_benchmark.py [--runs DIR] [--csv FILE]` plays each
network found under DIR (default `benchmarks/training-runs/*/{best,checkpoint}.npz`)
as a 0-ply `neural` policy through `nardy benchmark`'s measurement, and prints,
per network, its error rate (millipoints ± SE) and agreement, and the mean
per-decision difference of its loss from the shipped network's on the same
decisions, with that difference's SE: the two are measured on the same
positions against the same rollouts, so the paired SE is much smaller than
either error rate's (docs/training.md, "Choosing a network with the benchmark").
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from pathlib import Path

import numpy as np

from nardy_cli.benchmark import MILLI, measure_policy
from nardy_cli.benchmark_db import default_benchmark_path, read_benchmark
from nardy_cli.network import load_network
from nardy_cli.policies.builtin import NEURAL

RUNS = Path(__file__).parent / "training-runs"


def losses(bench, policy) -> np.ndarray:
    """The policy's loss on every decision of `bench`, in database order (millipoints)."""
    return np.array([d.loss for d in measure_policy(bench, policy).decisions]) * MILLI


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=Path, default=RUNS, help="folder of training runs")
    ap.add_argument("--csv", type=Path, default=None, help="also write the table here")
    args = ap.parse_args()
    bench = read_benchmark(default_benchmark_path())
    shipped = losses(bench, NEURAL)
    n = len(shipped)
    rows = [("shipped", shipped.mean(), shipped.std(ddof=1) / math.sqrt(n), 0.0, 0.0)]
    for path in sorted(args.runs.glob("*/*.npz")):
        if path.stem not in ("best", "checkpoint"):
            continue
        name = f"{path.parent.name}/{path.stem}"
        try:
            net = load_network(path)
        except ValueError as exc:        # a value network for another preset, an old format
            print(f"{name}: skipped ({exc})", flush=True)
            continue
        mine = losses(bench, dataclasses.replace(NEURAL, name=name, network=net))
        diff = mine - shipped
        rows.append((name, mine.mean(), mine.std(ddof=1) / math.sqrt(n), diff.mean(),
                     diff.std(ddof=1) / math.sqrt(n)))
        print(f"{name}: {mine.mean():.2f} ± {rows[-1][2]:.2f} mp, "
              f"minus shipped {diff.mean():+.2f} ± {rows[-1][4]:.2f}", flush=True)
    print()
    print("| network | error rate (mp) | minus the shipped network's, paired (mp) |")
    print("|---|---|---|")
    for name, mean, se, dmean, dse in rows:
        print(f"| {name} | {mean:.2f} ± {se:.2f} | {dmean:+.2f} ± {dse:.2f} |")
    if args.csv is not None:
        import pandas as pd
        pd.DataFrame(rows,
                     columns=["network", "error_mp", "se", "minus_shipped", "paired_se"]).to_csv(
            args.csv, index=False)


if __name__ == "__main__":
    main()
