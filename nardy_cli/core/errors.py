"""The exceptions nardy raises: one `NardyError` root, a `ValueError`, and one class per kind of
failure.

Library messages quote the offending value and name arguments by their Python
keyword, never by a command-line flag; `ArgumentError` keeps those names as
fields, so the command line shows its own option names instead.
"""

from __future__ import annotations

import string
from collections.abc import Mapping


class NardyError(ValueError):
    """Base class of every error nardy raises on bad input or illegal requests."""


class RunError(NardyError):
    """A failure while running, not bad input (a dead worker, a disk that cannot be written): exit
    code 1."""


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


class ArgumentError(NardyError):
    """An argument out of range, missing, or in conflict with another (games, seed, until_se, top,
    dice, ...).

    `template` is the message with each argument written as a `{keyword}` field, e.g.
    `ArgumentError(f"{{until_se}} must be positive, got {until_se}")`; the message itself
    names the keyword (or its word in `labels`, e.g. `{"jacoby": "Jacoby"}`), and
    `message(names)` names each argument as `names` says (a command line passes its option
    names: `--until-se`).
    """

    def __init__(self, template: str, labels: Mapping[str, str] | None = None) -> None:
        try:
            fields = [field for _, field, _, _ in string.Formatter().parse(template) if field]
        except ValueError:  # a plain message holding a lone brace: no fields
            template, fields = template.replace("{", "{{").replace("}", "}}"), []
        self.template = template
        self.arguments = tuple(dict.fromkeys(fields))
        self.labels = dict(labels or {})
        super().__init__(self.message())

    def message(self, names: Mapping[str, str] | None = None) -> str:
        """The message, each argument named by `names[keyword]` (default: its label, else the
        keyword itself)."""
        names = names or {}
        return self.template.format_map({a: names.get(a, self.labels.get(a, a))
                                         for a in self.arguments})


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong type, e.g. a swapped call `legal_plays("6-5", position)`; also a
    `TypeError`."""


class RunConfigError(ArgumentError):
    """A run configuration out of range (`games.RunConfig`): games below 1, a seed outside
    0..2**63-1, a stop rule that is not positive, no workers, an unknown executor, a scheduler
    without Dask or Dask without one."""


def check_type(value: object, kinds: type | tuple[type, ...], keyword: str, what: str,
               hint: str = "") -> None:
    """Raise `ArgumentTypeError` naming `keyword` unless `value` is one of `kinds` (`what` says what
    it must be)."""
    if not isinstance(value, kinds):
        shown = repr(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        shown = shown.replace("{", "{{").replace("}", "}}")
        raise ArgumentTypeError(f"{{{keyword}}} must be {what}, got {type(value).__name__} "
                                f"{shown}{hint}")


class BearoffError(NardyError):
    """A position outside the bear-off databases (a side not all home)."""


class FilterError(NardyError):
    """A staged analysis's stage filter that is neither a margin (0.2) nor a count (top5)."""


class NoGamesError(NardyError):
    """A run that ended (interrupted) before any game finished: there is nothing to report."""


class OutputError(NardyError):
    """An output path that cannot be used (a file where a folder goes); the message names the
    path."""


class NotAReportError(OutputError):
    """An output folder that holds files nardy did not write: it is replaced only when asked to
    (`force`)."""


class WriteError(OutputError, RunError):
    """A file or folder the system would not let nardy write (permissions, a full disk); names the
    path."""


class ResultsError(NardyError):
    """Saved results that cannot be read, or that lack what was asked of them (a chart's data)."""


class ReportKindError(ResultsError):
    """Results of a kind no report renders (a results.json's `kind`); names the known kinds."""


class PositionsFileError(NardyError):
    """A positions file that cannot be read or has a bad line."""


class PolicyError(NardyError):
    """An unknown, unimportable or misbehaving policy."""


class UnknownPolicyError(PolicyError):
    """A policy name that no built-in, plugin or `module:attribute` matches; `name` is the name
    asked for."""

    def __init__(self, message: str, name: str = "") -> None:
        super().__init__(message)
        self.name = name

    def __reduce__(self):
        return type(self), (str(self), self.name)


class ExecutorError(NardyError):
    """An executor that cannot be used as asked (an optional extra not installed, a job that cannot
    be sent)."""


class WorkerError(ExecutorError, RunError):
    """A worker that died or failed, or a scheduler that cannot be reached: a runtime failure, exit
    code 1."""


class GameRecordError(NotationError):
    """A game record that cannot be read or replayed; the message names the turn and the token."""


class MatchRecordError(GameRecordError):
    """A match record (or .mat transcript) whose games, players or scores do not follow; the message
    names the game."""


class PositionIdError(NotationError):
    """A position ID that cannot be decoded; the message quotes it."""


class NetworkError(NardyError):
    """A neural-network weights file that is missing, damaged or made for other inputs; the message
    names it."""


class MatchError(NardyError):
    """A match length, score or match equity setting that cannot be (a finished match, a malformed
    score)."""


class CubeError(NardyError):
    """A doubling-cube state or action the rules do not allow (owner of an undoubled cube, a
    Crawford double)."""


class StakesError(ArgumentError, CubeError):
    """Stakes that cannot be (`match.stakes.Stakes`): a money-game cube rule in a match, a turned
    cube in the Crawford game; the message names the rule as a field, so a command line names its
    option."""


class CubeRecordError(GameRecordError):
    """A cube action a game record cannot hold (a double by the side without the cube, a take with
    no double, a move after a drop, a double in the Crawford game); the readers add the game, the
    turn and the line."""


class BenchmarkFileError(NardyError):
    """A benchmark database file that is damaged (a digest that does not match), of another format,
    or built with other settings than a resumed build asks for; the message names the file."""


class LibraryError(NardyError):
    """A player's library that cannot be used as asked: a database file that is damaged, not a
    nardy library or of a newer schema, an unknown player or source; the message names the file."""


class LibraryBusyError(LibraryError, RunError):
    """A library another process kept locked for longer than the wait: a runtime failure, exit
    code 1."""
