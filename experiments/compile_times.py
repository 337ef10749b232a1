"""Each command's cold compile: wall and CPU time, kernels compiled, cache written (docs/speed.md).

    python experiments/compile_times.py [--tree CHECKOUT] [--only NAME,...]

runs each command below in a process of its own with an empty kernel cache
(`experiments/compile_profile.py --json`), with `PYTHONPATH` set to CHECKOUT when
given (another version of nardy, e.g. a worktree of the commit before), and prints
one Markdown table row per command with the machine's load average at its start.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
POS = "W:1x14,12 B:1x15 b"
COMMANDS = {
    "show": ["show", "start"],
    "moves": ["moves", "start", "--dice", "3-3"],
    "eval": ["eval", POS],
    "rollout random": ["rollout", POS, "--policy", "random", "--games", "100", "--workers", "1"],
    "rollout neural, 1 worker": ["rollout", POS, "--games", "100", "--workers", "1"],
    "rollout neural (README's first example)": ["rollout", POS],
    "rollout lookahead:neural": ["rollout", POS, "--policy", "lookahead:neural", "--games", "36",
                                 "--workers", "1"],
    "analyze 6-5": ["analyze", "start", "--dice", "6-5", "--no-book", "--games", "1296"],
    "analyze head-tempo 5-3": ["analyze", "W:1x13,2,16 B:1x12,5,6,15 w", "--dice", "5-3",
                               "--no-book", "--games", "1296"],
    "review": ["review", str(HERE.parent / "games" / "bot-game.txt")],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", help="checkout to import nardy from (default: this one)")
    ap.add_argument("--only", help="comma-separated names of COMMANDS")
    opts = ap.parse_args()
    env = dict(os.environ)
    if opts.tree:
        env["PYTHONPATH"] = opts.tree
    names = opts.only.split(",") if opts.only else list(COMMANDS)
    print("| command | wall s | CPU s | kernels compiled | compiling s | cache MB | load |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        load = os.getloadavg()[0]
        quiet = ["-q"] if name.startswith(("rollout", "analyze")) else []
        done = subprocess.run([sys.executable, str(HERE / "compile_profile.py"), "--json", "--",
                               *COMMANDS[name], *quiet],
                              env=env, capture_output=True, text=True, timeout=3600)
        row = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"| `{name}` | {row['wall']:.1f} | {row['cpu']:.1f} | {row['compiles']} | "
              f"{row['compile_s']:.1f} | {row['cache_bytes'] / 1e6:.1f} | {load:.1f} |",
              flush=True)


if __name__ == "__main__":
    main()
