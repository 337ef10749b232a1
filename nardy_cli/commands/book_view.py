"""Answers from the opening book, for `nardy openings`, `nardy analyze` and `nardy book show`: the
first exchange, a first roll's tree, a position's entry, each as a table, CSV or JSON."""

from __future__ import annotations

import click
import pandas as pd

from ..core.i18n import _
from ..core.rules import rules_label
from ..reports.book_settings import setting_text, truncation
from ..reports.render import Views, table_text
from .common import show

# the options of a study command that do not change its question (the book answers whatever
# they are)
NEUTRAL = {"rolls", "fmt", "quiet", "book", "book_path", "position_text", "dice", "workers",
           "executor", "scheduler", "no_block_validation", "rollout_forced", "position"}


def wants_book(ctx: click.Context, book: bool) -> bool:
    """True when a command may answer from the book: --book (the default) and no option that
    changes how the figures are made (games, seed, policy, rules, score, cube, report...) given
    with a value other than its default (`--rules federation` names the default: the book still
    answers)."""
    return book and not figure_options(ctx)


def figure_options(ctx: click.Context) -> list[str]:
    """The options given with a value other than their default that change how figures are made
    (the book cannot answer them), as a user types them: `["--games"]`."""
    from .common import option_names
    default = click.core.ParameterSource.DEFAULT
    defaults = {p.name: p.get_default(ctx) for p in ctx.command.params}
    names = option_names(ctx)
    return [names.get(name, name) for name in ctx.params
            if name not in NEUTRAL and ctx.get_parameter_source(name) not in (default, None)
            and ctx.params[name] != defaults.get(name)]


def source_line(entry_or_book: dict, method: str, se: float | None) -> str:
    """"from the opening book: …, SE …": the provenance of what is shown."""
    prov = entry_or_book
    se_text = f", SE {se:.3f}" if se is not None and se == se else ""
    return _("from the opening book: {method}{se} ({policy}, network {net}, {rules}, money, seed "
             "{seed}, VR, {trunc}; nardy {version}, {date})").format(
        method=method, se=se_text, policy=setting_text(prov, "policy"),
        net=setting_text(prov, "network", lambda n: n or "-"),
        rules=setting_text(prov, "rules", rules_label), seed=setting_text(prov, "seed"),
        trunc=setting_text(prov, "truncate", truncation), version=setting_text(prov, "version"),
        date=prov["date"])


# the depths the first exchange's figures come from
EXCHANGE = ("white-1", "exchange")

PLAY_COLUMNS = ["rank", "play", "method", "games", "equity", "equity_se", "verdict", "loss",
                "diff_se", "win", "draw", "lose", "opp_lost_pips", "own_lost_pips"]


def entry_frame(entry: dict) -> pd.DataFrame:
    """A decision's plays, best first (every figure of the entry)."""
    return pd.DataFrame([{"rank": i, **p} for i, p in enumerate(entry["plays"], 1)])


def entry_text(entry: dict) -> str:
    """A decision's entry for people: its source line, then its plays."""
    frame = entry_frame(entry)
    best = entry["plays"][0]
    lines = [_("{position}   to play {dice}").format(position=entry["position"],
                                                     dice=entry["dice"]),
             source_line(entry["provenance"], entry["method"], best.get("equity_se"))]
    shown = frame[[c for c in PLAY_COLUMNS if c in frame]].copy()
    shown["verdict"] = shown["verdict"].map(verdict_text)
    if "games" in shown:
        shown["games"] = shown["games"].map(lambda g: "" if g != g else f"{int(g):,}")
    lines.append(table_text(shown))
    lines.append(_("close: too close to call (within 1.96 paired SE of the best); loss: equity "
                   "given up (diff_se: its paired SE, rolled-out plays); lost pips: the static "
                   "move deficit after the play, of the opponent (opp) and of the player (own)"))
    return "\n".join(lines)


def verdict_text(verdict: str) -> str:
    """A verdict for people."""
    return {"best": _("best"), "close": _("too close to call"), "error": _("error")}.get(
        verdict, verdict)


