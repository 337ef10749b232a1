"""The reports of rollouts (`nardy rollout`) and of batches of positions (`nardy batch`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..analysis.rollout_row import rollout_row
from ..core.i18n import _, side_words
from . import parts
from .figures import policy_text, position_label, side_to_move
from .parts import Chart, ReportKind, ReportWriter, names

if TYPE_CHECKING:
    import pandas as pd

FULL_REPORT = 3     # a rollout of at most this many positions gets deficit and convergence charts


def _named_static(data: dict, i: int) -> dict:
    return {**data["static_deficit"][i], "name": names(data)[i]}


class RolloutReport(ReportKind):
    """A rollout of one or more positions: a section per position, an overview of several."""

    kind = "rollout"

    def title(self, data: dict) -> str:
        """`Rollout of <position>`, or `Rollouts of N positions`."""
        if len(data["results"]) == 1:
            label = position_label({**data["results"][0], 'name': names(data)[0]})
            return _("Rollout of {position}").format(position=label)
        return _("Rollouts of {n} positions").format(n=len(data['results']))

    def games_unit(self) -> str:
        """What the run's game count counts."""
        return _("games")

    def table(self, data: dict) -> pd.DataFrame:
        """One row per position: the report's columns of `result_schema.ROLLOUT_ROW`."""
        import pandas as pd
        return pd.DataFrame([rollout_row(r, report=True) for r in data["results"]])

    def charts(self, data: dict) -> dict[str, Chart]:
        """Outcomes, deficit, convergence and the static deficit of each position."""
        c = parts.charts()
        return {"outcomes": lambda d, i: c.outcome_chart(d["results"][i]),
                "deficit": lambda d, i: c.rollout_deficit_chart(d["results"][i]),
                "convergence": lambda d, i: c.rollout_convergence_chart(d["results"][i],
                                                                       d["traces"][i]),
                "static-deficit": lambda d, i: c.deficit_heatmap(_named_static(d, i)),
                "static-face-deficit": lambda d, i: c.static_face_chart(_named_static(d, i))}

    def full(self, data: dict) -> bool:
        """True when each section also gets its deficit and convergence charts."""
        return len(data["results"]) <= FULL_REPORT

    def sections(self, data: dict, w: ReportWriter) -> tuple[list[dict], dict | None]:
        """A section per position; with several, an overview table of them all."""
        n, full = len(data["results"]), self.full(data)
        sections = [rollout_section(data, i, w, "" if n == 1 else f"-{i + 1}", full)
                    for i in range(n)]
        overview = None
        if n > 1:
            results = [{**r, "name": names(data)[i]} for i, r in enumerate(data["results"])]
            overview = w.table(parts.report_tables().batch_summary_table(results),
                               _("Every position at a glance; equity is for the side to move"))
        return sections, overview

    def headline(self, data: dict) -> str:
        """The equity of the first position, or the best and worst of several."""
        from .summary import rollout_headline
        return rollout_headline(data["results"], names(data))


class BatchReport(RolloutReport):
    """A batch of positions (`nardy batch`): a rollout report without the deficit charts."""

    kind = "batch"

    def title(self, data: dict) -> str:
        """`Rollouts of N positions`."""
        return _("Rollouts of {n} positions").format(n=len(data['results']))

    def games_unit(self) -> str:
        """What the run's game count counts."""
        return _("games per position")

    def full(self, data: dict) -> bool:
        """A batch never draws the deficit and convergence charts of its positions."""
        return False


def rollout_section(data: dict, i: int, w: ReportWriter, slug: str, full: bool) -> dict:
    """Position `i`'s section: board, outcomes, tables; with `full` deficit and convergence."""
    from .board_figure import draw_board
    from ..core.position import parse_position
    c, rt = parts.charts(), parts.report_tables()
    r, name, comment = data["results"][i], names(data)[i], parts.comments(data)[i]
    words = side_words(side_to_move(r["position"]))
    label = name or r["position"]
    board = draw_board(parse_position(r["position"]), name=name)
    figures = [w.figure(f"board{slug}", board, _("The position{name}: {side} to move.").format(
        name=' ' + repr(name) if name else '', **words))]
    figures.append(w.figure(f"outcomes{slug}", c.outcome_chart(r), _(
        "Chance of each outcome for {side}, with 95% confidence intervals ({games:,} games, "
        "{policies}).").format(games=r['games'], policies=policy_text(r['params']['policies']),
                               **words)))
    if full:
        figures.append(w.figure(f"deficit{slug}", c.rollout_deficit_chart(r), _(
            "Share of each die face that White and Black could not play in these games.")))
        trace = (data.get("traces") or [[]] * (i + 1))[i]
        if trace:
            figures.append(w.figure(f"convergence{slug}", c.rollout_convergence_chart(r, trace), _(
                "{sides} equity as the games accumulate, with a ±2 SE band.").format(**words)))
    static = data.get("static_deficit")
    if static:
        heatmap = c.deficit_heatmap(_named_static(data, i))
        figures.append(w.figure(f"static-deficit{slug}", heatmap, _(
            "How many of the roll's steps {side} can play now, for each of the 36 "
            "rolls.").format(**words)))
        if full:
            figures.append(w.figure(
                f"static-face-deficit{slug}", c.static_face_chart(_named_static(data, i)), _(
                    "Share of the steps of each face {side} cannot play now, over the 36 "
                    "rolls.").format(**words)))
    p = r['probabilities']
    summary = _("{sides} equity **{equity}** (95%) in {games:,} games{interrupted}; win {win}, "
                "lose {lose}, draw {draw}; games last {plies:.0f} plies on average.").format(
        equity=rt.eq(r['equity'], r['equity_se']), games=r['games'],
        interrupted=_(' (interrupted)') if r['interrupted'] else '', win=rt.pct(p['win']),
        lose=rt.pct(p['lose']), draw=rt.pct(p['draw']), plies=r['mean_plies'], **words)
    tables = [w.table(rt.outcome_table(r), _(
                  "Outcomes for {side} (to move), chance with 95% interval").format(**words)),
              w.table(rt.rollout_deficit_table(r), _("Move deficit of each side in these games"))]
    if static:
        s = static[i]
        tables.append(w.table(rt.static_deficit_table(s), _(
            "Static deficit of {side} now: full turn {full}, partial {partial}, pass {passes} "
            "of the 36 rolls; {lost:.2f} pips lost per roll on average").format(
                full=rt.pct(s['p_full']), partial=rt.pct(s['p_partial']),
                passes=rt.pct(s['p_pass']), lost=s['expected_lost_pips'], **words)))
    return {"title": label, "notation": r["position"] if name else "", "comment": comment,
            "summary": summary, "board": figures[0], "tables": tables, "figures": figures[1:]}
