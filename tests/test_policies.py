"""Policies: registry, Python bots, the plugin entry point, duels and the static estimate."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nardy_cli import START, parse_position
from nardy_cli.games.duel import duel
from nardy_cli.core.errors import PolicyError
from nardy_cli.policies.estimate import static_estimate
from nardy_cli.policies import PythonPolicy, get_policy, known_policies
from nardy_cli.games import GameSpec, Tally
from nardy_cli.games.compiled_loop import play_compiled as play_games_compiled
from nardy_cli.games.python_loop import play_python as play_games_python
from nardy_cli.reports.render import to_json
from nardy_cli.analysis.rollout import rollout
from nardy_cli.core.rules import make_rules
from tests.bots.simple import FirstPlay

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "examples" / "nardy-plugin-example"


def test_unknown_policy_lists_known_names():
    with pytest.raises(PolicyError) as err:
        get_policy("alphanardy")
    assert ("'alphanardy'" in str(err.value) and "heuristic" in str(err.value)
            and "racer" in str(err.value))


def test_module_attribute_policies():
    assert isinstance(get_policy("tests.bots.simple:FirstPlay"), PythonPolicy)
    assert isinstance(get_policy("tests.bots.simple:first_play"), PythonPolicy)
    with pytest.raises(PolicyError, match="cannot import"):
        get_policy("no_such_module_xyz:Bot")
    with pytest.raises(PolicyError, match="no choose"):
        get_policy("os:sep")


def test_lookahead_needs_an_evaluator():
    assert get_policy("lookahead:heuristic").lookahead
    with pytest.raises(PolicyError, match="lookahead needs"):
        get_policy("lookahead:random")


@pytest.mark.parametrize("name, games", [("random", 40), ("racer", 40), ("heuristic", 40),
                                         ("lookahead:heuristic", 3)])
def test_python_driver_plays_exactly_like_the_kernel(name, games):
    spec = GameSpec(START, make_rules(), get_policy(name), get_policy(name), 5, True)
    a, b = Tally(), Tally()
    play_games_python(spec, 0, games, 20000, a)
    play_games_compiled(spec, 0, games, 20000, b)
    assert ((a.counts == b.counts).all() and (a.deficit == b.deficit).all()
            and (a.plies == b.plies).all())


def test_python_policy_rollout_runs():
    r = rollout(START, ("tests.bots.simple:FirstPlay", "random"), games=30, seed=2)
    assert r.games == 30 and r.params["policies"]["white"] == "tests.bots.simple:FirstPlay"
    r = rollout(START, (FirstPlay(), "random"), games=30, seed=2)
    assert r.params["policies"]["white"] == "FirstPlay"


def test_duel_json_keys_and_symmetry():
    d = duel("random", "random", games=400, seed=3)
    assert list(d.to_dict()) == ["a", "b", "games", "points_per_game", "ci95", "se", "win_share",
                                 "win_ci95", "mars_share_for", "mars_share_against",
                                 "koks_share_for", "koks_share_against", "draw_share",
                                 "interrupted", "params"]
    # the same policy on both sides with duplicate dice and the same random stream: exact mirror
    # games
    assert d.points_per_game == 0.0 and d.mars_share_for == d.mars_share_against


def test_duel_is_reproducible_across_workers(pool_submits):
    """Catches duel results that depend on the worker count or chunk order.

    3,000 games are 1,500 duplicate pairs: three chunks of at most 648 pairs, run by the pool.
    """
    one = duel("heuristic", "racer", games=3000, seed=4, workers=1)
    two = duel("heuristic", "racer", games=3000, seed=4, workers=2)
    assert len(pool_submits) == 3
    assert to_json(one.to_dict()) == to_json(two.to_dict())


def test_lookahead_plays_whole_games_and_beats_heuristic():
    r = rollout(START, "lookahead:heuristic", games=12, seed=3)
    assert r.mean_plies > 60 and r.unfinished == 0
    deep = duel("lookahead:heuristic", "heuristic", games=200, seed=12, workers=1)
    assert deep.points_per_game > 0


def test_heuristic_beats_random_and_racer():
    vs_random = duel("heuristic", "random", games=1000, seed=8)
    vs_racer = duel("heuristic", "racer", games=1000, seed=9)
    assert vs_random.win_share > 0.9
    assert vs_racer.ci95[0] > 0


def test_static_estimate_classes_add_up_and_follow_the_race():
    """Catches class probabilities filed under the wrong key, or an estimate from the wrong side's
    view.

    White far behind (14 still on its head, Black all home): White loses, almost surely by koks
    (checkers still on its points 1-12 when Black finishes); the same board with the colours'
    roles swapped is a near-certain win.
    """
    for text in ("W:1x14,12 B:1x15 b", "W:1x14,21 B:19x15 w", "W:19x15 B:1x14,21 w"):
        p = static_estimate(parse_position(text)).probabilities
        assert p["win"] == pytest.approx(p["win_oin"] + p["win_mars"] + p["win_koks"],
                                         abs=1e-9), text
        assert p["lose"] == pytest.approx(p["lose_oin"] + p["lose_mars"] + p["lose_koks"],
                                          abs=1e-9), text
    behind = static_estimate(parse_position("W:1x14,21 B:19x15 w")).probabilities
    assert behind["lose"] > 0.9 and behind["lose_koks"] > 0.5
    ahead = static_estimate(parse_position("W:19x15 B:1x14,21 w")).probabilities
    assert ahead["win"] > 0.9 and ahead["win_koks"] > 0.5
    with pytest.raises(PolicyError, match="no outcome estimate"):
        static_estimate(START, get_policy("racer"))


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory):
    target = tmp_path_factory.mktemp("plugin")
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
           str(PLUGIN)]
    try:  # build offline with the environment's own setuptools when it can
        import setuptools
        import wheel  # noqa: F401
        if int(setuptools.__version__.split(".")[0]) >= 61:
            cmd.insert(4, "--no-build-isolation")
    except ImportError:
        pass
    subprocess.run(cmd, check=True, capture_output=True)
    return target


def test_plugin_found_through_entry_point(plugin_path):
    env = dict(os.environ,
               PYTHONPATH=f"{plugin_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    listed = subprocess.run([sys.executable, "-m", "nardy_cli", "policies"], env=env,
                            capture_output=True, text=True)
    assert listed.returncode == 0 and "least-pips" in listed.stdout
    out = subprocess.run([sys.executable, "-m", "nardy_cli", "duel", "least-pips", "random",
                          "--games", "20", "--workers", "1", "--format", "json"], env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["a"] == "least-pips"


def test_policies_listed():
    names = known_policies()
    assert {"random", "racer", "heuristic", "lookahead:NAME"} <= set(names)


def test_user_compiled_evaluator_runs_in_the_kernel_and_matches_python():
    compiled = get_policy("tests.bots.user_evaluators:fewest_pips")
    assert compiled.evaluator is not None and compiled.description.startswith("Fewest pips")
    spec_c = GameSpec(START, make_rules(), compiled, get_policy("heuristic"), 3, True)
    spec_p = GameSpec(START, make_rules(), get_policy("tests.bots.user_evaluators:FewestPips"),
                      get_policy("heuristic"), 3, True)
    a, b = Tally(), Tally()
    play_games_compiled(spec_c, 0, 30, 20000, a)
    play_games_python(spec_p, 0, 30, 20000, b)
    assert (a.counts == b.counts).all() and (a.plies == b.plies).all()
    r = rollout(START, ("tests.bots.user_evaluators:fewest_pips", "random"), games=300, seed=1,
                workers=2)
    assert r.games == 300 and r.probabilities["win"] > 0.6
    d = duel("tests.bots.user_evaluators:fewest_pips", "tests.bots.user_evaluators:fewest_pips",
             games=40, seed=1)
    assert d.points_per_game == 0.0
    with pytest.raises(PolicyError, match="lookahead needs"):
        get_policy("lookahead:tests.bots.user_evaluators:fewest_pips")
