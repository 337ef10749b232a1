"""Bot games kept whole: play a game turn by turn between two policies and return its record;
and `sample_decisions`, decisions drawn from such games (the benchmark's and training's starts).

`sample_decisions` takes from each self-play game of `SAMPLER` one decision of each phase
(`core.phases.phase_of`), drawn uniformly among the game's non-forced decisions of that phase (a
decision with one legal result is no decision), skipping a (position, roll) already drawn.

The games are the games layer's Python turn loop (`games.python_loop`), unstratified:
the same dice, and for a compiled policy the same choices, as the game kernel, so
game `i` here is game `i` of an unstratified rollout with the same seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np
import pandas as pd

from ..core.dice import Dice
from ..core.engine import Play, legal_plays
from ..core.errors import ArgumentError
from ..core.limits import check_kept, check_seed
from ..core.phases import PHASES, phase_of
from ..core.position import START, WHITE, Position
from ..core.rules import PRESETS, Rules
from ..kernels.game import N_DEFICIT
from ..match.cube import CubeBots
from ..match.stakes import MONEY, Stakes
from ..policies import Policy, as_policy
from ..records.game_record import GameRecord, parse_date_tag, record_from_plays
from . import DEFAULT_SEED, GameSpec, python_loop

MAX_PLIES = 2000
SAMPLER = "neural"        # the policy whose games `sample_decisions` draws from


@dataclass(frozen=True)
class PlayedGames:
    """Records of games between two policies, and a per-game summary."""

    records: tuple[GameRecord, ...]
    white: str
    black: str
    seed: int

    def frame(self) -> pd.DataFrame:
        """One row per game: plies, result, points for White."""
        rows = []
        for i, r in enumerate(self.records):
            rows.append({"game": i + 1, "white": r.white, "black": r.black, "plies": len(r.plies),
                         "result": "*" if r.result is None else str(r.result),
                         "white_points": points_for_white(r)})
        return pd.DataFrame(rows,
                            columns=["game", "white", "black", "plies", "result", "white_points"])

    def summary(self) -> dict:
        """Games, White's mean points, wins of each side and draws."""
        f = self.frame()
        return {"games": len(f), "white": self.white, "black": self.black, "seed": self.seed,
                "white_wins": int((f["white_points"] > 0).sum()),
                "black_wins": int((f["white_points"] < 0).sum()),
                "draws": int(sum(1 for r in self.records if r.result is not None
                                 and r.result.winner is None)),
                "unfinished": int(sum(1 for r in self.records if r.result is None)),
                "white_points_per_game": float(f["white_points"].mean()) if len(f) else 0.0,
                "mean_plies": float(f["plies"].mean()) if len(f) else 0.0}


def points_for_white(record: GameRecord) -> float:
    """Points White scored (negative when Black won; 0 for a draw or an unfinished game), times the
    cube in a cube game (a drop: an oin's points times the cube before the double; Jacoby: an oin
    before a double): White's `records.points.game_points` less Black's."""
    from ..records.points import game_points
    white, black = game_points(record)
    return white - black


def play_game(white: str | Policy, black: str | Policy, *, position: Position = START,
              rules: Rules = PRESETS["federation"], seed: int = DEFAULT_SEED, game: int = 0,
              max_plies: int = MAX_PLIES, date: str = "?", stakes: Stakes = MONEY,
              cube_bots: CubeBots = CubeBots(), tags: tuple = ()) -> GameRecord:
    """Play game number `game` from `position` (its dice, if any, are the first roll) and record it;
    the policies choose by the `stakes`' values (money, or a match score's).  When the stakes have
    a cube (centred) the bots use it as in the compiled cube loop (`cube_bots`; at a match score
    its match mode, the stakes' Crawford flag marking the Crawford game) and the record holds the
    cube actions."""
    check_seed(seed)
    sides = {"w": as_policy(white), "b": as_policy(black)}
    spec = GameSpec(position, rules, sides["w"], sides["b"], seed, stratify=False, stakes=stakes,
                    cube_bots=cube_bots)
    if stakes.cube is not None:
        return _play_cube_game(spec, sides, game, max_plies, date, tags)
    played: list[tuple[Dice, Play]] = []
    deficit = np.zeros((2, N_DEFICIT), dtype=np.int64)
    python_loop.play_game(spec, sides["w"], sides["b"], game, max_plies, deficit,
                          on_play=lambda dice, play: played.append((dice, play)))
    return record_from_plays(played, position.with_dice(None), rules, white=sides["w"].name,
                             black=sides["b"].name, date=date,
                             tags=(("Seed", str(seed)), ("Game", str(game + 1))) + tuple(tags))


