"""Every trained network's error rate on the benchmark database, paired against the shipped one.

`python experiments/network_benchmark.py [--runs DIR] [--csv FILE]` plays each
network found under DIR (default `experiments/training-runs/*/{best,checkpoint}.npz`)
as a 0-ply `neural` policy through `nardy benchmark`'s measurement, and prints,
per network, its error rate (millipoints ± SE) and agreement, and the mean
per-decision difference of its loss from the shipped network's on the same
decisions, with that difference's SE: the two are measured on the same
positions against the same rollouts, so the paired SE is much smaller than
either error rate's (docs/training.md, "Choosing a network with the benchmark").
"""

from __future__ import annotations

import argparse
from pathlib import Path

from nardy_cli.benchmark.measure import compare, measure_policy
from nardy_cli.benchmark.db import default_benchmark_path, read_benchmark
from nardy_cli.core.errors import NetworkError
from nardy_cli.policies.network import load_network
from nardy_cli.policies.builtin import NEURAL, network_policy

RUNS = Path(__file__).parent / "training-runs"


def overall(result) -> tuple[float, float]:
    """A measurement's error rate over all decisions and its SE (millipoints)."""
    row = result.frame().set_index("phase").loc["all"]
    return float(row["error_mp"]), float(row["error_se_mp"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=Path, default=RUNS, help="folder of training runs")
    ap.add_argument("--csv", type=Path, default=None, help="also write the table here")
    args = ap.parse_args()
    bench = read_benchmark(default_benchmark_path())
    shipped = measure_policy(bench, NEURAL)
    rows = [("shipped", *overall(shipped), 0.0, 0.0)]
    for path in sorted(args.runs.glob("*/*.npz")):
        if path.stem not in ("best", "checkpoint"):
            continue
        name = f"{path.parent.name}/{path.stem}"
        try:
            net = load_network(path)
        except NetworkError as exc:        # an old format, a damaged file
            print(f"{name}: skipped ({exc})", flush=True)
            continue
        mine = measure_policy(bench, network_policy(name, net))
        paired = compare(mine, shipped).frame().set_index("phase").loc["all"]
        rows.append((name, *overall(mine), float(paired["diff_mp"]), float(paired["diff_se_mp"])))
        print(f"{name}: {rows[-1][1]:.2f} ± {rows[-1][2]:.2f} mp, "
              f"minus shipped {rows[-1][3]:+.2f} ± {rows[-1][4]:.2f}", flush=True)
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
