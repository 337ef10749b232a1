"""A folder of static-deficit tables and charts (`nardy deficit --output DIR`)."""

from __future__ import annotations

from pathlib import Path

from ..core.positions_file import NamedPosition
from ..core.rules import Rules, rules_label


def deficit_frames(items: list[NamedPosition], rules: Rules):
    """(summary, faces, steps) DataFrames over the positions: one summary row per position,
    six face rows per position, and the 6x6 steps-played table as 36 rows per position."""
    import pandas as pd

    from ..analysis.deficit import static_deficit
    summary, faces, steps = [], [], []
    for item in items:
        d = static_deficit(item.position, rules)
        key = {"name": item.name or "", "position": str(item.position)}
        summary.append({**key, "p_full": d.p_full, "p_partial": d.p_partial, "p_pass": d.p_pass,
                        "expected_lost_pips": d.expected_lost_pips})
        faces += [{**key, "face": f + 1, "deficit": d.face_deficit[f], "mobility": d.mobility[f]}
                  for f in range(6)]
        steps += [{**key, "first_die": a + 1, "second_die": b + 1,
                   "steps_played": int(d.steps_played[a, b])}
                  for a in range(6) for b in range(6)]
    return pd.DataFrame(summary), pd.DataFrame(faces), pd.DataFrame(steps)


def _english_label(rules: Rules) -> str:
    """The rules' label in English, whatever the output's language (JSON stays English)."""
    from ..core.i18n import using_language
    with using_language("en"):
        return rules_label(rules)


def write_deficit_folder(items: list[NamedPosition], rules: Rules, output: str | Path, *,
                         svg: bool = False, force: bool = False) -> Path:
    """Write deficit.csv, faces.csv, steps.csv and two charts per position into `output`, all or
    nothing."""
    import json

    from ..analysis.deficit import static_deficit
    from .render import to_json
    from .folder import write_folder
    from . import charts
    from .figures import save_figure

    def render(folder: Path) -> None:
        summary, faces, steps = deficit_frames(items, rules)
        summary.to_csv(folder / "deficit.csv", index=False)
        faces.to_csv(folder / "faces.csv", index=False)
        steps.to_csv(folder / "steps.csv", index=False)
        ext = "svg" if svg else "png"
        records = []
        for i, item in enumerate(items):
            data = {**json.loads(to_json(static_deficit(item.position, rules).to_dict())),
                    "name": item.name}
            records.append(data)
            slug = "" if len(items) == 1 else f"-{i + 1}"
            save_figure(charts.deficit_heatmap(data), folder / f"static-deficit{slug}.{ext}")
            save_figure(charts.static_face_chart(data), folder / f"static-face-deficit{slug}.{ext}")
        marker = {"kind": "deficit", "rules": rules.to_dict(), "rules_label": _english_label(rules),
                  "results": records}
        text = json.dumps(marker, indent=1, ensure_ascii=False) + "\n"
        (folder / "deficit.json").write_text(text, encoding="utf-8")
    return write_folder(output, render, force=force)
