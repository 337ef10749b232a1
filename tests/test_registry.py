"""The one registry: every name form (built-in, `lookahead:NAME`, a plugin, `module:attribute`),
resolved once per process, and an unknown name listing the known ones; review and games resolve
through it."""

from __future__ import annotations

from dataclasses import fields
from importlib.metadata import EntryPoint

import numpy as np
import pytest

from nardy_cli.core.errors import PolicyError, UnknownPolicyError
from nardy_cli.policies.judges import get_evaluator, lookahead_values, search_candidates
from nardy_cli.kernels import evaluate as ev
from nardy_cli.kernels import neural as kn
from nardy_cli.kernels.neural import H_LAST_ROLL
from nardy_cli.policies import (CompiledPolicy, Evaluator, PythonPolicy, Turn, get_policy,
    known_policies)
from nardy_cli.policies import registry
from nardy_cli.policies.evaluator import UserFunction, _network_params
from nardy_cli.core.position import parse_position
from nardy_cli.core.rules import make_rules

FED = make_rules()


class Pips:
    """Pip lead of the side that just moved: an evaluator with a Python form only."""

    name = "pips"

    def equities(self, boards, white, rules):
        return -(np.maximum(boards, 0) * (24 - np.arange(24))).sum(axis=1) / 100.0


@pytest.fixture
def fresh():
    """The registry's per-process caches emptied before and after the test."""
    registry.resolve.cache_clear()
    registry._plugins.cache_clear()
    yield
    registry.resolve.cache_clear()
    registry._plugins.cache_clear()


@pytest.fixture
def plugins(fresh, monkeypatch):
    """Two fake entry points of the `nardy_cli.policies` group: a bot, a Python-only evaluator."""
    eps = [EntryPoint("fake-first", "tests.bots.simple:FirstPlay", registry.ENTRY_POINT_GROUP),
           EntryPoint("fake-pips", "tests.test_registry:Pips", registry.ENTRY_POINT_GROUP)]
    monkeypatch.setattr(registry, "entry_points",
                        lambda group: [e for e in eps if e.group == group])


def test_built_in_names_are_the_built_in_values_and_one_evaluator_each(fresh):
    """Catches the two registries disagreeing on a built-in: 'heuristic' as a review evaluator being
    another object than the policy's value (the hand-set weights as a policy, the logistic estimate
    as a review evaluator, unrelated), or a built-in rebuilt on every lookup."""
    for name in ("random", "racer", "heuristic", "neural"):
        policy = get_policy(name)
        assert isinstance(policy, CompiledPolicy) and policy is get_policy(name)
        assert not policy.lookahead
    heuristic = get_policy("heuristic")
    assert get_evaluator("heuristic").evaluator is heuristic.evaluator.python
    assert heuristic.evaluator.kernel.kind == ev.HEURISTIC and heuristic.has_evaluator
    assert get_evaluator("neural").evaluator is get_policy("neural").evaluator.python


def test_lookahead_prefix_is_the_same_evaluator_one_ply_deeper_with_the_kernels_pruning(fresh):
    """Catches `lookahead:NAME` parsed differently for games and for review (another evaluator, or
    no search), a pruning other than the kernel's, and a lookahead of a lookahead or of `random`
    accepted."""
    for name, width, margin in (("heuristic", ev.LOOKAHEAD_WIDTH, None),
                                ("neural", ev.NEURAL_WIDTH, ev.NEURAL_MARGIN)):
        deep = get_policy(f"lookahead:{name}")
        assert deep.lookahead and deep.depth == 1 and deep.evaluator is get_policy(name).evaluator
        assert deep.pruning == (width, margin)
        judge = get_evaluator(f"lookahead:{name}")
        assert judge.search is deep and judge.name == f"lookahead:{name}"
        assert judge.base_name == name
    for bad in ("lookahead:lookahead:heuristic", "lookahead:random"):
        with pytest.raises(PolicyError, match="lookahead needs"):
            get_policy(bad)


def test_a_plugin_is_found_through_its_entry_point_and_listed(plugins):
    """Catches plugins not consulted (or listed but not found), a plugin policy that does not travel
    to workers by its name, and a plugin evaluator (equities only) refused by review or accepted as
    a bot."""
    assert {"fake-first", "fake-pips"} <= set(known_policies())
    bot = get_policy("fake-first")
    assert isinstance(bot, PythonPolicy) and bot.source == "fake-first"
    assert get_evaluator("fake-pips").name == "pips"
    with pytest.raises(PolicyError, match="review games but not play them"):
        get_policy("fake-pips")


def test_module_attribute_names_each_kind_of_object_once_per_process(fresh):
    """Catches `module:attribute` resolved anew on every lookup (a bot class instantiated per call),
    a numba function not run as a kernel evaluator (or not sent to workers by its name), and an
    evaluator object (equities only) refused."""
    bot = get_policy("tests.bots.simple:FirstPlay")
    assert isinstance(bot, PythonPolicy) and bot is get_policy("tests.bots.simple:FirstPlay")
    compiled = get_policy("tests.bots.user_evaluators:fewest_pips")
    assert isinstance(compiled.evaluator.kernel, UserFunction) and compiled.in_kernel
    assert compiled.source == "tests.bots.user_evaluators:fewest_pips"
    found = registry.resolve("tests.test_registry:Pips")
    assert isinstance(found, Evaluator) and found.kernel is None and isinstance(found.python, Pips)
    assert get_evaluator("tests.test_registry:Pips").evaluator is found.python