def _play_cube_game(spec, sides, game: int, max_plies: int, date: str,
                    tags: tuple) -> GameRecord:
    """`play_game` with the cube: each roll's cube actions by `games.cube_loop.CubeJudge` (money or
    the match score's), then the record."""
    from ..records.cube_record import record_from_turns
    from .cube_loop import CubeJudge
    cube = spec.stakes.cube
    if cube.owner != "centre":
        raise ArgumentError("a game played with the cube starts with the cube centred")
    judge = CubeJudge(cube, spec.cube_bots, sides["w"], sides["b"], spec.rules, spec.values,
                      spec.stakes.match)
    pending: list[str] = []
    end: list[str] = []
    turns: list = []

    def before_roll(pos: Position, board: np.ndarray) -> bool:
        kinds = judge.actions(board, pos.turn == WHITE)
        if "drop" in kinds:
            end.extend(kinds)
            return True
        pending[:] = kinds
        return False

    def on_play(dice: Dice, play: Play) -> None:
        turns.append((tuple(pending), dice, play))
        pending.clear()

    python_loop.play_game(spec, sides["w"], sides["b"], game, max_plies,
                          np.zeros((2, N_DEFICIT), dtype=np.int64), on_play=on_play,
                          before_roll=before_roll)
    rule_tags = tuple((name, "on") for name,
                      on in (("Jacoby", cube.jacoby), ("Beavers", cube.beavers)) if on)
    return record_from_turns(turns, spec.position.with_dice(None), spec.rules, end=tuple(end),
                             cube=True, crawford=spec.stakes.crawford, white=sides["w"].name,
                             black=sides["b"].name, date=date,
                             tags=(("Seed", str(spec.seed)), ("Game", str(game + 1))) + rule_tags
                             + tuple(tags))


def play_games(white: str | Policy, black: str | Policy, games: int = 1, *,
               position: Position = START, rules: Rules = PRESETS["federation"],
               seed: int = DEFAULT_SEED, date: str = "?", max_plies: int = MAX_PLIES,
               stakes: Stakes = MONEY, cube_bots: CubeBots = CubeBots()) -> PlayedGames:
    """Games 0..games-1 between `white` and `black`, each recorded; `date` is `YYYY.MM.DD` or `?`;
    stakes with a cube play with the bots' cube (see `play_game`)."""
    if games < 1:
        raise ArgumentError(f"{{games}} must be at least 1, got {games}")
    check_kept(games)
    check_seed(seed)
    date = parse_date_tag(date)
    w, b = as_policy(white), as_policy(black)
    records = tuple(play_game(w, b, position=position, rules=rules, seed=seed, game=g, date=date,
                              max_plies=max_plies, stakes=stakes, cube_bots=cube_bots)
                    for g in range(games))
    return PlayedGames(records, w.name, b.name, seed)


def sample_decisions(seed: int, rules: Rules = PRESETS["federation"], *,
                     samplers: tuple[str, ...] = (SAMPLER,),
                     weights: dict[str, float] | None = None
                     ) -> Iterator[tuple[Position, str, str]]:
    """Endless (position with its dice, phase, source) from self-play games of `seed`, as the module
    doc describes.

    Game g is played by `sampler_pair(samplers, g)`.  `weights` (phase -> decisions drawn per game,
    fractions by chance) replaces the one decision of each phase, e.g. more contact and blocked
    ones; without it the draws are the original ones, decision for decision."""
    if weights is not None and (set(weights) - set(PHASES)
                                or any(not 0 <= w <= 8 for w in weights.values())):
        raise ArgumentError(f"phase weights are phases of {', '.join(PHASES)} with 0 to 8 "
                            f"decisions a game, got {weights}")
    seen: set[tuple] = set()
    game = 0
    while True:
        white, black = sampler_pair(samplers, game)
        record = play_game(white, black, seed=seed, game=game, rules=rules)
        by_phase: dict[str, list[int]] = {p: [] for p in PHASES}
        for n, ply in enumerate(record.plies):
            if len(legal_plays(ply.position, ply.dice, rules)) > 1:
                by_phase[phase_of(ply.position)].append(n)
        rng = np.random.default_rng([seed, game])
        for phase in PHASES:
            for n in _drawn(by_phase[phase], rng, None if weights is None
                            else weights.get(phase, 0.0)):
                ply = record.plies[n]
                key = (ply.position, ply.dice)
                if key in seen:
                    continue
                seen.add(key)
                source = f"game {game + 1} ply {n + 1}"
                if samplers != (SAMPLER,):
                    source += f" ({white} v {black})"
                yield ply.position.with_dice(ply.dice), phase, source
        game += 1


def sampler_pair(samplers: tuple[str, ...], game: int) -> tuple[str, str]:
    """(White, Black) of game `game` of a sample: every ordered pair of `samplers` in turn."""
    k = len(samplers)
    return samplers[game % k], samplers[(game // k) % k]


def _drawn(plies: list[int], rng: np.random.Generator, weight: float | None) -> list[int]:
    """The decisions drawn from one phase of a game: one (`weight` None, the original draw), else
    `weight` of them, its fraction by chance, without repeats."""
    if not plies:
        return []
    if weight is None:
        return [plies[int(rng.integers(len(plies)))]]
    count = int(weight) + int(rng.random() < weight - int(weight))
    picked = rng.choice(len(plies), size=min(count, len(plies)), replace=False)
    return [plies[int(i)] for i in sorted(picked)]
