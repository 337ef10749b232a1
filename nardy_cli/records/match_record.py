"""Match records: a whole match in nardy's record format (docs/game-records.md), read, written,
checked game by game.

A match record is a `[Match "7"]` tag block, then every game as a game record whose
tag block starts with `[Game "k"]` and holds `[Score "a-b"]`, the points the game's
White and Black players have before it.  `parse_match` replays every game with
`records.parse_game` and checks that the players are the same two (by name; colours
may change), that each score follows from the results before it and that no game
follows the end of the match.  A `MatchRecord` is checked the same way when it is
built, so `MatchRecord(7, games)` is how a match being played is scored.  In a cube
game the cube multiplies a game's points, a drop gives the doubler the cube's value
before the double, and no double is allowed in the Crawford game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.errors import (ArgumentError, CubeRecordError, GameRecordError, MatchError,
    MatchRecordError, NardyError)
from ..core.position import SIDE_NAMES
from ..match.stakes import Stakes
from ..match.state import parse_score as match_score
from ..match.state import state_before
from ..match.table import DEFAULT_DRAW_POINTS, DEFAULT_NEXT_WHITE
from .cube_actions import tag_flag
from .cube_record import start_cube
from .game_record import (GameRecord, _escape, _split_header, format_game, parse_game,
    read_record_text)
from .points import (DRAW_POINTS, Resignation, class_points, format_points, game_end, game_points,
    is_finished, resignation)

MATCH_TAGS = ("Game", "Score")  # a game's tags that the match numbers and scores itself

_GAME_LINE_RE = re.compile(r'^\s*\[\s*Game\s+"', re.I)
_MATCH_LINE_RE = re.compile(r'^\s*\[\s*Match\s+"', re.I)


# ---------------------------------------------------------------- scores


def format_score(white: float, black: float) -> str:
    """A Score tag: the points of the game's White and Black players before it, `3.5-2`."""
    return f"{format_points(white)}-{format_points(black)}"


def parse_score(text: str) -> tuple[float, float]:
    """`3-1` or `3.5-2` as (White's points, Black's points); raises `MatchRecordError` on anything
    else."""
    if "-" not in text:
        raise MatchRecordError(f"bad Score {text!r}: expected White's and Black's points such as "
                               "'3-1' or '3.5-2'")
    try:
        return match_score(text)
    except MatchError:
        raise MatchRecordError(f"bad Score {text!r}: expected White's and Black's points such "
                               "as '3-1' or '3.5-2'") from None


