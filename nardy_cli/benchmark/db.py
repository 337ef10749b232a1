"""The benchmark database's file: a header line, then one line per position, each line sealed by a
digest.

The file is JSON lines, gzip-compressed (each line its own gzip member, so a
line is appended whole and the file stays readable by `gzip.open`).  The first
line is the header (`format`, the build's `settings`); every line after it is
one position (`BenchPosition.to_dict`).  Every line carries `digest`: the sha256
of the previous line's digest and the line's own content without the digest,
so a changed, dropped or reordered line breaks the chain and `read_benchmark`
raises `BenchmarkFileError`.  docs/strength.md describes the fields.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..core.dice import Dice, parse_dice
from ..core.errors import BenchmarkFileError
from ..core.position import Position, parse_position

FORMAT = "nardy-benchmark"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class Candidate:
    """One distinct legal play of a benchmark position: its result's position ID and its 1-ply
    equity; for a rolled-out play the rollout's equity, its SE, and the SE of its difference to the
    rolled-out best."""

    result: str
    one_ply: float
    equity: float | None = None
    se: float | None = None
    diff_se: float | None = None

    @property
    def rolled(self) -> bool:
        """True when the play was rolled out (or valued exactly)."""
        return self.equity is not None

    def to_list(self) -> list:
        """The compact form stored in the file: [result, 1-ply, equity, se, diff_se] (None when not
        rolled)."""
        row = [self.result, round(self.one_ply, 4)]
        return row + ([round(self.equity, 4), round(self.se, 4), round(self.diff_se, 4)]
                      if self.rolled else [])


@dataclass(frozen=True)
class BenchPosition:
    """One benchmark decision: the position (side to move), its roll, its phase, where it came from
    and every candidate play, best 1-ply first."""

    index: int
    position: Position
    dice: Dice
    phase: str
    source: str
    # "rollout", or "database" (a bear-off: the bear-off databases' values)
    method: str
    candidates: tuple[Candidate, ...]

    @property
    def rolled(self) -> tuple[Candidate, ...]:
        """The rolled-out (or exactly valued) candidates."""
        return tuple(c for c in self.candidates if c.rolled)

    @property
    def best(self) -> Candidate:
        """The rolled-out best."""
        return max(self.rolled, key=lambda c: c.equity)

    def to_dict(self) -> dict:
        """The position's line, without its digest."""
        return {"i": self.index, "position": str(self.position.with_dice(None)),
                "dice": str(self.dice), "phase": self.phase, "source": self.source,
                "method": self.method, "plays": [c.to_list() for c in self.candidates]}

    @classmethod
    def from_dict(cls, data: dict) -> "BenchPosition":
        """Read a position line (already checked by its digest)."""
        cands = tuple(Candidate(r[0], r[1], *(r[2:5] if len(r) > 2 else ())) for r in data["plays"])
        return cls(data["i"], parse_position(data["position"]), parse_dice(data["dice"]),
                   data["phase"], data["source"], data["method"], cands)


@dataclass(frozen=True)
class Benchmark:
    """A benchmark database: the build's settings and its positions in build order."""

    settings: dict
    positions: tuple[BenchPosition, ...]
    path: str = ""


def _canonical(record: dict) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def seal(record: dict, previous: str) -> dict:
    """`record` with its digest: sha256 of the previous line's digest and the record's canonical
    JSON."""
    body = {k: v for k, v in record.items() if k != "digest"}
    digest = hashlib.sha256((previous + _canonical(body)).encode()).hexdigest()
    return {**body, "digest": digest}


def line_of(record: dict, previous: str) -> tuple[bytes, str]:
    """The gzip member holding the sealed record's line, and its digest."""
    sealed = seal(record, previous)
    return (gzip.compress((_canonical(sealed) + "\n").encode(), compresslevel=9, mtime=0),
            sealed["digest"])


