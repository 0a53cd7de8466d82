// The page's controller: the WebSocket to this tab's table, the settings, move input by
// clicks and drags, the move list, clocks, engine output and replay. It knows no rules:
// the legal moves of every position come from the server.
"use strict";

const $ = (id) => document.getElementById(id);

const app = {
  ws: null,
  hello: null,
  state: null, // the table's last state message
  view: null, // index into the positions shown (null: follow the game)
  flipped: false,
  clicked: [], // tokens entered so far for the next move
  info: [null, null], // last engine report per side
  preview: null, // a position string shown instead (hover over a PV move)
  replay: null, // { games, index } while replaying a record file
  lastRecord: null, // the last saved record line
  stateAt: 0, // performance.now() when the state arrived (for the running clock)
};
window.ugine = app; // for the end-to-end tests

// ---- what is shown -----------------------------------------------------------------------

// The game on display: the replayed one, or the table's.
function shown() {
  if (app.replay) {
    const g = app.replay.games[app.replay.index];
    if (g) return { game: g.game, fens: g.fens, moves: g.moves, opening: g.opening_plies, live: false };
  }
  const s = app.state;
  if (!s) return null;
  return { game: s.game, fens: s.fens, moves: s.moves, opening: 0, live: true };
}

function viewIndex(sh) {
  const last = sh.fens.length - 1;
  return app.view === null ? last : Math.min(app.view, last);
}

// True when the person at the page may enter a move on the board now.
function canInput(sh) {
  return sh.live && viewIndex(sh) === sh.fens.length - 1 && app.state.legal.length > 0 && !app.preview;
}

function board(game) {
  return Boards[game];
}

function tokensOf(b, move, legal) {
  return b.tokens(move, legal);
}

// The legal moves still possible after the tokens clicked so far, with their tokens.
function candidates(b) {
  const legal = app.state.legal;
  return legal
    .map((m) => ({ move: m, tokens: tokensOf(b, m, legal) }))
    .filter((c) => app.clicked.every((t, i) => c.tokens[i] === t));
}

function nextTokens(b) {
  const n = app.clicked.length;
  return [...new Set(candidates(b).filter((c) => c.tokens.length > n).map((c) => c.tokens[n]))];
}

// ---- input --------------------------------------------------------------------------------

function enter(token) {
  const sh = shown();
  if (!sh || !canInput(sh)) return;
  const b = board(sh.game);
  const next = nextTokens(b);
  if (!next.includes(token)) {
    // Not a continuation: start again from this token if it begins a move, else forget.
    app.clicked = [];
    if (!nextTokens(b).includes(token)) {
      render();
      return;
    }
  }
  app.clicked.push(token);
  const done = candidates(b).filter((c) => c.tokens.length === app.clicked.length);
  if (done.length === 1) {
    send({ type: "move", mv: done[0].move });
    app.clicked = [];
    app.state.legal = []; // no second move before the table answers
  }
  render();
}

let dragFrom = null;
$("board").addEventListener("pointerdown", (e) => {
  const cell = e.target.closest("[data-cell]");
  dragFrom = cell ? cell.dataset.cell : null;
  if (dragFrom) enter(dragFrom);
});
$("board").addEventListener("pointerup", (e) => {
  const el = document.elementFromPoint(e.clientX, e.clientY);
  const cell = el && el.closest ? el.closest("[data-cell]") : null;
  if (cell && dragFrom && cell.dataset.cell !== dragFrom) enter(cell.dataset.cell);
  dragFrom = null;
});

// ---- rendering -----------------------------------------------------------------------------

function sideLabel(sh, side) {
  const b = board(sh.game);
  const who = sh.live ? app.state.players[side] : app.replay.games[app.replay.index].players[side];
  return `${b.sides[side]}: ${who === "human" ? "you" : who}`;
}

function fmtClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 100) / 10);
  const m = Math.floor(s / 60);
  const r = (s - m * 60).toFixed(s < 20 ? 1 : 0);
  return `${m}:${r.padStart(s < 20 ? 4 : 2, "0")}`;
}