class Scorer:
    """The check of a match, game by game: players, rules, the scores and the end of the match
    (`add` each game)."""

    def __init__(self, length: int) -> None:
        if isinstance(length, bool) or not isinstance(length, int) or length < 0:
            raise MatchRecordError(f"bad match length {length!r}: a whole number of points, "
                                   "0 for a money session")
        self.length = length
        self.players: tuple[str, str] | None = None
        self.points = [0.0, 0.0]
        self.previous: GameRecord | None = None
        self.over_in = 0  # the game in which a player reached the length
        self.crawford_played = False

    def crawford_next(self) -> bool:
        """True when the next game is the Crawford game: the first after a player came to need 1
        point or less."""
        return (self.length > 1 and not self.crawford_played and not self.over_in
                and max(self.points) >= self.length - 1)

    def seats(self, record: GameRecord) -> tuple[int, int]:
        """The players' indices of White and Black in `record` (players with one name keep their
        colours)."""
        assert self.players is not None
        if self.players[0] == self.players[1]:
            return (0, 1)
        return self.players.index(record.white), self.players.index(record.black)

    def expected(self, record: GameRecord) -> tuple[float, float]:
        """(White's, Black's) points before `record`, the next game: what its Score must say."""
        if self.players is None:
            return (0.0, 0.0)
        w, b = self.seats(record)
        return (self.points[w], self.points[b])

    def add(self, number: int, record: GameRecord, stated: tuple[float, float] | None = None,
            source: str | None = None) -> None:
        """Check game `number` (1-based) against the games before it and add its points.

        `stated` is the score the file gives before the game, (White's, Black's); `source` names it.
        """
        where = f"game {number}"
        if self.players is None:
            self.players = (record.white, record.black)
        elif {record.white, record.black} != set(self.players):
            raise MatchRecordError(f"{where}: players {record.white!r} (White) "
                                   f"and {record.black!r} (Black) "
                                   f"are not the match's players {self.players[0]!r} and "
                                   f"{self.players[1]!r}")
        if self.previous is not None:
            if record.rules != self.previous.rules:
                raise MatchRecordError(f"{where}: rules {record.rules!r} differ from the rules of "
                                       f"game {number - 1}")
            if not is_finished(self.previous):
                raise MatchRecordError(f"{where}: game {number - 1} is not finished, "
                                       "but the match goes on")
        if self.over_in:
            leader = self.players[0] if self.points[0] >= self.points[1] else self.players[1]
            raise MatchRecordError(f"{where}: the match is over: {leader!r} reached "
                                   f"{self.length} points in game {self.over_in}")
        if "Match" in dict(record.tags):
            raise MatchRecordError(f"{where}: the Match tag belongs in the match's header, "
                                   "before game 1")
        self._check_cube(where, record)
        w, b = self.seats(record)
        expected = self.expected(record)
        if stated is not None and stated != expected:
            source = source or f"Score tag {format_score(*stated)!r}"
            raise MatchRecordError(f"{where}: {source} does not follow from the games "
                                   f"before: expected {format_score(*expected)!r} ({record.white} "
                                   f"{format_points(expected[0])}, "
                                   f"{record.black} {format_points(expected[1])})")
        try:
            gained = game_points(record)
        except MatchRecordError as exc:
            raise MatchRecordError(f"{where}: {exc}") from None
        self.points[w] += gained[0]
        self.points[b] += gained[1]
        if self.length and max(self.points) >= self.length and self.points[0] != self.points[1]:
            # level at the length or past it (a draw): deciding games follow (decision 21)
            self.over_in = number
        self.previous = record

    def _check_cube(self, where: str, record: GameRecord) -> None:
        """The game's stakes (`game_stakes`: a money-game cube rule in a match is a
        `CubeRecordError`) and a double in the Crawford game."""
        crawford = self.crawford_next()
        try:
            self.game_stakes(record)
        except NardyError as exc:
            raise CubeRecordError(f"{where}: {exc}") from None
        if crawford:
            self.crawford_played = True
            doubles = [(t.number, a.side) for t in record.turns() for a in t.actions
                       if a.kind == "double"]
            if doubles:
                number, side = doubles[0]
                turn = f"turn {number} ({SIDE_NAMES[side]})"
                raise CubeRecordError(f"{where}: {turn}: {SIDE_NAMES[side]} doubles in the "
                                      "Crawford game: no double until the game after it")

    def game_stakes(self, record: GameRecord, next_white: str = DEFAULT_NEXT_WHITE,
                    draw_points: float = DEFAULT_DRAW_POINTS) -> Stakes:
        """The stakes of `record`, the next game: the match at its score (the Crawford game or
        not; money in a session of length 0) and, in a cube game, the cube centred with the rules
        of its tags.  Raises `NardyError` for stakes that cannot be (`match.stakes.Stakes`)."""
        start = start_cube(record)
        cube = (start if record.is_cube_game or start.jacoby or start.beavers
                or tag_flag(dict(record.tags), "Cube") else None)
        match = (state_before(self.length, *self.expected(record), next_white, draw_points,
                              self.crawford_next()) if self.length else None)
        return Stakes(match, cube)


# ---------------------------------------------------------------- the match


