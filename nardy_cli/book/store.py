"""The book file: one JSON line per entry, gzip-compressed, appended to entry by entry.

A build appends each finished entry as its own small gzip member (a kill loses at most the entry
being written: a torn last member is ignored when the file is read), and packs the file into one
member when it stops, which compresses several times better.  Entries are keyed by
`depth|position|dice`; a key read twice keeps its first entry.

A packed book holds one member per depth, in the game's order, after an empty first member whose
gzip header carries their index (an `NB` extra field: each depth's offset and length, and the
file's size).  While the file is as packed (its size unchanged: nothing appended since), a read
decompresses a depth's member only when an entry of that depth is asked for: the first exchange
is read without Black's second turn, nine tenths of the file.  Any gzip reader reads the file as
before (the index member is empty).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import struct
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path

import pandas as pd

from ..core.errors import NardyError
from .tree import DEPTHS

SHIPPED = Path(__file__).resolve().parent.parent / "data" / "opening-book.jsonl.gz"


class BookError(NardyError):
    """A book file that cannot be read, or a build that would mix networks or rules."""


class Entries(Mapping):
    """A book's entries by key, each line's JSON parsed when its entry is first read (a lookup in a
    large book parses one line, not all of them), and in a packed book each depth's member
    decompressed when an entry of that depth is first asked for (`unread`: depth -> the member's
    bytes)."""

    def __init__(self, lines: dict[str, str], path: Path,
                 unread: dict[str, bytes] | None = None) -> None:
        self._lines, self._parsed, self._path = lines, {}, path
        self._unread = dict(unread or {})

    def _read(self, depths: Iterable[str] | None = None) -> None:
        """Decompress the members of `depths` (None: every depth) not read yet."""
        for depth in list(self._unread) if depths is None else depths:
            member = self._unread.pop(depth, None)
            if member is not None:
                for line in _lines(member, self._path):
                    self._lines.setdefault(_key(line, self._path), line)

    def __getitem__(self, key: str) -> dict:
        if key not in self._parsed:
            if self._unread:
                self._read((key.split("|", 1)[0],))
            self._parsed[key] = _entry(self._lines[key], self._path)
        return self._parsed[key]

    def __iter__(self):
        self._read()
        return iter(self._lines)

    def __len__(self) -> int:
        self._read()
        return len(self._lines)

    def provenance_texts(self, depths: Iterable[str] | None = None) -> dict[str, set[str]]:
        """Each depth's (of `depths`, None: all) distinct provenance texts, read off the entries'
        lines without parsing them (a provenance is the object between `"provenance":` and
        `,"method":`, as the book writes it; else the line is parsed)."""
        wanted = None if depths is None else set(depths)
        self._read(wanted)
        out: dict[str, set[str]] = {}
        for key, line in self._lines.items():
            depth = key.split("|", 1)[0]
            if wanted is not None and depth not in wanted:
                continue
            start, end = line.find(PROVENANCE), line.find(METHOD)
            text = (line[start + len(PROVENANCE):end] if 0 < start < end
                    else json.dumps(self[key]["provenance"]))
            out.setdefault(depth, set()).add(text)
        return out

    def dates(self) -> set[str]:
        """The entries' provenance dates, read off their lines without parsing them (the only
        `date` field an entry has)."""
        self._read()
        return set(DATE.findall("\n".join(self._lines.values())))


DATE = re.compile(r'"date":"([^"]*)"')
PROVENANCE, METHOD = '"provenance":', ',"method":'


KEY_PREFIX = '{"key":"'


def _entry(line: str, path: Path) -> dict:
    """The entry of one line; raises `BookError` for a line that is not one."""
    try:
        entry = json.loads(line)
        entry["key"]
        return entry
    except (ValueError, KeyError, TypeError):
        raise BookError(f"{path}: not an opening book (a line is not a book entry)") from None


def _key(line: str, path: Path) -> str:
    """The key of an entry's line: read off its start, as the book writes it (else parsed)."""
    end = line.find('"', len(KEY_PREFIX))
    if line.startswith(KEY_PREFIX) and end > 0 and "\\" not in line[:end]:
        return line[len(KEY_PREFIX):end]
    return _entry(line, path)["key"]


def read_entries(path: str | Path) -> Entries:
    """Every entry of the book at `path` by key (an absent file: none)."""
    path = Path(path)
    lines: dict[str, str] = {}
    if path.is_dir():       # bad input (exit 2), not a read that failed
        raise BookError(f"{str(path)!r} is a folder, not an opening book file (.jsonl.gz)")
    if not path.exists():
        return Entries(lines, path)
    raw = path.read_bytes()
    index = _index(raw)
    if index is not None:
        return Entries(lines, path, {depth: raw[start:start + length]
                                     for depth, start, length in index})
    for line in _lines(raw, path):
        lines.setdefault(_key(line, path), line)
    return Entries(lines, path)


