"""A training set of rolled-out positions: resumable, reproducible from its seed, on any executor.

Position k of a set comes from one of three sources, chosen by the golden-ratio
sequence over the shares of `SetSettings.mix` (so the first positions of a set
never depend on how many are asked for):

- `selfplay`: decisions of `neural` self-play games (`games.selfplay.sample_decisions`
  with the phase weights of `SetSettings.weights`: more contact and blocked play);
- `book`: the positions of the opening book's entries, in an order shuffled by the seed;
- `benchmark`: the positions of the first benchmark database's decisions, likewise.

Each position is taken before its roll (a decision's dice are dropped): the board the side
that has just moved leaves, which is what the network values.  It is rolled out by
`neural` on both sides (`SetSettings.games` games, stratified over the first roll,
variance reduction, truncated after `SetSettings.truncate` plies and scored there by the
network, bear-offs by the databases), seed `seed + 1 + k`.  A record holds the side to
move's outcome chances and their SEs (`core.outcomes.PROB_KEYS`), its equity and SE and the
CPU seconds it took; `targets` turns them into the network's nine classes for the side that
has just moved.

The file is gzip JSON lines, one gzip member a line, appended as each position finishes
(in the order they finish): a kill loses only the positions under way, a cut-short last
member is dropped, and the same call goes on with the indices the file lacks.  The first
line is the header with the settings; a file made with other settings is refused.
"""

from __future__ import annotations

import gzip
import json
import os
import time
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from .. import __version__
from ..core.errors import ArgumentError, NardyError, NoGamesError
from ..core.interrupts import held_interrupts
from ..core.phases import PHASES, phase_of
from ..core.position import Position, parse_position
from ..core.rules import PRESETS

FORMAT = "nardy-rollout-set"
SOURCES = ("selfplay", "book", "benchmark")
GOLDEN = 0.6180339887498949
DATA = Path(__file__).resolve().parent.parent / "data"
SOURCE_FILES = {"book": DATA / "opening-book.jsonl.gz", "benchmark": DATA / "benchmark.jsonl.gz"}


class RolloutSetError(NardyError):
    """A training-set file that is damaged or was made with other settings."""


@dataclass(frozen=True)
class SetSettings:
    """What a build does; two builds with equal settings write equal records."""

    seed: int = 52
    games: int = 216                 # per position: 6 per first roll, stratified
    truncate: int | None = 10
    # share of the positions from each source (`SOURCES`)
    mix: tuple[tuple[str, float], ...] = (("selfplay", 0.8), ("book", 0.1), ("benchmark", 0.1))
    # self-play decisions drawn per game, by phase (`games.selfplay.sample_decisions`)
    weights: tuple[tuple[str, float], ...] = (("contact", 2.0), ("blocked", 3.0), ("race", 0.5),
                                              ("bearoff", 0.25), ("opening", 0.5))
    policy: str = "neural"
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ArgumentError(f"{{games}} must be at least 1, got {self.games}")
        names = [n for n, _ in self.mix]
        if set(names) - set(SOURCES) or not self.mix or any(s < 0 for _, s in self.mix) \
                or sum(s for _, s in self.mix) <= 0:
            raise ArgumentError(f"{{mix}} takes shares of {', '.join(SOURCES)} (not all 0), "
                                f"got {dict(self.mix)}")

    def to_dict(self) -> dict:
        """The header's settings."""
        d = asdict(self)
        d["mix"] = [list(m) for m in self.mix]
        d["weights"] = [list(w) for w in self.weights]
        return d


def source_of(index: int, mix: tuple[tuple[str, float], ...]) -> str:
    """The source of position `index`: the golden-ratio sequence spread over the mix's shares."""
    total = sum(s for _, s in mix)
    u = (index * GOLDEN) % 1.0 * total
    for name, share in mix:
        if u < share:
            return name
        u -= share
    return mix[-1][0]


def file_positions(path: str | Path) -> list[str]:
    """The distinct `position` fields of a gzip JSON-lines file (the book's entries, the benchmark's
    decisions), in file order, without their dice."""
    seen, out = set(), []
    with gzip.open(path, "rt") as fh:
        for line in fh:
            text = json.loads(line).get("position")
            if text and text not in seen:
                seen.add(text)
                out.append(text)
    return out


