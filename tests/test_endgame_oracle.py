"""End of game (R7–R9) against the independent oracle of tests/oracle.py, class by class.

The oracle shares no code with the engine; its exact distributions for small
endgames are compared with rollouts for every outcome class, at bounds (4 binomial
standard errors of 12,960 games, about 0.015 at p = 0.2) far tighter than the gaps
between classes, so a swapped or mis-judged class fails.
"""

from __future__ import annotations

import math
import random

import pytest

from nardy_cli import outcome, parse_position
from nardy_cli.analysis.rollout import rollout
from nardy_cli.core.rules import make_rules
from nardy_cli.games.scoring import Scoring
from tests.bruteforce_games import play_random_game
from tests.oracle import KEYS, exact_distribution, game_end, loser_class, read
from tests.randomgames import random_game_positions

GAMES = 12960   # ten chunks of 1,296

# Each position, drawn in its own numbering, with the classes it produces:
ENDGAMES = [
    # White W21,W22 (bears off in one or two turns); Black B12 (koks point) and 14 on B24.
    # White to move: White wins by oin / home-mars / mars / koks depending on Black's one or two
    # turns.
    "W:21,22 B:12,24x14 w",
    # The same with Black to move: Black (root) loses by oin, home-mars or mars; R8 last rolls
    # happen.
    "W:21,22 B:12,24x14 b",
    # White W6 (koks point) and 14 on W24; Black B20,B23 finishes in one or two turns: White loses
    # by each of oin, home-mars, mars and koks.
    "W:6,24x14 B:20,23 w",
    # Draws on the last roll (R8): White bears both off at once; Black (all home) draws with any
    # double (6 of 36 rolls: 0.1667 = 6/36), else White wins by oin.
    "W:24x2 B:23,24x2 w",
    # R8 class judged after Black's last turn: home-mars, unless the last roll bears a checker off
    # (oin).
    "W:24 B:19x2,24x13 w",
    # Small races with draws and both winners.
    "W:23,24 B:23,24 w",
    "W:20,22,24 B:21,24 w",
    "W:19 B:24x2 b",
    "W:24x3 B:19,20 w",
    "W:21,22 B:23x2 b",
]

# Plain games to the end: no bear-off database, no truncation, no variance reduction.
PLAIN = Scoring(exact_bearoff=False, truncate=None, vr=False)


def test_oracle_classes_by_hand():
    """The oracle itself, on RULES.md §6's table (catches an oracle that drifts from the spec)."""
    assert loser_class(read("W:- B:19x14 w").black) == "oin"          # one off
    assert loser_class(read("W:- B:19x15 w").black) == "home_mars"    # all home, none off
    assert loser_class(read("W:- B:13x15 w").black) == "mars"         # none on 1-12, not all home
    assert loser_class(read("W:- B:12,19x14 w").black) == "koks"      # one on point 12
    # R8: Black's last roll to come
    assert game_end(read("W:- B:24x2 b"), last_roll=True) is None
    assert game_end(read("W:- B:24x2 b"), last_roll=False) == ("w", "oin")
    # not all home: no last roll
    assert game_end(read("W:- B:12,24 b"), last_roll=True) == ("w", "oin")
    # last roll already played
    assert game_end(read("W:- B:24x2 w"), last_roll=True) == ("w", "oin")
    assert game_end(read("W:- B:- w"), last_roll=True) == (None, "draw")


def _engine_end(text: str, last_roll: bool):
    done = outcome(parse_position(text, check_blocks=False), make_rules(last_roll=last_roll))
    if done is None:
        return None
    return done.winner, done.kind.replace("-", "_")


@pytest.mark.parametrize("last_roll", [True, False])
def test_engine_outcome_agrees_with_the_oracle(last_roll):
    """Catches an engine `outcome` that misjudges R8 or an R9 class, on positions from games and at
    the end."""
    texts = [str(p) for p, _ in random_game_positions(300, seed=4)]
    # finished and nearly finished positions of every class, both sides, both turns
    for loser in ("19x15", "19x14", "13x15", "12,13x14", "1x15", "24x2", "12,24"):
        for turn in "wb":
            texts += [f"W:- B:{loser} {turn}", f"W:{loser} B:- {turn}"]
    for text in texts:
        assert _engine_end(text, last_roll) == game_end(read(text), last_roll), text


@pytest.mark.parametrize("text", ENDGAMES)
def test_rollout_matches_the_exact_distribution_class_by_class(text):
    """Catches a swapped outcome class (e.g. mars for koks), a wrong R8, or wrong win/loss
    bookkeeping."""
    exact = exact_distribution(text)
    r = rollout(parse_position(text), "random", games=GAMES, seed=3, scoring=PLAIN)
    for key in KEYS + ("win", "lose"):
        p, got = exact[key], r.probabilities[key]
        if min(p, 1 - p) < 1e-9:   # impossible or certain: the rollout must agree exactly
            assert got == pytest.approx(p, abs=1e-9), (key, got, p)
            continue
        se = math.sqrt(p * (1 - p) / GAMES)
        assert abs(got - p) <= 4 * se + 1e-12, (key, got, p, se)


@pytest.mark.parametrize("text",
                         ["W:24x2 B:23,24x2 w", "W:24 B:19x2,24x13 w", "W:21,22 B:12,24x14 b"])
def test_without_last_roll_classic_rules_match_the_oracle(text):
    """Catches the last roll (R8) applied when the rules switch it off (the classic preset)."""
    exact = exact_distribution(text, head_rule="doubles-643", block_check="turn-end",
                               last_roll=False)
    assert exact["draw"] == 0.0
    r = rollout(parse_position(text), "random", games=2592, seed=5, rules=make_rules("classic"),
                scoring=PLAIN)
    for key in KEYS:
        p = exact[key]
        se = math.sqrt(max(p * (1 - p), 0.0) / 2592)
        assert abs(r.probabilities[key] - p) <= 4 * se + 1e-12, (key, r.probabilities[key], p)


def test_random_games_from_the_start_agree_with_brute_force_games():
    """Catches gross disagreement between whole compiled games and brute-force games, every class.

    300 brute-force games (slow) against 12,960 compiled ones: a loose, two-sample 4-sigma check.
    """
    rng = random.Random(5)
    n = 300
    games = [play_random_game(rng) for _ in range(n)]
    r = rollout(parse_position("start"), "random", games=GAMES, seed=9, scoring=PLAIN)
    for key in KEYS + ("win",):
        def hit(winner, cls):
            if key == "draw":
                return winner is None
            if key == "win":
                return winner == "w"
            side, c = key.split("_", 1)
            return cls == c and winner == ("w" if side == "win" else "b")
        p_bf = sum(1 for w, c in games if hit(w, c)) / n
        se = math.sqrt(max(p_bf * (1 - p_bf), 1 / n) / n + r.se[key] ** 2)
        assert abs(p_bf - r.probabilities[key]) <= 4 * se, (key, p_bf, r.probabilities[key])
