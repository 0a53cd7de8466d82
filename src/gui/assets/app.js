// The page's controller: the WebSocket to this tab's table (reconnecting when it drops),
// the settings, navigation, replay and the messages of the server. It knows no rules:
// the legal moves of every position come from the server.
"use strict";

const app = {
  ws: null,
  connected: false,
  retry: 500, // ms before the next reconnection attempt
  hello: null,
  state: null, // the table's last state message
  view: null, // index into the positions shown (null: follow the game)
  flipped: false,
  clicked: [], // tokens entered so far for the next move
  boardFocus: null, // the place the keyboard focus was on, while it is on the board
  drag: null, // the pointer pressed on the board: { cell, x, y, dx, dy, moved, ghost }
  zoom: null, // the board magnified for a finger: { cx, cy (the window's middle), scale, aimed }
  overview: false, // the whole board on a touch screen (Zoom out)
  pan: null, // a finger moving the magnified board: { x, y, cx, cy, moved, cell }
  fullBox: null, // the board's whole picture: { x, y, w, h }
  placeUnits: 0, // its smallest place, in the picture's units
  info: [null, null], // last engine report per side, with its last note (`info string`)
  preview: null, // a position string shown instead (hover over a PV move)
  replay: null, // { games, index } while replaying a record file
  bannerClosed: null, // the key of the result banner the person closed
  lastRecord: null, // the last saved record line
  stateAt: 0, // performance.now() when the state arrived (for the running clock)
};
window.ugine = app; // for the end-to-end tests

// A message for the person (an error, a refusal) until the next change.
function notice(text) {
  $("notice").textContent = text;
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
$("prev").onclick = () => step(-1);
$("next").onclick = () => step(1);
$("last").onclick = () => goTo(Infinity);
$("flip").onclick = () => { app.flipped = !app.flipped; render(); };
$("banner-close").onclick = () => { app.bannerClosed = $("banner").dataset.key; render(); };

// ---- settings and commands ---------------------------------------------------------------

function send(msg) {
  if (app.ws && app.connected) app.ws.send(JSON.stringify(msg));
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

// The time setting in milliseconds, as typed (the server checks the range).
function timeChoice() {
  const ms = (id, unit) => Number($(id).value) * unit;
  if ($("timemode").value === "clock") return { clock: { base_ms: ms("base", 60000), inc_ms: ms("inc", 1000) } };
  return { movetime: { ms: ms("movetime", 1000) } };
}

function newGame(fen) {
  const time = timeChoice();
  if (!Object.values(Object.values(time)[0]).every(Number.isFinite)) {
    notice("The time must be a number.");
    return;
  }
  app.replay = null;
  app.view = null;
  app.clicked = [];
  app.zoom = null;
  app.overview = false;
  app.info = [null, null];
  app.preview = null;
  analysis.asked = null;
  clearEvals();
  send({ type: "new", game: $("game").value, options: optionValues(), fen: fen || null,
    players: [playerChoice("p1"), playerChoice("p2")], time });
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
  if (!f) return;
  const r = await fetch("/replay", { method: "POST", body: await f.text() }).catch(() => null);
  if (!r || !r.ok) {
    notice(r && r.status === 413 ? "The record file is too large to replay." : "The record file could not be sent to the server.");
    return;
  }
  onReplay(await r.json());
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
  const again = app.hello !== null;
  app.hello = h;
  const game = $("game");
  const chosen = [game.value, $("p1").value, $("p2").value];
  // Only the games whose board this page draws.
  h.games = h.games.filter((g) => Boards[g.name]);
  game.replaceChildren(...h.games.map((g) => new Option(g.name, g.name)));
  for (const id of ["p1", "p2"]) {
    const sel = $(id);
    sel.replaceChildren(new Option("human", "human"), ...h.engines.map((e) => new Option(e, e)));
  }
  $("analyst").replaceChildren(...h.engines.map((e) => new Option(e, e)));
  $("p2").value = h.engines[0];
  if (again) {
    // After a reconnection: the settings as they were.
    ["game", "p1", "p2"].forEach((id, k) => { if ([...$(id).options].some((o) => o.value === chosen[k])) $(id).value = chosen[k]; });
  }
  buildOptions();
  newGame(null);
  if (again) notice("Reconnected to the server: a new game has started.");
}

function onState(s) {
  const before = app.state;
  if (before && (before.moves.length !== s.moves.length || before.game !== s.game)) {
    app.clicked = [];
    notice("");
  }
  if (before && s.moves.length < before.moves.length) app.info = [null, null];
  app.state = s;
  app.stateAt = performance.now();
  render();
}

// An engine report; a note alone (`info string …`, such as "solved: win in 9") is kept
// beside the last search report instead of replacing it.
function onInfo(m) {
  const before = app.info[m.side];
  const noteOnly = m.text !== null && m.depth === null && m.score === null && m.pv.length === 0;
  if (noteOnly) {
    const blank = { depth: null, seldepth: null, score: null, nodes: null, nps: null, pv: [], pv_fens: [] };
    app.info[m.side] = { ...(before || blank), note: m.text };
  } else {
    app.info[m.side] = { ...m, note: before ? before.note : null };
    const sh = shown();
    if (sh && sh.live) noteEval(sh, app.state.fens.length - 1, m);
  }
  if (!app.preview) renderInfo(shown());
}

function onReplay(r) {
  const sel = $("replaygame");
  sel.replaceChildren(...r.games.map((g, k) =>
    new Option(`${g.id} ${g.game}: ${g.players[0]} – ${g.players[1]}, ${resultText(g.game, g.result)}`, k)));
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
  ws.onopen = () => { app.connected = true; app.retry = 500; analysis.asked = null; render(); };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    switch (m.type) {
      case "hello": onHello(m); break;
      case "state": onState(m); break;
      case "info": onInfo(m); break;
      case "analysis": onAnalysis(m); break;
      case "record": app.lastRecord = m.text; download("ugine-gui.records", m.text); break;
      case "error": notice(m.message); break;
    }
  };
  ws.onclose = (ev) => {
    if (app.ws !== ws) return;
    app.connected = false;
    app.drag = null;
    notice(ev.code === 1009 ? `The server refused a message: ${ev.reason}.` : "");
    render();
    setTimeout(connect, app.retry);
    app.retry = Math.min(5000, app.retry * 2);
  };
}

// The focus leaves the board for another control: the board stops taking it back.
document.addEventListener("focusin", (e) => { if (!$("board").contains(e.target)) app.boardFocus = null; });
window.addEventListener("resize", () => fitBoard());
setInterval(() => { const sh = shown(); if (sh) renderPlayers(sh); }, 200);
if (window.matchMedia("(max-width: 700px)").matches) $("settings").open = false;
$("settings").addEventListener("toggle", () => fitBoard());
connect();
