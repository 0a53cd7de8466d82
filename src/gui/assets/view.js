// Drawing the page from the app's state: the board (legal targets as dots and rings,
// the last move, a king in check, the dragged piece, the zoom), the players and clocks,
// the result banner, the move list and the engine output. It knows no rules: all of it
// comes from the server's messages.
"use strict";

const $ = (id) => document.getElementById(id);

// The game on display: the replayed one, or the table's.
function shown() {
  if (app.replay) {
    const g = app.replay.games[app.replay.index];
    if (g) return { game: g.game, fens: g.fens, moves: g.moves, movers: g.movers, opening: g.opening_plies, live: false };
  }
  const s = app.state;
  if (!s) return null;
  return { game: s.game, fens: s.fens, moves: s.moves, movers: s.movers, opening: 0, live: true };
}

function viewIndex(sh) {
  const last = sh.fens.length - 1;
  return app.view === null ? last : Math.min(app.view, last);
}

// True when the person at the page may enter a move on the board now.
function canInput(sh) {
  return app.connected && sh.live && viewIndex(sh) === sh.fens.length - 1 && app.state.legal.length > 0 && !app.preview;
}

function board(game) {
  return Boards[game];
}

// The game's names of its two sides (White/Black, Red/Blue, …), from the server.
function sidesOf(game) {
  const g = app.hello && app.hello.games.find((x) => x.name === game);
  return g ? g.sides : ["Player 1", "Player 2"];
}

// ---- the board -----------------------------------------------------------------------------

// Marks a place that can be clicked next: a dot on an empty place, a ring round a piece.
function markTarget(svg, el, cell) {
  if (el.classList.contains("line-choice")) return;
  const r = el.getBBox();
  const size = Math.min(r.width, r.height);
  const occupied = svg.querySelector(`[data-piece="${CSS.escape(cell)}"]`);
  const attrs = { cx: r.x + r.width / 2, cy: r.y + r.height / 2 };
  if (occupied) svgEl("circle", { ...attrs, r: size * 0.44, class: "hint-ring" }, svg);
  else svgEl("circle", { ...attrs, r: Math.max(4, size * 0.17), class: "hint-dot" }, svg);
}

// The piece being dragged follows the pointer (drawn again on top, moved by the drag).
function liftPiece(svg) {
  const d = app.drag;
  if (!d || !d.moved) return;
  const piece = svg.querySelector(`[data-piece="${CSS.escape(d.cell)}"]`);
  if (!piece || !app.clicked.includes(d.cell)) return;
  const ghost = piece.cloneNode(true);
  ghost.removeAttribute("data-piece");
  ghost.classList.add("dragged");
  piece.classList.add("lifted");
  svg.appendChild(ghost);
  d.ghost = ghost;
  moveLifted();
}

function moveLifted() {
  const d = app.drag;
  if (!d || !d.ghost) return;
  const m = $("board").getScreenCTM();
  if (m) d.ghost.setAttribute("transform", `translate(${d.dx / m.a} ${d.dy / m.d})`);
}

// ---- the board on a phone: places a finger can hit -----------------------------------------

// True on a touch screen (a phone, a tablet).
function touchScreen() {
  return window.matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;
}

// The board's whole picture (its viewBox as drawn) and its smallest place, in its units.
function measurePlaces(svg) {
  const [x, y, w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
  app.fullBox = { x, y, w, h };
  let min = Infinity;
  for (const el of svg.querySelectorAll("[data-cell]:not(.line-choice)")) {
    const r = el.getBBox();
    min = Math.min(min, r.width, r.height);
  }
  app.placeUnits = min;
}

// The middle of the places of `tokens` on the board, in its units (null: none drawn).
function placesCentre(tokens) {
  const svg = $("board");
  const boxes = tokens.map((t) => svg.querySelector(`[data-cell="${CSS.escape(t)}"]`)).filter((e) => e).map((e) => e.getBBox());
  if (!boxes.length) return null;
  const x0 = Math.min(...boxes.map((b) => b.x)), x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y0 = Math.min(...boxes.map((b) => b.y)), y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: (x0 + x1) / 2, y: (y0 + y1) / 2, x0, x1, y0, y1 };
}

// The window of the board a finger sees, around app.zoom's centre, kept on the board.
function zoomWindow(z, vw, vh) {
  const f = app.fullBox;
  const x = Math.max(f.x, Math.min(f.x + f.w - vw, z.cx - vw / 2));
  const y = Math.max(f.y, Math.min(f.y + f.h - vh, z.cy - vh / 2));
  return { x, y, w: vw, h: vh };
}