def header_record(settings: dict) -> dict:
    """The header line's content for a build with `settings`."""
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "settings": settings}


def complete_members(data: bytes) -> tuple[str, int]:
    """The text of the complete gzip members at the start of `data`, and the bytes they take (a
    member cut short by a killed build is left out); raises `zlib.error` on bytes that are not
    gzip."""
    parts, used = [], 0
    while used < len(data):
        member = zlib.decompressobj(wbits=31)
        text = member.decompress(data[used:])
        if not member.eof:
            break
        parts.append(text)
        used = len(data) - len(member.unused_data)
    return b"".join(parts).decode(), used


def read_lines(path: str | Path, *, partial_ok: bool = False) -> tuple[list[dict], int]:
    """Every line of the file, each checked against its digest, and the bytes they take; raises
    `BenchmarkFileError` (a last line cut short is damage too, unless `partial_ok`)."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
        text, used = complete_members(data)
    except (zlib.error, UnicodeDecodeError) as exc:
        raise BenchmarkFileError(f"benchmark file {name!r} is damaged: {exc}") from None
    if used < len(data) and not partial_ok:
        raise BenchmarkFileError(f"benchmark file {name!r} is damaged: its last line is cut short "
                                 f"at byte {used}")
    previous = ""
    records = []
    for n, line in enumerate(text.splitlines(), 1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            raise BenchmarkFileError(f"benchmark file {name!r} is damaged: "
                                     f"line {n} is not JSON") from None
        if not isinstance(record, dict) or seal(record, previous)["digest"] != record.get("digest"):
            raise BenchmarkFileError(f"benchmark file {name!r} is damaged: "
                                     f"line {n}'s digest does not match "
                                     "its content (or a line before it changed)")
        previous = record["digest"]
        records.append(record)
    if not records or records[0].get("format") != FORMAT:
        raise BenchmarkFileError(f"{name!r} is not a nardy benchmark file (no {FORMAT!r} "
                                 "header line)")
    if records[0].get("format_version") != FORMAT_VERSION:
        raise BenchmarkFileError(f"benchmark file {name!r} has format version "
                                 f"{records[0].get('format_version')!r}; "
                                 f"this nardy reads version {FORMAT_VERSION}")
    return records, used


def read_benchmark(path: str | Path) -> Benchmark:
    """The benchmark database in `path`, its digests checked; raises `BenchmarkFileError` on a
    damaged file."""
    records, _ = read_lines(path)
    try:
        positions = tuple(BenchPosition.from_dict(r) for r in records[1:])
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise BenchmarkFileError(f"benchmark file {str(path)!r} is damaged: "
                                 "a position line cannot be read "
                                 f"({exc})") from None
    return Benchmark(records[0]["settings"], positions, str(path))


SHIPPED = {"benchmark": "benchmark.jsonl.gz", "yardstick": "yardstick.jsonl.gz"}
"""The databases shipped with nardy, by name: `benchmark` (rolled out by `neural`, the default) and
`yardstick` (rolled out by `lookahead:neural` from several policies' games; docs/strength.md)."""


def default_benchmark_path(name: str = "benchmark") -> Path:
    """A database shipped with nardy (`SHIPPED`): `nardy_cli/data/benchmark.jsonl.gz` by default."""
    return Path(__file__).resolve().parent.parent / "data" / SHIPPED[name]


def benchmark_path(name_or_file: str | None) -> Path:
    """The file a `--db` value names: a shipped database's name (`SHIPPED`), a file, or None for the
    default; a missing file is a `BenchmarkFileError` naming it."""
    if name_or_file is None or name_or_file in SHIPPED:
        return default_benchmark_path(name_or_file or "benchmark")
    path = Path(name_or_file)
    if not path.is_file():
        raise BenchmarkFileError(f"benchmark database {name_or_file!r} not found: give a file or "
                                 f"one of the shipped databases ({', '.join(SHIPPED)})")
    return path
