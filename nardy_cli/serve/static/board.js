// The board as SVG, drawn like nardy's own diagrams (core/board_svg.py): the viewer's points 1-12
// along the bottom from the left, 13-24 along the top from the right, the bar between 6 and 7; the
// other side's numbering printed small beside each number.  Points report clicks and drags in
// the viewer's numbering; the tray (borne-off checkers) reports as point 25.
"use strict";
const Board = (() => {
  const PW = 36, BAR = 20, H = 330, MX = 64, MT = 44, MB = 52, R = 15, MAXD = 5;
  const W = 12 * PW + BAR, TW = W + 2 * MX, TH = H + MT + MB;
  const other = p => (p <= 12 ? p + 12 : p - 12);
  const slot = p => (p <= 12 ? [p - 1, false] : [24 - p, true]);
  const cx = col => MX + col * PW + (col >= 6 ? BAR : 0) + PW / 2;
  const NS = "http://www.w3.org/2000/svg";
  let down = null;     // the point a pointer went down on, until it comes up

  function el(name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // counts on viewer point v: [colour, n]
  function onPoint(pos, viewer, v) {
    const opp = viewer === "w" ? "b" : "w";
    const mine = pos[viewer === "w" ? "white" : "black"][v - 1];
    if (mine) return [viewer, mine];
    const theirs = pos[opp === "w" ? "white" : "black"][other(v) - 1];
    return theirs ? [opp, theirs] : [null, 0];
  }

  function draw(container, pos, opts) {
    const viewer = opts.viewer || "w";
    const hl = opts.highlight || {};
    const svg = el("svg", {viewBox: `0 0 ${TW} ${TH}`, width: TW, height: TH,
                           "font-family": "sans-serif", "data-viewer": viewer});
    svg.appendChild(el("rect", {x: MX, y: MT, width: W, height: H, fill: "#eadbc4",
                                stroke: "#5a3d22", "stroke-width": 3}));
    svg.appendChild(el("rect", {x: MX + 6 * PW, y: MT, width: BAR, height: H, fill: "#5a3d22"}));
    for (let v = 1; v <= 24; v++) {
      const [col, top] = slot(v);
      const x = cx(col), base = top ? MT : MT + H, tip = top ? MT + H * 0.42 : MT + H * 0.58;
      svg.appendChild(el("polygon", {points: `${x - PW / 2 + 1},${base} ${x + PW / 2 - 1},${base} ${x},${tip}`,
                                     fill: (v % 2) ? "#c8a27a" : "#7a4e2d"}));
      const ny = top ? MT - 22 : MT + H + 16;
      svg.appendChild(el("text", {x, y: ny, "text-anchor": "middle", "font-size": 12,
                                  "font-weight": "bold"}, String(v)));
      svg.appendChild(el("text", {x, y: ny + (top ? 12 : 12), "text-anchor": "middle",
                                  "font-size": 9, fill: "#777"}, String(other(v))));
      const [colour, n] = onPoint(pos, viewer, v);
      for (let k = 0; k < Math.min(n, MAXD); k++) {
        const y = top ? MT + R + 2 + k * 2 * R : MT + H - R - 2 - k * 2 * R;
        svg.appendChild(el("circle", {cx: x, cy: y, r: R - 1,
                                      fill: colour === "w" ? "#fbfaf5" : "#2b2b2b",
                                      stroke: colour === "w" ? "#333" : "#000",
                                      "stroke-width": 1.5, class: "checker",
                                      "data-colour": colour}));
      }
      if (n > MAXD) {
        const y = top ? MT + R + 2 + (MAXD - 1) * 2 * R : MT + H - R - 2 - (MAXD - 1) * 2 * R;
        svg.appendChild(el("text", {x, y: y + 4, "text-anchor": "middle", "font-size": 12,
                                    fill: colour === "w" ? "#000" : "#fff"}, String(n)));
      }
      const hit = el("rect", {x: x - PW / 2, y: top ? MT : MT + H / 2, width: PW, height: H / 2,
                              class: "point-hit", "data-point": v, "data-count": n,
                              "data-colour": colour || "", "data-testid": `point-${v}`});
      if (hl.targets && hl.targets.has(v)) hit.classList.add("target");
      if (hl.selected === v) hit.classList.add("source");
      svg.appendChild(hit);
    }
    // trays: the viewer's borne-off checkers on the right, the other side's on the left
    const offW = 15 - pos.white.reduce((a, b) => a + b, 0);
    const offB = 15 - pos.black.reduce((a, b) => a + b, 0);
    const mineOff = viewer === "w" ? offW : offB, theirOff = viewer === "w" ? offB : offW;
    const tray = el("rect", {x: MX + W + 6, y: MT, width: MX - 12, height: H, fill: "#f3ead9",
                             stroke: "#5a3d22", class: "point-hit", "data-point": 25,
                             "data-testid": "tray"});
    if (hl.targets && hl.targets.has(25)) tray.classList.add("target");
    svg.appendChild(tray);
    svg.appendChild(el("text", {x: MX + W + MX / 2, y: MT + H / 2, "text-anchor": "middle",
                                "font-size": 13}, `${I18n.t("off")} ${mineOff}`));
    svg.appendChild(el("text", {x: MX / 2, y: MT + H / 2, "text-anchor": "middle",
                                "font-size": 13}, `${I18n.t("off")} ${theirOff}`));
    // side to move, dice, pips
    const pips = side => pos[side].reduce((a, n, i) => a + n * (24 - i), 0);
    const line = `${I18n.t(pos.turn === "w" ? "white" : "black")} ${I18n.t("to.move.lc")}` +
      (pos.dice ? `, ${I18n.t("dice.lc")} ${pos.dice}` : "") +
      `   ${I18n.t("pips")}: ${I18n.t("white")} ${pips("white")}, ${I18n.t("black")} ${pips("black")}`;
    svg.appendChild(el("text", {x: MX, y: TH - 8, "font-size": 13, "data-testid": "board-line"},
                        line));
    svg.appendChild(el("text", {x: MX, y: 14, "font-size": 11, fill: "#555"},
                        `${I18n.t("numbering.of")} ${I18n.t(viewer === "w" ? "white" : "black")}`));
    container.replaceChildren(svg);
    // clicks and drags (pointer down on one point, up on another); `down` outlives a redraw, which
    // replaces the svg: a drag whose pointer-up lands on the new board is still a drag
    svg.addEventListener("pointerdown", e => {
      const p = e.target.getAttribute && e.target.getAttribute("data-point");
      down = p ? Number(p) : null;
    });
    svg.addEventListener("pointerup", e => {
      if (e.button === 2) return;            // the context menu's event takes a checker away
      const p = e.target.getAttribute && e.target.getAttribute("data-point");
      const to = p ? Number(p) : null;
      if (down !== null && to !== null && to !== down && opts.onDrag) opts.onDrag(down, to, e);
      else if (to !== null && opts.onPoint) opts.onPoint(to, e);
      down = null;
    });
    svg.addEventListener("contextmenu", e => {
      e.preventDefault();
      const p = e.target.getAttribute && e.target.getAttribute("data-point");
      if (p && opts.onPoint) opts.onPoint(Number(p), {shiftKey: true, button: 2});
    });
  }

  return {draw, other, onPoint};
})();
