"""The training run: chunks of self-play, checkpoints, resumption and benchmark duels.

Game numbers continue across checkpoints and the learning rate is a function of
the games trained, so a run resumed from a checkpoint ends with the same
weights as one that was never stopped (checkpoints fall on chunk boundaries).
"""

from __future__ import annotations

import csv
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Callable

import numpy as np

from ..core.errors import ArgumentError
from ..core.outcomes import money_valuation
from ..core.position import START
from ..core.rules import PRESETS
from ..kernels.board import kernel_rules
from ..policies.network import (Network, games_in_all, load_network, new_network, save_network,
    widened, untrained_meta, with_block_inputs)
from .td import N_STATS, S_GAMES, S_LOSS, S_PLIES, S_UPDATES, train_games

CHECKPOINT = "checkpoint.npz"
BEST = "best.npz"
LOG = "log.csv"
LOG_FIELDS = ["games", "seconds", "games_per_second", "mean_plies", "loss", "lr", "vs_heuristic",
              "vs_heuristic_se", "vs_best", "vs_best_se", "best_games"]
BENCH_SEED = 777
DEFAULT_HIDDEN = 128


@dataclass(frozen=True)
class TrainConfig:
    """Settings of one training run; stored in every checkpoint so a resumed run keeps them."""

    hidden: int | None = None       # None: 128 for random weights, the --init file's own size
    seed: int = 1
    lr: float = 0.005
    lr_half_life: int = 400_000     # games after which the learning rate has halved
    lr_floor: float = 0.002
    lam: float = 0.7
    preset: str = "federation"
    chunk: int = 2_000
    checkpoint_every: int = 10_000
    bench_every: int = 50_000
    bench_pairs: int = 1_000
    # a network file whose weights a new run starts from (None: random weights)
    init: str | None = None
    starts: tuple[str, ...] = ()     # more starting positions (notation), besides `start`
    # the share of games played from `start` (the rest: `starts` in turn)
    start_share: float = 1.0
    # a network file that plays every game (None: the trained network plays)
    player: str | None = None
    # the inputs the trained network reads (None: 1 for random weights, the --init file's own);
    # 2 from a version-1 --init adds the block inputs with zero rows (`with_block_inputs`)
    input_version: int | None = None

    def lr_at(self, games: int) -> float:
        """The learning rate after `games` games of training (a floor above the starting rate is
        ignored)."""
        return max(self.lr * 0.5 ** (games / self.lr_half_life), min(self.lr_floor, self.lr))


@dataclass(frozen=True)
class Progress:
    """What a progress display shows after each chunk."""

    games: int
    target: int
    games_per_second: float
    loss: float
    last_bench: float | None


def duel_points(a, b, pairs: int, seed: int = BENCH_SEED,
                preset: str = "federation") -> tuple[float, float]:
    """Policy A's points per game against B over `pairs` duplicate-dice pairs from the start, and
    its SE."""
    from ..games.duel import duel
    result = duel(a, b, games=2 * pairs, seed=seed, rules=PRESETS[preset], workers=1)
    return result.points_per_game, result.se


def _neural(params: np.ndarray, name: str):
    """A neural policy playing the network in `params`."""
    from ..policies.builtin import network_policy
    return network_policy(name, Network.from_flat(params))