def _shuffled(texts: list[str], seed: int, salt: int) -> Iterator[tuple[Position, str, str]]:
    order = np.random.default_rng([seed, salt]).permutation(len(texts))
    for i in order:
        pos = parse_position(texts[i])
        yield pos, phase_of(pos), f"position {i + 1}"


def _selfplay(settings: SetSettings) -> Iterator[tuple[Position, str, str]]:
    from ..games.selfplay import sample_decisions
    for pos, phase, where in sample_decisions(settings.seed, PRESETS["federation"],
                                              weights=dict(settings.weights)):
        yield pos.with_dice(None), phase, where


def planned_positions(settings: SetSettings, count: int,
                      files: dict[str, Path] | None = None) -> list[tuple[str, str, str, str]]:
    """Positions 0..count-1 of the set: (source, phase, where, position text), each distinct; a
    source that runs dry gives way to self-play."""
    files = files or SOURCE_FILES
    streams: dict[str, Iterator] = {"selfplay": _selfplay(settings)}
    for salt, name in enumerate(("book", "benchmark"), 1):
        if dict(settings.mix).get(name, 0) > 0:
            streams[name] = _shuffled(file_positions(files[name]), settings.seed, salt)
    seen: set[str] = set()
    out = []
    index = 0
    while len(out) < count:
        name = source_of(index, settings.mix)
        index += 1
        for pos, phase, where in streams.get(name, streams["selfplay"]):
            text = str(pos)
            if text not in seen:
                seen.add(text)
                out.append((name, phase, where, text))
                break
        else:
            streams[name] = streams["selfplay"]     # dry: this source's later turns self-play
    return out


@dataclass
class SetTally:
    """The records finished by jobs (summed with `add`, as the executors sum tallies)."""

    records: list = field(default_factory=list)

    def add(self, other: "SetTally") -> None:
        self.records.extend(other.records)


def _new_tally() -> SetTally:
    return SetTally()


def roll_task(settings: dict, index: int, source: str, phase: str, where: str, text: str,
              lo: int, hi: int) -> SetTally:
    """One job (module level, so it travels to workers): position `index` rolled out."""
    from ..analysis.rollout import rollout
    from ..games.scoring import Scoring
    start = time.process_time()
    try:
        r = rollout(parse_position(text), settings["policy"], games=settings["games"],
                    seed=settings["seed"] + 1 + index, workers=1, stratify=True,
                    scoring=Scoring(vr=True, truncate=settings["truncate"]))
    except NoGamesError:
        raise KeyboardInterrupt from None
    if r.interrupted:
        raise KeyboardInterrupt     # a half-made record is never kept
    return SetTally([{"i": index, "source": source, "phase": phase, "where": where,
                      "position": text, "games": r.games,
                      "probabilities": {k: round(v, 6) for k, v in r.probabilities.items()},
                      "se": {k: round(v, 6) for k, v in r.se.items()},
                      "equity": round(r.equity, 6), "equity_se": round(r.equity_se, 6),
                      "cpu_seconds": round(time.process_time() - start, 3)}])


@dataclass(frozen=True)
class SetBuild:
    """What a build call did."""

    path: str
    found: int
    added: int
    target: int
    interrupted: bool
    seconds: float
    cpu_seconds: float

    @property
    def total(self) -> int:
        """Records in the file now."""
        return self.found + self.added


