"""What the book's numbers say, as data for the study guide: the second-turn grids, the
instructive decisions, and lessons in words, each with the entries behind it.

A `Lesson` holds a message (marked for translation, so the guide prints it in English and in
Russian) and the figures it quotes, counted from the entries; nothing here is written by hand
about a particular position.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ..core.dice import ALL_ROLLS
from ..core.engine import parse_steps
from ..core.i18n import N_
from ..core.position import Position
from ..core.rules import Rules
from .read import Book

HEAD = 1        # White's head point in its own numbering


@dataclass(frozen=True)
class Lesson:
    """A lesson: its message (English msgid with {fields}), the figures, and the entry keys that
    back it (a few examples first)."""

    name: str
    message: str
    values: dict
    examples: tuple[str, ...] = field(default_factory=tuple)

    def text(self) -> str:
        """The lesson in the current language."""
        from ..core.i18n import translate
        return translate(self.message).format(**self.values)


def decisions_frame(book: Book) -> pd.DataFrame:
    """One row per White second-turn decision with a choice: its key, position, dice, best play
    and its kind, runner-up, its verdict and loss, and how it was judged."""
    rows = []
    for key, entry in book.entries.items():
        if entry["depth"] != "white-2" or len(entry.get("plays", [])) < 2:
            continue
        best, second = entry["plays"][0], entry["plays"][1]
        rows.append({"key": key, "position": entry["position"], "dice": entry["dice"],
                     "best": best["play"], "kind": play_kind(best["play"], entry["position"]),
                     "runner_up": second["play"],
                     "runner_kind": play_kind(second["play"], entry["position"]),
                     "verdict": second["verdict"], "loss": second["loss"],
                     "method": entry["method"], "plays": len(entry["plays"]),
                     "lands": landing_points(best["play"])})
    return pd.DataFrame(rows)


def play_kind(play: str, position: str) -> str:
    """What a White second-turn play does with its checkers: `head+runner` (a checker leaves the
    head and the runner moves), `head` (only the checker that leaves the head moves), `runner`
    (only the checker already out moves), `two-heads` (two checkers leave the head: doubles), or
    `other`."""
    steps = parse_steps(play)
    from_head = [s for s in steps if s[0] == HEAD]
    heads = len(from_head)
    froms = {s[0] for s in steps}
    counts = Position.parse(position).checkers("w")
    out_points = {i + 1 for i, c in enumerate(counts) if c} - {HEAD}
    # a step from a point the head checker reached this turn continues its journey
    reached = {s[1] for s in from_head}
    runner = any(s[0] in out_points and s[0] not in reached for s in steps)
    if heads >= 2:
        return "two-heads"
    if heads == 1 and runner:
        return "head+runner"
    if heads == 1:
        return "head"
    if froms and runner:
        return "runner"
    return "other"


def landing_points(play: str) -> tuple[int, ...]:
    """The points a play's checkers end on (White's numbering)."""
    steps = parse_steps(play)
    starts = [s[0] for s in steps]
    ends = [s[1] for s in steps]
    final = list(ends)
    for s in starts:            # a point a checker left again this turn is not where it ended
        if s in final:
            final.remove(s)
    return tuple(sorted(p for p in final if 1 <= p <= 24))


def second_turn_grid(book: Book, roll, rules: Rules) -> pd.DataFrame:
    """For a first roll: one row per Black reply, one column per White second roll; each cell the
    best play and, after a bar, the runner-up's loss ("=" too close to call)."""
    tree = book.tree(roll, rules)
    rows = []
    for _, reply in tree.iterrows():
        position = Position.parse(reply["position"])
        row = {"black": f"{reply['black_roll']}"}
        for second in ALL_ROLLS:
            entry = book.entry(position, second)
            row[str(second)] = cell(entry)
        rows.append(row)
    return pd.DataFrame(rows)


def cell(entry: dict | None) -> str:
    """A grid cell: the best play, and the runner-up's loss in thousandths ("=": too close to
    call; nothing: forced); "?" where the book lacks the entry."""
    if entry is None:
        return "?"
    plays = entry["plays"]
    if len(plays) < 2:
        return plays[0]["play"]
    second = plays[1]
    tail = "=" if second["verdict"] == "close" else f"{1000 * second['loss']:.0f}"
    return f"{plays[0]['play']} |{tail}"


def instructive(book: Book, count: int = 6) -> dict[str, pd.DataFrame]:
    """The decisions a coach shows: the biggest errors (the runner-up losing most, where the
    runner-up is a different kind of play) and the closest calls (too close to call, smallest
    difference)."""
    frame = decisions_frame(book)
    if frame.empty:
        return {"errors": frame, "close": frame}
    plausible = frame[frame["kind"] != frame["runner_kind"]]
    errors = plausible.sort_values("loss", ascending=False).head(count)
    close = frame[frame["verdict"] == "close"].sort_values("loss").head(count)
    return {"errors": errors.reset_index(drop=True), "close": close.reset_index(drop=True)}


