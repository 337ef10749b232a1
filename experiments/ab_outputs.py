"""Every kind of game loop's output, byte for byte, to compare two versions of the kernels.

    PYTHONPATH=/path/to/other/checkout python experiments/ab_outputs.py OUT_DIR

runs each command below in this process (click's runner) with the `nardy_cli` that Python
finds first, and writes its stdout to OUT_DIR/<name>.txt; `diff -r` two such folders. Issue 49
(compile only what a command uses) used it to check that reshaping the kernels changed no figure.
"""

from __future__ import annotations

import sys
from pathlib import Path

POS = "W:1x14,12 B:1x15 b"
MID = "W:1x8,2,8,10,16,17,18,24 B:1x6,3,7,8,9,10,11,15,16,18 w"
CASES = {
    "random": ["rollout", POS, "--policy", "random", "--games", "500", "--seed", "5"],
    "neural": ["rollout", POS, "--games", "200", "--seed", "5"],
    "neural-workers": ["rollout", MID, "--games", "200", "--seed", "6", "--workers", "2"],
    "lookahead": ["rollout", POS, "--policy", "lookahead:neural", "--games", "24", "--seed", "5"],
    "lookahead-heuristic": ["rollout", MID, "--policy", "lookahead:heuristic", "--games", "40"],
    "truncate": ["rollout", MID, "--policy", "heuristic", "--truncate", "10", "--games", "300"],
    "truncate-neural-vr": ["rollout", MID, "--truncate", "6", "--vr", "--games", "100"],
    "racer": ["rollout", POS, "--policy", "racer", "--games", "300"],
    "mixed": ["rollout", MID, "--white-policy", "neural", "--black-policy", "heuristic",
              "--games", "200"],
    "no-exact": ["rollout", MID, "--no-exact-bearoff", "--games", "100"],
    "duel": ["duel", "neural", "heuristic", "--games", "100", "--seed", "3"],
    "duel-random": ["duel", "random", "racer", "--games", "300", "--seed", "3"],
    "analyze": ["analyze", "start", "--dice", "6-5", "--no-book", "--games", "72"],
    "cube-money": ["rollout", POS, "--cube-owner", "centre", "--games", "100"],
    "cube-match": ["rollout", POS, "--match", "5", "--score", "2-3", "--cube-owner", "centre",
                   "--games", "72"],
    "duel-cube": ["duel", "neural", "heuristic", "--match", "3", "--cube", "--matches", "10"],
    "duel-reversed": ["duel", "heuristic", "neural", "--games", "100", "--seed", "3"],
    "mixed-reversed": ["rollout", MID, "--white-policy", "heuristic", "--black-policy", "neural",
                       "--games", "200"],
    "duel-money-cube": ["duel", "heuristic", "neural", "--cube", "--games", "100"],
    "duel-match": ["duel", "random", "heuristic", "--match", "3", "--matches", "10"],
}


def main() -> None:
    from click.testing import CliRunner

    from nardy_cli.commands.cli import cli
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    names = sys.argv[2:] or list(CASES)
    for name in names:
        args = CASES[name] + ["--format", "json"]
        if CASES[name][0] != "duel":
            args.append("-q")
        if "--workers" not in args:
            args += ["--workers", "1"]
        result = CliRunner().invoke(cli, args)
        (out / f"{name}.txt").write_text(f"exit {result.exit_code}\n{result.output}")
        print(name, result.exit_code, flush=True)


if __name__ == "__main__":
    main()
