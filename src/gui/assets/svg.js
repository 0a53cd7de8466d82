// Shared drawing helpers and the registry of boards (one script per game adds its board).
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";

// Creates an SVG element with attributes (and text), appended to `parent` when given.
function svgEl(tag, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// Maps board coordinates to the picture, turned half a turn when the board is flipped.
function flipper(width, height, flipped) {
  return (x, y) => (flipped ? [width - x, height - y] : [x, y]);
}

// Each game's board (the sides' names come from the server's `hello`): {
//   score(cp): the engine's cp in the game's own units, as text,
//   draw(svg, fen, ui): draws the position; every clickable place carries data-cell="<token>",
//     every piece that can be dragged data-piece="<token of its place>",
//     ui = { flipped, next: tokens that may be clicked next, lastMove, preview },
//   tokens(move, legal): the clicks that enter `move` (tokens that are no data-cell of the
//     board are offered as buttons),
//   label(token): the text of a button (optional),
// }
const Boards = {};
