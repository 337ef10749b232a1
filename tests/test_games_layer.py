"""The games layer (issue 8): one tally in four modes, two turn loops that play the same games,
policies asked one way, parameter rows padded for long vectors, policies pickled by name."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from nardy_cli.core.outcomes import money_valuation
from nardy_cli import START
from nardy_cli.core.errors import PolicyError
from nardy_cli.games import OUTCOMES, PAIRS, RESULTS, VALUES, GameSpec, Tally, play_chunk
from nardy_cli.games.compiled_loop import kernel_pickers, kernel_policies, play_compiled
from nardy_cli.games.scoring import Scoring
from nardy_cli.games.python_loop import play_python
from nardy_cli.kernels.evaluate import N_WEIGHTS
from nardy_cli.kernels.pickers import RandomPick, ScorePick
from nardy_cli.policies import PythonPolicy, get_policy
from nardy_cli.policies.builtin import HEURISTIC, weights_policy
from nardy_cli.core.rules import make_rules


class CompiledChoice:
    """A Python bot that makes the heuristic's choice by asking it the same way the loops do."""

    # never called: `pick` is the one way policies are asked
    def choose(self, position, dice, plays, rng):
        raise AssertionError


class HeuristicInPython(PythonPolicy):
    """A Python policy whose every pick is the compiled heuristic's pick for the same turn."""

    def pick(self, turn):
        return HEURISTIC.pick(turn)


@pytest.mark.parametrize("mode", [RESULTS, PAIRS])
def test_python_loop_plays_the_compiled_loops_games(mode):
    """Catches a Python turn loop that drifts from the compiled one (dice, stratum, end of game,
    result code, deficit bookkeeping, or the pairs' side swap): a Python policy making the
    heuristic's choices must give game-for-game the same results as the heuristic in the kernel."""
    rules = make_rules()
    python_side = HeuristicInPython("heuristic-in-python", CompiledChoice())
    compiled = GameSpec(START, rules, HEURISTIC, get_policy("random"), 9, True)
    in_python = GameSpec(START, rules, python_side, get_policy("random"), 9, True)
    assert compiled.white.in_kernel and not in_python.in_kernel
    a, b = Tally(mode), Tally(mode)
    play_compiled(compiled, 0, 24, 20000, a)
    play_python(in_python, 0, 24, 20000, b)
    assert ((a.counts == b.counts).all() and (a.deficit == b.deficit).all()
            and (a.plies == b.plies).all())
    assert (a.results.keys() == b.results.keys()
            and all((a.results[k] == b.results[k]).all() for k in a.results))
    assert a.games == b.games == (48 if mode == PAIRS else 24)


def test_long_parameter_vectors_are_zero_padded_per_side():
    """Catches per-side parameter rows built at the kernel's fixed length (a network's long vector
    cut off or a broadcast error), or a short side not zero-padded: a heuristic whose weights come
    as a long float64 array (trailing zeros) must play exactly like the heuristic."""
    weights = np.asarray(HEURISTIC.evaluator.kernel.weights)
    long = weights_policy("long-heuristic", "padded",
                          np.concatenate([weights, np.zeros(3 * N_WEIGHTS)]))
    rules = make_rules()
    sides, _ = kernel_policies(long, HEURISTIC, rules, money_valuation(rules))
    assert sides.params.shape == (2, 4 * N_WEIGHTS) and sides.params.dtype == np.float64
    assert (sides.params[1, N_WEIGHTS:] == 0).all()
    a, b = Tally(OUTCOMES), Tally(OUTCOMES)
    play_compiled(GameSpec(START, rules, long, get_policy("random"), 4, True), 0, 40, 20000, a)
    play_compiled(GameSpec(START, rules, HEURISTIC, get_policy("random"), 4, True), 0, 40, 20000, b)
    assert (a.counts == b.counts).all() and (a.plies == b.plies).all()


def test_a_pair_of_policies_gives_the_loop_the_same_pickers_in_either_colour_order():
    """Catches pickers passed by colour (heuristic against random and random against heuristic,
    a duel's two games, compiled as two turn loops), or a `picker_of` that does not say which
    picker plays each colour (a side playing by the other's picker)."""
    rules = make_rules()
    random = get_policy("random")
    forward, _ = kernel_policies(HEURISTIC, random, rules, money_valuation(rules))
    backward, _ = kernel_policies(random, HEURISTIC, rules, money_valuation(rules))
    pickers = kernel_pickers(HEURISTIC, random, forward)
    assert pickers == kernel_pickers(random, HEURISTIC, backward) == (RandomPick(), ScorePick())
    assert forward.picker_of.tolist() == [1, 0] and backward.picker_of.tolist() == [0, 1]
    assert [type(pickers[i]) for i in forward.picker_of] == [ScorePick, RandomPick]