function clockText(side) {
  const s = app.state;
  if (!s || !s.clocks || app.replay) return { text: "", running: false, low: false };
  let ms = s.clocks[side];
  const running = s.clock_running === side;
  if (running) ms -= performance.now() - app.stateAt;
  return { text: fmtClock(ms), running, low: ms < 10000 };
}

function renderPlayers(sh) {
  // The bottom of the picture is p1's side unless flipped.
  const bottom = app.flipped ? 1 : 0;
  [["bottom-player", bottom], ["top-player", 1 - bottom]].forEach(([id, side]) => {
    const el = $(id);
    el.querySelector(".name").textContent = sideLabel(sh, side);
    const c = clockText(side);
    const clock = el.querySelector(".clock");
    clock.textContent = c.text;
    clock.classList.toggle("running", c.running);
    clock.classList.toggle("low", c.low && c.running);
  });
}

function renderBoard(sh) {
  const b = board(sh.game);
  const svg = $("board");
  svg.replaceChildren();
  const i = viewIndex(sh);
  const input = canInput(sh);
  const next = input ? nextTokens(b) : [];
  const lastMove = i > 0 ? sh.moves[i - 1] : null;
  const ui = { flipped: app.flipped, next, lastMove, clicked: app.clicked };
  b.draw(svg, app.preview || sh.fens[i], ui);
  const lastTokens = lastMove && !app.preview ? b.tokens(lastMove, []) : [];
  const onBoard = new Set();
  svg.querySelectorAll("[data-cell]").forEach((el) => {
    const t = el.dataset.cell;
    onBoard.add(t);
    el.classList.toggle("target", next.includes(t));
    // Once a move is begun, its possible continuations stand out.
    el.classList.toggle("dest", app.clicked.length > 0 && next.includes(t));
    el.classList.toggle("selected", app.clicked.includes(t));
    el.classList.toggle("last", lastTokens.includes(t));
  });
  // Tokens with no place on the board (a promotion piece, swap, pass) become buttons.
  const choices = $("choices");
  choices.replaceChildren();
  for (const t of next.filter((t) => !onBoard.has(t))) {
    const btn = document.createElement("button");
    btn.textContent = b.label ? b.label(t) : t;
    btn.dataset.token = t;
    btn.addEventListener("click", () => enter(t));
    choices.appendChild(btn);
  }
  if (app.clicked.length) {
    const cancel = document.createElement("button");
    cancel.textContent = "Cancel";
    cancel.addEventListener("click", () => { app.clicked = []; render(); });
    choices.appendChild(cancel);
  }
}

function renderMoves(sh) {
  const ol = $("moves");
  ol.replaceChildren();
  const cur = viewIndex(sh);
  sh.moves.forEach((m, k) => {
    const li = document.createElement("li");
    li.textContent = m;
    li.dataset.ply = k + 1;
    if (k + 1 === cur) li.classList.add("current");
    if (k < sh.opening) li.classList.add("opening");
    li.addEventListener("click", () => goTo(k + 1));
    ol.appendChild(li);
  });
  const li = ol.querySelector("li.current");
  if (li) li.scrollIntoView({ block: "nearest" });
}

function resultText(sh, result) {
  const b = board(sh.game);
  if (result === "draw") return "Draw";
  return `${b.sides[result === "p1win" ? 0 : 1]} wins`;
}

function renderStatus(sh) {
  const s = app.state;
  let text;
  if (app.replay) {
    const g = app.replay.games[app.replay.index];
    text = `Replay ${g.id}: ${resultText(sh, g.result)} (${g.termination}${g.detail ? ": " + g.detail : ""})`;
  } else if (s.result) {
    text = resultText(sh, s.result) + (s.reason ? ` (${s.reason})` : "");
  } else {
    const side = s.side === "p1" ? 0 : 1;
    text = `${board(sh.game).sides[side]} to move` + (s.thinking !== null ? " (thinking…)" : "");
  }
  $("status").textContent = text;
  $("error").hidden = !(s && s.error) || !!app.replay;
  if (s && s.error) $("error").querySelector("span").textContent = s.error;
  const live = !app.replay;
  $("undo").disabled = !live || !s.can_undo;
  $("resign").disabled = !live || !!s.result || !s.humans.some((h) => h);
  $("save").disabled = !live || !s.result;
  $("backtoplay").hidden = !app.replay;
  $("fen").value = app.preview || sh.fens[viewIndex(sh)];
}

