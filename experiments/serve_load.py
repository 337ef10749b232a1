"""`nardy serve` under load, and its warm speed figures (docs/serve.md).

Starts `nardy serve` on a free loopback port (its own process, a library in a temporary folder),
warms it, then:

- speed: a position's plays and evaluation (one request each, sequential, 200 times: p50/p95), a
  2-ply ranking of typical rolls, the bot's move at lookahead:neural (a game's play request with
  the tutor off: the person's play and the bot's reply), and a rollout's progress events per
  second;
- load: CLIENTS clients (threads) for SECONDS seconds of mixed API calls (position, plays, eval,
  0-ply ranking, the book's tree), each call's latency; no error allowed.

    python experiments/serve_load.py                 # both, 20 clients for 60 s
    python experiments/serve_load.py --clients 5 --seconds 10

Prints the figures as a Markdown table for docs/serve.md.  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import numpy as np

POSITIONS = ["W:1x13,8,12 B:1x13,6,11 w", "W:1x14,12 B:1x15 b", "start",
             "W:1x8,2,8,10,16,17,18,24 B:1x6,3,7,8,9,10,11,15,16,18 w",
             "W:1x4,12,14x2,15x4,16,22,24x2 B:5,6,8,9,14,15,16,17,18x2,19x3,20x2 w"]
DICE = ["6-5", "4-2", "3-1", "5-3", "6-6", "2-1"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, library: Path) -> subprocess.Popen:
    nardy = Path(sys.executable).with_name("nardy")
    proc = subprocess.Popen([str(nardy), "serve", "--port", str(port), "--library", str(library)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/v1", timeout=2)
            return proc
        except httpx.HTTPError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("the server did not start")


def quantiles(times: list[float]) -> dict:
    a = np.array(times) * 1000
    return {"n": len(a), "p50": float(np.percentile(a, 50)), "p95": float(np.percentile(a, 95)),
            "p99": float(np.percentile(a, 99)), "max": float(a.max())}


def request(client, kind: str, rng: random.Random):
    pos, dice = rng.choice(POSITIONS), rng.choice(DICE)
    if kind == "position":
        return client.post("/api/v1/position", json={"position": pos})
    if kind == "plays":
        return client.post("/api/v1/plays", json={"position": pos, "dice": dice})
    if kind == "eval":
        return client.post("/api/v1/eval", json={"position": pos,
                                                 "cube": {"value": 1, "owner": "centre"}})
    if kind == "rank":
        return client.post("/api/v1/rank", json={"position": pos, "dice": dice, "plies": 0})
    return client.get("/api/v1/book/tree", params={"roll": dice})


MIX = ["position"] * 3 + ["plays"] * 3 + ["eval"] * 2 + ["rank"] * 2 + ["book"]


def speed(base: str) -> dict:
    out = {}
    with httpx.Client(base_url=base, timeout=60) as c:
        both = []
        for i in range(200):
            t = time.perf_counter()
            c.post("/api/v1/plays", json={"position": POSITIONS[i % 5], "dice": DICE[i % 6]}
                   ).raise_for_status()
            c.post("/api/v1/eval", json={"position": POSITIONS[i % 5]}).raise_for_status()
            both.append(time.perf_counter() - t)
        out["plays + eval (two requests)"] = quantiles(both)
        two = []
        for pos in POSITIONS[:2] + POSITIONS[3:]:
            for dice in ("4-2", "6-5", "3-1"):
                t = time.perf_counter()
                c.post("/api/v1/rank", json={"position": pos, "dice": dice, "plies": 2,
                                             "book": False}).raise_for_status()
                two.append(time.perf_counter() - t)
        out["2-ply ranking of a roll"] = quantiles(two)
        bot = []
        for seed in range(3):
            game = c.post("/api/v1/games", json={"bot": "lookahead:neural", "seed": seed,
                                                 "tutor": False}).json()
            for _ in range(15):
                game = c.post(f"/api/v1/games/{game['game_id']}/roll", json={}).json()
                if game["result"]:
                    break
                t = time.perf_counter()
                game = c.post(f"/api/v1/games/{game['game_id']}/play",
                              json={"play": game["plays"][0]["play"]}).json()
                bot.append(time.perf_counter() - t)
                if game["result"]:
                    break
        out["play + bot's reply at lookahead:neural"] = quantiles(bot)
        job = c.post("/api/v1/rollouts", json={"position": POSITIONS[0], "games": 5184}).json()
        stamps, games = [], []
        with c.stream("GET", f"/api/v1/rollouts/{job['job_id']}/events") as stream:
            for line in stream.iter_lines():
                if line.startswith("data:"):
                    data = json.loads(line[5:])
                    if data["results"][0] and (not games
                                               or data["results"][0]["games"] != games[-1]):
                        stamps.append(time.monotonic())
                        games.append(data["results"][0]["games"])
        span = stamps[-1] - stamps[0]
        gaps = np.diff(stamps)
        out["rollout progress (neural, 5,184 games)"] = {
            "events with new games": len(games), "per second": (len(games) - 1) / span,
            "longest gap s": float(gaps.max()), "games/s": (games[-1] - games[0]) / span}
    return out


def load(base: str, clients: int, seconds: float) -> dict:
    times: dict[str, list[float]] = {k: [] for k in set(MIX)}
    errors: list[str] = []
    stop = time.monotonic() + seconds

    def worker(n: int) -> None:
        rng = random.Random(n)
        with httpx.Client(base_url=base, timeout=60) as c:
            while time.monotonic() < stop:
                kind = rng.choice(MIX)
                t = time.perf_counter()
                try:
                    r = request(c, kind, rng)
                    if r.status_code != 200:
                        errors.append(f"{kind} {r.status_code} {r.text[:100]}")
                except httpx.HTTPError as exc:
                    errors.append(f"{kind} {exc!r}")
                    continue
                times[kind].append(time.perf_counter() - t)
    threads = [threading.Thread(target=worker, args=(n,)) for n in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    every = [x for v in times.values() for x in v]
    return {"clients": clients, "seconds": seconds, "requests": len(every),
            "per second": len(every) / seconds, "errors": len(errors),
            "first errors": errors[:5], "all": quantiles(every),
            **{k: quantiles(v) for k, v in sorted(times.items()) if v}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--skip-speed", action="store_true")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        proc = start_server(port, Path(folder) / "library.sqlite")
        base = f"http://127.0.0.1:{port}"
        try:
            with httpx.Client(base_url=base, timeout=600) as c:      # warm every path once
                rng = random.Random(0)
                for kind in set(MIX):
                    request(c, kind, rng).raise_for_status()
            load_before = os.getloadavg()
            result = {"load average before": load_before}
            if not args.skip_speed:
                result["speed"] = speed(base)
            result["load"] = load(base, args.clients, args.seconds)
            result["load average after"] = os.getloadavg()
        finally:
            proc.terminate()
            proc.wait(20)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