def train(out_dir: str | Path, games: int, config: TrainConfig | None = None,
          progress: Callable[[Progress], None] | None = None,
          stop: Callable[[], bool] | None = None) -> Network:
    """Train up to `games` games in total in `out_dir`, resuming from its checkpoint when there is
    one."""
    out = Path(out_dir)
    ckpt = out / CHECKPOINT
    if ckpt.exists():
        net = load_network(ckpt)
        saved = dict(net.meta["config"])
        config = TrainConfig(**dict(saved, starts=tuple(saved.get("starts", ()))))
    else:
        config = config or TrainConfig()
        net = _first_network(config)
        config = replace(config, hidden=net.hidden, input_version=net.input_version)
        net.meta["config"] = asdict(config)
    if not 0.0 <= config.start_share <= 1.0:
        raise ArgumentError(f"{{start_share}} must be between 0 and 1, got {config.start_share}")
    if (config.chunk <= 0 or config.checkpoint_every % config.chunk
        or config.bench_every % config.chunk):
        raise ArgumentError(f"{{checkpoint_every}} ({config.checkpoint_every}) and {{bench_every}} "
                            f"({config.bench_every}) must be multiples of {{chunk}} "
                            f"({config.chunk})")
    rules = PRESETS[config.preset]
    roots, roots_white = training_roots(config.starts, rules)
    params = net.kernel_params(rules)
    values = money_valuation(rules).kernel_values()
    player = params if config.player is None else load_network(config.player).kernel_params(rules)
    out.mkdir(parents=True, exist_ok=True)
    done = int(net.meta.get("games_trained", 0))
    seconds = float(net.meta.get("seconds", 0.0))
    best, best_games = None, 0
    if (out / BEST).exists():
        best_net = load_network(out / BEST)
        best, best_games = best_net.kernel_params(rules), int(best_net.meta.get("games_trained", 0))
    elif config.init is not None:
        # a candidate must beat the weights it came from
        best = load_network(config.init).kernel_params(rules)
    _truncate_log(out / LOG, done)
    last_bench = None
    while done < games and not (stop and stop()):
        stats = np.zeros(N_STATS)
        lr = config.lr_at(done)
        t0 = time.perf_counter()
        train_games(params, player, values, roots, roots_white, config.start_share, done,
                    done + config.chunk, np.uint64(config.seed), lr, config.lam,
                    kernel_rules(rules), stats)
        dt = time.perf_counter() - t0
        seconds += dt
        done += config.chunk
        row = {"games": done, "seconds": round(seconds, 1),
               "games_per_second": round(stats[S_GAMES] / dt, 1),
               "mean_plies": round(stats[S_PLIES] / stats[S_GAMES], 2),
               "loss": round(stats[S_LOSS] / max(stats[S_UPDATES], 1), 5), "lr": lr}
        if done % config.bench_every == 0:
            current = _neural(params, "current")
            row["vs_heuristic"], row["vs_heuristic_se"] = duel_points(current, "heuristic",
                                                                      config.bench_pairs,
                                                                      preset=config.preset)
            last_bench = row["vs_heuristic"]
            if best is not None:
                row["vs_best"], row["vs_best_se"] = duel_points(current, _neural(best, "best"),
                                                                config.bench_pairs,
                                                                preset=config.preset)
            if best is None or row["vs_best"] > 0:
                best = params.copy()
                best_games = done
                save_network(_snapshot(params, net.meta, done, seconds), out / BEST)
            row["best_games"] = best_games
        if done % config.checkpoint_every == 0 or done >= games:
            save_network(_snapshot(params, net.meta, done, seconds), ckpt)
        _append_log(out / LOG, row)
        if progress is not None:
            progress(Progress(done, games, row["games_per_second"], row["loss"], last_bench))
    final = _snapshot(params, net.meta, done, seconds)
    save_network(final, ckpt)
    return final


def _first_network(config: TrainConfig) -> Network:
    """The weights a new run starts from: `config.init`'s (its record kept under meta["init"]), or
    random."""
    version = config.input_version
    if config.init is None:
        return new_network(config.hidden or DEFAULT_HIDDEN, config.seed, version or 1)
    base = load_network(config.init)
    hidden = config.hidden or base.hidden
    if hidden < base.hidden:
        raise ArgumentError(f"{{hidden}} ({hidden}) cannot be smaller than the --init network's "
                            f"{base.hidden} units")
    if version is not None and version < base.input_version:
        raise ArgumentError(f"{{input_version}} ({version}) cannot be lower than the --init "
                            f"network's ({base.input_version})")
    if version == 2:
        base = with_block_inputs(base)
    meta = untrained_meta(hidden, config.seed, base.input_version)
    meta["init"] = {"file": str(config.init),
                    "games_trained": int(base.meta.get("games_trained", 0)),
                    "games_trained_in_all": games_in_all(base.meta), "hidden": base.hidden}
    return replace(widened(base, hidden, config.seed), meta=meta)


def training_roots(starts: tuple[str, ...], rules) -> tuple[np.ndarray, np.ndarray]:
    """The starting boards of training games (mover-relative) and whether White moves: `start`, then
    `starts`."""
    from ..core.engine import require_in_play
    from ..core.position import parse_position
    positions = [START]
    for text in starts:
        pos = parse_position(text)
        require_in_play(pos, rules)
        positions.append(pos.with_dice(None))
    roots = np.stack([p.board()[0] for p in positions]).astype(np.int8)
    return roots, np.array([p.turn == "w" for p in positions], dtype=np.bool_)


def _snapshot(params: np.ndarray, meta: dict, games: int, seconds: float) -> Network:
    """A `Network` of the current parameters with its training record."""
    # an older record has no total: its own count
    before = games_in_all(meta["init"]) if "init" in meta else 0
    m = dict(meta, games_trained=games, games_trained_in_all=before + games,
             seconds=round(seconds, 1))
    return Network.from_flat(params, m)


def _append_log(path: Path, row: dict) -> None:
    """Add one row to the learning log (CSV with a header)."""
    new = not path.exists()
    with open(path, "a", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=LOG_FIELDS)
        if new:
            w.writeheader()
        w.writerow(row)


def _truncate_log(path: Path, games: int) -> None:
    """Drop log rows past `games` (written after the checkpoint a run resumes from)."""
    if not path.exists():
        return
    with open(path, newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if int(r["games"]) <= games]
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=LOG_FIELDS)
        w.writeheader()
        w.writerows(rows)


def read_log(path: str | Path):
    """The learning log as a DataFrame."""
    import pandas as pd
    return pd.read_csv(path)
