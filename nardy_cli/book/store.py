"""The book file: one JSON line per entry, gzip-compressed, appended to entry by entry.

A build appends each finished entry as its own small gzip member (a kill loses at most the entry
being written: a torn last member is ignored when the file is read), and packs the file into one
member when it stops, which compresses several times better.  Entries are keyed by
`depth|position|dice`; a key read twice keeps its first entry.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import zlib
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from ..core.errors import NardyError

SHIPPED = Path(__file__).resolve().parent.parent / "data" / "opening-book.jsonl.gz"


class BookError(NardyError):
    """A book file that cannot be read, or a build that would mix networks or rules."""


class Entries(Mapping):
    """A book's entries by key, each line's JSON parsed when its entry is first read (a lookup in a
    large book parses one line, not all of them)."""

    def __init__(self, lines: dict[str, str], path: Path) -> None:
        self._lines, self._parsed, self._path = lines, {}, path

    def __getitem__(self, key: str) -> dict:
        if key not in self._parsed:
            self._parsed[key] = _entry(self._lines[key], self._path)
        return self._parsed[key]

    def __iter__(self):
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)

    def provenance_texts(self) -> dict[str, set[str]]:
        """Each depth's distinct provenance texts, read off the entries' lines without parsing
        them (a provenance is the object between `"provenance":` and `,"method":`, as the book
        writes it; else the line is parsed)."""
        out: dict[str, set[str]] = {}
        for key, line in self._lines.items():
            start, end = line.find(PROVENANCE), line.find(METHOD)
            text = (line[start + len(PROVENANCE):end] if 0 < start < end
                    else json.dumps(self[key]["provenance"]))
            out.setdefault(key.split("|", 1)[0], set()).add(text)
        return out

    def dates(self) -> set[str]:
        """The entries' provenance dates, read off their lines without parsing them (the only
        `date` field an entry has)."""
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
    if path.exists():
        for line in _lines(path.read_bytes(), path):
            lines.setdefault(_key(line, path), line)
    return Entries(lines, path)


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
    """Rewrite the book as one gzip member (entries in key order); returns its size in bytes."""
    path = Path(path)
    entries = read_entries(path)
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as gz:
        for key in sorted(entries):
            gz.write((json.dumps(entries[key], separators=(",", ":")) + "\n").encode())
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(buf.getvalue())
    os.replace(tmp, path)
    return len(buf.getvalue())


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
