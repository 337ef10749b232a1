// The opening book as a tree: White's first rolls, a roll's play and Black's 21 replies, White's
// second turn in the position a reply leads to, and any decision's plays with their figures.
"use strict";
const Book = (() => {
  let data = null, pos = null, path = [];
  const $ = id => document.getElementById(id);

  function showPosition(text) { pos = parseNotation(text); App.show({pos, highlight: {}}); }
  function crumbs() {
    $("book-path").replaceChildren(...path.map((p, i) => {
      const a = document.createElement("a"); a.href = "#"; a.textContent = p.label;
      a.addEventListener("click", e => { e.preventDefault(); path = path.slice(0, i + 1); p.go(); });
      return i ? [" › ", a] : [a];
    }).flat());
  }
  function entryTable(entry) {
    const rows = entry.plays.map((p, i) => ({rank: i + 1, play: p.play, equity: signed(p.equity),
      se: p.equity_se != null ? fmt(p.equity_se) : "", verdict: p.verdict || "", loss: fmt(p.loss),
      win: fmt(p.win), lose: fmt(p.lose), method: p.method || entry.method || "", result: p.result}));
    return table([["rank"], ["play"], ["equity"], ["se", "SE"], ["verdict"], ["loss", I18n.t("lost")],
                  ["win"], ["lose"], ["method"]], rows,
                 {onHover: row => App.preview(parseNotation(row.result)), onLeave: () => App.unpreview()});
  }

  async function firstRolls() {
    if (!data) data = await Api.get("/book");
    showPosition(data.start.position);
    path = [{label: I18n.t("first.rolls"), go: firstRolls}]; crumbs();
    const rows = data.first_rolls.map(r => ({roll: r.roll, play: r.play, equity: signed(r.equity),
                                              se: fmt(r.equity_se), replies: r.replies}));
    const h = document.createElement("h2"); h.textContent = I18n.t("first.rolls");
    $("book-main").replaceChildren(h, table([["roll", I18n.t("roll.col")], ["play"], ["equity"], ["se", "SE"], ["replies", I18n.t("replies")]],
                                            rows, {onRow: row => firstRoll(row.roll)}));
    $("book-detail").replaceChildren(); $("book-entry").replaceChildren();
  }

  async function firstRoll(roll) {
    const t = await Api.get(`/book/tree?roll=${encodeURIComponent(roll)}`);
    path = path.slice(0, 1).concat([{label: roll, go: () => firstRoll(roll)}]); crumbs();
    showPosition(data.start.position);
    const h = document.createElement("h2"); h.textContent = `${I18n.t("white")} ${roll}`;
    const h2 = document.createElement("h2"); h2.textContent = I18n.t("replies");
    const rows = t.replies.map(r => ({roll: r.black_roll, reply: r.black_play, equity: signed(r.equity),
                                      se: fmt(r.equity_se), position: r.position}));
    $("book-main").replaceChildren(h, t.white ? entryTable(t.white) : "");
    $("book-detail").replaceChildren(h2, table([["roll", I18n.t("roll.col")], ["reply"], ["equity"], ["se", "SE"]], rows, {
      onRow: row => secondTurn(row.position, `${roll} / ${row.roll}`),
      onHover: row => App.preview(parseNotation(row.position)), onLeave: () => App.unpreview()}));
    $("book-entry").replaceChildren();
  }

  async function secondTurn(position, label) {
    const r = await Api.post("/book/entry?view=second-turn", {position});
    path = path.slice(0, 2).concat([{label, go: () => secondTurn(position, label)}]); crumbs();
    showPosition(position);
    const h = document.createElement("h2"); h.textContent = I18n.t("second.turn");
    const rows = r.rolls.map(x => ({roll: x.dice, best: x.best, equity: signed(x.equity), method: x.method,
                                    runner: x.runner_up || "", loss: fmt(x.loss)}));
    $("book-detail").replaceChildren(h, table([["roll", I18n.t("roll.col")], ["best"], ["equity"], ["method"], ["runner", "2nd"], ["loss", I18n.t("lost")]], rows, {
      onRow: row => entry(position, row.roll)}));
    $("book-main").replaceChildren(); $("book-entry").replaceChildren();
  }

  async function entry(position, dice) {
    const r = await Api.post("/book/entry", {position, dice});
    const h = document.createElement("h2"); h.textContent = `${position}  ${dice}`;
    $("book-entry").replaceChildren(h, entryTable(r.entry));
  }

  function init() {}
  function activate() {
    if (pos) App.show({pos, highlight: {}});
    if (!path.length) firstRolls().catch(e => { $("book-main").textContent = e.message; });
  }
  function relabel() { path = []; activate(); }
  return {init, activate, relabel};
})();
