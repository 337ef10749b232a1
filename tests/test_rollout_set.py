"""The training set of rolled-out positions (`training/rollout_set.py`): reproducible, resumable,
refusing other settings, and drawing from its sources in the stated shares."""

from __future__ import annotations

import gzip
import json
from collections import Counter

import pytest

from nardy_cli.training.rollout_set import (RolloutSetError, SetSettings, build_set,
                                            planned_positions, read_set, source_of)

TINY = SetSettings(games=36, truncate=4)   # 2 plies: VR makes every seed alike


def _stable(records):
    """The records without their CPU seconds, by index."""
    return {r["i"]: {k: v for k, v in r.items() if k != "cpu_seconds"} for r in records}


def test_a_resumed_build_writes_the_records_of_one_that_never_stopped(tmp_path):
    """Catches a rollout seeded by its place in the run (or by the worker) instead of by the
    position's index: a build resumed after 3 positions, or run on 2 workers, would then give
    other figures than one straight build of 5."""
    a, b = tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl.gz"
    build_set(a, 5, TINY)
    build_set(b, 3, TINY)
    resumed = build_set(b, 5, TINY, workers=2)
    assert (resumed.found, resumed.added) == (3, 2)
    assert _stable(read_set(a)[1]) == _stable(read_set(b)[1])


def test_a_line_cut_short_by_a_kill_is_dropped_and_redone(tmp_path):
    """Catches a resume that stops at (or keeps) a half-written last record: the file must read
    again, the cut record be rolled out anew, and the others kept."""
    path = tmp_path / "s.jsonl.gz"
    build_set(path, 3, TINY)
    whole = _stable(read_set(path)[1])
    data = path.read_bytes()
    path.write_bytes(data[:-7])                     # the last gzip member cut short
    assert len(read_set(path)[1]) == 2
    with pytest.raises(RolloutSetError, match="cut short"):
        read_set(path, partial_ok=False)
    again = build_set(path, 3, TINY)
    assert (again.found, again.added) == (2, 1)
    assert _stable(read_set(path)[1]) == whole


def test_a_set_made_with_other_settings_is_refused(tmp_path):
    """Catches a resume that mixes rollouts of two precisions in one file."""
    path = tmp_path / "s.jsonl.gz"
    build_set(path, 1, TINY)
    with pytest.raises(RolloutSetError, match=r"other settings \(games\)"):
        build_set(path, 2, SetSettings(games=72, truncate=4))


def test_the_sources_take_their_shares_and_positions_are_distinct_and_before_the_roll(tmp_path):
    """Catches a mix that ignores its shares (every position from self-play), a position drawn
    twice, or a decision's dice kept (the network values the board before the roll)."""
    assert Counter(source_of(i, TINY.mix) for i in range(1000)) == {
        "selfplay": 800, "book": 100, "benchmark": 100}
    plan = planned_positions(TINY, 200)
    texts = [p[3] for p in plan]
    assert len(set(texts)) == 200
    assert all(" " in t and not any(c == "-" for c in t.split()[-1]) for t in texts)
    sources = Counter(p[0] for p in plan)
    assert sources["book"] == sources["benchmark"] == 20
    phases = Counter(p[1] for p in plan if p[0] == "selfplay")
    assert phases["blocked"] + phases["contact"] > 0.6 * sum(phases.values())


def test_a_record_holds_the_rollouts_chances_for_the_side_to_move(tmp_path):
    """Catches a record whose chances are not a rollout's (the header, the sums, the SEs)."""
    path = tmp_path / "s.jsonl.gz"
    build_set(path, 2, TINY)
    settings, records, _ = read_set(path)
    assert settings["games"] == 36 and settings["truncate"] == 4
    for r in records:
        p = r["probabilities"]
        assert r["games"] == 36
        assert p["win"] + p["lose"] + p["draw"] == pytest.approx(1.0, abs=1e-5)
        assert p["win"] == pytest.approx(sum(p[f"win_{c}"] for c in
                                             ("oin", "home_mars", "mars", "koks")), abs=1e-5)
    with gzip.open(path, "rt") as fh:
        assert json.loads(fh.readline())["format"] == "nardy-rollout-set"


def test_a_position_written_twice_is_read_once(tmp_path):
    """Catches two builds run at once on one file (each appends the positions it rolled out)
    doubling those positions' weight in training."""
    path = tmp_path / "s.jsonl.gz"
    build_set(path, 2, TINY)
    once = read_set(path)[1]
    with open(path, "ab") as fh:
        fh.write(gzip.compress((json.dumps(once[-1]) + "\n").encode()))
    assert read_set(path)[1] == once
