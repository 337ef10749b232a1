"""The reference bots' ratings of docs/library.md: each built-in bot's self-play games reviewed
into a library and rated, written to nardy_cli/data/library-reference.json.

Usage: python experiments/library_reference.py [--games 50] [--seed 2039]
                                               [--evaluators neural,lookahead:neural] [--out FILE]

For each bot B of `BOTS`: `--games` games of B against itself from the start (federation rules,
dice seed `--seed`, game g as `selfplay.play_game(B, B, seed=seed, game=g)` plays it; the same
games `nardy play B B --games 50 --seed 2039 --output DIR` writes), added to a fresh library once
per evaluator (`nardy library add DIR/game-*.txt --evaluator E`), then rated per player and per
player and phase (`nardy library stats --by player|phase`, bootstrap seed 39).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from nardy_cli.games.selfplay import play_games
from nardy_cli.library.stats import DEFAULT_SEED
from nardy_cli.library.store import Library
from nardy_cli.records.game_record import format_game

BOTS = ("random", "racer", "heuristic", "lookahead:heuristic", "neural", "lookahead:neural")
OUT = Path(__file__).resolve().parent.parent / "nardy_cli" / "data" / "library-reference.json"


def _clean(value):
    return None if value != value else round(float(value), 3)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=2039)
    ap.add_argument("--evaluators", default="neural,lookahead:neural")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    started = time.time()
    runs = []
    with tempfile.TemporaryDirectory(prefix="nardy-reference-") as tmp:
        folders = {}
        for bot in BOTS:
            folder = Path(tmp) / bot.replace(":", "-")
            folder.mkdir()
            for g, record in enumerate(play_games(bot, bot, args.games, seed=args.seed).records):
                (folder / f"game-{g + 1:03d}.txt").write_text(format_game(record))
            folders[bot] = folder
        print(f"games played: {time.time() - started:.0f} s", flush=True)
        for evaluator in args.evaluators.split(","):
            t = time.time()
            with Library(Path(tmp) / f"{evaluator.replace(':', '-')}.sqlite") as library:
                for bot in BOTS:
                    library.add(sorted(folders[bot].glob("game-*.txt")), evaluator)
                overall = library.stats(by="player").set_index("player")
                phases = library.stats(by="phase")
            bots = []
            for bot in BOTS:
                row = overall.loc[bot]
                mine = phases[phases["player"] == bot]
                bots.append({
                    "name": bot, "games": int(row["games"]), "non_forced": int(row["non_forced"]),
                    **{k: _clean(row[k]) for k in ("pr", "pr_low", "pr_high", "checker_mp",
                                                   "errors_per_game", "blunders_per_game")},
                    "phases": {p["phase"]: {"non_forced": int(p["non_forced"]),
                                            "checker_mp": _clean(p["checker_mp"]),
                                            "checker_low": _clean(p["checker_low"]),
                                            "checker_high": _clean(p["checker_high"])}
                               for p in mine.to_dict(orient="records")}})
                print(f"{evaluator:>17} {bot:>20}: PR {row['pr']:.2f} "
                      f"[{row['pr_low']:.2f}, {row['pr_high']:.2f}]", flush=True)
            runs.append({"evaluator": evaluator, "bots": bots})
            print(f"{evaluator}: {time.time() - t:.0f} s", flush=True)
    data = {"games": args.games, "seed": args.seed, "bootstrap_seed": DEFAULT_SEED,
            "rules": "federation",
            "command": f"python experiments/library_reference.py --games {args.games} "
                       f"--seed {args.seed} --evaluators {args.evaluators}",
            "runs": runs}
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"written to {args.out} in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
