// The review page: reads the JSON blob #review-data (nardy_cli/review_page.py) and draws the boards and the
// graph as inline SVG.  State is (game, ply): ply 0 is the starting position, ply k the board after ply k.
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("review-data").textContent);
  const UNITS = DATA.units;
  const NS = "http://www.w3.org/2000/svg";
  // The page's words in the report's language (DATA.text, from review_page.page_data; docs/russian.md):
  // _("Ply {k} of {n}", { k: 3, n: 90 }) fills the {fields} of the translated (or English) text.
  const TEXT = DATA.text || {};
  const _ = (s, fields) => (TEXT[s] || s).replace(/\{(\w+)\}/g, (m, k) => fields && k in fields ? fields[k] : m);
  const NAMES = { w: _("White"), b: _("Black") };
  const NAMES_OF = { w: _("White's"), b: _("Black's") };
  const state = { game: 0, ply: 0 };
  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------------ formatting
  const fmtValue = (v) => v === null || v === undefined ? "" :
    UNITS.percent ? (100 * v).toFixed(1) + "%" : (v >= 0 ? "+" : "\u2212") + Math.abs(v).toFixed(3);
  const fmtLoss = (v) => UNITS.percent ? (100 * v).toFixed(1) + "%" : v.toFixed(3);
  const other = (side) => side === "w" ? "b" : "w";
  const toOther = (p) => p <= 12 ? p + 12 : p - 12;

  function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function text(parent, x, y, s, attrs) {
    const t = el("text", Object.assign({ x: x, y: y }, attrs || {}), parent);
    t.textContent = s;
    return t;
  }

  // ------------------------------------------------------------ the board
  // Viewer's points 1-12 run left to right along the bottom, 13-24 right to left along the top; the
  // viewer's home (19-24) is top left and it bears off into the tray on the left, the other side's home is
  // bottom right with its tray on the right (as study/board_figure.py draws it).
  const PW = 42, BAR = 26, H = 420, R = 19, MAX = 5, OX = 66, OY = 34, BW = 12 * PW + BAR;
  const TRAY_W = 40, TRAY_H = 176, SLAB = 10.6;
  const WIDTH = OX + BW + 66, HEIGHT = OY + H + 64;
  const FILL = { w: ["#fbfaf5", "#333333", "#222222"], b: ["#2b2b2b", "#000000", "#f5f5f5"] };
  const ARROW = { played: "#d32f2f", best: "#1565c0" };

  function colX(col) { return OX + col * PW + (col >= 6 ? BAR : 0) + PW / 2; }
  function slot(point) { return point <= 12 ? [point - 1, false] : [24 - point, true]; }
  function checkerXY(point, index) {
    const [col, top] = slot(point);
    const k = Math.min(index, MAX - 1);
    return [colX(col), top ? OY + R + 2 * R * k + 2 : OY + H - R - 2 * R * k - 2];
  }
  function trayXY(viewerTray, index) {
    // the viewer's tray is top left (slabs from the top down), the other side's bottom right
    return viewerTray ? [OX - 12 - TRAY_W / 2, OY + 8 + index * SLAB + SLAB / 2]
      : [OX + BW + 12 + TRAY_W / 2, OY + H - 8 - index * SLAB - SLAB / 2];
  }
  // counts[side][p-1] in the viewer's numbering for both sides
  function viewCounts(board, viewer) {
    const mine = viewer === "w" ? board[0] : board[1];
    const theirs = viewer === "w" ? board[1] : board[0];
    const view = new Array(24).fill(0);
    for (let p = 1; p <= 24; p++) view[toOther(p) - 1] = theirs[p - 1];
    return { mine: mine, theirs: view };
  }
  const pips = (counts) => counts.reduce((s, n, i) => s + n * (24 - i), 0);
  const offOf = (counts) => 15 - counts.reduce((s, n) => s + n, 0);

  function drawBoard(opts) {
    // opts: {name, board (after), before, viewer, steps, colour, dice}
    const viewer = opts.viewer, board = opts.board;
    const svg = el("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "board", "data-board": opts.name,
      "data-numbering": viewer, "data-white": board[0].join(","), "data-black": board[1].join(","),
      "data-steps": (opts.steps || []).map((s) => s[0] + "/" + (s[1] === 25 ? "off" : s[1])).join(" "),
      role: "img" });
    const defs = el("defs", {}, svg);
    const marker = el("marker", { id: "head-" + opts.name, viewBox: "0 0 10 10", refX: 7, refY: 5,
      markerWidth: 4.2, markerHeight: 4.2, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", fill: opts.colour }, marker);
    el("rect", { x: OX, y: OY, width: BW, height: H, fill: "#eadbc4", stroke: "#5a3d22", "stroke-width": 3 }, svg);
    el("rect", { x: OX + 6 * PW, y: OY, width: BAR, height: H, fill: "#5a3d22" }, svg);
    const { mine, theirs } = viewCounts(board, viewer);
    for (let p = 1; p <= 24; p++) {
      const [col, top] = slot(p);
      const x0 = colX(col) - PW / 2;
      const tip = top ? OY + H * 0.42 : OY + H * 0.58;
      const base = top ? OY : OY + H;
      el("polygon", { points: `${x0},${base} ${x0 + PW},${base} ${x0 + PW / 2},${tip}`,
        fill: p % 2 ? "#7a4e2d" : "#c8a27a" }, svg);
      text(svg, colX(col), top ? OY - 10 : OY + H + 21, String(p),
        { "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: "#222" });
    }
    for (let p = 1; p <= 24; p++) {
      const side = mine[p - 1] ? viewer : theirs[p - 1] ? other(viewer) : null;
      if (side) stack(svg, p, side, side === viewer ? mine[p - 1] : theirs[p - 1]);
    }
    tray(svg, true, viewer, offOf(mine));
    tray(svg, false, other(viewer), offOf(theirs));
    if (opts.dice) dice(svg, colX(8) + PW / 2, OY + H / 2, opts.dice);
    if (opts.steps && opts.before) arrows(svg, opts);
    const w = board[0], b = board[1];
    text(svg, WIDTH / 2, HEIGHT - 14, _("White {wp} pips, {wo} off  \u00b7  Black {bp} pips, {bo} off  \u00b7  points in {sides} numbering",
      { wp: pips(w), wo: offOf(w), bp: pips(b), bo: offOf(b), sides: NAMES_OF[viewer] }),
      { "text-anchor": "middle", "font-size": 15, fill: "#333", class: "pips" });
    return svg;
  }

  function stack(svg, point, side, n) {
    const [face, edge, ink] = FILL[side];
    const g = el("g", { class: "stack", "data-point": point, "data-side": side, "data-count": n }, svg);
    const shown = Math.min(n, MAX);
    for (let k = 0; k < shown; k++) {
      const [x, y] = checkerXY(point, k);
      el("circle", { cx: x, cy: y, r: R - 1, fill: face, stroke: edge, "stroke-width": 1.6 }, g);
    }
    if (n > 1) {
      const [x, y] = checkerXY(point, shown - 1);
      text(g, x, y + 5.5, String(n), { "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: ink });
    }
  }

  function tray(svg, viewerTray, side, n) {
    const [face, edge] = FILL[side];
    const x = viewerTray ? OX - 12 - TRAY_W : OX + BW + 12;
    const y = viewerTray ? OY : OY + H - TRAY_H;
    const g = el("g", { class: "tray", "data-side": side, "data-off": n }, svg);
    el("rect", { x: x, y: y, width: TRAY_W, height: TRAY_H, fill: "#d9c6a8", stroke: "#5a3d22", "stroke-width": 1.5 }, g);
    for (let k = 0; k < n; k++) {
      const [cx, cy] = trayXY(viewerTray, k);
      el("rect", { x: cx - TRAY_W / 2 + 5, y: cy - SLAB / 2 + 1, width: TRAY_W - 10, height: SLAB - 2, rx: 2,
        fill: face, stroke: edge, "stroke-width": 1 }, g);
    }
    text(g, x + TRAY_W / 2, viewerTray ? y + TRAY_H + 16 : y - 7, _("{side} off {n}", { side: NAMES[side], n: n }),
      { "text-anchor": "middle", "font-size": 11.5, fill: "#333" });
  }

  function dice(svg, x, y, roll) {
    const size = 34;
    const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
      4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
      6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };
    roll.forEach((v, k) => {
      const cx = x + (k - 0.5) * (size + 10);
      const g = el("g", { class: "die", "data-value": v }, svg);
      el("rect", { x: cx - size / 2, y: y - size / 2, width: size, height: size, rx: 6, fill: "#fffdf7",
        stroke: "#333", "stroke-width": 1.5 }, g);
      for (const [px, py] of PIPS[v]) el("circle", { cx: cx + px * size * 0.27, cy: y + py * size * 0.27, r: 3.4, fill: "#222" }, g);
    });
  }

  // One arrow per step, from the checker that left to where it landed, replayed on the board before the
  // play so that two checkers leaving one point start from different places.
  function arrows(svg, opts) {
    const viewer = opts.viewer;
    const counts = viewCounts(opts.before, viewer).mine.slice();
    let off = offOf(counts);
    const g = el("g", { class: "arrows", "data-kind": opts.name }, svg);
    for (const [a, b] of opts.steps) {
      counts[a - 1] -= 1;
      const from = checkerXY(a, counts[a - 1]);
      let to;
      if (b === 25) { to = trayXY(true, off); off += 1; } else { to = checkerXY(b, counts[b - 1]); counts[b - 1] += 1; }
      const d = arrowPath(a, b, from, to);
      el("path", { d: d, fill: "none", stroke: "#fff", "stroke-width": 8.5, "stroke-opacity": 0.75,
        "stroke-linecap": "round" }, g);
      el("path", { d: d, fill: "none", stroke: opts.colour, "stroke-width": 4.2, "stroke-linecap": "round",
        "marker-end": `url(#head-${opts.name})`, class: "arrow", "data-from": a, "data-to": b }, g);
    }
  }

  function arrowPath(a, b, [x1, y1], [x2, y2]) {
    const mid = OY + H / 2, bottomA = a <= 12, bottomB = b !== 25 && b <= 12;
    let c1, c2;
    if (bottomA !== bottomB && b !== 25) {
      // from one row to the other: up (or down) into the empty middle band, across, and into the point
      c1 = [x1, mid]; c2 = [x2, mid];
    } else {
      // within a row (or off into the tray): bow towards the middle of the board
      const bow = Math.min(120, 34 + Math.abs(x2 - x1) * 0.25) * (bottomA ? -1 : 1);
      c1 = [x1 + (x2 - x1) * 0.25, (y1 + y2) / 2 + bow]; c2 = [x1 + (x2 - x1) * 0.75, (y1 + y2) / 2 + bow];
    }
    // start and stop at the checkers' rims, not their centres, so that stack counts stay readable
    const [sx, sy] = trim([x1, y1], c1), [ex, ey] = trim([x2, y2], c2);
    return `M${sx},${sy} C${c1[0]},${c1[1]} ${c2[0]},${c2[1]} ${ex},${ey}`;
  }

  function trim([x, y], [cx, cy]) {
    const dx = cx - x, dy = cy - y, len = Math.hypot(dx, dy) || 1, cut = Math.min(R * 0.8, len / 2);
    return [(x + dx / len * cut).toFixed(1), (y + dy / len * cut).toFixed(1)];
  }

  // ------------------------------------------------------------ the graph
  const GW = 1000, GH = 264, GL = 62, GR = 14, GT = 28, GB = 40;
  const MARK_STYLE = { doubtful: ["#f9a825", 4.5], error: ["#ef6c00", 6], blunder: ["#c62828", 7.5] };

  function niceStep(span) {
    for (const s of [0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5]) if (span / s <= 8) return s;
    return 10;
  }

  function drawGraph(game) {
    const n = game.plies.length;
    const svg = el("svg", { viewBox: `0 0 ${GW} ${GH}`, id: "graph-svg" });
    const vals = game.plies.map((p) => p.graph).filter((v) => v !== null && v !== undefined);
    let lo = Math.min(UNITS.centre, ...vals), hi = Math.max(UNITS.centre, ...vals);
    if (hi - lo < 1e-9) { lo -= 0.5; hi += 0.5; }
    const pad = (hi - lo) * 0.08; lo -= pad; hi += pad;
    const bw = (GW - GL - GR) / Math.max(n, 1);
    const X = (ply) => GL + (ply - 0.5) * bw;
    const Y = (v) => GT + (hi - v) / (hi - lo) * (GH - GT - GB);
    const step = niceStep(hi - lo);
    for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) {
      el("line", { x1: GL, x2: GW - GR, y1: Y(t), y2: Y(t), stroke: Math.abs(t - UNITS.centre) < 1e-9 ? "#555" : "#e3e3e3",
        "stroke-width": Math.abs(t - UNITS.centre) < 1e-9 ? 1.4 : 1 }, svg);
      text(svg, GL - 6, Y(t) + 4, UNITS.percent ? (100 * t).toFixed(step < 0.01 ? 1 : 0) + "%"
        : (Math.abs(t) < 1e-9 ? 0 : t).toFixed(step >= 1 ? 0 : step === 0.25 || step < 0.1 ? 2 : 1),
        { "text-anchor": "end", "font-size": 12, fill: "#444" });
    }
    const xstep = n > 150 ? 20 : n > 60 ? 10 : n > 20 ? 5 : 1;
    for (let k = xstep; k <= n; k += xstep) text(svg, X(k), GH - GB + 16, String(k), { "text-anchor": "middle", "font-size": 12, fill: "#444" });
    text(svg, (GL + GW - GR) / 2, GH - 6, _("ply"), { "text-anchor": "middle", "font-size": 12, fill: "#444" });
    el("line", { id: "graph-cursor", x1: 0, x2: 0, y1: GT, y2: GH - GB, stroke: "#1565c0", "stroke-width": 2,
      "stroke-dasharray": "4 3", visibility: "hidden" }, svg);
    let path = "";
    game.plies.forEach((p) => { if (p.graph !== null && p.graph !== undefined) path += (path ? " L" : "M") + X(p.n) + "," + Y(p.graph); });
    if (path) el("path", { d: path, fill: "none", stroke: "#1565c0", "stroke-width": 1.6 }, svg);
    game.plies.forEach((p) => {
      if (p.graph === null || p.graph === undefined) return;
      const st = MARK_STYLE[p.mark];
      el("circle", { cx: X(p.n), cy: Y(p.graph), r: st ? st[1] : 2.2, fill: st ? st[0] : "#1565c0",
        stroke: st ? "#000" : "none", "stroke-width": 0.8, class: "point", "data-ply": p.n }, svg);
    });
    const legendStep = (UNITS.marks ? 185 : 150) + (DATA.text ? 25 : 0);   // wider: limits with a unit, longer words
    // ends just before the first mark, however long the words (Russian's are longer)
    if (UNITS.marks) text(svg, GW - GR - 3 * legendStep, 16, _("marks by normalised equity lost:"),
                          { "font-size": 12, fill: "#333", "text-anchor": "end" });
    ["doubtful", "error", "blunder"].forEach((mark, k) => {
      const lx = GW - GR - 3 * legendStep + k * legendStep + 12;
      el("circle", { cx: lx, cy: 12, r: MARK_STYLE[mark][1], fill: MARK_STYLE[mark][0], stroke: "#000",
        "stroke-width": 0.8 }, svg);
      const limit = UNITS.marks ? game.thresholds[mark].toFixed(3) : fmtLoss(game.thresholds[mark]);
      text(svg, lx + 12, 16, `${_(mark)} \u2265 ${limit}`, { "font-size": 12, fill: "#333" });
    });
    el("circle", { id: "graph-dot", r: 6, fill: "none", stroke: "#1565c0", "stroke-width": 2.5, visibility: "hidden" }, svg);
    for (const p of game.plies) {
      el("rect", { class: "hit", x: GL + (p.n - 1) * bw, y: GT, width: bw, height: GH - GT - GB, "data-ply": p.n }, svg)
        .appendChild(el("title", {})).textContent = `${p.label} ${NAMES[p.side]} ${p.dice.join("-")}: ${p.played}` +
          (p.loss ? ` (${fmtLoss(p.loss)} ${_(UNITS.loss)})` : "");
    }
    svg.addEventListener("click", (ev) => {
      const hit = ev.target.closest("[data-ply]");
      if (hit) go(state.game, Number(hit.getAttribute("data-ply")));
    });
    svg._x = X; svg._y = Y;
    return svg;
  }

  // ------------------------------------------------------------ lists
  function drawMistakes(game) {
    const list = $("mistakes");
    list.textContent = "";
    const bad = game.plies.filter((p) => p.mark === "error" || p.mark === "blunder");
    if (!bad.length) { const li = document.createElement("li"); li.textContent = _("none"); list.appendChild(li); }
    for (const p of bad) {
      const li = document.createElement("li");
      li.setAttribute("data-ply", p.n);
      const a = document.createElement("a");
      a.href = `#g${state.game + 1}-p${p.n}`;
      a.className = "mistake";
      a.setAttribute("data-ply", p.n);
      a.textContent = `${p.label} ${p.player} (${NAMES[p.side]}) ${p.dice.join("-")}: ${p.played} \u2014 ${_(p.mark)}, ` +
        `${fmtLoss(p.loss)} ${_(UNITS.loss)}; ` + _("best {play}", { play: p.best });
      a.addEventListener("click", (ev) => { ev.preventDefault(); go(state.game, p.n); });
      li.appendChild(a);
      list.appendChild(li);
    }
  }

  // ------------------------------------------------------------ the cube
  function cubeText(c) {
    let t = _("cube {cube}: {action}", { cube: c.cube, action: c.action });
    if (c.best !== c.action) t += _(" (right: {best})", { best: c.best });
    if (c.error) t += ` \u2014 ${c.error}`;
    const lost = [];
    if (c.double_lost !== null) lost.push(`${c.player} ${fmtLoss(c.double_lost)}`);
    if (c.take_lost !== null) lost.push(`${c.taker} ${fmtLoss(c.take_lost)}`);
    return lost.length ? `${t}; ${_(UNITS.cube_loss || UNITS.loss)}: ${lost.join(", ")}` : t;
  }

  function showCube(game, p, last) {
    const parts = [];
    if (p && p.cube) parts.push(cubeText(p.cube));
    if (last && game.end_cube) parts.push(_("after the last ply: {cube}", { cube: cubeText(game.end_cube) }));
    const errors = [p && p.cube, last && game.end_cube].filter((c) => c && c.error).map((c) => c.error);
    $("cube").textContent = parts.join(" | ");
    $("cube").setAttribute("data-error", errors.join(", "));
    $("cube-line").hidden = parts.length === 0;
  }

  function drawSummary(game) {
    const table = $("summary");
    table.textContent = "";
    const head = [_("player"), _("side"), _("decisions"), _(UNITS.loss), _("per decision"), _("doubtful"), _("errors"),
      _("blunders")];
    const tr = table.insertRow();
    for (const h of head) { const th = document.createElement("th"); th.textContent = h; tr.appendChild(th); }
    for (const s of game.summary) {
      const row = table.insertRow();
      for (const v of [s.player, NAMES[s.side], s.decisions, s.loss === null ? "" : fmtLoss(s.loss),
        s.mean === null ? "" : fmtLoss(s.mean), s.doubtful, s.error, s.blunder]) row.insertCell().textContent = v;
    }
  }

  // ------------------------------------------------------------ one step
  function setGame(g) {
    state.game = g;
    const game = DATA.games[g];
    $("game-title").textContent = game.title;
    $("game-score").textContent = game.score ? "\u2014 " + game.score : "";
    $("game-select").value = String(g);
    $("graph-title").textContent = _("{graph} (click a ply to go there)", { graph: _(UNITS.graph) });
    const box = $("graph");
    box.textContent = "";
    box.appendChild(drawGraph(game));
    drawMistakes(game);
    drawSummary(game);
  }

  function go(g, ply) {
    if (g !== state.game) setGame(g);
    const game = DATA.games[g];
    const n = game.plies.length;
    state.ply = Math.max(0, Math.min(n, ply));
    render();
  }

  function render() {
    const game = DATA.games[state.game];
    const k = state.ply, n = game.plies.length;
    const view = $("view");
    view.setAttribute("data-game", state.game);
    view.setAttribute("data-ply", k);
    $("ply-label").textContent = _("Ply {k} of {n}", { k: k, n: n });
    const p = k > 0 ? game.plies[k - 1] : null;
    showCube(game, p, k === n);
    const played = $("played-board"), best = $("best-board");
    played.textContent = ""; best.textContent = "";
    if (!p) {
      const turn = game.turns[0];
      $("turn").textContent = _("start, {side} to move", { side: NAMES[turn] });
      for (const id of ["roll", "played", "value", "loss", "mark", "best", "best-value", "comment"]) $(id).textContent = "";
      $("played-caption").textContent = _("Starting position");
      $("played-caption").className = "";
      played.appendChild(drawBoard({ name: "played", board: game.boards[0], viewer: turn, colour: ARROW.played }));
      $("best-figure").hidden = true;
    } else {
      $("turn").textContent = `${p.label} ${p.player} (${NAMES[p.side]})`;
      $("roll").textContent = p.dice.join("-");
      $("played").textContent = p.played;
      $("value").textContent = p.value !== undefined && p.value !== null ? `(${fmtValue(p.value)})` : "";
      const mark = $("mark");
      mark.className = p.mark && p.mark !== "forced" ? "mark mark-" + p.mark : "";
      mark.textContent = p.mark && p.mark !== "forced" ? _(p.mark) : "";
      $("loss").textContent = !p.reviewed ? _("not reviewed") : p.forced ? _("forced (one legal play)")
        : `${fmtLoss(p.loss)} ${_(UNITS.loss)}`;
      $("best").textContent = p.reviewed && !p.forced ? p.best : "";
      $("best-value").textContent = p.reviewed && !p.forced ? `(${fmtValue(p.best_value)})` : "";
      $("comment").textContent = p.comment || "";
      $("played-caption").className = "played";
      $("played-caption").textContent = _("Played {play}", { play: p.played }) + (p.value !== undefined && p.value !== null ? ` (${fmtValue(p.value)})` : "");
      played.appendChild(drawBoard({ name: "played", board: game.boards[k], before: game.boards[k - 1], viewer: p.side,
        steps: p.steps, colour: ARROW.played, dice: p.dice }));
      const showBest = p.reviewed && !p.forced;
      $("best-figure").hidden = !showBest;
      if (showBest) {
        const same = !p.best_board;
        $("best-caption").textContent = _("Best {play}", { play: p.best }) + ` (${fmtValue(p.best_value)})` +
          (same ? _(": the play made") : "");
        best.appendChild(drawBoard({ name: "best", board: same ? game.boards[k] : p.best_board, before: game.boards[k - 1],
          viewer: p.side, steps: p.best_steps, colour: ARROW.best, dice: p.dice }));
      }
    }
    const svg = $("graph-svg"), cursor = $("graph-cursor"), dot = $("graph-dot");
    if (k > 0) {
      cursor.setAttribute("x1", svg._x(k)); cursor.setAttribute("x2", svg._x(k)); cursor.setAttribute("visibility", "visible");
      if (p.graph !== null && p.graph !== undefined) {
        dot.setAttribute("cx", svg._x(k)); dot.setAttribute("cy", svg._y(p.graph)); dot.setAttribute("visibility", "visible");
      } else dot.setAttribute("visibility", "hidden");
    } else { cursor.setAttribute("visibility", "hidden"); dot.setAttribute("visibility", "hidden"); }
    for (const li of $("mistakes").children) li.classList.toggle("current", Number(li.getAttribute("data-ply")) === k);
    try { history.replaceState(null, "", `#g${state.game + 1}-p${k}`); } catch (e) { /* file:// in some browsers */ }
  }

  // ------------------------------------------------------------ wiring
  const select = $("game-select");
  DATA.games.forEach((game, i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = `${i + 1}. ${game.title}` + (game.score ? ` \u2014 ${game.score}` : "");
    select.appendChild(o);
  });
  $("game-choice").hidden = DATA.games.length < 2;
  select.addEventListener("change", () => { go(Number(select.value), 0); select.blur(); });
  $("first").addEventListener("click", () => go(state.game, 0));
  $("prev").addEventListener("click", () => go(state.game, state.ply - 1));
  $("next").addEventListener("click", () => go(state.game, state.ply + 1));
  $("last").addEventListener("click", () => go(state.game, DATA.games[state.game].plies.length));
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "SELECT" || ev.target.tagName === "INPUT" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const moves = { ArrowRight: state.ply + 1, ArrowLeft: state.ply - 1, Home: 0,
      End: DATA.games[state.game].plies.length };
    if (!(ev.key in moves)) return;
    ev.preventDefault();
    go(state.game, moves[ev.key]);
  });
  // the address keeps the place: #g2-p37 is game 2 after ply 37
  function fromHash() {
    const m = /^#g(\d+)-p(\d+)$/.exec(location.hash);
    return m ? [Math.min(DATA.games.length, Math.max(1, Number(m[1]))) - 1, Number(m[2])] : null;
  }
  window.addEventListener("hashchange", () => { const h = fromHash(); if (h) go(h[0], h[1]); });
  const start = fromHash() || [0, 0];
  setGame(start[0]);
  go(start[0], start[1]);
  window.reviewPageReady = true;
})();
