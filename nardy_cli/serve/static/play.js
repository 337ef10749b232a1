// Play against nardy: a game against a bot, the person's play built by clicks (a checker, then
// where it goes) or picked from the list; the tutor's warning before a doubtful, bad or very bad
// play, with "show the best", "play it anyway" and "take back"; hints, undo, the review, saving.
"use strict";
const Play = (() => {
  let game = null, made = [], selected = null, pending = null, local = null;
  const $ = id => document.getElementById(id);

  // can the made moves (each a checker's path a -> b) be cut out of `steps`? the steps left, or null
  function consume(steps, moves) {
    let left = steps.map(s => s.slice());
    for (const [a, b] of moves) {
      const found = chain(left, a, b);
      if (!found) return null;
      left = found;
    }
    return left;
  }
  function chain(left, a, b) {
    for (let i = 0; i < left.length; i++) {
      if (left[i][0] !== a) continue;
      const rest = left.slice(0, i).concat(left.slice(i + 1));
      if (left[i][1] === b) return rest;
      const further = chain(rest, left[i][1], b);
      if (further) return further;
    }
    return null;
  }
  // every end a checker on `a` can reach along the steps left of some candidate play
  function targets(a) {
    const out = new Set();
    for (const p of game.plays) {
      const left = consume(p.steps, made);
      if (!left) continue;
      const walk = (rest, at) => {
        for (let i = 0; i < rest.length; i++) {
          if (rest[i][0] !== at) continue;
          out.add(rest[i][1]);
          walk(rest.slice(0, i).concat(rest.slice(i + 1)), rest[i][1]);
        }
      };
      walk(left, a);
    }
    return out;
  }

  function myTurnToPlay() { return game && !game.result && game.to_move === "person" && game.dice; }

  function draw() {
    if (!game) { App.show({pos: null}); return; }
    const pos = local || boardPos(game);
    App.show({pos, fixedViewer: game.person,
              highlight: {selected, targets: selected ? targets(selected) : new Set()},
              onPoint});
  }

  function onPoint(v) {
    if (!myTurnToPlay()) return;
    if (selected === null) {
      if (v !== 25 && targets(v).size) { selected = v; draw(); }
      return;
    }
    if (v === selected) { selected = null; draw(); return; }
    if (!targets(selected).has(v)) return;
    made.push([selected, v]);
    const mine = game.person === "w" ? "white" : "black";
    local = local || boardPos(game);
    local = {...local, [mine]: local[mine].slice()};
    local[mine][selected - 1] -= 1;
    if (v !== 25) local[mine][v - 1] += 1;
    selected = null;
    const complete = game.plays.filter(p => { const left = consume(p.steps, made); return left && left.length === 0; });
    draw();
    if (complete.length >= 1) submit(complete[0].play, false);
  }

  function reset() { made = []; selected = null; local = null; }

  function warn(w, what) {
    $("tutor-text").textContent = `${I18n.t("tutor.says")} ${I18n.t(w.mark)} (${what}): ${I18n.t("loses")} ${w.lost_mp} mp; ${I18n.t("best.is")} ${I18n.t(w.best)}.`;
    $("tutor-warning").hidden = false;
    $("tutor-warning").dataset.best = w.best_result;
    $("tutor-warning").setAttribute("data-mark", w.mark);
  }

  async function cubeAction(path, confirm) {
    try {
      const r = await Api.post(`/games/${game.game_id}/${path}`, {confirm});
      if (!r.made && r.warning) { pending = {cube: path}; warn(r.warning, I18n.t(path === "drop" ? "pass" : path)); return; }
      $("tutor-warning").hidden = true; pending = null;
      update(r);
    } catch (e) { $("game-status").textContent = e.message; }
  }

  async function submit(play, confirm) {
    try {
      const r = await Api.post(`/games/${game.game_id}/play`, {play, confirm});
      if (!r.made && r.warning) {
        pending = play;
        const w = r.warning;
        $("tutor-text").textContent = `${I18n.t("tutor.says")} ${I18n.t(w.mark)} (${play}): ${I18n.t("loses")} ${w.lost_mp} mp; ${I18n.t("best.is")} ${w.best}.`;
        $("tutor-warning").hidden = false;
        $("tutor-warning").dataset.best = w.best_result;
        $("tutor-warning").setAttribute("data-mark", w.mark);
        return;
      }
      $("tutor-warning").hidden = true; pending = null;
      update(r);
    } catch (e) { $("game-status").textContent = e.message; reset(); draw(); }
  }

  function update(state) {
    game = state; reset(); $("hint-box").replaceChildren();
    draw();
    const status = $("game-status");
    status.setAttribute("data-game", state.game_id);
    const cubeWord = k => ({double: `${I18n.t("bot.doubles")} ${state.cube ? state.cube.offered || state.cube.value : ""}`,
                            take: I18n.t("bot.takes"), drop: I18n.t("bot.drops")})[k];
    const bot = (state.bot_plays || []).map(b => [...(b.cube || []).map(cubeWord),
      ...(b.play !== undefined ? [`${I18n.t("bot.played")} ${b.dice}: ${b.play}`] : [])].join(", ")).join("; ");
    const cube = state.cube;
    $("double").disabled = !(cube && cube.may_double);
    $("cube-state").textContent = cube ? `${I18n.t("cube.at")} ${cube.value}, ${cube.owner === "centre" ? I18n.t("centre") : I18n.t(cube.owner)}` : "";
    $("cube-offer").hidden = !(cube && cube.offered);
    if (cube && cube.offered) $("cube-offer-text").textContent = `${I18n.t("bot.doubles")} ${cube.offered}. `;
    if (state.result) {
      const who = state.result.winner ? I18n.t(state.result.winner === "w" ? "white" : "black") : I18n.t("draw");
      status.textContent = `${bot ? bot + ". " : ""}${I18n.t("game.over")}: ${who} ${state.result.winner ? I18n.t("wins") + " (" + state.result.class + ")" : ""}`;
      status.setAttribute("data-over", "1");
      $("after-game").hidden = false;
    } else {
      status.removeAttribute("data-over");
      status.textContent = `${bot ? bot + ". " : ""}${state.dice ? I18n.t("your.turn.play") : I18n.t("your.turn.roll")}`;
    }
    const list = state.plays.map((p, i) => ({n: i + 1, play: p.play, result: p.result}));
    $("game-plays").replaceChildren(list.length ? table([["n", "#"], ["play"]], list, {
      onRow: row => submit(row.play, false),
      onHover: row => App.preview(parseNotation(row.result)), onLeave: () => App.unpreview()}) : "");
    const hist = state.history.map((h, i) => ({n: i + 1, side: I18n.t(h.side === "w" ? "white" : "black"), dice: h.dice, play: h.play}));
    $("history").replaceChildren(table([["n", "#"], ["side", " "], ["dice", I18n.t("dice")], ["play"]], hist.slice(-8)));
  }

  async function newGame() {
    const m = Number($("play-match").value);
    const body = {bot: $("bot").value, side: $("side").value, tutor: $("tutor").checked,
                  thresholds: ["th1", "th2", "th3"].map(id => Number($(id).value) / 1000)};
    if (m > 0) body.match = {length: m, score: [Number($("play-score-w").value), Number($("play-score-b").value)],
                             crawford: $("play-crawford").checked};
    body.with_cube = $("with-cube").checked;
    $("after-game").hidden = true; $("review-box").replaceChildren(); $("saved").textContent = "";
    $("tutor-warning").hidden = true;
    try { update(await Api.post("/games", body)); } catch (e) { $("game-status").textContent = e.message; }
  }

  function init() {
    $("new-game").addEventListener("click", newGame);
    for (const [id, path] of [["double", "double"], ["take", "take"], ["pass", "drop"]]) {
      $(id).addEventListener("click", () => { if (game) cubeAction(path, false); });
    }
    $("roll").addEventListener("click", async () => {
      if (!game) return;
      const typed = $("typed-dice").value.trim();
      try { update(await Api.post(`/games/${game.game_id}/roll`, typed ? {dice: typed} : {})); $("typed-dice").value = ""; }
      catch (e) { $("game-status").textContent = e.message; }
    });
    $("hint").addEventListener("click", async () => {
      if (!game) return;
      try {
        const r = await Api.post(`/games/${game.game_id}/hint`);
        const rows = r.plays.map(p => ({rank: p.rank, play: p.play, equity: signed(p.equity), diff: fmt(p.diff), result: p.result}));
        $("hint-box").replaceChildren(table([["rank"], ["play"], ["equity"], ["diff"]], rows.slice(0, 5), {
          onRow: row => submit(row.play, false),
          onHover: row => App.preview(parseNotation(row.result)), onLeave: () => App.unpreview()}));
      } catch (e) { $("game-status").textContent = e.message; }
    });
    $("undo").addEventListener("click", async () => {
      if (!game) return;
      try { update(await Api.post(`/games/${game.game_id}/undo`)); } catch (e) { $("game-status").textContent = e.message; }
    });
    $("show-best").addEventListener("click", () => {
      if ($("tutor-warning").dataset.best) App.preview(parseNotation($("tutor-warning").dataset.best));
    });
    $("play-anyway").addEventListener("click", () => {
      $("tutor-warning").hidden = true;
      if (pending && pending.cube) cubeAction(pending.cube, true); else submit(pending, true);
    });
    $("take-back").addEventListener("click", () => { $("tutor-warning").hidden = true; pending = null; reset(); draw(); });
    $("review").addEventListener("click", async () => {
      try {
        const r = await Api.get(`/games/${game.game_id}/review`);
        const rows = r.plies.filter(p => !p.forced).map(p => ({turn: p.turn, dice: p.dice, played: p.played, best: p.best,
          lost: fmt(p.lost), mark: p.mark ? I18n.t({error: "bad", blunder: "very bad"}[p.mark] || p.mark) : ""}));
        const s = r.summary[0];
        const head = document.createElement("div");
        head.textContent = s ? `${s.player}: ${s.decisions} decisions, ${I18n.t("lost")} ${fmt(s.equity_lost)} (${fmt(1000 * s.error_rate, 1)} mp/decision)` : "";
        $("review-page").href = `/api/v1/games/${game.game_id}/review.html`;
        $("review-page").hidden = false;
        $("review-box").replaceChildren(head, table([["turn", "#"], ["dice", I18n.t("dice")], ["played"], ["best"], ["lost"], ["mark"]], rows));
      } catch (e) { $("review-box").textContent = e.message; }
    });
    $("save").addEventListener("click", async () => {
      try {
        const player = $("player").value.trim();
        const r = await Api.post(`/games/${game.game_id}/save`, player ? {player} : {});
        $("saved").textContent = `${I18n.t("saved.to")} ${r.saved}${r.library ? " — " + r.library.join("; ") : ""}`;
      } catch (e) { $("saved").textContent = e.message; }
    });
  }
  function activate() { draw(); }
  function relabel() { if (game) update(game); }
  return {init, activate, relabel};
})();