// The position shown, as far as the finger's window is concerned.
function aimKey() {
  const sh = shown();
  return sh ? `${sh.game} ${sh.fens[0]} ${viewIndex(sh)} ${sh.fens.length}` : "";
}

// Where the finger's window looks when the position shown changes: the last move stays
// in view (the window moves to it when it is not), and when the person is to move and no
// place to play is in view, the window moves to the nearest one.
function aimZoom(z, vw, vh) {
  const sh = shown();
  if (!sh) return;
  const i = viewIndex(sh);
  const key = aimKey();
  if (z.aimed === key) return;
  z.aimed = key;
  const b = board(sh.game);
  const inside = (c, w) => c.x0 >= w.x && c.x1 <= w.x + w.w && c.y0 >= w.y && c.y1 <= w.y + w.h;
  const last = i > 0 ? placesCentre(b.tokens(sh.moves[i - 1], [])) : null;
  if (last && !inside(last, zoomWindow(z, vw, vh))) Object.assign(z, { cx: last.x, cy: last.y });
  const targets = [...$("board").querySelectorAll("[data-cell].target:not(.line-choice)")].map((e) => placesCentre([e.dataset.cell]));
  if (!targets.length || targets.some((t) => inside(t, zoomWindow(z, vw, vh)))) return;
  const near = targets.reduce((a, t) => (Math.hypot(t.x - z.cx, t.y - z.cy) < Math.hypot(a.x - z.cx, a.y - z.cy) ? t : a));
  Object.assign(z, { cx: near.x, cy: near.y });
}

