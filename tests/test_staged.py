"""Staged ranking (`nardy analyze --staged`): 0-ply, 1-ply, rollouts of the survivors."""

from __future__ import annotations

import pytest

from nardy_cli.core.errors import FilterError
from nardy_cli.core.position import Position
from nardy_cli.analysis.staged import StageFilter, staged_rank

# White: W1x13, W2, W16; Black: B1x12, B5, B6, B15 (White's third turn); White plays 5-3 (9 distinct
# plays)
HEAD_TEMPO = "W:1x13,2,16 B:1x12,5,6,15 w"


@pytest.fixture(scope="module")
def ranking():
    return staged_rank(Position.parse(HEAD_TEMPO), "5-3", "heuristic", games=144, until_se=None,
                       filters=("0.05", "top2"))


def test_no_play_within_the_margin_is_dropped(ranking):
    """Would catch: a filter measured from the wrong end, or by rank instead of score."""
    zero = ranking.stages[0]
    best = zero.scores[0][1]
    for play, score in zero.scores:
        assert (play in zero.kept) == (score >= best - 0.05)
    one = ranking.stages[1]
    assert len(one.scores) == len(zero.kept)
    assert len(one.kept) >= min(2, len(one.scores))
    assert {p.play for p in ranking.plays} == set(one.kept)


def test_every_stage_is_in_the_json(ranking):
    """Would catch: stages missing from the saved results the report is drawn from."""
    data = ranking.to_dict()
    assert [s["name"] for s in data["stages"]] == ["0-ply", "1-ply"]
    assert len(data["stages"][0]["scores"]) == 9
    assert data["params"]["filters"] == ["0.05", "top2"] and "vr" in data["params"]


def test_top_k_keeps_ties_and_bad_filters_are_refused():
    """Would catch: 'top3' parsed as a margin, or a negative margin accepted."""
    import numpy as np
    assert list(StageFilter.parse("top2").keep(np.array([0.1, 0.3, 0.3, 0.2]))) == [1, 2]
    assert list(StageFilter.parse("0.1").keep(np.array([0.1, 0.3, 0.25, 0.2]))) == [1, 2, 3]
    for bad in ("top0", "-0.1", "x", "nan"):
        with pytest.raises(FilterError, match=repr(bad)):
            StageFilter.parse(bad)


def test_identical_for_one_and_two_workers(ranking):
    """Would catch: per-game values assembled in the order jobs finish."""
    two = staged_rank(Position.parse(HEAD_TEMPO), "5-3", "heuristic", games=144, until_se=None,
                      filters=("0.05", "top2"), workers=2)
    assert two.to_dict() == ranking.to_dict()


def test_a_lone_survivor_is_split_across_workers_with_the_same_result():
    """Would catch: a lone survivor's round run on one core while the others idle, or its pieces
    joined out of order (the per-game values would no longer pair with the other plays' games)."""
    from nardy_cli.analysis.staged import round_jobs
    jobs = round_jobs({0: "spec0", 3: "spec3"}, [3], 1296, 2592, workers=2)
    assert [(key, lo, hi) for _, key, lo, hi in jobs] == [(3, 1296, 1944), (3, 1944, 2592)]
    assert len(round_jobs({0: "a", 1: "b"}, [0, 1], 0, 1296, workers=2)) == 2
    args = dict(games=144, until_se=None, filters=("0.05", "top1"))
    # the two survivors (top1 keeps the runner-up too: issue 41), each split in two on 4 workers
    one = staged_rank(Position.parse(HEAD_TEMPO), "5-3", "heuristic", workers=1, **args)
    four = staged_rank(Position.parse(HEAD_TEMPO), "5-3", "heuristic", workers=4, **args)
    assert len(one.plays) == 2 and [p.games for p in one.plays] == [144, 144]
    assert four.to_dict() == one.to_dict()