def test_an_unknown_name_is_one_error_listing_the_known_names(plugins):
    """Catches a second error path (review's own 'unknown evaluator' with other names, or a plain
    PolicyError the command line cannot tell from a failing bot) and a list missing plugins."""
    for ask in (get_policy, get_evaluator):
        with pytest.raises(UnknownPolicyError) as err:
            ask("alphanardy")
        message = str(err.value)
        assert message.startswith("unknown policy 'alphanardy'; known policies: random, racer, "
                                  "heuristic, neural, ")
        assert "lookahead:NAME" in message and "fake-first" in message and "fake-pips" in message


def test_the_network_vector_is_built_once_per_rules_outside_the_policy(fresh):
    """Catches the network's kernel vector rebuilt on every pick (seconds per game), or a vector
    cached for one rules value served for another (the last-roll option lives in its header)."""
    neural = get_policy("neural")
    first = neural.kernel_params(FED)
    assert neural.kernel_params(FED) is first
    other = neural.kernel_params(make_rules("federation", last_roll=False))
    assert other is not first and other[H_LAST_ROLL] != first[H_LAST_ROLL]
    assert _network_params.cache_info().currsize >= 2


def test_a_turn_carries_only_public_data():
    """Catches kernel scratch (workspaces, the chooser's arrays) put back into `pick(turn)`."""
    assert [f.name for f in fields(Turn)] == ["position", "plays", "boards", "rules", "valuation",
                                              "rstate", "rng"]


def test_rules_are_required_where_they_matter():
    """Catches a silent fallback to federation rules when a caller forgets them."""
    board = np.zeros(24, dtype=np.int8)
    with pytest.raises(TypeError):
        get_policy("neural").static_scores([board], True)
    with pytest.raises(TypeError):
        get_policy("neural").kernel_params()


# White to play 6-1 in contact: several results close at 0-ply
CONTACT = "W:1x9,4x2,6x2,10,14 B:1x8,5x2,8x2,11,12,15 w"


@pytest.mark.parametrize("name", ["heuristic", "neural"])
def test_review_lookahead_is_the_kernels_search(name):
    """Catches review searching with its own lookahead: its candidates not the kernel's
    (`choose_play` picks among them), or the replies it values not the ones the kernel's search
    picks (for the network they are the best replies, so the review's value is the kernel's own to
    1e-5)."""
    from nardy_cli.core.engine import legal_plays
    from nardy_cli.policies.judges import result_board
    policy = get_policy(f"lookahead:{name}")
    position = parse_position(CONTACT)
    plays = legal_plays(position, "6-1", FED)
    boards = np.stack([result_board(p.result, "w") for p in plays])
    scores = policy.static_scores(boards, True, FED)
    cands = search_candidates(policy, scores)
    assert 1 <= len(cands) <= policy.pruning[0] and cands[0] == int(np.argmax(scores))
    turn = Turn(position.with_dice("6-1"), plays, boards.copy(), FED, _money(),
                np.array([1], dtype=np.uint64), np.random.default_rng(0))
    assert policy.pick(turn) in cands
    values = lookahead_values(policy, get_evaluator(name).evaluator, boards[cands], True, FED)
    assert np.isfinite(values).all()
    if name == "neural":
        assert values == pytest.approx(_kernel_values(policy, boards[cands]), abs=1e-5)


def _money():
    from nardy_cli.core.outcomes import money_valuation
    return money_valuation(FED)


def _kernel_values(policy, boards):
    """The kernel's own one-ply value of each result: minus `best_replies`' expected best reply."""
    from nardy_cli.kernels.board import flip, kernel_rules
    from nardy_cli.kernels.movegen import Workspace
    params = policy.kernel_params(FED)
    net = kn.single_precision(params)
    out = []
    for board in boards:
        flipped = np.empty(24, dtype=np.int8)
        flip(board, flipped)
        judge = ev.EvalArgs(policy.kind, params, _money().kernel_values())
        total = ev.best_replies(flipped, False, judge, kernel_rules(FED), net, ev.NO_SCREEN,
                                ev.choice_scratch(), Workspace().arrays(),
                                np.empty((21, 24), dtype=np.int8))
        out.append(-total)
    return np.array(out)


@pytest.fixture
def second_network(fresh):
    """A second network registered as one entry (`register`), removed afterwards."""
    from nardy_cli.policies.network import default_network, widened
    from nardy_cli.policies.analysis import NeuralEvaluator
    from nardy_cli.policies.evaluator import NetworkForm
    net = widened(default_network(), default_network().hidden, seed=1)   # same layers, new value
    evaluator = Evaluator("neural-copy", "the shipped layers again", NetworkForm(net),
                          NeuralEvaluator("neural-copy", net), outcomes=True)
    registry.register("neural-copy", evaluator)
    yield net
    registry._REGISTERED.pop("neural-copy")


def test_a_second_network_is_one_registry_entry(second_network):
    """Catches an evaluator that needs more than its entry to run: its network not reaching the game
    kernel (it would play the shipped one's vector by accident only) or the review, or its name
    unknown to `lookahead:` and to the listing.  The copy plays and judges exactly like `neural`."""
    from nardy_cli.games.duel import duel
    from nardy_cli.records.game_record import parse_game
    from nardy_cli.review.game_review import review_game
    policy = get_policy("neural-copy")
    assert policy.kernel_params(FED) is not get_policy("neural").kernel_params(FED)
    shipped = get_policy("neural").kernel_params(FED)
    np.testing.assert_array_equal(policy.kernel_params(FED), shipped)
    assert get_policy("lookahead:neural-copy").lookahead and "neural-copy" in known_policies()
    assert duel("neural-copy", "neural", games=4, seed=3).points_per_game == 0.0
    record = parse_game(open("games/bearoff-blunder.txt").read())
    mine, theirs = review_game(record, "neural-copy"), review_game(record, "neural")
    assert mine.frame["equity_played"].tolist() == theirs.frame["equity_played"].tolist()
