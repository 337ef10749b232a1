"""Rollouts: reproducibility, worker counts, first-turn dice, stop rules, interrupts, errors.

Exact outcome checks against the independent oracle are in tests/test_endgame_oracle.py.
"""

from __future__ import annotations

import json

import pytest

from nardy_cli import START, parse_position
from nardy_cli.core.errors import NardyError, PolicyError
from nardy_cli.reports.render import to_json
from nardy_cli.analysis.rollout import rollout
from nardy_cli.core.rules import make_rules


def test_small_bear_off_without_last_roll_has_no_draws():
    pos = parse_position("W:24 B:24 w")
    r = rollout(pos, "random", games=500, seed=1, rules=make_rules(last_roll=False))
    assert r.probabilities["win"] == 1.0 and r.probabilities["draw"] == 0.0


def test_probabilities_add_up():
    r = rollout(START, "random", games=3000, seed=2)
    p = r.probabilities
    assert p["win"] + p["lose"] + p["draw"] == pytest.approx(1.0)
    assert p["win"] == pytest.approx(sum(p[f"win_{c}"]
                                         for c in ("oin", "home_mars", "mars", "koks")))
    assert r.mean_plies > 50


def test_same_seed_same_json_and_worker_count_does_not_matter(pool_submits):
    """Catches results that depend on the worker count or on the order chunks finish in.

    5,000 games are four chunks (1,296 x 3 + 1,112); the pool must have run all four.
    """
    one = rollout(START, "random", games=5000, seed=77, workers=1)
    assert pool_submits == []
    two = rollout(START, "random", games=5000, seed=77, workers=2)
    assert sorted(job for _, job in pool_submits) == [(0, 1296), (1296, 2592), (2592, 3888),
                                                      (3888, 5000)]
    again = rollout(START, "random", games=5000, seed=77, workers=1)
    assert to_json(one.to_dict()) == to_json(two.to_dict()) == to_json(again.to_dict())
    other = rollout(START, "random", games=5000, seed=78)
    assert other.equity != one.equity


def test_position_dice_are_used_for_the_first_turn():
    """Catches a rollout that ignores the position's dice (or rolls them only in some games).

    From the start, 6-6 has one play (1/7 1/7, R5) and loses the other two sixes (12 pips).
    Game i's later dice depend only on (seed, i), so the games are exactly those of a rollout
    of the position after 1/7 1/7 (Black to move, so win and lose swap), plus that first turn.
    """
    with_dice = rollout(parse_position("W:1x15 B:1x15 w 6-6"), "random", games=1296, seed=1)
    after = rollout(parse_position("W:1x13,7x2 B:1x15 b"), "random", games=1296, seed=1)
    assert with_dice.probabilities["win"] == after.probabilities["lose"]
    assert with_dice.probabilities["lose_mars"] == after.probabilities["win_mars"]
    assert with_dice.mean_plies == pytest.approx(after.mean_plies + 1)
    white, white_after = with_dice.deficit["white"], after.deficit["white"]
    assert white["lost_pips_per_game"] == pytest.approx(white_after["lost_pips_per_game"] + 12)


def test_until_se_stops_at_the_first_chunk_whose_se_is_small_enough(pool_submits):
    """Catches a stop rule that stops late, early, or differently with more workers.

    The trace holds (games, equity, SE) after each chunk in game order: every SE before
    the last must be above the target, the last at or below it, and the result is that prefix.
    """
    a = rollout(START, "random", games=50000, seed=4, until_se=0.015, workers=1)
    assert len(a.trace) >= 3, "the target must need several chunks for this test to mean anything"
    assert [g for g, _, _ in a.trace] == [1296 * (i + 1) for i in range(len(a.trace))]
    assert all(se > 0.015 for _, _, se in a.trace[:-1]) and a.trace[-1][2] <= 0.015
    assert (a.games == a.trace[-1][0] and a.equity_se == a.trace[-1][2]
            and a.equity == a.trace[-1][1])
    b = rollout(START, "random", games=50000, seed=4, until_se=0.015, workers=2)
    assert len(pool_submits) >= 3
    assert to_json(a.to_dict()) == to_json(b.to_dict())


def test_a_short_run_is_cut_finer_so_every_worker_has_a_job(pool_submits):
    """Catches a run shorter than one chunk per worker leaving workers idle (a 700-game rollout of a
    slow policy ran on one core), and finer jobs that change the result or the stop rule's
    checkpoints."""
    from nardy_cli.games import job_size
    assert job_size(700, 2) == 648 and job_size(700, 1) == 1296 and job_size(5000, 2) == 1296
    assert job_size(100, 4) == 81          # never below 1,296 / 16
    one = rollout(START, "heuristic", games=700, seed=5, workers=1)
    two = rollout(START, "heuristic", games=700, seed=5, workers=2)
    assert sorted(job for _, job in pool_submits) == [(0, 648), (648, 700)]
    assert to_json(one.to_dict()) == to_json(two.to_dict())
    # the stop rule still looks only at whole chunks: 1,296, 2,592 ... and at the end
    three = rollout(START, "random", games=2000, seed=4, until_se=1e-9, workers=4)
    assert [g for g, _, _ in three.trace] == [1296, 2000]


