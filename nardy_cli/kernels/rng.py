"""Counter-based random numbers: the dice of game i, turn t depend only on (seed, i, t)."""

from __future__ import annotations

import numpy as np

from .jit import kernel

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_TURN = np.uint64(0xD1B54A32D192ED03)
_POLICY = np.uint64(0x8CB92BA72F3D8DD7)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)


@kernel
def mix64(x):
    """splitmix64 finaliser: a bijective scramble of 64 bits."""
    x = np.uint64(x)
    x = (x ^ (x >> _S30)) * _M1
    x = (x ^ (x >> _S27)) * _M2
    return x ^ (x >> _S31)


@kernel
def below(x, n):
    """Map 64 random bits to 0..n-1 (multiply-shift on the high half)."""
    return np.int64(((x >> _S32) * np.uint64(n)) >> _S32)


@kernel
def roll_index(seed, game, turn):
    """Ordered roll 0..35 (first die 1 + r // 6, second 1 + r % 6) of `turn` in `game`."""
    key = mix64(np.uint64(seed) ^ mix64(np.uint64(game) * _GOLDEN + np.uint64(turn) * _TURN
                                        + _TURN))
    return below(key, 36)


@kernel
def policy_state(seed, game):
    """Start state of the stream a randomised policy draws from in `game`."""
    return mix64(np.uint64(seed) ^ mix64(np.uint64(game) ^ _POLICY))


@kernel
def next_random(state):
    """Advance `state` (a uint64 array of one) and return 64 random bits."""
    state[0] += _GOLDEN
    return mix64(state[0])
