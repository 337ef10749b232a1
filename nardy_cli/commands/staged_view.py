"""`nardy analyze --staged`: run the staged ranking and print every stage."""

from __future__ import annotations

import click

from ..core.i18n import _
from ..core.rules import rules_label
from ..reports.render import Views, table_text
from .common import show
from .tables import match_label, until_se_note


def filter_option(func):
    """--filter M0,M1[,M2]: the stage filters (margins or topK; a third adds a 2-ply stage);
    implies --staged."""
    return click.option("--filter", "filters", default=None, metavar="F0,F1[,F2]",
                        help="Staged ranking's filters: plays within F0 of the best 0-ply score "
                             "go to 1-ply, within F1 of the best 1-ply score to the rollouts; "
                             "a margin (0.25) or a count "
                             "(top8) [default: 0.25,0.08]. A third filter adds a 2-ply "
                             "stage: F1 then keeps plays for 2-ply (lookahead2:neural's "
                             "search) and F2 for the rollouts. Implies --staged.")(func)


def parse_filters(text: str | None) -> tuple[str, ...]:
    """The two (or three) filter strings of --filter (checked by the library)."""
    from ..analysis.staged import DEFAULT_FILTER, FilterError
    if text is None:
        return DEFAULT_FILTER
    parts = [p for p in text.split(",") if p.strip()]
    if len(parts) not in (2, 3):
        raise FilterError(f"--filter needs two filters separated by a comma (or three, for a "
                          f"2-ply stage), got {text!r}")
    return tuple(parts)


def stage_lines(ranking) -> list[str]:
    """One paragraph per filtering stage: what it kept and what it dropped (and why), with
    scores."""
    from ..analysis.staged import filter_reason
    out = []
    for st in ranking.stages:
        best = st.scores[0][1]
        dropped = [f"{p} {s - best:+.3f}" for p, s in st.scores if p not in st.kept]
        floor = [f"{p} {s - best:+.3f}" for p, s in st.scores if p in st.floor]
        out.append(_("{stage} (filter {filter}): {kept} of {n} plays go on; the best, "
                     "{best_play}, has equity "
                     "{best:+.3f} (by the evaluator)").format(stage=st.name, filter=st.filter,
                                                              kept=len(st.kept),
                                                               n=len(st.scores),
                                                              best_play=st.scores[0][0], best=best))
        if dropped:
            out.append(_("  dropped ({why}), each with its difference to the best: ").format(
                why=filter_reason(st.filter)) + ", ".join(dropped))
        if floor:
            out.append(_("  kept though the filter drops them (the best two always go on): ")
                       + ", ".join(floor))
    return out


def rollout_drop_line(ranking) -> str | None:
    """The plays the rollouts stopped early, when, and why; None when every play was rolled out to
    the end."""
    from ..analysis.staged import DROP_SE
    gone = [p for p in ranking.plays if p.dropped_after is not None]
    if not gone:
        return None
    return (_("rollouts: dropped when more than {k:g} paired standard errors behind the play then "
              "leading, on the same games: ").format(k=DROP_SE)
            + ", ".join(_("{play} after {games:,} games").format(play=p.play,
                                                                 games=p.dropped_after)
                        for p in gone))


def show_staged(ranking, fmt: str, policy: str, seed: int, rules,
                extra: dict | None = None) -> None:
    """Print a `StagedRanking` as a table (stages, then the rollout ranking), CSV or JSON (with
    `extra` keys)."""
    from ..analysis.rollout_row import policy_columns
    show(fmt, Views(table=lambda: staged_text(ranking, policy, seed, rules),
                    frame=lambda: ranking.frame().assign(**policy_columns(ranking.params)),
                    data=lambda: ranking.to_dict() | (extra or {})))


def staged_text(ranking, policy: str, seed: int, rules) -> str:
    """A `StagedRanking` for people: its parameters, every stage, the rollout ranking."""
    frame = ranking.frame()
    p = ranking.params
    used = ", ".join(k for k in ("vr", "exact_bearoff") if p.get(k)) or _("plain")
    if p.get("luck_network"):
        used += _(" (luck valued by the --luck-network, "
                  "weights {sha})").format(sha=p['luck_network']['sha256'])
    lines = [_("{position}   to play {dice}   (staged: {policy} rollouts, seed {seed}, "
               "{rules}; {used})").format(
        position=ranking.position, dice=ranking.dice, policy=policy, seed=seed,
        rules=rules_label(rules), used=used)]
    lines += stage_lines(ranking)
    columns = ["rank", "play", "games", "equity", "equity_se", "plain_se", "diff", "diff_se", "win",
               "lose", "dropped_after"]
    if p.get("match"):
        columns[3:3] = ["mwc", "mwc_se"]
        lines.append(_("at {match}: stage scores are match equity (2 x mwc - 1); plays rank by "
                       "mwc, diff is in mwc, "
                       "equity in money points").format(match=match_label(p['match'])))
    shown = frame[columns].copy()
    shown["dropped_after"] = shown["dropped_after"].map(lambda v: "" if v is None or v != v
                                                        else f"{int(v):,}")
    lines.append(_("rollouts (common dice): equity is each play's equity for the mover "
                   "(± equity_se; plain_se without "
                   "VR), diff its difference to the best play on the same games (± paired "
                   "diff_se)"))
    lines.append(table_text(shown))
    drops = rollout_drop_line(ranking)
    if drops:
        lines.append(drops)
    missed = until_se_note(p, p["games_requested"],
                           max(r.equity_se for r in ranking.plays if r.dropped_after is None))
    if missed:
        lines.append(missed)
    return "\n".join(lines)


def show_forced(position, dice, play, fmt: str, extra: dict | None = None) -> None:
    """Name the only legal play of a roll (nothing to rank), as a line, CSV or JSON (with `extra`
    keys)."""
    record = {"position": str(position), "dice": str(dice), "forced": True, "play": str(play),
              "result": str(play.result)}
    what = (_("the turn passes (no legal step)") if play.is_pass
            else _("the only legal play is {play}").format(play=play))
    show(fmt, Views(table=lambda: _("{position}   to play {dice}: forced, {what}; "
                                    "nothing to roll out (--rollout-forced rolls it "
                                    "out anyway)").format(position=position, dice=dice,
                                                          what=what),
                    rows=lambda: [record], data=lambda: record | (extra or {})))