def lessons(book: Book, rules: Rules) -> list[Lesson]:
    """The lessons the book's numbers show (see the module doc); none before the book has White's
    second turn."""
    out: list[Lesson] = []
    firsts = book.first_roll_frame(rules)
    if not firsts.empty and firsts["equity"].notna().any():
        ranked = firsts.dropna(subset=["equity"]).sort_values("equity", ascending=False)
        top, bottom = ranked.iloc[0], ranked.iloc[-1]
        out.append(Lesson("first-rolls", N_(
            "After Black's reply, White's best first roll is {best} (White's equity {best_eq:+.3f} "
            "with White to roll) and the weakest is {worst} ({worst_eq:+.3f}): a {gap:.3f} "
            "spread, over {rolls} first rolls valued."),
            {"best": top["roll"], "best_eq": top["equity"], "worst": bottom["roll"],
             "worst_eq": bottom["equity"], "gap": top["equity"] - bottom["equity"],
             "rolls": len(ranked)},
            tuple(f"white-1|W:1x15 B:1x15 w|{r}" for r in (top["roll"], bottom["roll"]))))
    frame = decisions_frame(book)
    if frame.empty:
        return out
    n = len(frame)
    kinds = {k: int(v) for k, v in frame["kind"].value_counts().items()}
    counts = {k: kinds.get(k, 0) for k in ("head+runner", "head", "runner", "two-heads")}
    head_any = counts["head+runner"] + counts["head"] + counts["two-heads"]
    figures = {"n": n, "head_any": head_any, "head_share": share_text(head_any, n),
               "hr": counts["head+runner"], "h": counts["head"], "two": counts["two-heads"],
               "r": counts["runner"]}
    # counts, not rounded shares: 2 of 3,032 read "0%" and 3,030 "100%", and the examples cited
    # were exactly those 2, the exceptions; they are cited as such
    out.append(Lesson("head", N_(
        "Of {n} White second-turn decisions with a choice, the best play takes a checker from the "
        "head in {head_any} ({head_share}): with the runner moving too in {hr}, the new checker "
        "running alone in {h}, two checkers off the head (doubles) in {two}. The runner alone is "
        "best in only {r}: the exceptions, below.") if counts["runner"] else N_(
        "Of {n} White second-turn decisions with a choice, the best play takes a checker from the "
        "head in every one: with the runner moving too in {hr}, the new checker running alone in "
        "{h}, two checkers off the head (doubles) in {two}; the runner alone is never best."),
        figures, tuple(frame[frame["kind"] == "runner"]["key"].head(3))))
    waits = frame[(frame["kind"] == "head") & (frame["runner_kind"] == "head+runner")]
    moves = frame[(frame["kind"] == "head+runner") & (frame["runner_kind"] == "head")]
    if len(waits) + len(moves):
        out.append(Lesson("runner-waits", N_(
            "When the choice is between moving the runner with one die and running the new "
            "checker with both, the runner should move on in {moves} decisions and wait in "
            "{waits}; waiting costs {wait_loss:.3f} on average when it is wrong, moving "
            "{move_loss:.3f}."),
            {"moves": len(moves), "waits": len(waits),
             "wait_loss": float(moves["loss"].mean()) if len(moves) else 0.0,
             "move_loss": float(waits["loss"].mean()) if len(waits) else 0.0},
            tuple(waits["key"].head(3))))
    lands = pd.Series([p for t in frame["lands"] for p in t if p != HEAD])
    if not lands.empty:
        common = lands.value_counts().head(3)
        out.append(Lesson("points", N_(
            "The points White's best second plays occupy most often (besides the head) are "
            "{p1} ({n1} times), {p2} ({n2}) and {p3} ({n3})."),
            {"p1": int(common.index[0]), "n1": int(common.iloc[0]),
             "p2": int(common.index[min(1, len(common) - 1)]),
             "n2": int(common.iloc[min(1, len(common) - 1)]),
             "p3": int(common.index[min(2, len(common) - 1)]),
             "n3": int(common.iloc[min(2, len(common) - 1)])},
            tuple(frame["key"].head(0))))
    close = frame[frame["verdict"] == "close"]
    big = frame[frame["loss"] > 0.1]
    out.append(Lesson("precision", N_(
        "{close} of the {n} decisions are too close to call at the book's precision (the two best "
        "within 1.96 paired SE); in {big} the runner-up gives up more than 0.1: those are the "
        "ones to learn first."),
        {"close": len(close), "n": n, "big": len(big)},
        tuple(close["key"].head(3)) + tuple(big.sort_values("loss")["key"].tail(3))))
    return out


def share_text(count: int, total: int) -> str:
    """`count` of `total` as a percentage with one decimal that never rounds a share to 0% or 100%
    it is not (`99.9%` for 3,030 of 3,032; `<0.1%` for 1 of 3,032)."""
    share = 100.0 * count / total if total else 0.0
    if 0 < count < total:
        share = min(max(share, 0.1), 99.9)
        if share == 0.1 and 100.0 * count / total < 0.05:
            return "<0.1%"
    return f"{share:.1f}%"