function scoreText(b, score) {
  if (!score) return "";
  if (score.mate !== undefined) return score.mate > 0 ? `wins in ${score.mate}` : `loses in ${-score.mate}`;
  return b.score(score.cp);
}

function renderInfo(sh) {
  const b = board(sh.game);
  [0, 1].forEach((side) => {
    const el = $(`info${side}`);
    const inf = app.replay ? null : app.info[side];
    el.replaceChildren();
    if (!inf) return;
    const head = document.createElement("div");
    const parts = [`${b.sides[side]}`];
    if (inf.depth !== null) parts.push(`depth ${inf.depth}${inf.seldepth ? "/" + inf.seldepth : ""}`);
    if (inf.score) parts.push(`score ${scoreText(b, inf.score)} for the side to move`);
    if (inf.nodes !== null) parts.push(`${inf.nodes} nodes`);
    if (inf.nps) parts.push(`${inf.nps} nps`);
    head.textContent = parts.join(" · ");
    el.appendChild(head);
    const pv = document.createElement("div");
    pv.className = "pv";
    pv.textContent = "pv ";
    inf.pv.forEach((m, k) => {
      const span = document.createElement("span");
      span.textContent = m;
      span.addEventListener("mouseenter", () => { app.preview = inf.pv_fens[k] || null; render(); });
      span.addEventListener("mouseleave", () => { app.preview = null; render(); });
      pv.appendChild(span);
    });
    el.appendChild(pv);
  });
}

function render() {
  const sh = shown();
  if (!sh) return;
  renderBoard(sh);
  renderPlayers(sh);
  renderMoves(sh);
  renderStatus(sh);
  renderInfo(sh);
}

// ---- navigation ------------------------------------------------------------------------------

function goTo(i) {
  const sh = shown();
  if (!sh) return;
  const last = sh.fens.length - 1;
  const j = Math.max(0, Math.min(i, last));
  app.view = j === last && sh.live ? null : j;
  app.clicked = [];
  render();
}
$("first").onclick = () => goTo(0);
$("prev").onclick = () => { const sh = shown(); goTo(viewIndex(sh) - 1); };
$("next").onclick = () => { const sh = shown(); goTo(viewIndex(sh) + 1); };
$("last").onclick = () => goTo(Infinity);
$("flip").onclick = () => { app.flipped = !app.flipped; render(); };

// ---- settings and commands ---------------------------------------------------------------

function send(msg) {
  app.ws.send(JSON.stringify(msg));
}

function buildOptions() {
  const span = $("opts");
  span.replaceChildren();
  const g = app.hello.games.find((x) => x.name === $("game").value);
  for (const o of g.options) {
    const label = document.createElement("label");
    label.textContent = o.name.replace(/^\S+ /, "") + " ";
    let input;
    if (o.kind === "combo") {
      input = document.createElement("select");
      for (const v of o.vars) input.add(new Option(v, v, v === o.default, v === o.default));
    } else if (o.kind === "check") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = o.default === "true";
    } else {
      input = document.createElement("input");
      input.type = o.kind === "spin" ? "number" : "text";
      input.value = o.default;
      if (o.kind === "spin") { input.min = o.min; input.max = o.max; input.style.width = "5em"; }
    }
    input.dataset.option = o.name;
    label.appendChild(input);
    span.appendChild(label);
  }
}

function optionValues() {
  return [...$("opts").querySelectorAll("[data-option]")].map((el) => [
    el.dataset.option,
    el.type === "checkbox" ? String(el.checked) : String(el.value),
  ]);
}

function playerChoice(id) {
  const v = $(id).value;
  return v === "human" ? "human" : { engine: v };
}