def show_entry(entry: dict, fmt: str, extra: dict | None = None) -> None:
    """Print a decision's entry."""
    show(fmt, Views(table=lambda: entry_text(entry),
                    frame=lambda: entry_frame(entry).assign(source="opening book"),
                    data=lambda: {"source": "opening book", **entry, **(extra or {})}))


def show_first_exchange(book, rules, fmt: str) -> None:
    """The first exchange from the book: each first roll's play and White's equity after Black's
    replies, and who stands better."""
    frame = book.first_roll_frame(rules)
    standing = book.standing(rules)
    prov = book.provenance(EXCHANGE)
    if frame.empty or not prov:
        raise click.ClickException(_("the opening book has no first exchange yet"))

    def text() -> str:
        lines = [source_line(prov, _("the first exchange, {n} of 441 replies valued by rollouts "
                                     "of {games} games").format(
            n=standing["exchanges"], games=setting_text(prov, "exchange_games")), None),
            _("White's first roll, its play, and White's equity after Black's 21 replies (White "
              "to roll, averaged by the replies' chances)"),
            table_text(frame)]
        if standing["equity"] == standing["equity"]:
            lines.append(_("After the first exchange White stands {sign} by {equity:.3f} ± "
                           "{ci:.3f} (95%) on average.").format(
                sign=_("better") if standing["equity"] >= 0 else _("worse"),
                equity=abs(standing["equity"]), ci=1.96 * standing["equity_se"]))
        else:
            lines.append(_("The book values {n} of the 441 first exchanges so far: a first roll's "
                           "average waits for all its 21 replies.").format(
                n=standing["exchanges"]))
        return "\n".join(lines)
    show(fmt, Views(table=text, frame=lambda: frame.assign(source="opening book"),
                    data=lambda: {"source": "opening book", "provenance": prov,
                                  "first_rolls": frame.to_dict("records"), "standing": standing}))


def show_tree(book, rolls, rules, fmt: str) -> None:
    """Each first roll's tree from the book: Black's replies and White's equity after them."""
    frames = [book.tree(r, rules) for r in rolls]
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    prov = book.provenance(EXCHANGE)

    def text() -> str:
        lines = [source_line(prov, _("first rolls and Black's replies"), None)]
        for roll, f in zip(rolls, frames):
            if f.empty:
                continue
            lines += ["", _("White rolls {roll} and plays {play}; Black replies:").format(
                roll=roll, play=f["white_play"].iloc[0]),
                table_text(f[["black_roll", "black_play", "position", "equity", "equity_se"]])]
        lines.append(_("equity: White's, White to roll after the reply (rollouts)"))
        return "\n".join(lines)
    show(fmt, Views(table=text, frame=lambda: frame.assign(source="opening book"),
                    data=lambda: {"source": "opening book", "provenance": prov,
                                  "replies": frame.to_dict("records")}))


def show_position(book, position, fmt: str) -> None:
    """A position after the first exchange: its rollout value and White's best play of each
    roll."""
    value = book.value(position)
    grid = book.second_turn(position)
    if value is None and grid.empty:
        raise click.ClickException(_("the opening book has no entry for {position}").format(
            position=position.with_dice(None)))
    prov = book.provenance(("exchange", "white-2"))

    def text() -> str:
        lines = [str(position.with_dice(None))]
        if value is not None:
            lines.append(source_line(prov, _("White's equity {eq:+.3f} before the roll, "
                                             "{games} games").format(eq=value["equity"],
                                                                     games=value["games"]),
                                     value["equity_se"]))
        if not grid.empty:
            shown = grid.copy()
            shown["verdict"] = shown["verdict"].map(lambda v: verdict_text(v) if v else "")
            lines += [_("White's second turn, the best play of each roll (runner-up: its "
                        "verdict and loss):"), table_text(shown)]
        return "\n".join(lines)
    show(fmt, Views(table=text, frame=lambda: grid.assign(source="opening book"),
                    data=lambda: {"source": "opening book", "position": str(position),
                                  "value": value, "rolls": grid.to_dict("records")}))
