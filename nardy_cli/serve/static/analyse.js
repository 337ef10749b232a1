// Set up & analyse: the board editor (each change checked by the server, the position's ID in the
// address), the evaluation and cube decision, the roll's plays ranked (book, 0-2 ply) with a
// preview on pointing, and rollouts of the top plays with live progress and cancel.
"use strict";
const Analyse = (() => {
  const setup = {white: Array(24).fill(0), black: Array(24).fill(0), turn: "w", dice: null};
  let valid = null;       // the API's answer for the set-up, null while it is illegal
  let job = null, source = null, lastRanking = null, seq = 0;
  const $ = id => document.getElementById(id);

  function startPosition() {
    setup.white = Array(24).fill(0); setup.black = Array(24).fill(0);
    setup.white[0] = 15; setup.black[0] = 15; setup.turn = "w";
  }
  const colour = () => document.querySelector("input[name=colour]:checked").value;
  const side = c => (c === "w" ? "white" : "black");

  function body(extra) {
    const b = {board: {white: setup.white, black: setup.black, turn: setup.turn}, ...extra};
    if (setup.dice) b.dice = setup.dice;
    return b;
  }
  function stakes() {
    const out = {};
    const m = Number($("match").value);
    if (m > 0) out.match = {length: m, score: [Number($("score-w").value), Number($("score-b").value)],
                            crawford: $("crawford").checked};
    const c = $("cube").value;
    if (c) { const [v, o] = c.split(":"); out.cube = {value: Number(v), owner: o}; }
    return out;
  }

  function draw() {
    App.show({pos: {...setup, notation: valid ? valid.position : "", id: valid ? valid.id : ""},
              highlight: {}, onPoint, onDrag});
  }

  // a checker added (click) or taken away (right or shift click) on the viewer's point v
  function onPoint(v, e) {
    const viewer = App.viewer();
    const [held] = Board.onPoint(setup, viewer, v);
    if (v === 25) return;
    if (e.shiftKey || e.button === 2) {
      if (!held) return;
      const p = held === viewer ? v : Board.other(v);
      setup[side(held)][p - 1] -= 1;
    } else {
      const c = colour();
      const p = c === viewer ? v : Board.other(v);
      setup[side(c)][p - 1] += 1;
    }
    changed();
  }
  // one checker dragged from the viewer's point a to b (25: off the board)
  function onDrag(a, b) {
    const viewer = App.viewer();
    if (a === 25) return;
    const [held] = Board.onPoint(setup, viewer, a);
    if (!held) return;
    const own = v => (held === viewer ? v : Board.other(v));
    setup[side(held)][own(a) - 1] -= 1;
    if (b !== 25) setup[side(held)][own(b) - 1] += 1;
    changed();
  }

  async function changed() {
    const mine = ++seq;
    valid = null;
    $("ranking").replaceChildren(); $("evaluation").replaceChildren();
    try {
      const data = await Api.post("/position", body());
      if (mine !== seq) return;
      valid = data;
      $("setup-error").textContent = "";
      const dice = setup.dice ? `&dice=${setup.dice.replace("-", "")}` : "";
      history.replaceState(null, "", `${location.pathname}${location.search}#pos=${encodeURIComponent(data.id)}${dice}`);
      draw();
      evaluate(mine);
      if (setup.dice && !data.result) rank(0, mine);
    } catch (e) {
      if (mine !== seq) return;
      $("setup-error").textContent = `${I18n.t("illegal")}: ${e.message}`;
      draw();
    }
  }

  async function evaluate(mine) {
    if (valid && valid.result) {
      $("evaluation").textContent = `${I18n.t("game.over")}: ${valid.result.winner ? I18n.t(valid.result.winner === "w" ? "white" : "black") + " " + I18n.t("wins") + " " + valid.result.class : I18n.t("draw")}`;
      return;
    }
    try {
      const e = await Api.post("/eval", {board: body().board, ...stakes()});
      if (mine !== seq) return;
      const p = e.probabilities;
      const box = document.createElement("div");
      const h = document.createElement("h2"); h.textContent = I18n.t("chances"); box.appendChild(h);
      box.appendChild(table([["what", " "], ["total", "Σ"], ["oin"], ["home_mars"], ["mars"], ["koks"]], [
        {what: I18n.t("win"), total: fmt(p.win), oin: fmt(p.win_oin), home_mars: fmt(p.win_home_mars), mars: fmt(p.win_mars), koks: fmt(p.win_koks)},
        {what: I18n.t("lose"), total: fmt(p.lose), oin: fmt(p.lose_oin), home_mars: fmt(p.lose_home_mars), mars: fmt(p.lose_mars), koks: fmt(p.lose_koks)},
        {what: I18n.t("draw"), total: fmt(p.draw)}]));
      const eq = document.createElement("div");
      eq.dataset.testid = "equity"; eq.setAttribute("data-testid", "equity");
      eq.textContent = `${I18n.t("equity")} ${signed(e.equity)}` + (e.mwc != null ? `   MWC ${(100 * e.mwc).toFixed(1)}%` : "");
      box.appendChild(eq);
      if (e.cube) {
        const c = document.createElement("div");
        c.setAttribute("data-testid", "cube-decision");
        c.textContent = `${I18n.t("cube.decision")}: ${I18n.t("decision." + e.cube.decision)}` +
          ` (${I18n.t("no_double")} ${signed(e.cube.no_double)}, ${I18n.t("double_take")} ${signed(e.cube.double_take)}, ${I18n.t("double_pass")} ${signed(e.cube.double_pass)})`;
        box.appendChild(c);
      }
      $("evaluation").replaceChildren(box);
    } catch (err) { $("evaluation").textContent = err.message; }
  }

  async function rank(plies, mine) {
    mine = mine || seq;
    if (!valid || !setup.dice) return;
    $("ranking").textContent = "…";
    try {
      const r = await Api.post("/rank", body({plies, book: plies === 0, ...(stakes().match ? {match: stakes().match} : {})}));
      if (mine !== seq) return;
      lastRanking = r;
      const rows = (r.plays || []).map((p, i) => ({
        rank: i + 1, play: p.play, equity: signed(p.equity),
        diff: i ? fmt(p.equity - r.plays[0].equity) : "",
        win: fmt(p.probabilities ? p.probabilities.win : p.win),
        lose: fmt(p.probabilities ? p.probabilities.lose : p.lose),
        depth: r.source === "opening book" ? `${I18n.t("tab.book")}: ${p.method || r.method || ""}` : p.depth,
        result: p.result}));
      const t = table([["rank"], ["play"], ["equity"], ["diff"], ["win"], ["lose"], ["depth"]], rows, {
        onHover: row => App.preview(parseNotation(row.result)), onLeave: () => App.unpreview()});
      $("ranking").replaceChildren(t);
    } catch (err) { $("ranking").textContent = err.message; }
  }

  async function rollout() {
    if (!lastRanking || !lastRanking.plays || job) return;
    const n = Math.max(1, Number($("top-n").value) || 3);
    const plays = lastRanking.plays.slice(0, n).map(p => p.play);
    try {
      const j = await Api.post("/rollouts", body({plays, games: Number($("rollout-games").value) || 1296}));
      job = j.job_id;
      $("cancel").disabled = false; $("rollout").disabled = true;
      $("rollout-status").textContent = I18n.t("running");
      source = new EventSource(`/api/v1/rollouts/${job}/events`);
      const onEvent = ev => {
        const s = JSON.parse(ev.data);
        const total = s.games * s.results.length;
        const done = s.results.reduce((a, r, i) => a + (s.done[i] ? s.games : r ? r.games : 0), 0);
        $("progress").max = total; $("progress").value = done;
        $("progress").setAttribute("data-done", done);
        $("rollout-status").textContent = `${I18n.t(s.status) || s.status}: ${done.toLocaleString()} / ${total.toLocaleString()} ${I18n.t("games")}`;
        $("rollout-status").setAttribute("data-status", s.status);
        const rows = s.results.map((r, i) => ({play: s.plays[i], games: r ? r.games : 0,
          equity: r ? `${signed(r.equity)} ± ${fmt(1.96 * r.equity_se)}` : "",
          win: r ? fmt(r.probabilities.win) : "", lose: r ? fmt(r.probabilities.lose) : ""}));
        $("rollout-result").replaceChildren(table([["play"], ["games", I18n.t("games.col")], ["equity"], ["win"], ["lose"]], rows));
        if (ev.type === "end") finish();
      };
      source.addEventListener("progress", onEvent);
      source.addEventListener("end", onEvent);
      source.onerror = () => { if (source && source.readyState === 2) finish(); };
    } catch (err) { $("rollout-status").textContent = err.message; }
  }
  function finish() {
    if (source) source.close();
    source = null; job = null;
    $("cancel").disabled = true; $("rollout").disabled = false;
  }

  function loadFrom(text, dice) {
    return Api.post("/position", {position: text}).then(d => {
      setup.white = d.board.white.slice(); setup.black = d.board.black.slice();
      setup.turn = d.board.turn; setup.dice = dice || d.dice;
      syncControls(); changed();
    }).catch(e => { $("setup-error").textContent = e.message; });
  }
  function syncControls() {
    $("turn").value = setup.turn;
    const [a, b] = setup.dice ? setup.dice.split("-") : ["", ""];
    $("die1").value = a; $("die2").value = b;
  }

  function init() {
    for (const id of ["die1", "die2"]) {
      $(id).append(new Option("–", ""), ...[1, 2, 3, 4, 5, 6].map(n => new Option(String(n), String(n))));
      $(id).addEventListener("change", () => {
        const a = $("die1").value, b = $("die2").value;
        setup.dice = a && b ? `${Math.max(a, b)}-${Math.min(a, b)}` : null;
        changed();
      });
    }
    $("start").addEventListener("click", () => { startPosition(); syncControls(); changed(); });
    $("clear").addEventListener("click", () => { setup.white.fill(0); setup.black.fill(0); changed(); });
    $("swap").addEventListener("click", () => {
      [setup.white, setup.black] = [setup.black, setup.white];
      setup.turn = setup.turn === "w" ? "b" : "w"; syncControls(); changed();
    });
    $("turn").addEventListener("change", () => { setup.turn = $("turn").value; changed(); });
    for (const id of ["cube", "match", "score-w", "score-b", "crawford"]) $(id).addEventListener("change", () => evaluate(seq));
    $("rank0").addEventListener("click", () => rank(0));
    $("rank1").addEventListener("click", () => rank(1));
    $("rank2").addEventListener("click", () => rank(2));
    $("rollout").addEventListener("click", rollout);
    $("cancel").addEventListener("click", () => { if (job) Api.post(`/rollouts/${job}/cancel`); });
    $("load").addEventListener("click", () => loadFrom($("paste").value.trim()));
    const hash = new URLSearchParams(location.hash.slice(1));
    startPosition();
    const d = hash.get("dice");
    if (hash.get("pos")) loadFrom(hash.get("pos"), d && d.length === 2 ? `${Math.max(d[0], d[1])}-${Math.min(d[0], d[1])}` : null);
    else { syncControls(); changed(); }
  }
  function activate() { draw(); }
  function relabel() { changed(); }
  return {init, activate, relabel, setup};
})();
