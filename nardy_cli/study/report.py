"""Report folders rendered from results data: results.json/csv, charts, board diagrams, report.md/html.

Everything in a folder is drawn from the data that goes into its results.json,
so `regenerate(folder)` rebuilds the same report from the saved JSON alone.
"""

from __future__ import annotations

import base64
import html as html_lib
import json
from pathlib import Path

import matplotlib
import pandas as pd

from ..position import parse_position
from . import charts
from .board_figure import draw_board

matplotlib.rcParams["svg.hashsalt"] = "nardy"

KINDS = ("rollout", "analyze", "openings", "batch")


def save_figure(fig, path: Path) -> None:
    """Save without timestamps, so the same data gives the same file."""
    meta = {"Date": None} if path.suffix == ".svg" else {"Software": None}
    fig.savefig(path, dpi=110, metadata=meta)


def chart_kinds(data: dict) -> dict[str, callable]:
    """The charts a results file can draw: name -> function(data, index) -> Figure."""
    kind = data["kind"]
    out: dict[str, callable] = {}
    if kind in ("rollout", "batch"):
        out["outcomes"] = lambda d, i: charts.outcome_chart(d["results"][i])
        out["deficit"] = lambda d, i: charts.face_deficit_chart(
            {"White": d["results"][i]["deficit"]["white"]["face_deficit"],
             "Black": d["results"][i]["deficit"]["black"]["face_deficit"]},
            f"Move deficit per face in {d['results'][i]['games']:,} games of {d['results'][i]['position']}")
        out["convergence"] = lambda d, i: charts.convergence_chart(
            d["traces"][i], f"Rollout convergence for {d['results'][i]['position']}")
        out["static-deficit"] = lambda d, i: charts.deficit_heatmap(d["static_deficit"][i])
        out["static-face-deficit"] = lambda d, i: charts.face_deficit_chart(
            {"side to move": d["static_deficit"][i]["face_deficit"]},
            f"Static deficit per face in {d['static_deficit'][i]['position']}")
    if kind == "analyze":
        out["ranking"] = lambda d, i: charts.ranking_chart(d["results"][i])
        out["outcomes"] = lambda d, i: charts.outcome_chart(
            {**d["results"][i]["plays"][0], "position": d["results"][i]["plays"][0]["result"]},
            f"Outcomes after the best play {d['results'][i]['plays'][0]['play']}", who="the player")
    if kind == "openings":
        out["opening-heatmap"] = lambda d, i: charts.opening_heatmap(d["results"][i])
        out["opening-bars"] = lambda d, i: charts.opening_bars(d["results"][i])
    return out


def _md_table(frame: pd.DataFrame, digits: int = 4) -> str:
    def cell(v) -> str:
        if isinstance(v, float):
            return "" if v != v else f"{v:.{digits}f}"
        return "" if v is None else str(v).replace("|", "\\|")
    head = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body])


def results_table(data: dict) -> pd.DataFrame:
    """The CSV table of a results file: one row per analysed play or position."""
    kind = data["kind"]
    if kind in ("rollout", "batch"):
        rows = []
        for r in data["results"]:
            row = {"name": r.get("name", ""), "position": r["position"], "games": r["games"],
                   "equity": r["equity"], "equity_se": r["equity_se"]}
            row.update(r["probabilities"])
            row["mean_plies"] = r["mean_plies"]
            for side in ("white", "black"):
                row[f"{side}_lost_pips_per_game"] = r["deficit"][side]["lost_pips_per_game"]
                row[f"{side}_pass_share"] = r["deficit"][side]["pass_share"]
            row["interrupted"] = r["interrupted"]
            rows.append(row)
        return pd.DataFrame(rows)
    if kind == "analyze":
        rows = []
        for rk in data["results"]:
            for p in rk["plays"]:
                row = {"position": rk["position"], "dice": rk["dice"], "rank": p["rank"], "play": p["play"],
                       "result": p["result"], "games": p["games"], "equity": p["equity"],
                       "equity_se": p["equity_se"], "diff": p["diff"], "diff_se": p["diff_se"]}
                row.update(p["probabilities"])
                row["dropped_after"] = p["dropped_after"]
                rows.append(row)
        return pd.DataFrame(rows)
    return pd.DataFrame(data["results"][0]["rows"])


