"""The Dask executor: same numbers as local workers, clear errors for unreachable schedulers."""

from __future__ import annotations

import time

import pytest

from nardy_cli import START
from nardy_cli.errors import ExecutorError
from nardy_cli.render import to_json
from nardy_cli.rollout import rollout

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as c:
        yield c


def test_dask_result_equals_local(cluster):
    local = rollout(START, "random", games=3000, seed=21, workers=1)
    remote = rollout(START, "random", games=3000, seed=21, executor="dask", scheduler=cluster.scheduler_address)
    assert to_json(local.to_dict()) == to_json(remote.to_dict())


def test_dask_duel_equals_local(cluster):
    from nardy_cli.duel import duel
    a = duel("heuristic", "racer", 400, seed=2)
    b = duel("heuristic", "racer", 400, seed=2, executor="dask", scheduler=cluster.scheduler_address)
    assert to_json(a.to_dict()) == to_json(b.to_dict())


def test_unreachable_scheduler_fails_fast():
    t = time.monotonic()
    with pytest.raises(ExecutorError, match="cannot reach the Dask scheduler"):
        rollout(START, "random", games=100, executor="dask", scheduler="tcp://127.0.0.1:9")
    assert time.monotonic() - t < 15
