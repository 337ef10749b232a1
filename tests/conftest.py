"""Suite-wide settings: Hypothesis profiles (a fixed, derandomised one for CI, a larger one
locally).

`CI=true` (or HYPOTHESIS_PROFILE=ci) selects `ci`: derandomised, so a CI run
explores exactly the same examples every time.  `dev` (the default) draws fresh
examples on each run and tries more of them.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, max_examples=25, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE")
                      or ("ci" if os.environ.get("CI") == "true" else "dev"))

# Output in English whatever the shell says (tests of Russian output ask for it:
# tests/test_i18n.py).
os.environ.pop("NARDY_LANG", None)

# No compile-ahead helper process (games/compile_ahead.py) in the suite: its three workers keep
# both cores busy, so a helper adds a Python start-up and nothing runs sooner
# (tests/test_compile_ahead.py sets it where it tests the helper).
os.environ["NARDY_COMPILE_AHEAD"] = "0"

# Bear-off databases: built once into the test cache, never into the user's cache folder.
if not os.environ.get("NARDY_CACHE_DIR"):
    os.environ["NARDY_CACHE_DIR"] = os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        ".pytest_cache", "nardy")

# The first kernel compile's notice on stderr (issue 41, item 2) would land in whichever in-process
# CLI test compiles first, a different one on each run: this process's notice goes nowhere
# (tests/test_compile_notice.py checks the notice in processes of its own).
from nardy_cli.core.compiling import announce_compiling  # noqa: E402

announce_compiling(lambda: None)

# From a cold cache, each kernel compiles in one worker process while the others wait for it and
# load it from the cache, instead of each compiling its own copy (nardy_cli/core/compile_lock.py).
from nardy_cli.core.compile_lock import install as lock_compiles  # noqa: E402

lock_compiles()


@pytest.fixture
def pool_submits(monkeypatch):
    """Count the tasks handed to worker-process pools during a test (proof that a pool ran them).

    Patches `ProcessPoolExecutor.submit` on the class, so it sees every pool the
    library makes, whatever module creates it; the tasks still run as usual.
    """
    from concurrent.futures import ProcessPoolExecutor
    calls: list[tuple] = []
    original = ProcessPoolExecutor.submit

    def submit(self, fn, *args, **kwargs):
        calls.append((self._max_workers, args[-2:] if len(args) >= 2 else args))
        return original(self, fn, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", submit)
    return calls


# NARDY_COMPILE_LOG=FILE: each process appends one line per top-level kernel compile (the test that
# asked for it, the kernel, its signature, seconds) to FILE, to see where a cold run's time goes.
if os.environ.get("NARDY_COMPILE_LOG"):
    import time

    from numba.core import event

    _compile = {"test": "?", "depth": 0, "start": 0.0}

    class _CompileLog(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            if _compile["depth"] == 0:
                _compile["start"] = time.perf_counter()
            _compile["depth"] += 1

        def on_end(self, ev: event.Event) -> None:
            _compile["depth"] -= 1
            if _compile["depth"]:
                return
            data = ev.data or {}
            func = getattr(data.get("dispatcher"), "py_func", None)
            name = f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', '?')}"
            with open(os.environ["NARDY_COMPILE_LOG"], "a") as log:
                log.write(f"{os.getpid()}\t{_compile['test']}\t{name}\t{data.get('args')}\t"
                          f"{time.perf_counter() - _compile['start']:.2f}\n")

    event.register("numba:compile", _CompileLog())

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(item):
        _compile["test"] = item.nodeid


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Mark a test whose call failed (`item.failed_call`), for fixtures that keep evidence of a
    failure (the browser tests' screenshots)."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        item.failed_call = True


# the suite's longest files (docs/speed.md) start first: on `-n 3`, a long test that starts last
# keeps the run waiting on one worker while the others are idle
LONG_FIRST = ("test_compile_set.py", "test_review_browser.py",
              "test_markdown_tables.py", "test_dask.py", "test_properties.py",
              "test_match_report.py", "test_i18n.py", "test_staged_keeps_two.py",
              "test_serve_browser.py", "test_endgame_oracle.py", "test_docs.py")


def pytest_collection_modifyitems(items):
    """Run the files of `LONG_FIRST` first, in that order (the rest keep theirs)."""
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONG_FIRST)))