def test_stratification_reduces_standard_error():
    # In a short race the first roll decides much of the game, so stratifying it pays most.
    # (Both sides are home: games are played out, not scored by the bear-off databases.)
    from nardy_cli.games.scoring import Scoring
    race = parse_position("W:19x2,20x2 B:22x3 w")
    played = Scoring(exact_bearoff=False)
    s = rollout(race, "random", games=12960, seed=6, scoring=played)
    u = rollout(race, "random", games=12960, seed=6, stratify=False, scoring=played)
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
    assert list(d) == ["position", "side", "params", "games", "interrupted", "probabilities",
                       "se", "equity", "equity_se", "mean_plies", "deficit"]
    keys = ["win", "lose", "draw", "win_oin", "win_home_mars", "win_mars", "win_koks",
            "lose_oin", "lose_home_mars", "lose_mars", "lose_koks"]
    assert sorted(d["probabilities"]) == sorted(keys) and sorted(d["se"]) == sorted(keys)
    assert {"rules", "policies", "seed", "games_requested", "stratify",
            "version"} <= set(d["params"])
    assert set(d["deficit"]) == {"white", "black"}
    assert set(d["deficit"]["white"]) == {"face_deficit", "lost_pips_per_game",
                                          "partial_turn_share", "pass_share"}
    assert len(d["deficit"]["white"]["face_deficit"]) == 6


def test_the_json_says_whose_chances_it_holds():
    """Bug caught (issue 41): a rollout's JSON object without the side its chances and equity are
    for, which every table states ("outcome for Black")."""
    for text, side in (("W:1x14,12 B:1x15 b", "black"), ("start", "white")):
        pos = START if text == "start" else parse_position(text)
        d = json.loads(to_json(rollout(pos, "random", games=20, seed=1).to_dict()))
        assert d["side"] == side


def _near_zero(result):
    """`result` with its koks chances a hair below 0 and an SE wide enough to reach below 0, as VR
    gives."""
    from dataclasses import replace
    probs = {**result.probabilities, "win_koks": -0.00001, "lose_koks": 0.001}
    se = {**result.se, "win_koks": 0.0004, "lose_koks": 0.002}
    return replace(result, probabilities=probs, se=se)


def test_probability_intervals_are_clipped_to_0_1():
    """Catches `outcome_frame()`'s ci95_low below 0 (or ci95_high above 1) when a luck-adjusted
    chance lies near the end of [0, 1], or an interval of zero width at a chance of 0 (issue 41,
    item 7: Wilson's interval over the games)."""
    frame = _near_zero(rollout(START, "random", games=72, seed=1,
                               workers=1)).outcome_frame().set_index("outcome")
    assert frame.loc["win_koks", "ci95_low"] == 0.0       # a chance of -0.00001: counted as 0
    assert frame.loc["win_koks", "ci95_high"] == pytest.approx(1.96 ** 2 / (72 + 1.96 ** 2))
    assert 0.0 <= frame.loc["lose_koks", "ci95_low"] < 0.001 < frame.loc["lose_koks", "ci95_high"]
    # skewed up near 0, as a share's interval is: wider above than p + 1.96 SE
    assert frame.loc["lose_koks", "ci95_high"] > 0.001 + 1.96 * 0.002
    assert (frame["ci95_low"] >= 0.0).all() and (frame["ci95_high"] <= 1.0).all()


def test_a_chance_a_hair_below_zero_never_prints_as_minus_zero():
    """Catches `-0.0000` in the rollout table for a luck-adjusted chance of -0.00001."""
    from nardy_cli.commands.tables import rollout_table
    from nardy_cli.reports.render import frame_text, number
    text = rollout_table(_near_zero(rollout(START, "random", games=72, seed=1, workers=1)))
    assert "-0.0000" not in text
    assert (number(-0.00001) == "0.0000" and number(-0.0004, "{:+.3f}") == "+0.000"
            and number(-0.002) == "-0.0020")
    import pandas as pd
    assert frame_text(pd.DataFrame({"win": [-0.00001, 0.5]}), "table") == "   win\n0.0000\n0.5000"


def test_a_missed_until_se_target_is_said_in_the_json_and_the_output():
    """Catches `--until-se` silently giving up at the maximum `--games`: the JSON must say
    `until_se_met` false and the output must name the games played and the SE reached."""
    from click.testing import CliRunner

    from nardy_cli.commands.cli import cli
    met = rollout(START, "random", games=1296, seed=1, workers=1, until_se=0.5)
    missed = rollout(START, "random", games=1296, seed=1, workers=1, until_se=0.001)
    assert met.params["until_se_met"] is True and missed.params["until_se_met"] is False
    assert "until_se_met" not in rollout(START, "random", games=72, seed=1, workers=1).params
    out = CliRunner().invoke(cli, ["rollout", "start", "--games", "1296", "--until-se", "0.001",
                                   "--workers", "1", "--seed", "1", "--quiet", "--policy",
                                   "random"])
    assert out.exit_code == 0
    assert out.output.endswith("--until-se 0.001 not reached: the maximum --games (1,296) "
                               "was played, "
                               f"SE {missed.equity_se:.4f}\n")
    out = CliRunner().invoke(cli,
                             ["analyze", "W:1x13,7,12 B:1x14,7 w", "--dice", "4-2", "--games", "72",
                              "--until-se", "0.001", "--workers", "1", "--policy", "random",
                              "--quiet"])
    assert out.exit_code == 0
    assert "--until-se 0.001 not reached: the maximum --games (72) was played, SE 0." in out.output
    out = CliRunner().invoke(cli, ["openings", "--rolls", "65", "--games", "72", "--until-se",
                                   "0.001", "--workers", "1", "--policy", "random", "--quiet",
                                   "--format", "json"])
    assert json.loads(out.output.splitlines()[0])["params"]["until_se_met"] is False
    assert ("Warning: --until-se 0.001 not reached: the maximum --games (72) was played, SE 0."
            in out.output)
