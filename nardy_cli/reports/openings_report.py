"""The report of an opening table (`nardy openings`): every play, the best ones, Black's replies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..analysis.rollout_row import policy_columns
from ..core.i18n import _
from . import parts
from .analysis_report import legal_play
from .parts import Chart, ReportKind, ReportWriter

if TYPE_CHECKING:
    import pandas as pd


class OpeningsReport(ReportKind):
    """White's opening rolls: every play, the best play's boards, and Black's best replies."""

    kind = "openings"

    def title(self, data: dict) -> str:
        """`Opening table`."""
        return _("Opening table")

    def table(self, data: dict) -> pd.DataFrame:
        """One row per (roll, White play)."""
        import pandas as pd
        first = data["results"][0]
        return pd.DataFrame(first["rows"]).assign(**policy_columns(first["params"]))

    def extra_tables(self, data: dict) -> dict[str, pd.DataFrame]:
        """replies.csv, when the table holds Black's replies."""
        import pandas as pd
        replies = data["results"][0]["replies"]
        return {"replies.csv": pd.DataFrame(replies)} if replies else {}

    def charts(self, data: dict) -> dict[str, Chart]:
        """The best plays' heatmap and bars, and the replies' heatmap when there are replies."""
        c = parts.charts()
        out: dict[str, Chart] = {
            "opening-heatmap": lambda d, i: c.opening_heatmap(d["results"][i]),
            "opening-bars": lambda d, i: c.opening_bars(d["results"][i])}
        if data["results"][0].get("replies"):
            out["replies-heatmap"] = lambda d, i: c.replies_heatmap(d["results"][i])
        return out

    def sections(self, data: dict, w: ReportWriter) -> tuple[list[dict], dict | None]:
        """The table of every play, the best play of each roll, and Black's best replies."""
        rt = parts.report_tables()
        charts = self.charts(data)
        t = data["results"][0]
        heatmap = w.figure("opening-heatmap", charts["opening-heatmap"](data, 0), _(
            "White's equity after its best play, roll by roll (larger die down)."))
        bars = w.figure("opening-bars", charts["opening-bars"](data, 0), _(
            "The opening rolls ranked by White's best play, with 95% intervals."))
        sections = [_section(_("White's opening rolls"), _(
            "Every legal White play of each opening roll, rolled out from the start and ranked "
            "within its roll."), [w.table(rt.opening_rows_table(t),
                                          _("Every White play of each roll"))], [heatmap, bars])]
        sections.append(_section(_("The best play of each roll"), _(
            "White's best play of each opening roll on the board, the checkers that moved drawn as "
            "arrows."), [], opening_boards(t, w)))
        if t.get("replies"):
            table = w.table(rt.replies_table(t), _("Black's best reply to each opening"))
            figure = w.figure("replies-heatmap", charts["replies-heatmap"](data, 0), _(
                "Black's equity after its best reply: rows are White's openings, columns Black's "
                "rolls."))
            sections.append(_section(_("Black's best replies"), _(
                "For each White opening (its best play) and each of Black's 21 rolls, the reply "
                "with the best equity for Black."), [table], [figure]))
        return sections, None

    def headline(self, data: dict) -> str:
        """The best and worst opening rolls."""
        from .summary import openings_headline
        return openings_headline(data["results"][0])


def _section(title: str, summary: str, tables: list[dict], figures: list[dict]) -> dict:
    """A section of the opening report (no board, notation or comment)."""
    return {"title": title, "notation": "", "comment": "", "board": None, "summary": summary,
            "tables": tables, "figures": figures}


def opening_boards(table: dict, w: ReportWriter) -> list[dict]:
    """A board of the best play of each opening roll, its moves as arrows."""
    from ..core.position import START
    from .board_figure import draw_play
    out = []
    rules = table.get("params", {}).get("rules")
    for row in table["rows"]:
        if row["rank"] != 1:
            continue
        position, play = legal_play(str(START), row["roll"], row["play"], rules)
        drawn = draw_play(
            position, play,
            title=_("{roll}: White plays {play}").format(roll=row['roll'], play=play),
            caption=_("equity {equity:+.3f} ± {ci:.3f} (95%), {games:,} games").format(
                equity=row['equity'], ci=1.96 * row['equity_se'], games=row['games']))
        out.append(w.figure(f"opening-{row['roll']}", drawn, _(
            "{roll}: White's best play {play} (equity {equity:+.3f}).").format(
                roll=row['roll'], play=play, equity=row['equity'])))
    return out