@dataclass(frozen=True)
class MatchRecord:
    """A whole match (or its beginning): its length, its games in order and its other header tags.

    `length` is the points to win, 0 for a money session (scores add up, no end).
    Each game is a `GameRecord`; its own `Game` and `Score` tags are dropped, since
    the match numbers and scores its games.  Building one checks the match and
    raises `MatchRecordError` naming the game.
    """

    length: int
    games: tuple[GameRecord, ...]
    tags: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        games = tuple(g if not any(k in MATCH_TAGS for k, _ in g.tags) else
                      replace(g, tags=tuple((k, v) for k, v in g.tags if k not in MATCH_TAGS))
                      for g in self.games)
        object.__setattr__(self, "games", games)
        object.__setattr__(self, "tags", tuple((str(k), str(v)) for k, v in self.tags))
        if not games:
            raise MatchRecordError("a match record holds at least one game")
        scorer = Scorer(self.length)
        for number, record in enumerate(games, 1):
            scorer.add(number, record)

    @property
    def players(self) -> tuple[str, str]:
        """The two players: game 1's White and Black."""
        return (self.games[0].white, self.games[0].black)

    def standings(self) -> tuple[tuple[float, float], ...]:
        """The players' points (in `players` order) before each game, and after the last one."""
        scorer = Scorer(self.length)
        out = []
        for number, record in enumerate(self.games, 1):
            out.append(tuple(scorer.points))
            scorer.add(number, record)
        out.append(tuple(scorer.points))
        return tuple(out)

    def scores(self) -> tuple[tuple[float, float], ...]:
        """(White's, Black's) points before each game, in that game's colours: its Score tag."""
        scorer = Scorer(self.length)
        out = []
        for number, record in enumerate(self.games, 1):
            w, b = scorer.seats(record) if scorer.players else (0, 1)
            out.append((scorer.points[w], scorer.points[b]))
            scorer.add(number, record)
        return tuple(out)

    def crawford_games(self) -> tuple[bool, ...]:
        """For each game, True when it is the match's Crawford game (no double)."""
        scorer = Scorer(self.length)
        out = []
        for number, record in enumerate(self.games, 1):
            out.append(scorer.crawford_next())
            scorer.add(number, record)
        return tuple(out)

    def stakes(self, next_white: str = DEFAULT_NEXT_WHITE,
               draw_points: float = DEFAULT_DRAW_POINTS) -> tuple[Stakes, ...]:
        """Each game's stakes (`Scorer.game_stakes`): its match state (score, Crawford game) under
        the colour rule and draw points given, and its cube; money stakes in a money session."""
        scorer = Scorer(self.length)
        out = []
        for number, record in enumerate(self.games, 1):
            out.append(scorer.game_stakes(record, next_white, draw_points))
            scorer.add(number, record)
        return tuple(out)

    def score_before(self, index: int) -> tuple[float, float]:
        """(White's, Black's) points before game `index` (0-based), in that game's colours: its
        Score tag."""
        return self.scores()[index]

    @property
    def final_score(self) -> tuple[float, float]:
        """The players' points (in `players` order) after the last game."""
        return self.standings()[-1]

    @property
    def is_over(self) -> bool:
        """True when a player has reached the match length (never in a money session)."""
        a, b = self.final_score
        return bool(self.length) and max(a, b) >= self.length and a != b

    @property
    def winner(self) -> str | None:
        """The player who won the match, None while it goes on (or when both reach the length
        level)."""
        a, b = self.final_score
        if not self.is_over or a == b:
            return None
        return self.players[0] if a > b else self.players[1]

    def tag(self, name: str, default: str | None = None) -> str | None:
        """A header tag of the match (`Match` is its length)."""
        return str(self.length) if name == "Match" else dict(self.tags).get(name, default)


# ---------------------------------------------------------------- text