def _summary(data: dict) -> tuple[str, list[str]]:
    """Title and the key table(s) of the report as markdown."""
    kind = data["kind"]
    table = results_table(data)
    if kind == "rollout":
        r = data["results"][0]
        title = f"Rollout of {r['position']}"
        keep = ["name", "position", "games", "equity", "equity_se", "win", "lose", "draw", "mean_plies"]
        parts = [f"Equity for the side to move: **{r['equity']:+.4f} ± {1.96 * r['equity_se']:.4f}** (95%), "
                 f"{r['games']:,} games{' (interrupted)' if r['interrupted'] else ''}.",
                 _md_table(pd.DataFrame([{"outcome": k, "probability": v, "±95%": 1.96 * r["se"][k]}
                                         for k, v in r["probabilities"].items()]))]
        if len(data["results"]) > 1:
            parts.append(_md_table(table[[c for c in keep if c in table]]))
        return title, parts
    if kind == "batch":
        keep = ["name", "position", "games", "equity", "equity_se", "win", "lose", "draw", "mean_plies",
                "white_lost_pips_per_game", "black_lost_pips_per_game"]
        return f"Batch rollout of {len(data['results'])} positions", [_md_table(table[keep])]
    if kind == "analyze":
        rk = data["results"][0]
        keep = ["rank", "play", "games", "equity", "equity_se", "diff", "diff_se", "win", "lose", "dropped_after"]
        parts = [f"Best play: **{rk['plays'][0]['play']}**, equity {rk['plays'][0]['equity']:+.4f} "
                 f"± {1.96 * rk['plays'][0]['equity_se']:.4f} (95%). Every play was rolled out on the same dice "
                 "(common random numbers); `diff` is the equity difference to the best play on those paired "
                 "games and `diff_se` its standard error.",
                 _md_table(table[keep])]
        if rk["prefiltered"]:
            parts.append("Left out by `--top` before the rollout: " + ", ".join(f"`{p}`" for p in rk["prefiltered"]))
        return f"Plays of {rk['dice']} in {rk['position']}", parts
    t = data["results"][0]
    keep = ["roll", "rank", "play", "games", "equity", "equity_se", "diff", "diff_se", "win", "lose"]
    parts = [_md_table(table[keep])]
    if t["replies"]:
        rep = pd.DataFrame(t["replies"])
        parts.append("### Black's best replies\n\n" + _md_table(
            rep[["white_roll", "black_roll", "black_reply", "candidates", "black_equity", "black_equity_se"]]))
    return "Opening table", parts


def _boards(data: dict) -> list[tuple[str, object]]:
    """(caption, position) of the diagrams a report shows."""
    kind = data["kind"]
    if kind == "analyze":
        rk = data["results"][0]
        return [(f"{rk['position']}, to play {rk['dice']}", parse_position(f"{rk['position']} {rk['dice']}"))]
    if kind == "openings":
        return [("The starting position", parse_position("start"))]
    return [(r.get("name") or r["position"], parse_position(r["position"])) for r in data["results"][:12]]


