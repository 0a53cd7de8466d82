// Entering moves: clicks and drags on the board (a release counts as a drag only when
// the pointer moved), a tap that zooms in first where places are too small for a finger,
// the keyboard (Tab to the places, Enter or Space; ← → Home End through the game) and a
// move typed in the game's notation. Only the server judges a move.
"use strict";

// How far (CSS px) the pointer must move while pressed before a release is a drag.
const DRAG_PX = 6;
// The smallest place a finger is given (CSS px); smaller places zoom in first.
const FINGER_PX = 40;

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
  app.zoom = null;
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

// A finger on a board whose places are too small: the first tap zooms in around it.
function zoomIn(e) {
  if (e.pointerType !== "touch" || app.zoom) return false;
  const px = smallestPlace();
  if (!(px < FINGER_PX)) return false;
  const svg = $("board");
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
  app.zoom = { x: p.x, y: p.y, factor: Math.min(4, (FINGER_PX + 4) / px) };
  render();
  return true;
}

$("board").addEventListener("pointerdown", (e) => {
  if (e.button !== 0 || zoomIn(e)) return;
  const cell = e.target.closest("[data-cell]");
  if (!cell) return;
  app.drag = { cell: cell.dataset.cell, x: e.clientX, y: e.clientY, dx: 0, dy: 0, moved: false, ghost: null };
  $("board").setPointerCapture(e.pointerId);
  enter(cell.dataset.cell);
});
$("board").addEventListener("pointermove", (e) => {
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
$("board").addEventListener("pointercancel", () => { app.drag = null; render(); });
$("zoomout").onclick = () => { app.zoom = null; render(); };

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