def _sections(text: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header lines, and each game's (first line number, lines): a game starts at its `[Game`
    tag."""
    header: list[str] = []
    games: list[tuple[int, list[str]]] = []
    in_comment = False
    for lineno, line in enumerate(text.splitlines(), 1):
        if not in_comment and _GAME_LINE_RE.match(line):
            games.append((lineno, []))
        (games[-1][1] if games else header).append(line)
        for ch in line:
            if in_comment:
                in_comment = ch != "}"
            elif ch == "{":
                in_comment = True
            elif ch == "#":
                break
    return header, games


def parse_match(text: str) -> MatchRecord:
    """Read a match record and replay every game; raises `GameRecordError`/`MatchRecordError` naming
    the game."""
    header, sections = _sections(text)
    tag_lines, body = _split_header("\n".join(header))
    if body:
        lineno, raw = body[0]
        raise MatchRecordError(f"line {lineno}: {raw.strip()!r} before game 1: "
                               "the match header holds only tags")
    tags: dict[str, str] = {}
    for lineno, name, value in tag_lines:
        name = "Match" if name.lower() == "match" else name
        if name in tags:
            raise MatchRecordError(f"line {lineno}: tag {name!r} given twice")
        tags[name] = value
    length_text = tags.pop("Match", None)
    if length_text is None:
        raise MatchRecordError("no Match tag: a match record starts with [Match \"N\"] (0 for a "
                               "money session)")
    if not length_text.strip().isdigit():
        raise MatchRecordError(f"bad Match tag {length_text!r}: expected the match length, "
                               "a whole number "
                               f"(0 for a money session)")
    if not sections:
        raise MatchRecordError("a match record holds at least one game: "
                               "none starts with [Game \"1\"]")
    scorer = Scorer(int(length_text))
    games = []
    for number, (first, lines) in enumerate(sections, 1):
        try:
            record = parse_game("\n" * (first - 1) + "\n".join(lines),
                                crawford=scorer.crawford_next())
        except GameRecordError as exc:
            raise type(exc)(f"game {number}: {exc}") from None
        game_tags = dict(record.tags)
        if game_tags.get("Game", "").strip() != str(number):
            raise MatchRecordError(f"game {number}: Game tag {game_tags.get('Game')!r} should "
                                   f"be '{number}' (line {first}): games are numbered in order")
        if "Score" not in game_tags:
            raise MatchRecordError(f"game {number}: no Score tag: write the points White and Black "
                                   "have before "
                                   f"the game, e.g. [Score \"0-0\"]")
        try:
            stated = parse_score(game_tags["Score"])
        except NardyError as exc:
            raise MatchRecordError(f"game {number}: {exc}") from None
        try:
            resignation(record)
        except NardyError as exc:
            raise MatchRecordError(f"game {number}: {exc}") from None
        scorer.add(number, record, stated, f"Score tag {game_tags['Score']!r}")
        games.append(record)
    return MatchRecord(int(length_text), tuple(games), tuple(tags.items()))


def format_match(match: MatchRecord, width: int = 22) -> str:
    """The match as text that `parse_match` reads back to an equal match."""
    lines = ([f'[Match "{match.length}"]']
             + [f'[{name} "{_escape(value)}"]' for name, value in match.tags] + [""])
    for index, (record, score) in enumerate(zip(match.games, match.scores())):
        game = format_game(record, width).splitlines()
        at = next(i for i, line in enumerate(game) if line.startswith("[Black ")) + 1
        game.insert(at, f'[Score "{format_score(*score)}"]')
        lines += [f'[Game "{index + 1}"]'] + game + [""]
    return "\n".join(lines[:-1]) + "\n"


def is_match_text(text: str) -> bool:
    """True when the text's header holds a `[Match` tag: it is a match record, not one game."""
    for line in text.splitlines():
        stripped = line.strip()
        if _MATCH_LINE_RE.match(stripped):
            return True
        if stripped and not stripped.startswith(("[", "#")):
            return False
    return False


def parse_record(text: str) -> GameRecord | MatchRecord:
    """A record text holding one game (`GameRecord`) or a match (`MatchRecord`, with a `[Match`
    tag)."""
    return parse_match(text) if is_match_text(text) else parse_game(text)


def read_record(path: str | Path) -> GameRecord | MatchRecord:
    """Read a record file holding one game or a match; errors name the file."""
    p = Path(path)
    text = read_record_text(p)
    try:
        return parse_record(text)
    except GameRecordError as exc:
        raise type(exc)(f"{p.name}: {exc}") from None


def select_game(record: GameRecord | MatchRecord, number: int | None = None) -> GameRecord:
    """Game `number` (1-based) of a match, or the one game of a record; raises `ArgumentError`
    otherwise."""
    if isinstance(record, GameRecord):
        if number not in (None, 1):
            raise ArgumentError(f"{{number}} {number}: the record holds one game")
        return record
    if number is None:
        if len(record.games) == 1:
            return record.games[0]
        raise ArgumentError(f"the record holds a match of {len(record.games)} games: "
                            "choose one with "
                            f"{{number}} 1-{len(record.games)}")
    if not 1 <= number <= len(record.games):
        raise ArgumentError(f"{{number}} {number}: the match has games 1-{len(record.games)}")
    return record.games[number - 1]


def format_record(record: GameRecord | MatchRecord) -> str:
    """`format_game` or `format_match`, whichever the record is."""
    return format_match(record) if isinstance(record, MatchRecord) else format_game(record)


__all__ = ["DRAW_POINTS", "MatchRecord", "Resignation", "resignation", "game_points",
           "class_points", "game_end", "is_finished", "format_score", "parse_score",
           "format_points", "parse_match", "format_match", "parse_record", "read_record",
           "format_record", "is_match_text", "select_game", "Scorer"]
