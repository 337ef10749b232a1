"""Unit tests of the kernels' primitives: flip, bit masks, blocks, head limit, end of game, dice
streams, deficit.

Each primitive is checked against a plain-Python statement of the rule on boards
from random games (and hand-made ones), so a bug shows here before it shows as a
wrong rollout.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from numba import njit

from nardy_cli.kernels import bits as kbits
from nardy_cli.kernels import board as kb
from nardy_cli.kernels import features as kf
from nardy_cli.kernels import game as kg
from nardy_cli.kernels import movegen as km
from nardy_cli.kernels import rng as kr
from nardy_cli.core.position import parse_position
from tests.bruteforce import blocked_forever, head_allowance, step_result
from tests.oracle import game_end, loser_class, read
from tests.randomgames import random_game_positions

HEAD_CODES = {"federation": 0, "doubles-643": 1, "strict": 2}


@pytest.fixture(scope="module")
def boards():
    """(mine, theirs, mover-relative board, opponent's off) for positions of random and
    block-building games."""
    out = []
    for pos, _ in (random_game_positions(150, seed=41, every=3)
                   + random_game_positions(150, seed=42, greedy=0.7)):
        mine = list(pos.white if pos.turn == "w" else pos.black)
        theirs = list(pos.black if pos.turn == "w" else pos.white)
        board, _, opp_off = pos.board()
        out.append((mine, theirs, board, opp_off))
    return out


def test_flip_is_the_other_sides_view_and_an_involution(boards):
    """Catches a flip that forgets the 12-point shift or the sign change (RULES.md §1)."""
    for mine, theirs, board, _ in boards:
        out = np.empty(24, dtype=np.int8)
        kb.flip(board, out)
        assert list(out) == [theirs[p] - mine[(p + 12) % 24] for p in range(24)]
        back = np.empty(24, dtype=np.int8)
        kb.flip(out, back)
        assert (back == board).all()


def test_checker_counts(boards):
    """Catches on_board/opp_on_board counting the wrong sign."""
    for mine, theirs, board, _ in boards:
        assert kb.on_board(board) == sum(mine) and kb.opp_on_board(board) == sum(theirs)


def test_bit_masks_and_rotation(boards):
    """Catches a mask bit on the wrong point or a rotation in the wrong direction (features'
    masks)."""
    for mine, theirs, board, _ in boards:
        m, t = kf.masks(board)
        assert m == sum(1 << p for p in range(24) if mine[p])
        assert t == sum(1 << p for p in range(24) if theirs[(p + 12) % 24])
        flipped = np.empty(24, dtype=np.int8)
        kb.flip(board, flipped)
        fm, ft = kf.masks(flipped)
        assert kf.rotate(t) == fm and kf.rotate(m) == ft
        assert _popcount(m) == sum(1 for n in mine if n)


@njit
def _popcount(x):
    return kbits.popcount(x)


@njit
def _trailing_zeros(x):
    return kbits.trailing_zeros(x)


def test_bit_instructions_count_and_find_bits():
    """Catches `bits.popcount`/`trailing_zeros` on the wrong operand width or the lowest bit
    counted from the wrong end (the features' mobility and blocks, the changed points of a
    play)."""
    rng = np.random.default_rng(5)
    words = [int(w) for w in rng.integers(1, 1 << 62, 2000)] + [1, 1 << 62, (1 << 63) - 1]
    words += [1 << k for k in range(63)] + [(1 << 24) - 1, 0b1011000]
    for w in words:
        assert _popcount(w) == bin(w).count("1")
        assert _trailing_zeros(w) == (w & -w).bit_length() - 1
    assert _popcount(0) == 0


def test_movable_points_inside_the_board(boards):
    """Catches a movable-points mask that lands on the opponent or misses a free point (R1, ignoring
    R6).

    Bearing off is compared only where RULES.md R7 is plain (an exact die, or no checker behind).
    """
    for mine, theirs, board, _ in boards:
        m, t = kf.masks(board)
        home = sum(mine[:18]) == 0
        for face in range(1, 7):
            got = kf.movable_points(m, t, face, home)
            for src in range(24):
                if not mine[src]:
                    continue
                legal = step_result(mine, theirs, src, face, "off") is not None
                if src + face > 24 and any(mine[18:src]):
                    # the over-sized die: the mask does not model R7's "furthest back only"
                    continue
                assert bool(got >> src & 1) == legal, (mine, theirs, face, src)


def test_forbidden_block_matches_the_rule(boards):
    """Catches a block check that counts along the wrong path, misses the wrap, or ignores checkers
    past it (R6)."""
    for mine, theirs, board, opp_off in boards:
        assert kb.forbidden_block(board, opp_off) == blocked_forever(mine, theirs)
    # W23 W24 W1 W2 W3 W4 are B11-B16 for Black: consecutive on Black's path, all Black behind on
    # B1-B10
    mine = [0] * 24
    for p in (22, 23, 0, 1, 2, 3):
        mine[p] = 2
    mine[4] = 3
    theirs = [0] * 24
    theirs[0] = 15
    board = np.array([mine[p] - theirs[(p + 12) % 24] for p in range(24)], dtype=np.int8)
    assert blocked_forever(mine, theirs) and kb.forbidden_block(board, 0)
    assert tuple(kb.forbidden_block_span(board, 0)) == (10, 16)   # B11-B17 (0-based 10..16)
    # a Black checker borne off is past it
    assert not kb.forbidden_block(board, 1)
    # W12 and W13 are B24 and B1: not consecutive for Black
    mine = [0] * 24
    for p in (8, 9, 10, 11, 12, 13):
        mine[p] = 2
    mine[0] = 3
    board = np.array([mine[p] - theirs[(p + 12) % 24] for p in range(24)], dtype=np.int8)
    assert not blocked_forever(mine, theirs) and not kb.forbidden_block(board, 0)


@pytest.mark.parametrize("text",
                         ["start", "W:1x14,21 B:1x15 b", "W:1x14,4 B:1x15 b", "W:1x14,12 B:1x15 b",
                          "W:1x15 B:1x14,9 w", "W:1x14,2 B:1x15 b"])
def test_head_limit_matches_the_rule(text):
    """Catches R5's exception granted or refused wrongly for any variant and any double."""
    pos = parse_position(text)
    board, _, _ = pos.board()
    mine = list(pos.white if pos.turn == "w" else pos.black)
    theirs = list(pos.black if pos.turn == "w" else pos.white)
    for head_rule, code in HEAD_CODES.items():
        for a in range(1, 7):
            for b in range(1, a + 1):
                assert km.head_limit(board, a, b, code) == head_allowance(mine, theirs, (a, b),
                                                                          head_rule), \
                    (text, head_rule, a, b)


@pytest.mark.parametrize("text",
                         ["W:- B:19x15 b", "W:- B:19x14 b", "W:- B:13x15 b", "W:- B:12,13x14 b",
                          "W:1x15 B:- w", "W:20 B:- w", "W:- B:24x2 b", "W:- B:24x2 w",
                          "W:- B:12,24 b", "W:24 B:24 w", "W:- B:19,20 b"])
@pytest.mark.parametrize("last_roll", [True, False])
def test_game_status_and_loser_class(text, last_roll):
    """Catches a wrong R8 (who rolls last, when) or R9 class in the kernel, against the oracle."""
    pos = parse_position(text)
    board, _, _ = pos.board()
    status = kb.game_status(board, pos.turn == "w", last_roll)
    expected = game_end(read(text), last_roll)
    if expected is None:
        assert status == kb.IN_PLAY
        return
    winner, cls = expected
    assert status == {"w": kb.WHITE_WON, "b": kb.BLACK_WON, None: kb.DRAWN}[winner]
    if winner is not None:
        loser = pos.black if winner == "w" else pos.white
        # the loser as mover, no opponent needed for R9
        loser_board = np.array(loser, dtype=np.int8)
        assert ("oin", "home_mars", "mars",
                "koks")[kb.loser_class(loser_board)] == loser_class(loser) == cls


def test_roll_index_is_deterministic_and_uniform():
    """Catches a dice stream that depends on anything but (seed, game, turn), or is biased."""
    rolls = [kr.roll_index(7, g, t) for g in range(2000) for t in range(18)]
    assert rolls == [kr.roll_index(7, g, t) for g in range(2000) for t in range(18)]
    assert rolls != [kr.roll_index(8, g, t) for g in range(2000) for t in range(18)]
    counts = Counter(rolls)
    assert set(counts) == set(range(36))
    expected = len(rolls) / 36
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 80, chi2   # 35 degrees of freedom: P(chi2 > 80) < 1e-4
    # successive turns of a game are not the same roll over and over
    assert sum(1 for g in range(2000)
               if kr.roll_index(7, g, 0) == kr.roll_index(7, g, 1)) < 2000 / 36 * 2


def test_policy_streams_differ_between_games():
    """Catches every game drawing the same random-policy choices."""
    states = {int(kr.policy_state(5, g)) for g in range(1000)}
    assert len(states) == 1000
    s = np.array([kr.policy_state(5, 0)], dtype=np.uint64)
    draws = [int(kr.next_random(s)) for _ in range(100)]
    assert len(set(draws)) == 100


def test_stratified_dice_cover_every_first_and_second_roll():
    """Catches stratification that skips or repeats a roll (README: each first roll once in 36
    games, each pair of first two rolls once in 1,296)."""
    # doubles 1, others 2
    unordered = Counter((max(a, b), min(a, b)) for a in range(1, 7) for b in range(1, 7))
    pairs = Counter()
    for block in range(36):
        firsts = Counter()
        for game in range(36 * block, 36 * block + 36):
            h1, l1, stratum = kg.game_dice(3, game, 0, True, 0, 0)
            h2, l2, _ = kg.game_dice(3, game, 1, True, 0, 0)
            assert stratum == game % 36
            firsts[h1, l1] += 1
            pairs[(h1, l1), (h2, l2)] += 1
        assert firsts == unordered, block
    assert pairs == Counter({(x, y): unordered[x] * unordered[y] for x in unordered
                             for y in unordered})
    # the position's own dice come first; the stratified rolls follow on turns 1 and 2
    assert kg.game_dice(3, 5, 0, True, 6, 6)[:2] == (6, 6)
    assert kg.game_dice(3, 5, 1, True, 6, 6) == kg.game_dice(3, 5, 0, True, 0, 0)


@pytest.mark.parametrize("d1, d2, nsteps, played, lost_faces, lost_pips, kind", [
    (6, 5, 2, 6, {}, 0, "full"),
    (6, 5, 1, 6, {5: 1}, 5, "partial"),          # the 6 played, the 5 lost
    (6, 5, 1, 5, {6: 1}, 6, "partial"),          # only the 5 could be played: the 6 is lost
    (6, 5, 0, 0, {6: 1, 5: 1}, 11, "pass"),
    (3, 3, 4, 3, {}, 0, "full"),
    (3, 3, 3, 3, {3: 1}, 3, "partial"),
    (3, 3, 0, 0, {3: 4}, 12, "pass"),
    # the last checker went off after two 3s: nothing lost
    (3, 3, 2, 3, {}, 0, "finished"),
    # the 6 took the last checker off: the 5 is not lost
    (6, 5, 1, 6, {}, 0, "finished"),
])
def test_record_turn_bookkeeping(d1, d2, nsteps, played, lost_faces, lost_pips, kind):
    """Catches charging the lost step to the played die, wrong pips, a partial counted as a pass, or
    steps counted as lost after the last checker went off (§8, rules decision 18)."""
    deficit = np.zeros((2, kg.N_DEFICIT), dtype=np.int64)
    result = np.zeros((1, 24), dtype=np.int8)      # the roll's one result board (mover-relative)
    if kind != "finished":
        result[0, 23] = 1                          # a checker of the mover is still on the board
    kg.record_turn(deficit, 1, d1, d2, nsteps, played, result, 1)
    row = deficit[1]
    assert deficit[0].sum() == 0 and row[kg.TURNS] == 1
    rolled = Counter([d1] * 4 if d1 == d2 else [d1, d2])
    assert [row[kg.F_ROLLED + f - 1] for f in range(1, 7)] == [rolled[f] for f in range(1, 7)]
    assert [row[kg.F_LOST + f - 1] for f in range(1, 7)] == [lost_faces.get(f, 0)
                                                             for f in range(1, 7)]
    assert row[kg.LOST_PIPS] == lost_pips
    assert (row[kg.PARTIAL], row[kg.PASSES]) == {"full": (0, 0), "partial": (1, 0), "pass": (0, 1),
                                                 "finished": (0, 0)}[kind]


def reference_features(mine: list[int], theirs: list[int]) -> list[float]:
    """The heuristic's 16 features of the side with checkers `mine` against `theirs` (each side's
    counts in its own numbering, point 1 first), from their definitions: not from the kernel."""
    f = [0.0] * kf.N_FEATURES
    if sum(mine) == 0:
        return f
    pips = sum(c * (24 - p) for p, c in enumerate(mine))
    opp_pips = sum(c * (24 - q) for q, c in enumerate(theirs))
    off, opp_off = 15 - sum(mine), 15 - sum(theirs)
    back, opp_back = any(mine[:12]), any(theirs[:12])
    if not ((back or opp_back) and sum(theirs) > 0):
        f[kf.F_RACE_PIPS] = (opp_pips - pips) / 10.0
        f[kf.F_RACE_OFF] = off - opp_off
        return f
    f[kf.F_CONTACT] = 1.0
    f[kf.F_PIPS] = (opp_pips - pips) / 10.0
    f[kf.F_OFF] = off - opp_off
    # my points in the opponent's numbering; each run of 2+ weighs the opponent checkers behind it
    held = [mine[(q + 12) % 24] > 0 for q in range(24)]
    prime = [0, 0, 1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56]
    block, q = 0.0, 0
    while q < 24:
        if not held[q]:
            q += 1
            continue
        length = 1
        while q + length < 24 and held[q + length]:
            length += 1
        if length >= 2:
            block += prime[min(length, 12)] * sum(theirs[:q])
        q += length
    f[kf.F_BLOCK] = block / 15.0
    f[kf.F_ZONE] = sum(1 for p in range(12, 18) if mine[p] > 0)
    f[kf.F_HEAD] = max(mine[0] - 1, 0)
    f[kf.F_OPP_HEAD] = max(theirs[0] - 1, 0)

    def faces(own: list[int], other: list[int]) -> tuple[int, int]:
        """(faces with no checker that can step them, checkers' points that can, summed over
        faces): a step lands on a point the other side does not hold, or bears off when all are
        home."""
        home = sum(own[:18]) == 0
        blocked = total = 0
        for face in range(1, 7):
            n = sum(1 for p in range(24) if own[p] > 0 and (
                (p + face < 24 and other[(p + face + 12) % 24] == 0) or (p + face >= 24 and home)))
            total += n
            blocked += n == 0
        return blocked, total

    f[kf.F_OPP_BLOCKED], total = faces(theirs, mine)
    f[kf.F_OPP_MOBILITY] = np.sqrt(total)
    f[kf.F_OWN_BLOCKED], own_total = faces(mine, theirs)
    f[kf.F_OWN_MOBILITY] = np.sqrt(own_total)
    f[kf.F_STACK] = sum(c - 3 for c in mine[1:] if c > 3)
    f[kf.F_SPREAD] = sum(1 for c in mine[1:] if c > 0)
    f[kf.F_HOME] = sum(1 for c in mine[18:] if c > 0)
    return f


def test_heuristic_features_match_their_definitions(boards):
    """Bug caught: a feature (the heuristic's and the network's inputs) counted otherwise than it
    is defined: a point of the zone, home or spread counted by its checkers, a stack or a block's
    weight off by one, mobility through the other side's points; and the mover's pips, checkers
    on board and outside home, and back checker, which the network's globals take from the same
    scan."""
    checked = 0
    for mine, theirs, board, _ in boards:
        for own, other, view in ((mine, theirs, board), (theirs, mine, -np.roll(board, 12))):
            view = view.astype(np.int8)
            opp = np.zeros(kf.N_OPP, dtype=np.int64)
            kf.opponent_terms(view, opp)
            got = np.zeros(kf.N_FEATURES)
            assert kf.features(view, got, opp) == sum(own)
            np.testing.assert_allclose(got, reference_features(own, other), atol=1e-12, rtol=0)
            pips, on, out, back = kf.feature_terms(view, got, opp)
            assert (pips, on, out, back) == (sum(c * (24 - p) for p, c in enumerate(own)),
                                             sum(own), sum(own[:18]), int(any(own[:12])))
            checked += 1
    assert checked > 500


def test_a_roll_gives_four_steps_for_a_double_and_two_otherwise():
    """Catches the one count of a roll's steps (`codes.roll_steps`) going wrong, or `Dice.steps`
    and the kernels' compiled copy (`board.roll_steps`) disagreeing with it."""
    from nardy_cli.core.dice import ALL_ROLLS
    from nardy_cli.kernels.codes import roll_steps
    for d in ALL_ROLLS:
        steps = 4 if d.high == d.low else 2
        assert roll_steps(d.high, d.low) == kb.roll_steps(d.high, d.low) == steps, d
        assert len(d.steps) == steps and set(d.steps) == {d.high, d.low}, d
