// Entering moves: clicks and drags on the board (a release counts as a drag only when
// the pointer moved), on a touch screen a magnified board moved by swiping,
// the keyboard (Tab to the places, Enter or Space; ← → Home End through the game) and a
// move typed in the game's notation. Only the server judges a move.
"use strict";

// How far (CSS px) the pointer must move while pressed before a release is a drag.
const DRAG_PX = 6;
// The smallest place a finger is given (CSS px); where places would be smaller, the
// board is shown magnified so that they are ZOOM_PX.
const FINGER_PX = 40;
const ZOOM_PX = 44;

// The legal moves still possible after the tokens clicked so far, with their tokens.
function candidates(b) {
  const legal = app.state.legal;
  return legal
    .map((m) => ({ move: m, tokens: b.tokens(m, legal) }))
    .filter((c) => app.clicked.every((t, i) => c.tokens[i] === t));
}

function nextTokens(b) {
  const n = app.clicked.length;
  return [...new Set(candidates(b).filter((c) => c.tokens.length > n).map((c) => c.tokens[n]))];
}

function sendMove(mv) {
  send({ type: "move", mv });
  app.clicked = [];
  app.state.legal = []; // no second move before the table answers
}

function enter(token) {
  const sh = shown();
  if (!sh || !canInput(sh)) return;
  const b = board(sh.game);
  if (!nextTokens(b).includes(token)) {
    // Not a continuation: start again from this token if it begins a move, else forget.
    app.clicked = [];
    if (!nextTokens(b).includes(token)) {
      render();
      return;
    }
  }
  app.clicked.push(token);
  const done = candidates(b).filter((c) => c.tokens.length === app.clicked.length);
  if (done.length === 1) sendMove(done[0].move);
  render();
}

// ---- pointer ------------------------------------------------------------------------------

// The on-screen size of the smallest place of the board.
function smallestPlace() {
  let min = Infinity;
  for (const el of $("board").querySelectorAll("[data-cell]:not(.line-choice)")) {
    const r = el.getBoundingClientRect();
    min = Math.min(min, r.width, r.height);
  }
  return min;
}

// The whole board on a touch screen (after **Zoom out**): a tap magnifies it around the
// finger again.
function zoomIn(e) {
  if (e.pointerType !== "touch" || !app.overview || !$("zoomout").offsetParent) return false;
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform($("board").getScreenCTM().inverse());
  app.overview = false;
  app.zoom = { cx: p.x, cy: p.y, aimed: aimKey() };
  render();
  return true;
}

// A finger (or the mouse) pressed on the magnified board off the places that can be
// played moves it: the window follows the finger.
function startPan(e, cell) {
  if (!app.zoom || (cell && cell.classList.contains("target"))) return false;
  app.pan = { x: e.clientX, y: e.clientY, cx: app.zoom.cx, cy: app.zoom.cy, moved: false, cell: cell ? cell.dataset.cell : null };
  $("board").setPointerCapture(e.pointerId);
  return true;
}

$("board").addEventListener("pointerdown", (e) => {
  if (e.button !== 0 || zoomIn(e)) return;
  const cell = e.target.closest("[data-cell]");
  if (startPan(e, cell)) return;
  if (!cell) return;
  app.drag = { cell: cell.dataset.cell, x: e.clientX, y: e.clientY, dx: 0, dy: 0, moved: false, ghost: null };
  $("board").setPointerCapture(e.pointerId);
  enter(cell.dataset.cell);
});
$("board").addEventListener("pointermove", (e) => {
  const p = app.pan;
  if (p && app.zoom) {
    const dx = e.clientX - p.x, dy = e.clientY - p.y;
    if (!p.moved && Math.hypot(dx, dy) < DRAG_PX) return;
    p.moved = true;
    app.zoom.cx = p.cx - dx / app.zoom.scale;
    app.zoom.cy = p.cy - dy / app.zoom.scale;
    fitBoard();
    return;
  }
  const d = app.drag;
  if (!d) return;
  d.dx = e.clientX - d.x;
  d.dy = e.clientY - d.y;
  if (!d.moved && Math.hypot(d.dx, d.dy) >= DRAG_PX) {
    d.moved = true;
    liftPiece($("board"));
  }
  moveLifted();
});
$("board").addEventListener("pointerup", (e) => {
  const p = app.pan;
  app.pan = null;
  // A tap off the places that can be played: as a click there (forgets a half move).
  if (p) return p.moved ? undefined : p.cell === null ? render() : enter(p.cell);
  const d = app.drag;
  app.drag = null;
  if (!d) return;
  if (d.ghost) d.ghost.remove();
  // A release where it was pressed is a click (already entered), not a drag onto
  // whatever the click drew under the pointer.
  if (!d.moved) return render();
  const el = document.elementFromPoint(e.clientX, e.clientY);
  const cell = el && el.closest ? el.closest("[data-cell]") : null;
  if (cell && cell.dataset.cell !== d.cell) enter(cell.dataset.cell);
  else render();
});
$("board").addEventListener("pointercancel", () => { app.drag = null; app.pan = null; render(); });
$("zoomout").onclick = () => {
  app.overview = !!app.zoom;
  render();
};

// ---- keyboard ------------------------------------------------------------------------------

function step(delta) {
  const sh = shown();
  if (sh) goTo(viewIndex(sh) + delta);
}

document.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("input, select, textarea, button")) return;
  const cell = e.target.dataset ? e.target.dataset.cell : undefined;
  if ((e.key === "Enter" || e.key === " ") && cell !== undefined) {
    e.preventDefault();
    enter(cell);
    return;
  }
  const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => goTo(0), End: () => goTo(Infinity) };
  if (keys[e.key]) {
    e.preventDefault();
    keys[e.key]();
  }
});

// A move typed in the game's notation, played when the server finds it legal.
$("moveform").addEventListener("submit", (e) => {
  e.preventDefault();
  const mv = $("movetext").value.trim();
  const sh = shown();
  if (!mv || !sh) return;
  if (!sh.live || !app.state.legal.length) {
    notice("It is not your turn to move.");
    return;
  }
  if (viewIndex(sh) !== sh.fens.length - 1) goTo(Infinity);
  $("movetext").value = "";
  sendMove(mv);
  render();
});