# the index member: a gzip header with FEXTRA (flags 4), mtime 0, no extra flags, OS unknown (255)
INDEX_ID = b"NB"
INDEX_MAGIC = b"nardy-book-index-1"
_EMPTY_DEFLATE = b"\x03\x00"          # a final empty block
_ENTRY = struct.Struct("<16sQQ")       # depth name (NUL-padded), offset, length


def _index_member(members: list[tuple[str, int, int]], size: int) -> bytes:
    """The empty gzip member whose header indexes `members` (depth, offset, length) of a file of
    `size` bytes."""
    data = (INDEX_MAGIC + struct.pack("<QH", size, len(members))
            + b"".join(_ENTRY.pack(d.encode(), o, n) for d, o, n in members))
    extra = INDEX_ID + struct.pack("<H", len(data)) + data
    header = b"\x1f\x8b\x08\x04" + b"\x00" * 4 + b"\x00\xff" + struct.pack("<H", len(extra))
    return header + extra + _EMPTY_DEFLATE + struct.pack("<II", 0, 0)


def _index(raw: bytes) -> list[tuple[str, int, int]] | None:
    """The depth members' (depth, offset, length) of a packed book whose size is the one its index
    records; None for any other file (unpacked, appended to since, or written before the index)."""
    head = 12 + 2 + 2 + len(INDEX_MAGIC) + 10
    if len(raw) < head or raw[:4] != b"\x1f\x8b\x08\x04" or raw[12:14] != INDEX_ID:
        return None
    at = 16
    if raw[at:at + len(INDEX_MAGIC)] != INDEX_MAGIC:
        return None
    at += len(INDEX_MAGIC)
    size, count = struct.unpack_from("<QH", raw, at)
    at += 10
    if size != len(raw) or len(raw) < at + count * _ENTRY.size:
        return None
    out = []
    for k in range(count):
        name, start, length = _ENTRY.unpack_from(raw, at + k * _ENTRY.size)
        out.append((name.rstrip(b"\x00").decode(), start, length))
    return out


def _lines(raw: bytes, path: Path) -> list[str]:
    """The complete lines of the gzip members in `raw`; a torn last member (a build killed while
    writing) gives the lines before it."""
    out: list[str] = []
    data = raw
    while data:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            text = d.decompress(data)
        except zlib.error:
            if out or data is not raw:
                break       # a torn member after whole ones
            raise BookError(f"{path}: not a gzip-compressed opening book") from None
        if not d.eof:
            break           # cut short: ignore the torn member
        out += [line for line in text.decode().splitlines() if line.strip()]
        data = d.unused_data
    return out


def append_entries(path: str | Path, entries: list[dict]) -> None:
    """Append entries as one gzip member, flushed to the disk."""
    if not entries:
        return
    text = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in entries)
    with open(path, "ab") as f:
        f.write(gzip.compress(text.encode(), mtime=0))
        f.flush()
        os.fsync(f.fileno())


def pack(path: str | Path) -> int:
    """Rewrite the book as one gzip member per depth (the game's order, entries in key order within
    it) after the index member; returns its size in bytes."""
    path = Path(path)
    entries = read_entries(path)
    by_depth: dict[str, list[str]] = {}
    for key in sorted(entries):
        by_depth.setdefault(key.split("|", 1)[0], []).append(key)
    order = sorted(by_depth, key=lambda d: (DEPTHS.index(d) if d in DEPTHS else len(DEPTHS), d))
    members = []
    for depth in order:
        buf = io.BytesIO()
        with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as gz:
            for key in by_depth[depth]:
                gz.write((json.dumps(entries[key], separators=(",", ":")) + "\n").encode())
        members.append((depth, buf.getvalue()))
    head = len(_index_member([(d, 0, 0) for d, _ in members], 0))
    size = head + sum(len(m) for _, m in members)
    spans, at = [], head
    for depth, member in members:
        spans.append((depth, at, len(member)))
        at += len(member)
    data = _index_member(spans, size) + b"".join(m for _, m in members)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return len(data)


def book_frame(entries: Mapping[str, dict]) -> pd.DataFrame:
    """One row per judged play (and per valued position of the first exchange): the decision's
    depth, position and dice, the play, its figures, method, verdict, and the entry's network,
    games, seed and truncation."""
    rows = []
    for entry in entries.values():
        prov = entry["provenance"]
        common = {"depth": entry["depth"], "position": entry["position"], "dice": entry["dice"],
                  "network": prov.get("network"), "seed": prov["seed"],
                  "truncate": prov["truncate"], "vr": prov["vr"]}
        if "value" in entry:
            rows.append(common | {"rank": 1, "play": None, **entry["value"]})
            continue
        for rank, play in enumerate(entry["plays"], 1):
            rows.append(common | {"rank": rank, **play})
    return pd.DataFrame(rows)
