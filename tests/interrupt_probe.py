"""`python tests/interrupt_probe.py ARGS...`: run `nardy ARGS...` with probes on stderr, for the
interrupt tests.

Each probe is one line `probe: EVENT` written to stderr when the run reaches that
point: `run` when a run of jobs starts (`executors.run_jobs`: a rollout, one round
of an analysis, one position of a batch, one candidate of a review), `submit` when
a job goes to a worker process, `job` when a job's games were counted, `chunk` when `nardy train`
starts a chunk of training games.  The test sends its signal on a probe, so "early" (nothing
finished yet) and "late" (something finished) do not depend on timing.  Nothing else changes.
"""

from __future__ import annotations

import functools
import os
import sys


def _probe(event: str) -> None:
    os.write(2, f"probe: {event}\n".encode())


def _wrap(owner, name: str, event: str, before: bool = True) -> None:
    original = getattr(owner, name)

    @functools.wraps(original)
    def probed(*args, **kwargs):
        if before:
            _probe(event)
        result = original(*args, **kwargs)
        if not before:
            _probe(event)
        return result
    setattr(owner, name, probed)


def main() -> None:
    from nardy_cli.games import executors, run
    from nardy_cli.analysis import staged
    from nardy_cli.training import trainer
    for module in (executors, run, staged):     # each module calls run_jobs by its own name
        if hasattr(module, "run_jobs"):
            _wrap(module, "run_jobs", "run")
    _wrap(executors._Collector, "add", "job", before=False)
    _wrap(executors.ProcessPoolExecutor, "submit", "submit")
    _wrap(trainer, "train_games", "chunk")
    from nardy_cli.commands.cli import main as nardy
    sys.argv = ["nardy", *sys.argv[1:]]
    nardy()


if __name__ == "__main__":
    main()
