"""`.mat` match transcripts (the JellyFish text that GNU Backgammon and most programs read), read
and written.

A transcript is an `N point match` line (0 for a money session), then each game: `Game k`,
the players with their scores (`Anna : 0        Boris : 1`), and numbered turns with the
left player's roll and play in one column and the right player's in the other
(`  3) 65: 24/13                   42: 24/18 24/22`), ending with `Wins N points`.  The
player whose column holds the first move is White.  Points are numbered in the
mover's own way, from its head (24) down to its last home point (1), `0` for off
(`--mat-numbering head-24`; `head-1` numbers them as nardy does); `mat_write` writes them.  Every
play is replayed and matched like a typed play of a game record (`records.match_play`), and
the scores are checked like a match record's (`match_records.Scorer`).  nardy writes
its own tags as `; [Name "value"]` lines and comments as `; {text}` lines.  Cube actions
(`Doubles => 2` in the doubler's column, `Takes`, `Drops` or `Beavers => 4` in the other's)
come before the roll and are checked by `cube_actions.CubeTracker`; `Wins N points` after
a drop is the doubler's, the cube's value before the double.
"""

from __future__ import annotations

import re

from ..core.dice import parse_dice
from ..core.engine import legal_plays
from ..core.errors import CubeRecordError, GameRecordError, MatchRecordError, NardyError
from ..core.position import SIDE_NAMES, START, WHITE, other_side, parse_position
from ..match import stakes
from .cube_actions import CubeTracker, parse_action
from .game_record import GameRecord, _rules_from_tags, _unescape
from .mat_points import DEFAULT_NUMBERING, NUMBERINGS, check_numbering, translate_play
from .match_record import MatchRecord, Scorer
from .points import Resignation, format_points
from .replay import Replay

RIGHT_COLUMN = 33  # where the right player's entries start in a written transcript
SPLIT_COLUMN = 16  # a lone entry starting at this column or later is the right player's
# the transcript writes these itself
OWN_TAGS = ("White", "Black", "Result", "Resigned", "Score", "Match")
PASS_TEXTS = ("", "-", "pass", "(no play)", "(pass)", "cannot move", "(cannot move)")
CUBE_WORDS = ("double", "doubles", "beaver", "beavers", "raccoon", "raccoons", "take", "takes",
              "drop", "drops")

_MATCH_RE = re.compile(r"^\s*(\d+)\s+point\s+match\b", re.I)
_GAME_RE = re.compile(r"^\s*Game\s+(\d+)\s*$", re.I)
_PLAYERS_RE = re.compile(r"^\s*(.*?\S)\s*:\s*(\d+(?:\.\d+)?)\s+(.*?\S)\s*:\s*(\d+(?:\.\d+)?)\s*$")
_TURN_RE = re.compile(r"^\s*(\d+)\)")
_ENTRY_RE = re.compile(r"(?<!\S)(?:[1-6][1-6]:|(?:" + "|".join(CUBE_WORDS)
                       + r"|wins?|resigns?|draw)\b)", re.I)
_TAG_RE = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_WINS_RE = re.compile(r"^wins?\s+(\d+(?:\.\d+)?)\s+points?(?:\s+and\s+the\s+match)?$", re.I)


# ---------------------------------------------------------------- reading


def _entries(line: str, lineno: int) -> tuple[int | None, list[tuple[int, str]]]:
    """The turn number written on a move line (or None) and its (column, text) entries."""
    line = line.expandtabs(8).rstrip()
    m = _TURN_RE.match(line)
    start = m.end() if m else 0
    starts = [x.start() for x in _ENTRY_RE.finditer(line, start)]
    before = line[start:starts[0]] if starts else line[start:]
    if before.strip():
        raise GameRecordError(f"unknown entry {before.strip()!r}: expected a roll such as '65:', "
                              f"'Wins N points' or a cube action (line {lineno})")
    if len(starts) > 2:
        raise GameRecordError("more than two entries on one line: "
                              f"{line.strip()!r} (line {lineno})")
    texts = [line[a:b].strip() for a, b in zip(starts, starts[1:] + [len(line)])]
    columns = [0, 1] if len(starts) == 2 else [1 if a >= SPLIT_COLUMN else 0 for a in starts]
    return (int(m.group(1)) if m else None), list(zip(columns, texts))