function timeChoice() {
  if ($("timemode").value === "clock") {
    return { clock: { base_ms: Math.round(Number($("base").value) * 60000), inc_ms: Math.round(Number($("inc").value) * 1000) } };
  }
  return { movetime: { ms: Math.round(Number($("movetime").value) * 1000) } };
}

function newGame(fen) {
  app.replay = null;
  app.view = null;
  app.clicked = [];
  app.info = [null, null];
  app.preview = null;
  send({ type: "new", game: $("game").value, options: optionValues(), fen: fen || null,
    players: [playerChoice("p1"), playerChoice("p2")], time: timeChoice() });
}

$("game").onchange = buildOptions;
$("timemode").onchange = () => {
  const clock = $("timemode").value === "clock";
  $("clock-box").hidden = !clock;
  $("movetime-box").hidden = clock;
};
$("newgame").onclick = () => newGame(null);
$("setfen").onclick = () => newGame($("fen").value.trim());
$("undo").onclick = () => { app.view = null; app.clicked = []; send({ type: "undo" }); };
$("resign").onclick = () => send({ type: "resign" });
$("restart").onclick = () => send({ type: "restart" });
$("save").onclick = () => send({ type: "save" });
$("copyfen").onclick = () => {
  const box = $("fen");
  box.select();
  if (navigator.clipboard) navigator.clipboard.writeText(box.value).catch(() => document.execCommand("copy"));
  else document.execCommand("copy");
};
$("recordfile").onchange = async () => {
  const f = $("recordfile").files[0];
  if (f) send({ type: "replay", text: await f.text() });
};
$("replaygame").onchange = () => {
  app.replay.index = Number($("replaygame").value);
  app.view = 0;
  render();
};
$("backtoplay").onclick = () => { app.replay = null; app.view = null; $("replayinfo").textContent = ""; render(); };

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  a.click();
  URL.revokeObjectURL(a.href);
}

// ---- messages from the table ---------------------------------------------------------------

function onHello(h) {
  app.hello = h;
  const game = $("game");
  // Only the games whose board this page draws.
  h.games = h.games.filter((g) => Boards[g.name]);
  game.replaceChildren(...h.games.map((g) => new Option(g.name, g.name)));
  for (const id of ["p1", "p2"]) {
    const sel = $(id);
    sel.replaceChildren(new Option("human", "human"), ...h.engines.map((e) => new Option(e, e)));
  }
  $("p2").value = h.engines[0];
  buildOptions();
  newGame(null);
}

function onState(s) {
  const before = app.state;
  if (before && (before.moves.length !== s.moves.length || before.game !== s.game)) app.clicked = [];
  if (before && s.moves.length < before.moves.length) app.info = [null, null];
  app.state = s;
  app.stateAt = performance.now();
  render();
}

function onReplay(r) {
  const sel = $("replaygame");
  sel.replaceChildren(...r.games.map((g, k) =>
    new Option(`${g.id} ${g.game}: ${g.players[0]} – ${g.players[1]}, ${g.result}`, k)));
  $("replayinfo").textContent = `${r.games.length} games` + (r.errors.length ? `; skipped: ${r.errors.join("; ")}` : "");
  if (r.games.length) {
    app.replay = { games: r.games, index: 0 };
    app.view = 0;
    app.clicked = [];
  }
  render();
}

function connect() {
  const ws = new WebSocket(`ws://${location.host}/ws`);
  app.ws = ws;
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    switch (m.type) {
      case "hello": onHello(m); break;
      case "state": onState(m); break;
      case "info": app.info[m.side] = m; if (!app.preview) renderInfo(shown()); break;
      case "replay": onReplay(m); break;
      case "record": app.lastRecord = m.text; download("ugine-gui.records", m.text); break;
      case "error": $("status").textContent = m.message; break;
    }
  };
  ws.onclose = () => { $("status").textContent = "The server has gone: reload the page."; };
}

setInterval(() => { const sh = shown(); if (sh) renderPlayers(sh); }, 200);
connect();
