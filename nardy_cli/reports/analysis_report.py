"""The report of a play analysis (`nardy analyze`: rollouts of every play, or a staged ranking)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..analysis.rollout_row import policy_columns
from ..core.i18n import _, side_words
from . import parts
from .figures import side_to_move
from .parts import Chart, ReportKind, ReportWriter, names

if TYPE_CHECKING:
    import pandas as pd

TOP_BOARDS = 3      # boards of the best plays in an analysis report


class AnalysisReport(ReportKind):
    """The plays of one roll, best first; a staged ranking adds a table per filter stage."""

    kind = "analyze"

    def title(self, data: dict) -> str:
        """`Plays of <dice> in <position>`."""
        first = data["results"][0]
        return _("Plays of {dice} in {position}").format(
            dice=first['dice'], position=names(data)[0] or first['position'])

    def table(self, data: dict) -> pd.DataFrame:
        """One row per rolled-out play."""
        import pandas as pd
        rows = []
        for rk in data["results"]:
            for p in rk["plays"]:
                row = {"position": rk["position"], "dice": rk["dice"], "rank": p["rank"],
                       "play": p["play"], "result": p["result"], "games": p["games"],
                       "equity": p["equity"], "equity_se": p["equity_se"], "diff": p["diff"],
                       "diff_se": p["diff_se"]}
                row.update(p["probabilities"])
                row["dropped_after"] = p["dropped_after"]
                row.update(policy_columns(rk["params"]))
                rows.append(row)
        return pd.DataFrame(rows)

    def charts(self, data: dict) -> dict[str, Chart]:
        """The ranking (differences to the best play) and the best play's outcomes."""
        c = parts.charts()

        def outcomes(d: dict, i: int):
            rk = d["results"][i]
            best = rk["plays"][0]
            words = side_words(side_to_move(rk['position']))
            return c.outcome_chart({**best, "position": rk["position"], "params": rk["params"]},
                                   _("Outcomes for {side} after the best play {play}").format(
                                       play=best['play'], **words))
        return {"ranking": lambda d, i: c.ranking_chart({**d["results"][i],
                                                           "name": names(d)[i]}),
                "outcomes": outcomes}

    def sections(self, data: dict, w: ReportWriter) -> tuple[list[dict], dict | None]:
        """One section: the board, the ranking, the best plays' boards, the stages' tables."""
        from .board_figure import draw_board
        from ..analysis.staged import stage_tables
        from ..core.position import parse_position
        rt = parts.report_tables()
        charts = self.charts(data)
        rk, name, comment = data["results"][0], names(data)[0], parts.comments(data)[0]
        side = side_to_move(rk["position"])
        words = side_words(side)
        best = rk["plays"][0]
        position = parse_position(f"{rk['position']} {rk['dice']}")
        board = w.figure("board", draw_board(position, name=name),
                         _("{side} to play {dice}.").format(dice=rk['dice'], **words))
        figures = [w.figure("ranking", charts["ranking"](data, 0), _(
                       "Each play's equity minus the best play's, measured on the same dice "
                       "(paired games); bars are 95% intervals of the difference.")),
                   w.figure("outcomes", charts["outcomes"](data, 0), _(
                       "Chance of each outcome for {side} after the best play {play}.").format(
                           play=best['play'], **words))]
        figures += play_boards(rk, w, side)
        summary = _("Best play: **{play}**, {sides} equity {equity} (95%). Every play was rolled "
                    "out on the same dice (common random numbers); the difference to the best "
                    "play is measured on those paired games.").format(
            play=best['play'], equity=rt.eq(best['equity'], best['equity_se']), **words)
        if rk["prefiltered"]:
            summary += (_(" Left out before the rollout (`--top`): ")
                        + ", ".join(f"`{p}`" for p in rk["prefiltered"]) + ".")
        tables = [w.table(rt.ranking_table(rk), _("The plays of {dice}, best first").format(
            dice=rk['dice']))]
        tables += [w.table(frame, caption) for frame, caption in stage_tables(rk)]
        title = _("{side} to play {dice} in {position}").format(
            dice=rk['dice'], position=name or rk['position'], **words)
        return [{"title": title, "notation": rk["position"] if name else "", "comment": comment,
                 "summary": summary, "board": board, "tables": tables, "figures": figures}], None

    def headline(self, data: dict) -> str:
        """The best play and how far the next one is behind."""
        from .summary import analyze_headline
        return analyze_headline(data["results"][0])


def legal_play(notation: str, dice: str, text: str, rules: dict | None):
    """The `Play` written `text` among the legal plays of `dice` in `notation`."""
    from ..core.engine import legal_plays
    from ..core.position import parse_position
    from ..core.rules import PRESETS, rules_from_dict
    position = parse_position(f"{notation} {dice}")
    rules_value = rules_from_dict(rules) if rules else PRESETS["federation"]
    plays = legal_plays(position, None, rules_value)
    return position, next(p for p in plays if str(p) == text)


def play_boards(rk: dict, w: ReportWriter, side: str, stem: str = "play") -> list[dict]:
    """Boards of an analysis's best plays (up to TOP_BOARDS), each with its moves as arrows."""
    from .board_figure import draw_play
    out = []
    for p in rk["plays"][:TOP_BOARDS]:
        position, play = legal_play(rk["position"], rk["dice"], p["play"],
                                    rk.get("params", {}).get("rules"))
        words = side_words(side)
        rank = _("rank {rank}").format(rank=p['rank']) if "rank" in p else _("best")
        diff = _(", {diff:+.3f} against the best").format(diff=p['diff']) if p.get("diff") else ""
        drawn = draw_play(
            position, play,
            title=_("{rank}: {side} plays {play}").format(rank=rank, play=play, **words),
            caption=_("equity {equity:+.3f} ± {ci:.3f} (95%){diff}").format(
                equity=p['equity'], ci=1.96 * p['equity_se'], diff=diff))
        out.append(w.figure(f"{stem}-{p['rank'] if 'rank' in p else 1}", drawn, _(
            "{rank}: {side} plays {play}, the checkers that moved drawn as arrows; equity "
            "{equity:+.3f}{diff}.").format(rank=rank[:1].upper() + rank[1:], play=play,
                                           equity=p['equity'], diff=diff, **words)))
    return out
