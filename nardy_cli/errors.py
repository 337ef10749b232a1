"""The exceptions nardy raises: one `NardyError` root, a `ValueError`."""

from __future__ import annotations


class NardyError(ValueError):
    """Base class of every error nardy raises on bad input or illegal requests."""


class NotationError(NardyError):
    """A position, play, dice or points-table text that cannot be parsed."""


class InvalidPositionError(NardyError):
    """A well-formed position that breaks the rules (R1, R6, checker counts)."""


class DiceError(NotationError):
    """Dice text outside 1-6 or malformed."""


class RulesError(NardyError):
    """An unknown preset, option value or points-table entry."""


class IllegalPlayError(NardyError):
    """A play that is not among the legal plays of the roll."""


class GameOverError(NardyError):
    """A request that needs a game in progress on a finished position."""


class PositionsFileError(NardyError):
    """A positions file that cannot be read or has a bad line."""


class PolicyError(NardyError):
    """An unknown, unimportable or misbehaving policy."""


class ExecutorError(NardyError):
    """An executor that cannot be reached or whose worker failed."""


class GameRecordError(NotationError):
    """A game record that cannot be read or replayed; the message names the turn and the token."""


class NetworkError(NardyError):
    """A neural-network weights file that is missing, damaged or made for other inputs; the message names it."""
