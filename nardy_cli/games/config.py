"""A run's configuration as one value: how many games, the stop rule, the seed, where games run."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from ..core.errors import RunConfigError, check_type
from .executors import check_executor
from .spec import DEFAULT_SEED, MAX_GAMES


@dataclass(frozen=True)
class RunConfig:
    """How games are run: `games` (the maximum with `until_se`), the stop rule `until_se` (stop once
    the equity's standard error is at most that), the `seed`, `workers`, stratification of the first
    two rolls, the `executor` (`local` or `dask`) and its `scheduler`, and `progress`, who hears of
    progress (what it hears is each analysis's own).  Checked when made: `RunConfigError`."""

    games: int = 10000
    until_se: float | None = None
    seed: int = DEFAULT_SEED
    workers: int = 1
    stratify: bool = True
    executor: str = "local"
    scheduler: str | None = None
    progress: Callable | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.games < 1:
            raise RunConfigError(f"{{games}} must be at least 1, got {self.games}")
        if self.games > MAX_GAMES:
            raise RunConfigError(f"{{games}} must be at most {MAX_GAMES:,} (one run's limit), "
                                 f"got {self.games}")
        if not 0 <= self.seed < 2**63:
            raise RunConfigError(f"{{seed}} must be between 0 and 2**63-1, got {self.seed}")
        if self.until_se is not None and not self.until_se > 0:
            raise RunConfigError(f"{{until_se}} must be positive, got {self.until_se}")
        check_type(self.stratify, bool, "stratify", "True or False")
        check_executor(self.workers, self.executor, self.scheduler)

    def with_progress(self, progress: Callable | None) -> "RunConfig":
        """The same run, reporting to `progress`."""
        return replace(self, progress=progress)

    @property
    def executors(self) -> dict:
        """workers, executor and scheduler, as keywords for `run_games`."""
        return {"workers": self.workers, "executor": self.executor, "scheduler": self.scheduler}


def run_config(run: RunConfig | None, fields: dict, **defaults) -> RunConfig:
    """`run`, or (when None) a `RunConfig` of `fields` over a function's `defaults`; not both."""
    if run is None:
        return RunConfig(**{**defaults, **fields})
    if fields:
        raise RunConfigError(f"give {{run}} or its fields ({', '.join(sorted(fields))}), not both")
    check_type(run, RunConfig, "run", "a RunConfig")
    return run
