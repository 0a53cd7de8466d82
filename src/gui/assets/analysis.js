// Analysis mode and the evaluation graph. An engine analyses the position shown (the
// server runs it; the page asks again whenever another position is shown); its best
// lines are drawn on the board as arrows (or rings, for one-place moves) with their
// scores. The graph under the move list shows, for every position an engine has
// searched (in analysis or while playing), the best score from player 1's side; a
// click on it shows that position.
"use strict";

const analysis = {
  asked: null, // the last request sent: "engine lines ply"
  ply: null, // the position the lines belong to
  lines: {}, // multipv → the engine's last report of that line
};
const evals = []; // per position: the score for player 1 in -1…1 (undefined: none)

// The side to move in position `ply` of the game shown.
function sideAt(sh, ply) {
  if (ply < sh.moves.length) return sh.movers ? sh.movers[ply] : ply % 2;
  return app.state.side === "p1" ? 0 : 1;
}

// A score for the side to move as a number in -1…1 for player 1.
function forP1(score, side) {
  if (!score) return undefined;
  const v = score.mate !== undefined ? Math.sign(score.mate) : Math.tanh(score.cp / 400);
  return side === 0 ? v : -v;
}

function shortScore(score) {
  if (!score) return "";
  if (score.mate !== undefined) return score.mate > 0 ? `#${score.mate}` : `#-${-score.mate}`;
  return (score.cp >= 0 ? "+" : "") + (score.cp / 100).toFixed(2);
}

// Records an engine's score for position `ply` (deeper reports replace shallower ones).
function noteEval(sh, ply, report) {
  if (!report.score) return;
  evals[ply] = forP1(report.score, sideAt(sh, ply));
  renderGraph(sh);
}

function analysing() {
  return $("analyse").checked && !app.replay && app.state;
}

// Asks the server for the position shown, when it changed (called after each render).
function requestAnalysis(sh) {
  const ply = sh.live ? viewIndex(sh) : null;
  const want = analysing() && ply !== null ? `${$("analyst").value} ${$("mpv").value} ${ply}` : null;
  if (want === analysis.asked) return;
  analysis.asked = want;
  analysis.lines = {};
  analysis.ply = want ? ply : null;
  if (want) send({ type: "analyse", engine: $("analyst").value, lines: Number($("mpv").value), ply });
  else send({ type: "analyse" });
}

function onAnalysis(m) {
  const sh = shown();
  if (!sh || m.ply !== analysis.ply) return;
  analysis.lines[m.multipv] = m;
  if (m.multipv === 1) noteEval(sh, m.ply, m);
  drawAnalysis(sh);
  renderAnalysisText(sh);
}

// The lines by rank, each first move once (a line's last report may be from an earlier
// depth than the lines above it, and name the same move).
function bestLines() {
  const seen = new Set();
  return Object.keys(analysis.lines).map(Number).sort((x, y) => x - y)
    .map((k) => analysis.lines[k])
    .filter((l) => !seen.has(l.pv[0]) && seen.add(l.pv[0]));
}

// The middle of the place of `token` on the board (user units), or null.
function placeOf(svg, token) {
  const el = svg.querySelector(`[data-cell="${CSS.escape(token)}"]`);
  if (!el) return null;
  const r = el.getBBox();
  return [r.x + r.width / 2, r.y + r.height / 2];
}

// The lines on the board: an arrow from the move's first place to its last, or a ring
// round its one place, each labelled with its score; the best line boldest.
function drawAnalysis(sh) {
  const svg = $("board");
  svg.querySelectorAll(".analysis").forEach((e) => e.remove());
  if (analysis.ply === null || viewIndex(sh) !== analysis.ply || app.preview) return;
  const b = board(sh.game);
  const cell = svg.querySelector("[data-cell]:not(.line-choice)");
  if (!cell) return;
  const box = cell.getBBox();
  const unit = Math.min(box.width, box.height) / 10; // a tenth of a place
  let defs = svg.querySelector("defs.analysis");
  if (!defs) {
    defs = svgEl("defs", { class: "analysis" }, svg);
    const mk = svgEl("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse" }, defs);
    svgEl("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head" }, mk);
  }
  for (const line of bestLines().reverse()) {
    const k = line.multipv;
    const places = b.tokens(line.pv[0], []).map((t) => placeOf(svg, t)).filter((p) => p);
    if (!places.length) continue;
    const g = svgEl("g", { class: `analysis line-${k}`, "data-move": line.pv[0] }, svg);
    const width = (k === 1 ? 1.5 : 1) * unit;
    const [a, z] = [places[0], places[places.length - 1]];
    if (places.length > 1 && (a[0] !== z[0] || a[1] !== z[1])) {
      svgEl("line", { x1: a[0], y1: a[1], x2: z[0], y2: z[1], class: "arrow", "stroke-width": width, "marker-end": "url(#arrowhead)" }, g);
    } else {
      svgEl("circle", { cx: z[0], cy: z[1], r: 4 * unit, class: "arrow", "stroke-width": width, fill: "none" }, g);
    }
    svgEl("text", { x: z[0] + 2 * unit, y: z[1] - 2 * unit, class: "arrow-label", "font-size": 3.2 * unit }, g, shortScore(line.score));
  }
}

function renderAnalysisText(sh) {
  const box = $("analysislines");
  box.replaceChildren();
  if (analysis.ply === null) return;
  const b = board(sh.game);
  for (const l of bestLines()) {
    const div = document.createElement("div");
    div.textContent = `${l.multipv}. ${scoreText(b, l.score)} (depth ${l.depth}): ${l.pv.slice(0, 8).join(" ")}`;
    box.appendChild(div);
  }
}

// The evaluation graph: one point per position searched; click to go there.
function renderGraph(sh) {
  const svg = $("evalgraph");
  svg.replaceChildren();
  const n = sh.fens.length;
  const W = 300, H = 60;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const x = (ply) => (n > 1 ? (ply / (n - 1)) * (W - 8) + 4 : W / 2);
  const y = (v) => H / 2 - v * (H / 2 - 4);
  svgEl("rect", { x: 0, y: 0, width: W, height: H / 2, class: "graph-p2" }, svg);
  svgEl("rect", { x: 0, y: H / 2, width: W, height: H / 2, class: "graph-p1" }, svg);
  svgEl("line", { x1: x(viewIndex(sh)), y1: 0, x2: x(viewIndex(sh)), y2: H, class: "graph-now" }, svg);
  const pts = [];
  for (let ply = 0; ply < n; ply++) if (evals[ply] !== undefined) pts.push([x(ply), y(evals[ply]), ply]);
  if (pts.length > 1) svgEl("polyline", { points: pts.map((p) => `${p[0]},${p[1]}`).join(" "), class: "graph-line" }, svg);
  for (const [px, py, ply] of pts) {
    const dot = svgEl("circle", { cx: px, cy: py, r: 3, class: "graph-point", "data-ply": ply }, svg);
    dot.addEventListener("click", () => goTo(ply));
  }
  // A click anywhere on the graph goes to the nearest position.
  svg.onclick = (e) => {
    if (e.target.dataset.ply !== undefined) return;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    goTo(Math.round(((p.x - 4) / (W - 8)) * (n - 1)));
  };
}

// The graph starts empty for every new game.
function clearEvals() {
  evals.length = 0;
}

$("analyse").onchange = () => render();
$("analyst").onchange = () => render();
$("mpv").onchange = () => render();
