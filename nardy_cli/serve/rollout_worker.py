"""What runs inside a rollout job's worker process: the library's `rollout` of a position (or of
each given play's result in turn, on the same dice), each partial result sent to the server as it
comes.  SIGINT (the server's cancel, or Ctrl-C) ends it with the games finished so far."""

from __future__ import annotations

import signal

# a job's games are cut into jobs of this many (a divisor of 1,296), so that progress comes at least
# twice a second at each policy's speed on one core: neural ~600 games/s on an idle core and ~400
# on a busy machine (162 gave 2.2 progress events a second there, 81 gives more), lookahead:neural
# ~25
JOB_GAMES = {"neural": 81, "heuristic": 324, "lookahead:neural": 12}


def _summary(result, mover_flip: bool) -> dict:
    """A partial or final result, for the side that played when `mover_flip`."""
    sign = -1.0 if mover_flip else 1.0
    probs = result.probabilities
    if mover_flip:
        probs = {("lose" + k[3:] if k.startswith("win") else "win" + k[4:]
                  if k.startswith("lose") else k): v for k, v in probs.items()}
    return {"games": result.games, "equity": sign * result.equity, "equity_se": result.equity_se,
            "ci95": [sign * result.equity - 1.96 * result.equity_se,
                     sign * result.equity + 1.96 * result.equity_se],
            "probabilities": probs, "interrupted": result.interrupted}


def worker_main(tasks, queue) -> None:
    """A worker process: import the library (so that a job starts at once), say ("ready",), wait
    for one job's spec on `tasks` and run it (None: leave).

    SIGINT is the server's cancel, so the worker takes it even when it was started with SIGINT
    ignored (a server started with `&` by a shell without job control, or under a supervisor
    that ignores it: a spawned process keeps an ignored signal ignored)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        from ..analysis import rollout  # noqa: F401 - loaded before the job comes
        from ..core.engine import legal_plays
        from ..core.position import START
        legal_plays(START, "6-5")        # the engine's kernels loaded from the cache
        queue.put(("ready",))
        spec = tasks.get()
    except KeyboardInterrupt:
        return
    if spec is not None:
        run_job(spec, queue)


def run_job(spec: dict, queue) -> None:
    """Roll out `spec` (position, plays, policy, games, seed, rules), reporting to `queue`:
    ("progress", k, summary), ("done", k, summary), then ("end", reason)."""
    reason = "done"
    try:
        from ..analysis.rollout import rollout
        from ..core.engine import parse_play
        from ..core.errors import NoGamesError
        from ..core.position import parse_position
        from ..core.rules import PRESETS
        from ..games import RunConfig
        rules = PRESETS[spec["rules"]]
        position = parse_position(spec["position"])
        targets = ([parse_play(position.with_dice(None), text, position.dice, rules).result
                    for text in spec["plays"]] if spec["plays"] else [position])
        flip = bool(spec["plays"])
        for k, target in enumerate(targets):
            def progress(partial, k=k) -> None:
                queue.put(("progress", k, _summary(partial, flip)))
            run = RunConfig(games=spec["games"], seed=spec["seed"], workers=spec["workers"],
                            executor=spec["executor"], scheduler=spec["scheduler"],
                            progress=progress)
            try:
                result = rollout(target, spec["policy"], run=run, rules=rules,
                                 job_games=JOB_GAMES.get(spec["policy"]))
            except NoGamesError:
                reason = "cancelled"
                break
            queue.put(("done", k, _summary(result, flip)))
            if result.interrupted:
                reason = "cancelled"
                break
    except KeyboardInterrupt:
        reason = "cancelled"
    except Exception as exc:        # reported to the page as the job's error, never lost
        reason = f"failed: {exc}"
    queue.put(("end", reason))
