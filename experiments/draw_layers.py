"""Draw the folder map of nardy_cli: each folder a box on its floor, an arrow for every pair of
folders one imports from the other, labelled with the number of module imports behind it.

    python experiments/draw_layers.py [--output docs/layers.png]

The import graph is the one `tests/test_imports.py` checks (its `LAYERS`, its `_import_graph`:
imports inside functions count), so the picture shows what the layer test sees. Arrows leave a
box on its right side and arc down into the imported folder's box; sibling folders (one floor)
stack inside their floor's band; each importer has its colour.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path as FilePath

ROOT = FilePath(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Rectangle  # noqa: E402
from matplotlib.path import Path  # noqa: E402
from PIL import Image  # noqa: E402

from tests.test_imports import FACE, LAYERS, _import_graph  # noqa: E402

COLUMN = 3.6          # width of a folder's box
BOX = 0.9             # height of a box
STACK = 0.18          # between sibling folders' boxes on one floor
GAP = 0.55            # between floors
BULGE = 0.42          # how far an arc reaches right per unit of height it spans
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#843c39", "#7b4173"]


def folder_edges() -> tuple[Counter, Counter]:
    """(importer folder, imported folder) -> module imports; folder -> modules."""
    graph = _import_graph()
    edges, modules = Counter(), Counter()
    for module, deps in graph.items():
        if module in FACE:
            continue
        here = module.split(".")[1]
        modules[here] += 1
        for dep in deps:
            if dep in FACE:
                continue
            there = dep.split(".")[1]
            if there != here:
                edges[(here, there)] += 1
    return edges, modules


def floors() -> list[tuple[str, ...]]:
    return [(names,) if isinstance(names, str) else tuple(names) for names in LAYERS]


def layout() -> tuple[dict, list]:
    """folder -> (x0, y0, width, height), floor 0 at the bottom; each floor's band (y0, y1).
    Sibling folders stack inside their floor's band."""
    where, bands, y = {}, [], 0.0
    for names in floors():
        bottom = y
        for name in reversed(names):
            where[name] = (0.0, y, COLUMN, BOX)
            y += BOX + STACK
        y -= STACK
        bands.append((bottom, y))
        y += GAP
    return where, bands


def share(name: str, leaving: dict, arriving: dict) -> float:
    """The part of a box's side its leaving arcs take (the rest is for arriving ones)."""
    out, inc = len(leaving.get(name, ())), len(arriving.get(name, ()))
    return out / (out + inc)


def ports(edges: Counter, where: dict) -> tuple[dict, dict]:
    """Where each arc leaves its importer and enters the imported folder, on the boxes' right
    sides: arriving arcs in the upper part, leaving arcs in the lower part, nested so that arcs
    of one box do not cross each other."""
    out_port, in_port = {}, {}
    leaving: dict[str, list] = {}
    arriving: dict[str, list] = {}
    for edge in edges:
        leaving.setdefault(edge[0], []).append(edge)
        arriving.setdefault(edge[1], []).append(edge)
    for source, out in leaving.items():
        x0, y0, w, h = where[source]
        out.sort(key=lambda e: where[e[1]][1])                 # the farthest target first
        step = share(source, leaving, arriving) * (h - 0.12) / len(out)
        for k, edge in enumerate(out):
            out_port[edge] = (x0 + w, y0 + 0.06 + (len(out) - 1 - k) * step)
    for target, inc in arriving.items():
        x0, y0, w, h = where[target]
        inc.sort(key=lambda e: -where[e[0]][1])                # the farthest importer first
        step = (1 - share(target, leaving, arriving)) * (h - 0.12) / len(inc)
        for k, edge in enumerate(inc):
            in_port[edge] = (x0 + w, y0 + h - 0.06 - (len(inc) - 1 - k) * step)
    return out_port, in_port


def draw(output: FilePath) -> FilePath:
    edges, modules = folder_edges()
    where, bands = layout()
    out_port, in_port = ports(edges, where)
    sources = sorted({e[0] for e in edges}, key=lambda n: -where[n][1])
    colour = dict(zip(sources, COLOURS))
    height = bands[-1][1]
    reach = max(BULGE * (out_port[e][1] - in_port[e][1]) for e in edges)
    fig, ax = plt.subplots(figsize=(12.5, 15))
    for level, ((y0, y1), names) in enumerate(zip(bands, floors())):
        ax.add_patch(Rectangle((-1.45, y0 - 0.14), COLUMN + 1.55, y1 - y0 + 0.28,
                               facecolor="#eef2f7" if level % 2 else "#f7f7f7",
                               edgecolor="none", zorder=0))
        label = f"floor {level}" + ("\n(siblings:\nno imports\nbetween them)" if len(names) > 1
                                    else "")
        ax.text(-1.35, (y0 + y1) / 2, label, ha="left", va="center", fontsize=9, color="#555")
    for name, (x0, y0, w, h) in where.items():
        ax.add_patch(FancyBboxPatch((x0, y0), w, h, boxstyle="round,pad=0,rounding_size=0.08",
                                    facecolor="#fbf8f0", edgecolor="#333", linewidth=1.2,
                                    zorder=3))
        ax.text(x0 + 0.15, y0 + h / 2 + 0.13, name, ha="left", va="center", fontsize=13,
                fontweight="bold", zorder=4)
        ax.text(x0 + 0.15, y0 + h / 2 - 0.2, f"nardy_cli/{name}/ · {modules[name]} modules",
                ha="left", va="center", fontsize=8.5, color="#555", zorder=4)
    for edge, count in sorted(edges.items(), key=lambda item: -item[1]):
        source, _ = edge
        (sx, sy), (tx, ty) = out_port[edge], in_port[edge]
        bulge = BULGE * (sy - ty) * 4 / 3
        path = Path([(sx, sy), (sx + bulge, sy), (tx + bulge, ty), (tx + 0.03, ty)],
                    [Path.MOVETO, Path.CURVE4, Path.CURVE4, Path.CURVE4])
        width = 0.7 + 0.45 * count ** 0.5
        ax.add_patch(FancyArrowPatch(path=path, arrowstyle="-|>", mutation_scale=9 + width * 2,
                                     color=colour[source], linewidth=width, zorder=2,
                                     alpha=0.9))
        apex = (sx + 0.75 * bulge, (sy + ty) / 2)
        ax.text(*apex, str(count), fontsize=8.5, ha="center", va="center", zorder=5,
                color=colour[source], fontweight="bold",
                bbox=dict(boxstyle="round,pad=0.15", facecolor="white",
                          edgecolor=colour[source], linewidth=0.6))
    handles = [Line2D([], [], color=colour[n], lw=3, label=f"{n} imports") for n in sources]
    ax.legend(handles=handles, loc="upper right", fontsize=9, frameon=False,
              title="an arc from A to B:\nmodules of A import\nmodules of B; label:\n"
                    "how many such imports", title_fontsize=9)
    ax.set_xlim(-1.5, COLUMN + reach + 0.5)
    ax.set_ylim(-0.4, height + 0.4)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("The folders of nardy_cli, bottom floor first (tests/test_imports.py, LAYERS):\n"
                 "a module imports only from its own folder and the floors below", fontsize=12,
                 loc="left")
    fig.tight_layout()
    output.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(output, dpi=100)
    plt.close(fig)
    with Image.open(output) as image:          # a palette of 256 colours: a fifth of the bytes
        image.convert("RGB").quantize(256).save(output, optimize=True)
    return output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=FilePath, default=ROOT / "docs" / "layers.png")
    print(draw(parser.parse_args().output))


if __name__ == "__main__":
    main()