def render_folder(folder: Path, data: dict, *, html: bool = False, svg: bool = False) -> None:
    """Write every file of a report folder from `data`."""
    ext = "svg" if svg else "png"
    data = {**data, "format": {"html": html, "svg": svg}}
    (folder / "results.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    table = results_table(data)
    table.to_csv(folder / "results.csv", index=False)
    if data["kind"] == "openings" and data["results"][0]["replies"]:
        pd.DataFrame(data["results"][0]["replies"]).to_csv(folder / "replies.csv", index=False)
    images: list[tuple[str, str]] = []
    for i, (caption, pos) in enumerate(_boards(data)):
        name = f"board-{i + 1}.{ext}" if i else f"board.{ext}"
        save_figure(draw_board(pos), folder / name)
        images.append((caption, name))
    chart_files: list[tuple[str, str]] = []
    for name, draw in chart_kinds(data).items():
        for i in range(len(data["results"]) if data["kind"] in ("rollout", "batch") else 1):
            if data["kind"] == "batch" and name != "outcomes":
                continue
            if name == "convergence" and not data.get("traces", [[]])[i]:
                continue
            file = f"{name}-{i + 1}.{ext}" if i else f"{name}.{ext}"
            save_figure(draw(data, i), folder / file)
            chart_files.append((name, file))
    title, parts = _summary(data)
    md = [f"# {title}", ""]
    for caption, file in images[:1] if data["kind"] != "batch" else images:
        md += [f"![{caption}]({file})", ""]
    for part in parts:
        md += [part, ""]
    md += ["## Charts", ""]
    for name, file in chart_files:
        md += [f"![{name}]({file})", ""]
    md += ["## Run parameters", "", "```json", json.dumps(_params(data), indent=1), "```", "",
           "Made with `nardy` — see `reports/README.md` for the layout of this folder.", ""]
    (folder / "report.md").write_text("\n".join(md))
    if html:
        (folder / "report.html").write_text(_html(folder, title, images, parts, chart_files, data))


def _params(data: dict) -> dict:
    first = data["results"][0]
    return {"kind": data["kind"], **first.get("params", {})}


def _img_tag(folder: Path, file: str, alt: str) -> str:
    raw = (folder / file).read_bytes()
    mime = "image/svg+xml" if file.endswith(".svg") else "image/png"
    return (f'<img alt="{html_lib.escape(alt)}" src="data:{mime};base64,{base64.b64encode(raw).decode()}" '
            f'style="max-width:100%">')


def _md_to_html_table(md: str) -> str:
    lines = [l for l in md.splitlines() if l.startswith("|")]
    if len(lines) < 2:
        return f"<p>{html_lib.escape(md)}</p>"
    head = [c.strip() for c in lines[0].strip("|").split(" | ")]
    rows = [[c.strip() for c in l.strip("|").split(" | ")] for l in lines[2:]]
    th = "".join(f"<th>{html_lib.escape(c)}</th>" for c in head)
    def td(c: str) -> str:
        numeric = c.replace(".", "", 1).replace("-", "", 1).replace("+", "", 1).replace(",", "").isdigit()
        return f"<td>{html_lib.escape(c)}</td>" if numeric or not c else f'<td class="t">{html_lib.escape(c)}</td>'
    trs = "".join("<tr>" + "".join(td(c) for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>"


def _html(folder, title, images, parts, chart_files, data) -> str:
    body = [f"<h1>{html_lib.escape(title)}</h1>"]
    for caption, file in images[:1] if data["kind"] != "batch" else images:
        body.append(f"<figure>{_img_tag(folder, file, caption)}<figcaption>{html_lib.escape(caption)}</figcaption></figure>")
    for part in parts:
        if part.startswith("### "):
            head, _, rest = part.partition("\n\n")
            body.append(f"<h3>{html_lib.escape(head[4:])}</h3>{_md_to_html_table(rest)}")
        elif part.startswith("|"):
            body.append(_md_to_html_table(part))
        else:
            text = html_lib.escape(part).replace("**", "")
            body.append(f"<p>{text}</p>")
    body.append("<h2>Charts</h2>")
    for name, file in chart_files:
        body.append(f"<figure>{_img_tag(folder, file, name)}</figure>")
    body.append(f"<h2>Run parameters</h2><pre>{html_lib.escape(json.dumps(_params(data), indent=1))}</pre>")
    style = ("body{font-family:system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222}"
             "table{border-collapse:collapse;font-size:0.85em;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}td.t{text-align:left;font-family:monospace}"
             "th{background:#f0ebe3}"
             "figure{margin:1em 0}figcaption{color:#555;font-size:0.9em}pre{background:#f6f6f6;padding:1em}")
    return (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html_lib.escape(title)}</title>"
            f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n")


def regenerate(folder: str | Path) -> None:
    """Re-render a report folder from its results.json alone."""
    folder = Path(folder)
    data = json.loads((folder / "results.json").read_text())
    fmt = data.pop("format", {})
    render_folder(folder, data, html=fmt.get("html", False), svg=fmt.get("svg", False))
