"""The OpenAPI document of `nardy serve` checked against the API by a schema fuzzer
(schemathesis): no request it generates from the document gets a 5xx, and every answer matches the
status codes and content types the document allows for errors (JSON, 4xx).

Rollout jobs are capped at 200 games here and one at a time, so the fuzzer's jobs stay small.
"""

from __future__ import annotations

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402

from nardy_cli.serve.app import create_app  # noqa: E402
from nardy_cli.serve.config import ServeConfig  # noqa: E402

APP = create_app(ServeConfig(allowed_hosts=("testserver", "localhost"), max_rollout_games=200,
                             max_jobs=1, warm_worker=False))
schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_input_the_fuzzer_makes_gets_a_server_error(case):
    """Catches a handler that lets a library error (or any exception) out as a 500 for some input
    the document allows or nearly allows: a bad notation, a dice text, a score, a missing game."""
    response = case.call()
    assert response.status_code < 500, (case.method, case.path, case.body, response.text)
    if response.status_code >= 400:
        data = response.json()
        assert "error" in data, response.text
