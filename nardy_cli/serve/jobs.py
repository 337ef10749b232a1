"""Rollout jobs: each in its own worker process (`rollout_worker.run_job`), its progress read by a
thread into the job's state, which the server streams as server-sent events; cancel is SIGINT to
the worker, which ends its rollout with the games finished so far."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field

from .config import ServeConfig
from .inputs import ApiError


@dataclass
class Job:
    """One rollout job and what is known of it."""

    id: str
    spec: dict
    process: object = None
    channels: tuple = ()             # the worker's task and message queues, kept while it runs
    status: str = "running"          # running | done | cancelled | failed: ...
    results: list = field(default_factory=list)   # per target: latest summary, None before any
    done: list = field(default_factory=list)      # per target: True once finished
    updates: int = 0
    ready: bool = False              # the worker has started (it takes SIGINT from then on)
    cancelled: bool = False          # a cancel was asked for
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None

    def to_dict(self) -> dict:
        """Plain data for JSON and for each event of the stream."""
        return {"job_id": self.id, "status": self.status, "games": self.spec["games"],
                "policy": self.spec["policy"], "position": self.spec["position"],
                "plays": self.spec["plays"], "results": self.results, "done": self.done,
                "updates": self.updates,
                "elapsed": (self.ended or time.monotonic()) - self.started}


class RolloutJobs:
    """The server's rollout jobs, capped in games and in how many run at once."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.context = multiprocessing.get_context("spawn")
        self.spare = None           # a started worker waiting for a job: (process, tasks, queue)

    def warm(self) -> None:
        """Start a worker ahead of the next job (its imports take seconds)."""
        from .rollout_worker import worker_main
        if self.spare is None:
            tasks, queue = self.context.Queue(), self.context.Queue()
            process = self.context.Process(target=worker_main, args=(tasks, queue), daemon=True)
            process.start()
            self.spare = (process, tasks, queue)

    def running(self) -> int:
        """How many jobs run now."""
        return sum(1 for j in self.jobs.values() if j.status == "running")

    def start(self, position: str, plays: list[str], policy: str, games: int, seed: int,
              rules: str) -> Job:
        """Start a job; `ApiError` (4xx) over the caps."""
        cap = self.config.max_rollout_games
        if games > cap:
            raise ApiError(f"refused: {games:,} games is over this server's cap of {cap:,} games "
                           "a rollout", "games")
        with self.lock:
            if self.running() >= self.config.max_jobs:
                raise ApiError(f"refused: {self.config.max_jobs} rollouts are running already "
                               "(this server's cap); cancel one or wait", "games", 429)
            spec = {"position": position, "plays": plays, "policy": policy, "games": games,
                    "seed": seed, "rules": rules, "workers": self.config.job_workers,
                    "executor": self.config.executor, "scheduler": self.config.scheduler}
            n = max(1, len(plays))
            job = Job(uuid.uuid4().hex[:12], spec, results=[None] * n, done=[False] * n)
            self.warm()
            job.process, tasks, queue = self.spare
            self.spare = None
            tasks.put(spec)
            job.channels = (tasks, queue)
            self.jobs[job.id] = job
            if self.config.warm_worker:
                self.warm()
        threading.Thread(target=self._follow, args=(job, queue), daemon=True).start()
        return job

    def _follow(self, job: Job, queue) -> None:
        """Read the worker's messages into the job until it ends (or dies)."""
        while True:
            try:
                message = queue.get(timeout=1.0)
            except Exception:
                if not job.process.is_alive():
                    job.status = ("cancelled" if job.cancelled
                                  else "failed: the worker process died")
                    break
                continue
            kind = message[0]
            if kind == "ready":
                job.ready = True
                continue
            if kind == "end":
                job.status = message[1]
                break
            _, k, summary = message
            job.results[k] = summary
            job.done[k] = job.done[k] or kind == "done"
            job.updates += 1
        job.ended = time.monotonic()
        job.process.join(timeout=5)

    def get(self, job_id: str) -> Job:
        """The job called `job_id`; `ApiError` 404 when there is none."""
        job = self.jobs.get(job_id)
        if job is None:
            raise ApiError(f"no rollout job {job_id!r}", "job_id", 404)
        return job

    def cancel(self, job_id: str) -> Job:
        """Ask a running job to stop (SIGINT: it keeps the games finished)."""
        job = self.get(job_id)
        if job.status == "running" and job.process.is_alive():
            job.cancelled = True
            _stop(job)
        return job

    def shutdown(self, wait: float = 5.0) -> None:
        """Stop every worker: SIGINT, then after `wait` seconds SIGTERM; reap them all."""
        if self.spare is not None:
            self.spare[1].put(None)
        alive = [j.process for j in self.jobs.values() if j.process.is_alive()]
        alive += [self.spare[0]] if self.spare is not None else []
        for job in self.jobs.values():
            if job.process.is_alive():
                job.cancelled = True
                _stop(job)
        deadline = time.monotonic() + wait
        for p in alive:
            p.join(max(0.0, deadline - time.monotonic()))
            if p.is_alive():
                p.terminate()
                p.join(1.0)


def _stop(job: Job) -> None:
    """SIGINT to a started worker (it ends its rollout with the games finished); a worker still
    starting up (importing) is terminated."""
    if job.ready:
        os.kill(job.process.pid, signal.SIGINT)
    else:
        job.process.terminate()
