// The page's frame: tabs, language, the board's numbering, and the one board each tab draws on.
"use strict";
const App = {
  tab: "analyse",
  view: {pos: null, highlight: {}, onPoint: null, onDrag: null},   // what the active tab shows
  previewing: null,
  viewer() {
    const v = document.getElementById("viewer").value;
    const pos = this.previewing || this.view.pos;
    return v === "auto" ? (this.view.fixedViewer || (pos ? pos.turn : "w")) : v;
  },
  show(view) { this.view = view; this.previewing = null; this.redraw(); },
  preview(pos) { this.previewing = pos; this.redraw(); },
  unpreview() { this.previewing = null; this.redraw(); },
  redraw() {
    const pos = this.previewing || this.view.pos;
    if (!pos) return;
    Board.draw(document.getElementById("board"), pos, {
      viewer: this.viewer(), highlight: this.previewing ? {} : this.view.highlight,
      onPoint: this.previewing ? null : this.view.onPoint,
      onDrag: this.previewing ? null : this.view.onDrag});
    if (pos.notation !== undefined) {
      document.getElementById("notation").textContent = pos.notation || "";
      document.getElementById("posid").textContent = pos.id || "";
    }
  },
  status(text) { document.getElementById("status").textContent = text || ""; },
};

// a position of the API (`board`, `dice`, `position`, `id`) as the board draws it
function boardPos(data) {
  return {white: data.board.white, black: data.board.black, turn: data.board.turn,
          dice: data.dice, notation: data.position, id: data.id};
}

// a result's notation as a board (the page's previews); its dice dropped
function parseNotation(text) {
  const pos = {white: Array(24).fill(0), black: Array(24).fill(0), turn: "w", dice: null,
               notation: text};
  for (const token of text.trim().split(/\s+/)) {
    if (/^[WB]:/.test(token)) {
      const side = token[0] === "W" ? "white" : "black";
      for (const part of token.slice(2).split(",").filter(Boolean)) {
        const [p, n] = part.split("x").map(Number);
        pos[side][p - 1] += n === undefined ? 1 : n;
      }
    } else if (token === "w" || token === "b") pos.turn = token;
  }
  return pos;
}

function table(columns, rows, opts) {
  const t = document.createElement("table");
  const head = t.createTHead().insertRow();
  for (const [key, label] of columns) {
    const th = document.createElement("th");
    th.textContent = label || I18n.t(key);
    head.appendChild(th);
  }
  const body = t.createTBody();
  rows.forEach((row, i) => {
    const tr = body.insertRow();
    for (const [key] of columns) tr.insertCell().textContent = row[key] ?? "";
    if (opts && opts.onRow) { tr.classList.add("clickable"); tr.addEventListener("click", () => opts.onRow(row, i)); }
    if (opts && opts.onHover) {
      tr.addEventListener("mouseenter", () => { tr.classList.add("hover"); opts.onHover(row, i); });
      tr.addEventListener("mouseleave", () => { tr.classList.remove("hover"); opts.onLeave && opts.onLeave(row, i); });
    }
    tr.dataset.testid = `row-${i + 1}`;
    tr.setAttribute("data-testid", `row-${i + 1}`);
  });
  return t;
}

const fmt = (x, d = 3) => (x === null || x === undefined || Number.isNaN(x) ? "" : Number(x).toFixed(d));
const signed = x => (x === null || x === undefined ? "" : (x >= 0 ? "+" : "") + Number(x).toFixed(3));

function selectTab(name) {
  App.tab = name;
  document.querySelectorAll(".tab").forEach(b => b.classList.toggle("active", b.dataset.tab === name));
  for (const t of ["analyse", "play", "book"]) document.getElementById(`panel-${t}`).hidden = t !== name;
  ({analyse: Analyse, play: Play, book: Book})[name].activate();
}

document.addEventListener("DOMContentLoaded", () => {
  I18n.apply();
  document.getElementById("lang").addEventListener("click", () => {
    I18n.toggle(); App.redraw(); ({analyse: Analyse, play: Play, book: Book})[App.tab].relabel?.();
  });
  document.querySelectorAll(".tab").forEach(b => b.addEventListener("click", () => selectTab(b.dataset.tab)));
  document.getElementById("viewer").addEventListener("change", () => App.redraw());
  for (const [button, source] of [["copy-notation", "notation"], ["copy-id", "posid"]]) {
    document.getElementById(button).addEventListener("click", async () => {
      const text = document.getElementById(source).textContent;
      try { await navigator.clipboard.writeText(text); App.status(I18n.t("copied")); }
      catch (e) { window.prompt(I18n.t("copy"), text); }
    });
  }
  Analyse.init(); Play.init(); Book.init();
  selectTab("analyse");
});
