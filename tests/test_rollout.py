"""Rollouts: exact small cases, agreement with brute-force games, reproducibility, stop rules."""

from __future__ import annotations

import json
import math
import random

import pytest

from bruteforce_games import play_random_game
from exact import exact_random_outcome
from nardy_cli import START, parse_position
from nardy_cli.errors import NardyError, PolicyError
from nardy_cli.render import to_json
from nardy_cli.rollout import rollout
from nardy_cli.rules import make_rules

FED = make_rules()


@pytest.mark.parametrize("text", [
    "W:23,24 B:23,24 w",
    "W:20,22,24 B:21,24 w",
    "W:19 B:24x2 b",
    "W:24x3 B:19,20 w",
    "W:21,22 B:23x2 b",
])
def test_small_bear_offs_match_exact_expectation(text):
    pos = parse_position(text)
    exact = exact_random_outcome(pos, FED)
    r = rollout(pos, "random", games=20000, seed=3)
    for key in ("win", "lose", "draw"):
        se = max(r.se[key], 1e-4)
        assert abs(r.probabilities[key] - exact[key]) <= 4 * se, (key, r.probabilities[key], exact[key], se)


def test_small_bear_off_without_last_roll_has_no_draws():
    pos = parse_position("W:24 B:24 w")
    r = rollout(pos, "random", games=500, seed=1, rules=make_rules(last_roll=False))
    assert r.probabilities["win"] == 1.0 and r.probabilities["draw"] == 0.0


def test_random_games_agree_with_brute_force_driver():
    rng = random.Random(5)
    n = 400
    games = [play_random_game(rng) for _ in range(n)]
    r = rollout(START, "random", games=20000, seed=9)
    for key, pick in (("win", lambda w, c: w == "w"), ("draw", lambda w, c: w == "draw"),
                      ("win_oin", lambda w, c: w == "w" and c == "oin")):
        p_bf = sum(1 for w, c in games if pick(w, c)) / n
        se = math.sqrt(max(p_bf * (1 - p_bf), 1e-4) / n + r.se[key] ** 2)
        assert abs(p_bf - r.probabilities[key]) <= 4 * se, (key, p_bf, r.probabilities[key])


def test_probabilities_add_up():
    r = rollout(START, "random", games=3000, seed=2)
    p = r.probabilities
    assert p["win"] + p["lose"] + p["draw"] == pytest.approx(1.0)
    assert p["win"] == pytest.approx(sum(p[f"win_{c}"] for c in ("oin", "home_mars", "mars", "koks")))
    assert r.mean_plies > 50


def test_same_seed_same_json_and_worker_count_does_not_matter():
    one = rollout(START, "random", games=5000, seed=77, workers=1)
    two = rollout(START, "random", games=5000, seed=77, workers=2)
    again = rollout(START, "random", games=5000, seed=77, workers=1)
    assert to_json(one.to_dict()) == to_json(two.to_dict()) == to_json(again.to_dict())
    other = rollout(START, "random", games=5000, seed=78)
    assert other.equity != one.equity


def test_position_dice_are_used_for_the_first_turn():
    r = rollout(parse_position("W:1x15 B:1x15 w 6-6"), "random", games=200, seed=1)
    assert r.deficit["white"]["face_deficit"][5] > 0  # 6-6 from the start always loses two sixes


def test_until_se_stops_early_and_reproducibly():
    a = rollout(START, "random", games=50000, seed=4, until_se=0.03, workers=1)
    b = rollout(START, "random", games=50000, seed=4, until_se=0.03, workers=2)
    assert a.games < 50000 and a.games % 1296 == 0 and a.equity_se <= 0.03
    assert to_json(a.to_dict()) == to_json(b.to_dict())


def test_stratification_reduces_standard_error():
    # In a short race the first roll decides much of the game, so stratifying it pays most.
    race = parse_position("W:19x2,20x2 B:22x3 w")
    s = rollout(race, "random", games=12960, seed=6)
    u = rollout(race, "random", games=12960, seed=6, stratify=False)
    assert s.params["stratify"] and not u.params["stratify"]
    assert s.equity_se < 0.85 * u.equity_se
    assert abs(s.equity - u.equity) < 4 * u.equity_se


def test_interrupt_returns_partial_result():
    calls = []

    def progress(partial):
        calls.append(partial.games)
        if len(calls) == 2:
            raise KeyboardInterrupt

    r = rollout(START, "random", games=20000, seed=1, progress=progress)
    assert r.interrupted and 0 < r.games < 20000


def test_interrupt_with_worker_processes():
    calls = []

    def progress(partial):
        calls.append(partial.games)
        if len(calls) == 3:
            raise KeyboardInterrupt

    r = rollout(START, "random", games=100000, seed=1, workers=2, progress=progress)
    assert r.interrupted and 0 < r.games < 100000


class _Exits:
    def choose(self, position, dice, plays, rng):
        import os
        os._exit(3)


class _Illegal:
    def choose(self, position, dice, plays, rng):
        return "nonsense"


def test_a_dying_worker_fails_the_rollout():
    from nardy_cli.policies import PythonPolicy
    with pytest.raises(NardyError, match="worker process died"):
        rollout(START, (PythonPolicy("exits", _Exits()), "random"), games=2600, seed=1, workers=2)


def test_python_policy_illegal_choice_is_an_error():
    from nardy_cli.policies import PythonPolicy
    with pytest.raises(PolicyError, match="not one of the"):
        rollout(START, (PythonPolicy("illegal", _Illegal()), "random"), games=10, seed=1)


def test_bad_arguments():
    with pytest.raises(NardyError):
        rollout(START, "random", games=0)
    with pytest.raises(PolicyError, match="known policies"):
        rollout(START, "nope", games=10)
    with pytest.raises(NardyError, match="already over"):
        rollout(parse_position("W:- B:12,24 b"), "random", games=10)


def test_json_keys_exactly():
    d = json.loads(to_json(rollout(START, "random", games=100, seed=1).to_dict()))
    assert list(d) == ["position", "params", "games", "interrupted", "probabilities", "se", "equity",
                       "equity_se", "mean_plies", "deficit"]
    keys = ["win", "lose", "draw", "win_oin", "win_home_mars", "win_mars", "win_koks",
            "lose_oin", "lose_home_mars", "lose_mars", "lose_koks"]
    assert sorted(d["probabilities"]) == sorted(keys) and sorted(d["se"]) == sorted(keys)
    assert {"rules", "policies", "seed", "games_requested", "stratify", "version"} <= set(d["params"])
    assert set(d["deficit"]) == {"white", "black"}
    assert set(d["deficit"]["white"]) == {"face_deficit", "lost_pips_per_game", "partial_turn_share", "pass_share"}
    assert len(d["deficit"]["white"]["face_deficit"]) == 6