class _GameReader:
    """One game of a transcript replayed entry by entry: its tags, plies, comments and end."""

    def __init__(self, number: int, names: tuple[str, str], numbering: str,
                 crawford: bool = False) -> None:
        self.number, self.names, self.numbering, self.crawford = number, names, numbering, crawford
        self.tracker: CubeTracker | None = None
        self.tags: dict[str, str] = {}
        self.rules = self.start = None
        self.replay: Replay | None = None
        self.sides: dict[int, str] = {}
        self.comment = ""
        self.turn = 0           # the last turn number written
        self.ended: str | None = None
        self.resigned: Resignation | None = None
        # a roll with no play: (column, text, line, its turn number)
        self.pending: tuple[int, str, int, int] | None = None

    def where(self, column: int | None = None, turn: int | None = None) -> str:
        """`game 2, turn 5 (Anna, White)`: where an entry stands (by default the turn read last)."""
        turn = self.turn if turn is None else turn
        text = f"game {self.number}, turn {turn}" if turn else f"game {self.number}"
        if column is not None and column in self.sides:
            text += f" ({self.names[column]}, {SIDE_NAMES[self.sides[column]]})"
        return text

    def missing(self) -> GameRecordError:
        """The error of a roll left without a play."""
        column, text, lineno, turn = self.pending
        # the turn the roll was written in, not the one whose line found it unplayed
        return GameRecordError(f"{self.where(column, turn)} {text!r}: missing play "
                               f"(line {lineno})")

    def seats(self) -> dict[int, str]:
        """Each column's side; before any roll the left column has the side to move at the start."""
        if not self.sides:
            self.sides = {0: self.start.turn, 1: other_side(self.start.turn)}
        return self.sides

    def tag(self, name: str, value: str, lineno: int) -> None:
        if self.rules is not None:
            raise GameRecordError(f"{self.where()}: tag {name!r} after the first turn "
                                  f"(line {lineno})")
        if name in OWN_TAGS:
            raise GameRecordError(f"game {self.number}: tag {name!r} (line {lineno}) "
                                  "has no place in a transcript: "
                                  f"the players line, the columns and 'Wins' say it")
        if name in self.tags:
            raise GameRecordError(f"game {self.number}: tag {name!r} given twice (line {lineno})")
        self.tags[name] = value

    def begin(self) -> None:
        """Fix the rules and the start once the tags are read."""
        if self.rules is not None:
            return
        try:
            self.rules = _rules_from_tags(self.tags)
        except NardyError as exc:
            raise GameRecordError(f"game {self.number}: {exc}") from None
        text = self.tags.get("Position")
        try:
            self.start = parse_position(text) if text is not None else START
        except NardyError as exc:
            raise GameRecordError(f"game {self.number}: bad Position tag {text!r}: {exc}") from None
        if self.start.dice is not None:
            raise GameRecordError(f"game {self.number}: bad Position tag {text!r}: "
                                  "the first roll goes in the turns")
        try:
            self.tracker = CubeTracker(self.tags, self.crawford)
        except NardyError as exc:
            raise type(exc)(f"game {self.number}: {exc}") from None
        self.replay = Replay(self.start, self.rules, self.tracker)

    def note(self, text: str) -> None:
        if self.replay is None or not self.replay.note(text):     # before the first turn
            self.comment = f"{self.comment} {text}".strip()

    def line(self, raw: str, lineno: int) -> None:
        self.begin()
        try:
            turn, entries = _entries(raw, lineno)
        except GameRecordError as exc:
            raise GameRecordError(f"{self.where()}: {exc}") from None
        if turn is not None:
            if turn != self.turn + 1:
                raise GameRecordError(f"{self.where()}: expected turn '{self.turn + 1})', "
                                      f"found '{turn})' (line {lineno})")
            self.turn = turn
        elif not entries:
            return
        for column, text in entries:
            self.entry(column, text, lineno, numbered=turn is not None)

    def entry(self, column: int, text: str, lineno: int, numbered: bool) -> None:
        word = text.split()[0].lower()
        if self.ended is not None and word not in ("resign", "resigns"):
            raise GameRecordError(f"{self.where(column)}: {text!r} after the end of the game "
                                  f"({self.ended}) (line {lineno})")
        dropped = self.tracker.dropped
        if dropped is not None and word not in ("win", "wins", *CUBE_WORDS):
            raise CubeRecordError(f"{self.where(column)}: "
                                  f"{text!r} after {self.names[self.columns[dropped.side]]}'s "
                                  "drop: the "
                                  f"drop ended the game (line {lineno})")
        if word.rstrip(":").isdigit():
            self.roll(column, text, lineno, numbered)
        elif word in CUBE_WORDS:
            self.cube(column, text, lineno)
        elif word in ("win", "wins"):
            self.wins(column, text, lineno)
        elif word == "draw":
            result = self.replay.over()
            if result is None or result.winner is not None:
                actual = "the game is not over" if result is None else str(result)
                raise GameRecordError(f"{self.where()}: 'Draw' does not match the replay: "
                                      f"{actual} (line {lineno})")
            self.ended = "draw"
        # 'Resigns' lines are notes; the 'Wins' line that follows says who won and how much

    def cube(self, column: int, text: str, lineno: int) -> None:
        """A cube action in `column`: a double by the side on roll, an answer by the other side."""
        if self.pending is not None:
            raise self.missing()
        try:
            kind, value = parse_action(text)
        except NardyError as exc:
            raise type(exc)(f"{self.where(column)}: {exc} (line {lineno})") from None
        if not self.sides:
            roller = column if kind == "double" else 1 - column
            self.sides = {roller: self.start.turn, 1 - roller: other_side(self.start.turn)}
        done = self.replay.over()
        if done is not None:
            raise GameRecordError(f"{self.where(column)}: the game is already over ({done}), "
                                  "but the transcript "
                                  f"goes on with {text!r} (line {lineno})")
        try:
            self.replay.act(kind, value, self.sides[column])
        except NardyError as exc:
            raise type(exc)(f"{self.where(column)}: {exc}: {text!r} (line {lineno})") from None

    def roll(self, column: int, text: str, lineno: int, numbered: bool) -> None:
        if self.pending is not None:
            raise self.missing()
        if not self.sides:
            self.sides = {column: self.start.turn, 1 - column: other_side(self.start.turn)}
        side = self.replay.position.turn
        if self.sides[column] != side:
            mover = self.names[1 - column]
            raise GameRecordError(f"{self.where(column)}: "
                                  f"it is {mover}'s turn ({SIDE_NAMES[side]}), but "
                                  f"{text!r} is in {self.names[column]}'s column (a pass is the "
                                  "roll alone, "
                                  f"e.g. '33:') (line {lineno})")
        if column == 0 and not numbered:
            raise GameRecordError(f"{self.where(column)}: {text!r} needs its turn number, e.g. "
                                  f"'{self.turn + 1}) {text}' (line {lineno})")
        done = self.replay.over()
        if done is not None:
            raise GameRecordError(f"{self.where(column)}: the game is already over ({done}), "
                                  "but the transcript "
                                  f"goes on with {text!r} (line {lineno})")
        dice_text, _, moves = text.partition(":")
        dice = parse_dice(dice_text)
        where = f"{self.where(column)} {dice}"
        moves = moves.strip()
        if moves.lower() in PASS_TEXTS:
            if not legal_plays(self.replay.position, dice, self.rules)[0].is_pass:
                if not moves:
                    self.pending = (column, text, lineno, self.turn)
                    return
                raise GameRecordError(f"{where}: illegal pass {moves!r}: "
                                      f"a play exists (line {lineno})")
            nardy_text = "-"
        else:
            try:
                nardy_text = translate_play(moves, self.numbering)
            except GameRecordError as exc:
                raise GameRecordError(f"{where}: {exc} (line {lineno})") from None
        try:
            self.replay.roll(dice)
        except NardyError as exc:
            raise type(exc)(f"{where}: {exc} (line {lineno})") from None
        try:
            self.replay.play(nardy_text)
        except NardyError as exc:
            message = str(exc).replace(repr(nardy_text), repr(moves))
            raise GameRecordError(f"{where}: {message} (line {lineno})") from None

    def wins(self, column: int, text: str, lineno: int) -> None:
        m = _WINS_RE.match(text)
        if not m:
            raise GameRecordError(f"{self.where(column)}: bad entry {text!r}: "
                                  "expected 'Wins N points' "
                                  f"(line {lineno})")
        points, side = float(m.group(1)), self.seats()[column]
        offer = self.tracker.offer
        if offer is not None:
            raise CubeRecordError(f"{self.where(column)}: "
                                  f"{text!r} while {self.names[self.columns[offer.side]]}'s double "
                                  "to "
                                  f"{offer.value} has no answer: write 'Takes' or 'Drops' before "
                                  f"it (line {lineno})")
        if self.pending is not None and self.pending[0] == column:
            raise self.missing()
        self.pending = None
        result = self.replay.over()
        dropped, cube = self.tracker.dropped, self.tracker.state
        if dropped is not None:
            won = max(stakes.game_points(self.rules, other_side(dropped.side), "oin",
                                         dropped.value // 2))
            if side == dropped.side or points != won:
                raise CubeRecordError(f"game {self.number}: {self.names[column]} {text!r} does not "
                                      "match the drop: "
                                      f"{self.names[1 - self.columns[dropped.side]]} wins "
                                      f"{format_points(won)} "
                                      f"point{'' if won == 1 else 's'} (line {lineno})")
            self.ended = f"{SIDE_NAMES[dropped.side]} dropped"
            return
        if result is None:
            allowed = stakes.win_points(self.rules, cube.value, cube.jacoby_centred)
            if points not in allowed:
                raise GameRecordError(f"{self.where(column)}: {text!r} before the end is a "
                                      "resignation, which gives the points of a win class "
                                      f"({', '.join(map(format_points, allowed))}) (line {lineno})")
            self.resigned = Resignation(other_side(side), points)
            self.ended = f"{SIDE_NAMES[other_side(side)]} resigned"
            return
        won = (None if result.winner is None
               else max(stakes.game_points(self.rules, result.winner, result.kind, cube.value,
                                           cube.jacoby_centred)))
        if result.winner != side or won != points:
            at = f" with the cube at {cube.value}" if cube.value > 1 else ""
            actual = str(result) if result.winner is None else (
                f"{result}, {format_points(won)} point{'' if won == 1 else 's'} under "
                f"{self.rules.preset} rules{at}")
            raise GameRecordError(f"game {self.number}: {self.names[column]} {text!r} does not "
                                  "match the replay: "
                                  f"{actual} (line {lineno})")
        self.ended = str(result)

    def record(self) -> GameRecord:
        """The game as a `GameRecord` (the tags' rules and start, the replayed plies and result)."""
        self.begin()
        if self.pending is not None:
            raise self.missing()
        white = self.white_column
        extra = [(k, v) for k,
                 v in self.tags.items() if k not in ("Date", "Rules", "HeadRule", "BlockCheck",
                                                       "LastRoll", "Points",
                                                     "Position")]
        if self.resigned is not None:
            extra.append(("Resigned", str(self.resigned)))
        try:
            return GameRecord.replayed(self.replay, white=self.names[white],
                                       black=self.names[1 - white],
                                       date=self.tags.get("Date", "?"), tags=tuple(extra),
                                       comment=self.comment)
        except NardyError as exc:
            raise type(exc)(f"{self.where()}: {exc}") from None

    @property
    def columns(self) -> dict[str, int]:
        """Each side's column."""
        return {s: c for c, s in self.seats().items()}

    @property
    def white_column(self) -> int:
        """The column of the game's White: the first mover's column holds the side to move at the
        start."""
        self.begin()
        return next(c for c, s in self.seats().items() if s == WHITE)


def _comment_text(lines: list[tuple[int, str]], i: int) -> tuple[str, int]:
    """The text of the `;` comment starting at line index `i` (a `{...}` may go on over `;` lines);
    next index."""
    text = lines[i][1].strip()[1:].strip()
    if not text.startswith("{"):
        return text, i + 1
    parts = [text[1:]]
    while "}" not in parts[-1]:
        i += 1
        if i >= len(lines) or not lines[i][1].strip().startswith((";", "#")):
            raise GameRecordError(f"line {lines[i - 1][0]}: comment '{{' is never closed")
        parts.append(lines[i][1].strip()[1:].strip())
    parts[-1] = parts[-1][:parts[-1].index("}")]
    return " ".join(p.strip() for p in parts if p.strip()), i + 1


def parse_mat(text: str, *, numbering: str = DEFAULT_NUMBERING) -> MatchRecord:
    """Read a transcript and replay every game; raises `GameRecordError`/`MatchRecordError` naming
    game, turn, token."""
    length, games, tags = _parse(text, numbering)
    return MatchRecord(length, tuple(games), tags)


def _parse(text: str, numbering: str) -> tuple[int, list[GameRecord], tuple[tuple[str, str], ...]]:
    """The match length, the games (with all their own tags) and the header tags of a transcript."""
    check_numbering(numbering)
    lines = list(enumerate(text.splitlines(), 1))
    tags: dict[str, str] = {}
    length = None
    i = 0
    while i < len(lines) and length is None:
        lineno, raw = lines[i]
        line = raw.strip().lstrip("\ufeff")
        i += 1
        if not line:
            continue
        if line[0] in ";#":
            m = _TAG_RE.match(line[1:].strip())
            if m:
                if m.group(1) in tags:
                    raise GameRecordError(f"line {lineno}: tag {m.group(1)!r} given twice")
                tags[m.group(1)] = _unescape(m.group(2))
            continue
        m = _MATCH_RE.match(line)
        if not m:
            raise GameRecordError(f"line {lineno}: expected 'N point match' (0 for a money "
                                  f"session), found {line!r}")
        length = int(m.group(1))
    if length is None:
        raise GameRecordError("not a .mat transcript: no 'N point match' line")
    scorer = Scorer(length)
    games: list[GameRecord] = []
    while i < len(lines):
        lineno, raw = lines[i]
        if not raw.strip():
            i += 1
            continue
        m = _GAME_RE.match(raw)
        if not m or int(m.group(1)) != len(games) + 1:
            raise GameRecordError(f"line {lineno}: expected 'Game {len(games) + 1}', "
                                  f"found {raw.strip()!r}")
        i = _read_game(lines, i + 1, len(games) + 1, numbering, scorer, games)
    if not games:
        raise GameRecordError("the transcript holds no game: expected 'Game 1'")
    return length, games, tuple(tags.items())


def _read_game(lines: list[tuple[int, str]], i: int, number: int, numbering: str, scorer: Scorer,
               games: list[GameRecord]) -> int:
    """Read game `number` from line index `i`, check its score and append it; the index after it."""
    while i < len(lines) and not lines[i][1].strip():
        i += 1
    if i >= len(lines) or _GAME_RE.match(lines[i][1]):
        raise GameRecordError(f"game {number}: expected the players and their scores, e.g. 'Anna : "
                              "0    Boris : 0'")
    lineno, players = lines[i]
    m = _PLAYERS_RE.match(players)
    if not m:
        raise GameRecordError(f"game {number}: expected the players and their scores, e.g. 'Anna : "
                              "0    Boris : 0', "
                              f"found {players.strip()!r} (line {lineno})")
    reader = _GameReader(number, (m.group(1), m.group(3)), numbering, scorer.crawford_next())
    i += 1
    while i < len(lines) and not _GAME_RE.match(lines[i][1]):
        n, raw = lines[i]
        stripped = raw.strip()
        if not stripped:
            i += 1
        elif stripped[0] in ";#":
            tag = _TAG_RE.match(stripped[1:].strip())
            if tag:
                reader.tag(tag.group(1), _unescape(tag.group(2)), n)
                i += 1
            else:
                note, i = _comment_text(lines, i)
                if note:
                    reader.note(note)
        else:
            reader.line(raw, n)
            i += 1
    record = reader.record()
    scores = (float(m.group(2)), float(m.group(4)))
    white = reader.white_column
    try:
        expected = scorer.expected(record)
    except ValueError:  # a third player: `add` says so
        expected = None
    if expected is not None and (scores[white], scores[1 - white]) != expected:
        want = (expected[0], expected[1]) if white == 0 else (expected[1], expected[0])
        raise MatchRecordError(f"game {number}: score line {' '.join(players.split())!r} (line "
                               f"{lineno}) does not "
                               f"follow from the games before: expected '{reader.names[0]} : "
                               f"{format_points(want[0])}"
                               f"   {reader.names[1]} : {format_points(want[1])}'")
    scorer.add(number, record)
    games.append(record)
    return i


def is_mat_text(text: str) -> bool:
    """True when the text is a transcript: its first line that is not blank or a `;`/`#` comment is
    `N point match`."""
    for line in text.splitlines():
        stripped = line.strip().lstrip("\ufeff")
        if stripped and stripped[0] not in ";#":
            return bool(_MATCH_RE.match(stripped))
    return False


def parse_mat_games(text: str, *, numbering: str = DEFAULT_NUMBERING) -> GameRecord | MatchRecord:
    """A transcript as a `MatchRecord`, or, for one money game (`0 point match`, no tags), that
    game's record."""
    length, games, tags = _parse(text, numbering)
    return (games[0] if length == 0 and len(games) == 1 and not tags
            else MatchRecord(length, tuple(games), tags))


__all__ = ["NUMBERINGS", "DEFAULT_NUMBERING", "parse_mat", "parse_mat_games", "is_mat_text"]