def read_set(path: str | Path, *, partial_ok: bool = True) -> tuple[dict, list[dict], int]:
    """(header settings, records, bytes of complete lines) of a set file; a cut-short last line is
    left out (an error unless `partial_ok`), and a position written twice is read once."""
    name = str(path)
    data = Path(path).read_bytes()
    lines, used = [], 0
    try:
        while used < len(data):
            member = zlib.decompressobj(wbits=31)
            text = member.decompress(data[used:])
            if not member.eof:
                break
            lines.append(text)
            used = len(data) - len(member.unused_data)
        rows = [json.loads(t) for t in lines]
    except (zlib.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RolloutSetError(f"training set {name!r} is damaged: {exc}") from None
    if used < len(data) and not partial_ok:
        raise RolloutSetError(f"training set {name!r} is damaged: its last line is cut short")
    if not rows or rows[0].get("format") != FORMAT:
        raise RolloutSetError(f"{name!r} is not a nardy training set (no {FORMAT!r} header)")
    seen: set[int] = set()
    records = []
    for r in rows[1:]:      # two builds run at once on one file would write a position twice
        if r["i"] not in seen:
            seen.add(r["i"])
            records.append(r)
    return rows[0]["settings"], records, used


def _append(path: Path, records: list[dict]) -> None:
    if not records:
        return
    data = b"".join(gzip.compress((json.dumps(r, sort_keys=True) + "\n").encode(), mtime=0)
                    for r in records)
    with open(path, "ab") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def build_set(path: str | Path, positions: int, settings: SetSettings = SetSettings(), *,
              workers: int = 1, executor: str = "local", scheduler: str | None = None,
              files: dict[str, Path] | None = None,
              progress: Callable[[int, int], None] | None = None) -> SetBuild:
    """Build (or resume) the set at `path` up to `positions` positions (module doc); Ctrl-C keeps
    what finished (`interrupted`)."""
    from ..games.executors import run_jobs
    if positions < 1:
        raise ArgumentError(f"{{positions}} must be at least 1, got {positions}")
    path = Path(path)
    header = {"format": FORMAT, "settings": settings.to_dict(), "version": __version__}
    if path.exists() and path.stat().st_size:
        theirs, records, used = read_set(path)
        if used < path.stat().st_size:
            os.truncate(path, used)
        if theirs != header["settings"]:
            changed = sorted(k for k in theirs.keys() | header["settings"].keys()
                             if theirs.get(k) != header["settings"].get(k))
            raise RolloutSetError(f"training set {str(path)!r} was built with other settings "
                                  f"({', '.join(changed)}): resume it with its own, or write "
                                  "a new file")
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(gzip.compress((json.dumps(header, sort_keys=True) + "\n").encode(),
                                       mtime=0))
        records = []
    have = {r["i"] for r in records}
    started = time.monotonic()
    try:
        plan = planned_positions(settings, positions, files)
    except KeyboardInterrupt:       # while drawing the positions: nothing rolled out yet
        return SetBuild(str(path), len(have), 0, positions, True, time.monotonic() - started, 0.0)
    for r in records:
        if r["i"] < positions and r["position"] != plan[r["i"]][3]:
            raise RolloutSetError(f"training set {str(path)!r}: position {r['i']} is not the "
                                  "sampler's; the file was made by another nardy")
    todo = [(k, *p) for k, p in enumerate(plan) if k not in have]
    done = positions - len(todo)
    report = progress or (lambda done, total: None)
    report(done, positions)
    added, cpu = 0, 0.0
    written = [0]

    def save(tally: SetTally) -> None:
        nonlocal added, cpu
        new = tally.records[written[0]:]
        with held_interrupts():
            _append(path, new)
        written[0] += len(new)
        added += len(new)
        cpu += sum(r["cpu_seconds"] for r in new)
        report(done + added, positions)

    jobs = [(settings.to_dict(), k, source, phase, where, text, k, k + 1)
            for k, source, phase, where, text in todo]
    interrupted = False
    if jobs:
        tally, interrupted = run_jobs(jobs, task=roll_task, new_tally=_new_tally,
                                      workers=workers, executor=executor, scheduler=scheduler,
                                      report=save)
        save(tally)
    return SetBuild(str(path), done, added, positions, interrupted,
                    time.monotonic() - started, cpu)


def phases_of(records: list[dict]) -> dict[str, int]:
    """How many records of each phase."""
    return {p: sum(r["phase"] == p for r in records) for p in PHASES}


def first_records(records: list[dict], n: int) -> list[dict]:
    """The records of positions 0..n-1 that the file holds, in index order."""
    return sorted((r for r in records if r["i"] < n), key=lambda r: r["i"])