def test_a_duel_and_the_results_of_a_pair_of_policies_call_the_loop_with_one_signature(
        monkeypatch):
    """Catches a loop entry per tally mode again, or a duel's arguments typed apart from plain
    results' (the bear-off databases in its pickers, another option): `nardy duel` after a
    rollout of the same policies would compile the whole game loop a second time."""
    from nardy_cli.games import compiled_loop
    from nardy_cli.kernels import runs
    calls = []
    monkeypatch.setattr(compiled_loop, "call_kernel",
                        lambda loop, *args: calls.append((loop, args)))
    rules = make_rules()
    # a rollout's scoring (the bear-off databases): duels and plain results play without it
    spec = GameSpec(START, rules, HEURISTIC, get_policy("heuristic"), 9, True,
                    Scoring(exact_bearoff=True, vr=False))
    for mode in (PAIRS, RESULTS):
        play_compiled(spec, 0, 4, 20000, Tally(mode))
    (first, a), (second, b) = calls
    assert first is second is runs.play_chunk
    assert [first.typeof_pyval(x) for x in a] == [first.typeof_pyval(x) for x in b]
    assert a[7] == runs.INTO_PAIRS and b[7] == runs.INTO_ROWS


def test_tallies_add_only_within_their_mode():
    """Catches a duel tally summed into a rollout's counts (shapes happen to broadcast for one
    row)."""
    with pytest.raises(ValueError, match="cannot add"):
        Tally(OUTCOMES).add(Tally(PAIRS))
    pairs = Tally(PAIRS)
    pairs.counts[0, 4] = 3
    total = Tally(PAIRS)
    total.add(pairs)
    total.add(pairs)
    assert total.games == 12 and total.joint[0, 4] == 6


def test_named_policies_pickle_as_their_name_and_builtins_as_data():
    """Catches a named Python bot pickled by value (its lock cannot be) or a built-in that loses its
    weights on the way to a worker."""
    bot = get_policy("tests.bots.lockbot:Bot")
    assert pickle.loads(pickle.dumps(bot)).source == "tests.bots.lockbot:Bot"
    assert len(pickle.dumps(bot)) < 300
    assert pickle.loads(pickle.dumps(HEURISTIC)) == HEURISTIC
    with pytest.raises(TypeError):
        pickle.dumps(PythonPolicy("unnamed", bot.obj))



@pytest.mark.parametrize("other_thread", [False, True])
def test_ctrl_c_during_a_compiled_loop_call_waits_until_it_returns(other_thread):
    """Catches a Ctrl-C landing while numba unboxes a loop's first-class function arguments, which
    numba turned into "TypeError: _get_wrapper_address() missing 1 required positional argument" (a
    rollout interrupted at the wrong moment exited 1 instead of printing its partial result); with
    another thread alive (Dask's, tqdm's), a SIGINT merely blocked in the main thread went to that
    thread and Python raised it in the main thread all the same (a fresh-clone `make test` failed
    so)."""
    import os
    import signal
    import threading
    import time

    from nardy_cli.games.compiled_loop import call_kernel
    finished = []

    def loop(x):
        os.kill(os.getpid(), signal.SIGINT)      # arrives "inside" the call ...
        time.sleep(0.2)                           # ... (time for another thread to take it) ...
        sum(range(10))                            # ... Python code runs on (numba's unpickling) ...
        finished.append(x)                        # ... and the call still runs to its end

    stop = threading.Event()
    helper = threading.Thread(target=stop.wait, daemon=True)
    if other_thread:
        helper.start()
    # Python's own handler, even when the suite runs as a background job (which ignores SIGINT)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            call_kernel(loop, 7)
    finally:
        signal.signal(signal.SIGINT, previous)
        stop.set()
    assert finished == [7]
    assert signal.getsignal(signal.SIGINT) is previous


def test_values_tallies_of_chunks_add_up_like_the_counts():
    """Catches a VALUES tally whose chunks do not merge: a chunk's per-game values lost or
    overwritten in `add` (keyed by the chunk, not by (key, first game)), its deficits or plies not
    summed, or values for other games than the counts: two chunks added in either order hold the
    one run's per-game values, and finished games' values (one-hot) sum to the OUTCOMES counts."""
    spec = GameSpec(START, make_rules(), HEURISTIC, get_policy("random"), 11, True)
    whole = play_chunk(spec, VALUES, "k", 0, 72)
    merged = Tally(VALUES)
    merged.add(play_chunk(spec, VALUES, "k", 36, 72))
    merged.add(play_chunk(spec, VALUES, "k", 0, 36))
    assert merged.games == whole.games == 72 and sorted(merged.values) == [("k", 0), ("k", 36)]
    plain = np.concatenate([merged.values[key][0] for key in sorted(merged.values)])
    assert (plain == whole.values[("k", 0)][0]).all()
    assert (merged.deficit == whole.deficit).all() and (merged.plies == whole.plies).all()
    counts = play_chunk(spec, OUTCOMES, None, 0, 72)
    assert (plain.sum(axis=0) == counts.counts.sum(axis=0)).all()
    assert (merged.deficit == counts.deficit).all() and (merged.plies == counts.plies).all()


def test_values_need_compiled_policies():
    """Catches a Python bot's games in VALUES mode returning no values at all (an empty ranking)
    instead of saying why."""
    bot = HeuristicInPython("py", CompiledChoice())
    spec = GameSpec(START, make_rules(), bot, get_policy("random"), 1, True)
    with pytest.raises(PolicyError, match="compiled policies"):
        play_chunk(spec, VALUES, "k", 0, 2)
