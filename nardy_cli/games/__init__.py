"""The games layer: everything that plays games, for rollouts, duels and analyses alike.

- `config`: how games are run (`RunConfig`: games, stop rule, seed, workers,
  stratification, executor, progress), one value passed whole;
- `spec`: what a batch of games is (`GameSpec`), how games are cut into chunks,
  policy pairs, and the checks made before any game;
- `tally`: one `Tally` of finished games (outcome counts, duplicate pairs,
  per-game results or per-game values);
- `compiled_loop`: chunks in the compiled turn loop (`kernels/game.py`);
- `python_loop`: the same games in a Python turn loop, for Python bots;
- `executors`: jobs in this process, on worker processes or on Dask;
- `run`: `play_chunk` (one job) and `run_games` (many, on the executors).
"""

from ..core.engine import require_in_play
from .config import RunConfig, run_config
from .executors import EXECUTORS, default_workers
from .run import play_chunk, run_games
from .spec import (CHUNK, DEFAULT_SEED, MAX_GAMES, MAX_PLIES, GameSpec, Jobs, chunks, job_size,
                   policy_pair)
from .tally import OUTCOMES, PAIRS, RESULTS, VALUES, Tally

__all__ = ["CHUNK", "DEFAULT_SEED", "EXECUTORS", "MAX_GAMES", "MAX_PLIES", "OUTCOMES", "PAIRS",
           "RESULTS", "VALUES", "GameSpec", "Jobs", "RunConfig", "Tally", "chunks",
           "default_workers", "job_size", "play_chunk", "policy_pair", "require_in_play",
           "run_config", "run_games"]
