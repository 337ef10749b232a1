"""Game records: whole games as text (docs/game-records.md), read and written, checked move by move.

A record is header tags (`[White "heuristic"]`) then numbered turns, each ply a roll
and a play: `1. 6-5: 1/12    4-2: 1/7`.  Every play is matched against the legal
plays of its roll by the position it leads to, so `1/12`, `1/7 7/12` and `1/6 6/12`
are the same play.  `parse_game` replays the game with the engine and raises
`GameRecordError` naming the turn, the roll and the offending token.  Cube actions
(`Doubles => 2`, `Takes`, `Drops`, `Beavers => 4`) come before a ply's roll and are
checked by `cube_actions.CubeTracker`; a game that holds them carries the cube before
every roll (`Ply.cube`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.dice import Dice, parse_dice
from ..core.engine import Outcome, Play
from ..core.errors import CubeRecordError, GameRecordError, NardyError, NotationError
from ..core.position import BLACK, SIDE_NAMES, START, WHITE, Position, other_side, parse_position
from ..core.rules import PRESETS, Rules, format_points, make_rules
from ..match.cube import Cube
from .cube_actions import CubeAction, CubeTracker, parse_action, tag_flag
from .plays import PASS_WORDS, format_moves, match_play, parse_moves  # noqa: F401  (re-exported)
from .replay import Ply, Replay, Turn

FEDERATION = PRESETS["federation"]
RULE_TAGS = ("Rules", "HeadRule", "BlockCheck", "LastRoll", "Points")
STANDARD_TAGS = ("White", "Black", "Date", *RULE_TAGS, "Position", "Result")

_TAG_RE = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_RESULT_RE = re.compile(r"^(white|black|w|b)\s+(?:wins\s+)?(?:by\s+)?(oin|home-mars|mars|koks)$",
                        re.I)
_TOKEN_RE = re.compile(r"""
    (?P<num>[0-9]+\.(?:\.\.)?)(?=\s|$|\{) |
    (?P<dice>[0-9]-?[0-9])\s*: |
    (?P<result>(?:white|black)\s+wins\s+by\s+(?:home-mars|oin|mars|koks)\b|draw\b|\*) |
    (?P<cube>(?:doubles|beavers)(?:\s*=>\s*[0-9]+)?(?=\s|$|\{)|(?:takes|drops)(?=\s|$|\{)) |
    (?P<word>[^\s{]+)
""", re.X | re.I)


@dataclass(frozen=True)
class GameRecord:
    """A whole game (or its beginning): players, date, rules, start position, plies, and its end.

    `result` is the outcome of the replayed final position, None while the game goes on
    (and after a drop or a resignation).  `tags` keeps every other header tag, in order.
    `end_actions` are the cube actions after the last ply: a double and the drop that ended the
    game.
    """

    white: str = "?"
    black: str = "?"
    date: str = "?"
    rules: Rules = FEDERATION
    start: Position = START
    plies: tuple[Ply, ...] = ()
    result: Outcome | None = None
    tags: tuple[tuple[str, str], ...] = field(default=())
    comment: str = ""
    end_actions: tuple[CubeAction, ...] = ()

    @property
    def is_cube_game(self) -> bool:
        """True when the game was played with the cube: its plies carry the cube, or it ends with
        cube actions."""
        return bool(self.end_actions) or any(p.cube is not None for p in self.plies[:1])

    @property
    def dropped(self) -> CubeAction | None:
        """The drop that ended the game, None when no double was dropped."""
        return next((a for a in self.end_actions if a.kind == "drop"), None)

    @property
    def final(self) -> Position:
        """The position after the last ply."""
        return self.plies[-1].play.result if self.plies else self.start

    def positions(self) -> list[Position]:
        """The start and the position after every ply."""
        return [self.start] + [p.play.result for p in self.plies]

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of any header tag, standard or not."""
        return dict(header_tags(self)).get(name, default)

    def turns(self) -> list[Turn]:
        """Every turn in order (a ply each), and a last one for the cube actions after the last
        ply: its number, the position before the roll, the cube before its actions."""
        out = []
        cube = self.start_cube()
        number = 1
        for index, ply in enumerate(self.plies):
            out.append(Turn(index, ply.number, ply.position, cube, ply.actions, ply))
            cube = ply.cube or cube
            number = ply.number + (ply.side == BLACK)
        if self.end_actions:
            out.append(Turn(None, number, self.final, cube, self.end_actions, None))
        return out

    def start_cube(self) -> Cube:
        """The cube the game starts with: centred, with the cube rules of its tags (Jacoby,
        Beavers)."""
        tags = dict(self.tags)
        return Cube(jacoby=tag_flag(tags, "Jacoby"), beavers=tag_flag(tags, "Beavers"))

    @classmethod
    def replayed(cls, replay: Replay, **fields) -> GameRecord:
        """The game `replay` has replayed (its rules, start, plies, end actions and result), with
        `fields` (players, date, tags, comment); `CubeRecordError` for a double left
        unanswered."""
        plies, end_actions = replay.finish()
        return cls(rules=replay.rules, start=replay.start, plies=plies, result=replay.over(),
                   end_actions=end_actions, **fields)


# ---------------------------------------------------------------- results


def parse_result(text: str) -> Outcome | None:
    """`White wins by mars`, `white mars`, `draw`; `*` (game not over) is None."""
    t = " ".join(text.split())
    if t == "*":
        return None
    if t.lower() == "draw":
        return Outcome(None, "draw")
    m = _RESULT_RE.match(t)
    if not m:
        raise NotationError(f"bad result {text!r}: expected e.g. 'White wins by mars', "
                            "'draw' or '*'")
    return Outcome(WHITE if m.group(1).lower()[0] == "w" else BLACK, m.group(2).lower())


def format_result(result: Outcome | None) -> str:
    """The result as the record writes it: `White wins by koks`, `draw`, or `*`."""
    return "*" if result is None else str(result)


# ---------------------------------------------------------------- parsing


def _unescape(value: str) -> str:
    return value.replace('\\"', '"').replace("\\\\", "\\")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _split_header(text: str) -> tuple[list[tuple[int, str, str]], list[tuple[int, str]]]:
    """Tag lines (line number, name, value) and the remaining movetext lines."""
    tags: list[tuple[int, str, str]] = []
    body: list[tuple[int, str]] = []
    in_header = True
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if in_header and line.startswith("["):
            m = _TAG_RE.match(line) or _TAG_RE.match(line[:line.rfind("]") + 1])
            if not m:
                raise GameRecordError(f"line {lineno}: bad tag {line!r}: expected [Name \"value\"]")
            tags.append((lineno, m.group(1), _unescape(m.group(2))))
            continue
        if in_header and (not line or line.startswith("#")):
            continue
        in_header = False
        body.append((lineno, raw))
    return tags, body


def _tokens(body: list[tuple[int, str]]) -> list[tuple[str, str, int]]:
    """(kind, text, line) tokens of the movetext; `{...}` is one comment token, `#` to line end is
    dropped."""
    out: list[tuple[str, str, int]] = []
    comment: list[str] | None = None
    start_line = 0
    for lineno, raw in body:
        rest = raw
        while rest:
            if comment is not None:
                close = rest.find("}")
                if close < 0:
                    comment.append(rest.strip())
                    rest = ""
                    continue
                comment.append(rest[:close].strip())
                out.append(("comment", " ".join(c for c in comment if c), start_line))
                comment = None
                rest = rest[close + 1:]
                continue
            cut = min((i for i in (rest.find("{"), rest.find("#")) if i >= 0), default=-1)
            segment = rest if cut < 0 else rest[:cut]
            for m in _TOKEN_RE.finditer(segment):
                kind = m.lastgroup
                out.append((kind, m.group(kind) if kind == "dice" else m.group(0), lineno))
            if cut < 0:
                rest = ""
            elif rest[cut] == "#":
                rest = ""
            else:
                comment, start_line = [], lineno
                rest = rest[cut + 1:]
    if comment is not None:
        raise GameRecordError(f"line {start_line}: comment '{{' is never closed")
    return out


def _rules_from_tags(tags: dict[str, str]) -> Rules:
    last = tags.get("LastRoll")
    if last is not None and last.lower() not in ("on", "off", "true", "false", "yes", "no"):
        raise GameRecordError(f"bad LastRoll tag {last!r}: expected on or off")
    try:
        return make_rules(tags.get("Rules", "federation"), head_rule=tags.get("HeadRule"),
                          block_check=tags.get("BlockCheck"),
                          last_roll=None if last is None else last.lower() in ("on", "true", "yes"),
                          points=tags.get("Points"))
    except NardyError as exc:
        raise GameRecordError(f"bad rules tags: {exc}") from None


def parse_game(text: str, *, crawford: bool = False) -> GameRecord:
    """Read a game record and replay it; raises `GameRecordError` naming the turn, roll and token.

    `crawford`: the game is a match's Crawford game, where a double is an error.
    """
    tag_lines, body = _split_header(text)
    tags: dict[str, str] = {}
    canonical = {t.lower(): t for t in STANDARD_TAGS}
    for lineno, name, value in tag_lines:
        name = canonical.get(name.lower(), name)
        if name in tags:
            raise GameRecordError(f"line {lineno}: tag {name!r} given twice")
        tags[name] = value
    rules = _rules_from_tags(tags)
    try:
        start = parse_position(tags["Position"]) if "Position" in tags else START
    except NardyError as exc:
        raise GameRecordError(f"bad Position tag {tags['Position']!r}: {exc}") from None
    if start.dice is not None:
        raise GameRecordError(f"bad Position tag {tags['Position']!r}: the first roll goes in the "
                              "moves, not here")
    try:
        tracker = CubeTracker(tags, crawford)
    except NardyError as exc:
        raise CubeRecordError(str(exc)) from None
    replay = Replay(start, rules, tracker)
    game_comment, end = _replay(_tokens(body), replay)
    extra = tuple((k, v) for k, v in tags.items() if k not in STANDARD_TAGS)
    record = GameRecord.replayed(replay, white=tags.get("White", "?"),
                                 black=tags.get("Black", "?"), date=tags.get("Date", "?"),
                                 tags=extra, comment=game_comment)
    for source, stated in (("Result tag", tags.get("Result")),
                           ("result at the end of the moves", end)):
        if stated is None or stated.strip() == "*":
            continue
        try:
            said = parse_result(stated)
        except NardyError as exc:
            raise GameRecordError(f"bad {source}: {exc}") from None
        if said != record.result:
            actual = "the game is not over" if record.result is None else str(record.result)
            raise GameRecordError(f"{source} {stated!r} does not match the replay: {actual}")
    return record


def _replay(tokens: list[tuple[str, str, int]], replay: Replay) -> tuple[str, str | None]:
    """Replay the movetext tokens, each ply checked against the engine; the game comment, the end
    result."""
    game_comment = ""
    end: str | None = None
    tracker = replay.tracker
    i = 0
    n = len(tokens)
    while i < n:
        kind, text, line = tokens[i]
        turn = replay.position.turn
        where = f"turn {replay.number} ({SIDE_NAMES[turn]})"
        if end is not None and kind != "comment":
            raise GameRecordError(f"{where}: {text!r} after the result {end!r}")
        if kind in ("num", "dice", "word", "cube") and replay.plies and replay.over() is not None:
            raise GameRecordError(f"{where}: the game is already over ({replay.over()}), "
                                  f"but the record goes on with {text!r} (line {line})")
        if kind == "comment":
            if not replay.note(text):
                game_comment = f"{game_comment} {text}".strip()
            i += 1
        elif kind == "result":
            end = text
            i += 1
        elif kind == "cube":
            try:
                replay.act(*parse_action(text))
            except NardyError as exc:
                raise type(exc)(f"{where}: {exc}: {text!r} (line {line})") from None
            i += 1
        elif kind == "num":
            if tracker.dropped is not None:
                raise CubeRecordError(f"{where}: {text!r} after the drop that ended the game "
                                      f"(line {line})")
            if tracker.turn_actions and text.endswith("...") == (turn == BLACK):
                first = tracker.turn_actions[0]
                raise CubeRecordError(f"{where}: {str(first)!r} before the turn number {text!r}: "
                                      "a cube action "
                                      f"after {SIDE_NAMES[other_side(turn)]}'s roll belongs to "
                                      "the next turn, "
                                      f"and the cube is turned before the roll (line {line})")
            value = int(text.rstrip("."))
            black_label = text.endswith("...")
            if (value != replay.number or (black_label and turn != BLACK)
                or (not black_label and turn != WHITE)):
                expected = f"{replay.number}." if turn == WHITE else f"{replay.number}..."
                raise GameRecordError(f"{where}: expected turn number {expected!r}, "
                                      f"found {text!r} (line {line})")
            i += 1
        elif kind == "dice":
            try:
                dice = parse_dice(text)
            except NardyError as exc:
                raise GameRecordError(f"{where}: {exc}") from None
            j = i + 1
            words = []
            while j < n and tokens[j][0] == "word":
                words.append(tokens[j][1])
                j += 1
            if replay.over() is not None:
                raise GameRecordError(f"{where} {dice}: the game is over before it starts "
                                      f"({replay.over()})")
            try:
                replay.roll(dice)
            except NardyError as exc:
                raise type(exc)(f"{where} {dice}: {exc} (line {line})") from None
            try:
                replay.play(" ".join(words))
            except NardyError as exc:
                raise GameRecordError(f"{where} {dice}: {exc} (line {line})") from None
            i = j
        else:  # a word outside a ply
            hint = (" (a roll needs a colon: '6-5: 1/12')" if re.match(r"^[1-6]-?[1-6]$", text)
                    else "")
            raise GameRecordError(f"{where}: expected a roll such as '6-5:', "
                                  f"found {text!r}{hint} (line {line})")
    return game_comment, end


def parse_date_tag(text: str) -> str:
    """A `Date` tag's value: a real day as `YYYY.MM.DD` (`YYYY-MM-DD` is read too), or `?` for
    unknown."""
    import datetime
    if text.strip() == "?":
        return "?"
    if text.isascii():  # strptime would read fullwidth digits
        for fmt in ("%Y.%m.%d", "%Y-%m-%d"):
            try:
                return datetime.datetime.strptime(text.strip(), fmt).strftime("%Y.%m.%d")
            except ValueError:
                pass
    raise NotationError(f"bad date {text!r}: expected a real day as YYYY.MM.DD, e.g. "
                        "2026.11.29, or '?'")


def read_record_text(path: str | Path) -> str:
    """The text of a record file (UTF-8); a file that cannot be read or is not UTF-8 is a
    `GameRecordError`."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise GameRecordError(f"cannot read game record {str(p)!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise GameRecordError(f"game record {str(p)!r} is not UTF-8 text (byte "
                              f"{exc.start + 1})") from None


def read_game(path: str | Path) -> GameRecord:
    """Read a record file; errors name the file."""
    p = Path(path)
    text = read_record_text(p)
    try:
        return parse_game(text)
    except GameRecordError as exc:
        raise type(exc)(f"{p.name}: {exc}") from None


# ---------------------------------------------------------------- formatting


def header_tags(record: GameRecord) -> list[tuple[str, str]]:
    """Every header tag of the record in the order `format_game` writes them."""
    tags = [("White", record.white), ("Black", record.black), ("Date", record.date),
            ("Rules", record.rules.preset)]
    base = PRESETS.get(record.rules.preset, FEDERATION)
    if record.rules.head_rule != base.head_rule:
        tags.append(("HeadRule", record.rules.head_rule))
    if record.rules.block_check != base.block_check:
        tags.append(("BlockCheck", record.rules.block_check))
    if record.rules.last_roll != base.last_roll:
        tags.append(("LastRoll", "on" if record.rules.last_roll else "off"))
    if record.rules.points != base.points:
        tags.append(("Points", format_points(record.rules.points)))
    if record.start != START:
        tags.append(("Position", str(record.start)))
    tags.extend(record.tags)
    tags.append(("Result", format_result(record.result)))
    return tags


def _ply_text(ply: Ply) -> str:
    text = " ".join([*map(str, ply.actions), f"{ply.dice}: {format_moves(ply.play)}"])
    return f"{text} {{{ply.comment}}}" if ply.comment else text


def format_game(record: GameRecord, width: int = 22) -> str:
    """The record as text that `parse_game` reads back to an equal record."""
    lines = [f'[{name} "{_escape(value)}"]' for name, value in header_tags(record)]
    lines.append("")
    if record.comment:
        lines += [f"{{{record.comment}}}", ""]
    i = 0
    plies = record.plies
    while i < len(plies):
        ply = plies[i]
        nxt = plies[i + 1] if i + 1 < len(plies) else None
        if ply.side == WHITE and nxt is not None and not ply.comment:
            lines.append(f"{ply.label:<5}{_ply_text(ply):<{width}}  {_ply_text(nxt)}".rstrip())
            i += 2
        else:
            lines.append(f"{ply.label:<5}{_ply_text(ply)}" if ply.side == WHITE
                         else f"{ply.label} {_ply_text(ply)}")
            i += 1
    if record.end_actions:   # after the last ply: the label of the turn the drop ended
        number = record.turns()[-1].number
        label = f"{number}." if record.final.turn == WHITE else f"{number}..."
        lines.append(f"{label:<5}{' '.join(map(str, record.end_actions))}")
    lines.append(format_result(record.result))
    return "\n".join(lines) + "\n"


def record_from_plays(plays: list[tuple[Dice, Play]], start: Position = START,
                      rules: Rules = FEDERATION, **fields) -> GameRecord:
    """A record from (dice, play) pairs played in order from `start` (plays from `legal_plays`);
    with cube actions, `cube_records.record_from_turns`."""
    replay = Replay(start, rules, CubeTracker({}))
    for dice, play in plays:
        replay.roll(dice)
        replay.play(play)
    return GameRecord.replayed(replay, **fields)


__all__ = ["Ply", "GameRecord", "parse_game", "format_game", "read_game", "parse_date_tag",
           "match_play", "parse_moves", "format_moves", "parse_result", "format_result",
           "header_tags", "record_from_plays"]