function renderBoard(sh) {
  const b = board(sh.game);
  const svg = $("board");
  if (svg.contains(document.activeElement)) app.boardFocus = document.activeElement.dataset.cell;
  svg.replaceChildren();
  const i = viewIndex(sh);
  const input = canInput(sh);
  const next = input ? nextTokens(b) : [];
  const lastMove = i > 0 ? sh.moves[i - 1] : null;
  const ui = { flipped: app.flipped, next, lastMove, clicked: app.clicked };
  b.draw(svg, app.preview || sh.fens[i], ui);
  const lastTokens = lastMove && !app.preview ? b.tokens(lastMove, []) : [];
  const check = sh.live && i === sh.fens.length - 1 && !app.preview ? app.state.check : [];
  const onBoard = new Set();
  svg.querySelectorAll("[data-cell]").forEach((el) => {
    const t = el.dataset.cell;
    onBoard.add(t);
    const target = next.includes(t);
    el.classList.toggle("target", target);
    // Once a move is begun, its possible continuations stand out.
    el.classList.toggle("dest", app.clicked.length > 0 && target);
    el.classList.toggle("selected", app.clicked.includes(t));
    el.classList.toggle("last", lastTokens.includes(t));
    el.classList.toggle("check", check.includes(t));
    if (target) {
      // Reachable with Tab, entered with Enter or Space.
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", b.label ? b.label(t) : t);
      markTarget(svg, el, t);
    }
  });
  measurePlaces(svg);
  liftPiece(svg);
  // A keyboard player's focus stays on the board, through the redraws and the moves.
  if (app.boardFocus !== null) {
    const again = svg.querySelector(`[data-cell="${CSS.escape(app.boardFocus)}"][tabindex]`) || svg.querySelector("[tabindex]");
    if (again) again.focus();
  }
  // Tokens with no place on the board (a promotion piece, swap, pass) become buttons; so
  // do the lines to choose from (Morpiae) for a finger.
  const choices = $("choices");
  choices.replaceChildren();
  const lines = touchScreen() ? [...svg.querySelectorAll(".line-choice.target")].map((e) => e.dataset.cell) : [];
  for (const t of next.filter((t) => !onBoard.has(t) || lines.includes(t))) {
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

// Sizes the board to the window: the board, both players' bars and the controls fit
// without scrolling, the board as large as its shape allows. On a touch screen, where the
// places would be smaller than a finger (FINGER_PX), the board is shown magnified so
// that they are ZOOM_PX, in a window as large as the screen allows, and moves under the
// finger (a swipe) or by itself to the last move; **Zoom out** shows the whole board.
function fitBoard() {
  const svg = $("board");
  if (!app.fullBox || !app.fullBox.w) return;
  const f = app.fullBox;
  const left = $("left");
  const narrow = window.innerWidth < 700;
  // The room for the board: the window less the header, the players' bars, the buttons.
  const room = () => {
    const around = ["top-player", "bottom-player", "choices", "controls"].reduce((h, id) => h + $(id).offsetHeight, 0);
    const top = document.querySelector("header").offsetHeight;
    return [narrow ? window.innerWidth - 8 : window.innerWidth - 420, window.innerHeight - top - around - (narrow ? 10 : 26)];
  };
  // Whether the places are too small is decided with the zoom button in place, as it is
  // whenever they are: measured without it, the room could grow by the button's line,
  // and the next render would take back the zoom (and the button) it had just given.
  const zoomButton = $("zoomout");
  const magnify = !app.overview;
  zoomButton.textContent = magnify ? "⊖" : "⊕";
  zoomButton.title = magnify ? "Zoom out: the whole board" : "Zoom in: places a finger can hit";
  zoomButton.setAttribute("aria-label", magnify ? "Zoom out" : "Zoom in");
  const touch = touchScreen();
  zoomButton.hidden = !touch;
  let [maxW, maxH] = room();
  const small = touch && Math.min(maxW / f.w, maxH / f.h) * app.placeUnits < FINGER_PX;
  zoomButton.hidden = !small;
  const zoomed = small && magnify;
  [maxW, maxH] = room();
  const fit = Math.min(maxW / f.w, maxH / f.h);
  let w, h;
  if (zoomed) {
    const scale = ZOOM_PX / app.placeUnits;
    if (!app.zoom) app.zoom = { cx: f.x + f.w / 2, cy: f.y + f.h / 2 };
    app.zoom.scale = scale;
    w = Math.floor(Math.min(maxW, f.w * scale));
    h = Math.floor(Math.min(maxH, f.h * scale));
    aimZoom(app.zoom, w / scale, h / scale);
    const z = zoomWindow(app.zoom, w / scale, h / scale);
    Object.assign(app.zoom, { cx: z.x + z.w / 2, cy: z.y + z.h / 2 });
    svg.setAttribute("viewBox", `${z.x} ${z.y} ${z.w} ${z.h}`);
  } else {
    app.zoom = null;
    w = Math.floor(f.w * fit);
    h = Math.floor(f.h * fit);
    svg.setAttribute("viewBox", `${f.x} ${f.y} ${f.w} ${f.h}`);
  }
  svg.classList.toggle("zoomed", zoomed);
  svg.style.width = `${w}px`;
  svg.style.height = `${h}px`;
  left.style.width = `${Math.max(w, narrow ? 0 : 320)}px`;
}

// ---- players, banner, status ---------------------------------------------------------------

function playerName(sh, side) {
  const who = sh.live ? app.state.players[side] : app.replay.games[app.replay.index].players[side];
  return `${sidesOf(sh.game)[side]}: ${who === "human" ? "you" : who}`;
}

// A clock: tenths of a second under 20 s, else whole seconds (rounded up, as they run).
function fmtClock(ms) {
  const tenths = Math.max(0, Math.ceil(ms / 100));
  if (tenths < 200) return `0:${(tenths / 10).toFixed(1).padStart(4, "0")}`;
  const s = Math.ceil(tenths / 10);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function clockText(side) {
  const s = app.state;
  if (app.replay) {
    // A watched game in progress has the match's clocks.
    const c = app.replay.watch ? watchedClock(app.replay.games[app.replay.index], side) : null;
    if (!c) return { text: "", running: false, low: false };
    return { text: fmtClock(c.ms), running: c.running, low: c.ms < 10000 };
  }
  if (!s || !s.clocks) return { text: "", running: false, low: false };
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
    el.querySelector(".name").textContent = playerName(sh, side);
    const c = clockText(side);
    const clock = el.querySelector(".clock");
    clock.textContent = c.text;
    clock.classList.toggle("running", c.running);
    clock.classList.toggle("low", c.low && c.running);
  });
}

function resultText(game, result) {
  if (result === "draw") return "Draw";
  return `${sidesOf(game)[result === "p1win" ? 0 : 1]} wins`;
}

// The result of the game shown and why it ended: the table's reason, or the record's.
function ending(sh) {
  if (app.replay) {
    const g = app.replay.games[app.replay.index];
    if (g.live) return null; // in progress
    const reason = g.detail || (g.termination === "normal" ? "" : g.termination.replace("-", " "));
    return { key: `replay ${g.id} ${g.players.join(" ")} ${g.moves.length}`, result: g.result, reason };
  }
  const s = app.state;
  if (!s.result) return null;
  return { key: `${s.game} ${s.fens[0]} ${s.moves.join(" ")}`, result: s.result, reason: s.reason || "" };
}

function renderBanner(sh) {
  const e = ending(sh);
  const banner = $("banner");
  // Over the last position only: stepping through the game shows the board.
  banner.hidden = !e || app.bannerClosed === e.key || viewIndex(sh) !== sh.fens.length - 1;
  if (!e) return;
  $("banner-title").textContent = resultText(sh.game, e.result);
  $("banner-reason").textContent = e.reason;
  banner.dataset.key = e.key;
}

function renderStatus(sh) {
  const s = app.state;
  let text;
  if (!app.connected) {
    text = "Disconnected from the server: reconnecting…";
  } else if (app.replay) {
    const g = app.replay.games[app.replay.index];
    if (g.live) {
      const side = g.to_move === "p2" ? 1 : 0;
      text = `Game ${g.number} of ${g.total} in progress: ${sidesOf(sh.game)[side]} (${g.players[side]}) to move`;
    } else {
      text = `${app.replay.watch ? "Game" : "Replay of game"} ${g.id}: ${resultText(sh.game, g.result)}`;
    }
  } else if (s.result) {
    text = resultText(sh.game, s.result) + (s.reason ? ` (${s.reason})` : "");
  } else {
    const side = s.side === "p1" ? 0 : 1;
    text = `${sidesOf(sh.game)[side]} to move` + (s.thinking !== null ? " (thinking…)" : "");
  }
  $("status").textContent = text;
  $("error").hidden = !(s && s.error) || !!app.replay;
  if (s && s.error) $("error").querySelector("span").textContent = s.error;
  const on = app.connected;
  const live = !app.replay;
  $("undo").disabled = !on || !live || !s.can_undo;
  $("resign").disabled = !on || !live || !!s.result || !s.humans.some((h) => h);
  $("save").disabled = !on || !live || !s.result;
  for (const id of ["newgame", "setfen", "restart", "movetext", "play", "recordfile", "analyse"]) $(id).disabled = !on;
  $("backtoplay").hidden = !app.replay;
  $("fen").value = app.preview || sh.fens[viewIndex(sh)];
}

// ---- move list and engine output -----------------------------------------------------------

// The moves in numbered rows: player 1's move then player 2's, side by side (a row
// starts again when a side moves twice running).
function moveRows(sh) {
  const rows = [];
  sh.moves.forEach((m, k) => {
    const side = sh.movers ? sh.movers[k] : k % 2;
    const row = rows[rows.length - 1];
    if (side === 1 && row && row.plies[1] === null) row.plies[1] = k;
    else rows.push({ plies: side === 0 ? [k, null] : [null, k] });
  });
  return rows;
}

function renderMoves(sh) {
  const list = $("moves");
  list.replaceChildren();
  const cur = viewIndex(sh);
  moveRows(sh).forEach((row, n) => {
    const el = document.createElement("div");
    el.className = "row";
    el.setAttribute("role", "listitem");
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = `${n + 1}.`;
    el.appendChild(num);
    for (const k of row.plies) {
      const cell = document.createElement("span");
      if (k !== null) {
        cell.className = "move";
        cell.textContent = sh.moves[k];
        cell.dataset.ply = k + 1;
        if (k + 1 === cur) cell.classList.add("current");
        if (k < sh.opening) cell.classList.add("opening");
        cell.addEventListener("click", () => goTo(k + 1));
      }
      el.appendChild(cell);
    }
    list.appendChild(el);
  });
  // The current move in view, inside the list only (the page does not move).
  const current = list.querySelector(".current");
  const row = current ? current.parentElement : list.lastElementChild;
  if (row) {
    if (row.offsetTop < list.scrollTop) list.scrollTop = row.offsetTop;
    else if (row.offsetTop + row.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = row.offsetTop + row.offsetHeight - list.clientHeight;
    }
  }
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
    const parts = [`${sidesOf(sh.game)[side]}`];
    if (inf.depth !== null) parts.push(`depth ${inf.depth}${inf.seldepth ? "/" + inf.seldepth : ""}`);
    if (inf.score) parts.push(`score ${scoreText(b, inf.score)} for the side to move`);
    if (inf.nodes !== null) parts.push(`${inf.nodes} nodes`);
    if (inf.nps) parts.push(`${inf.nps} nps`);
    head.textContent = parts.join(" · ");
    el.appendChild(head);
    if (inf.pv.length) {
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
    }
    if (inf.note) {
      const note = document.createElement("div");
      note.className = "note-line";
      note.textContent = inf.note;
      el.appendChild(note);
    }
  });
}

function render() {
  const sh = shown();
  if (!sh) return;
  renderPlayers(sh);
  renderStatus(sh);
  renderBoard(sh);
  renderBanner(sh);
  renderMoves(sh);
  renderInfo(sh);
  requestAnalysis(sh);
  drawAnalysis(sh);
  renderAnalysisText(sh);
  renderGraph(sh);
  fitBoard();
}
