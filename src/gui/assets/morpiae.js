// Morpiae: the lattice around the Greek cross, y upward. Circles (hollow), the lines
// drawn (the last one highlighted), circles coloured Red or Green once crossed in all
// four directions. A move: click the new circle's point; when several lines can be
// drawn through it, click the line.
"use strict";

(() => {
  const S = 30, M = 30;
  const DIRS = { H: [1, 0], V: [0, 1], D: [1, 1], A: [1, -1] };
  const CROSS = [];
  for (const [y, xs] of [[9, [3, 4, 5, 6]], [8, [3, 6]], [7, [3, 6]], [6, [0, 1, 2, 3, 6, 7, 8, 9]], [5, [0, 9]],
    [4, [0, 9]], [3, [0, 1, 2, 3, 6, 7, 8, 9]], [2, [3, 6]], [1, [3, 6]], [0, [3, 4, 5, 6]]]) {
    for (const x of xs) CROSS.push([x, y]);
  }

  const pts = (s) => (s === "-" ? [] : s.split(";").filter((p) => p && p !== "cross").map((p) => p.split(",").map(Number)));

  // A move's new point and its line's five points.
  function line(move) {
    const [x, y, d, k] = move.split(",");
    const [dx, dy] = DIRS[d];
    const p = [Number(x), Number(y)];
    const first = [p[0] - k * dx, p[1] - k * dy];
    return { point: p, ends: [first, [first[0] + 4 * dx, first[1] + 4 * dy]] };
  }

  function parse(fen) {
    const [side, circles, lines, red, green] = fen.trim().split(/\s+/);
    const start = circles.split(";")[0] === "cross" ? CROSS.slice() : [];
    const moves = lines === "-" ? [] : lines.split(";");
    return { side, circles: start.concat(pts(circles), moves.map((m) => line(m).point)), moves, red: pts(red), green: pts(green) };
  }

  Boards.morpiae = {
    score: (cp) => `${(cp / 100).toFixed(2)} circles`,
    draw(svg, fen, ui) {
      const p = parse(fen);
      const choices = ui.next.filter((t) => t.split(",").length === 4);
      const all = p.circles.concat(choices.flatMap((m) => line(m).ends));
      const xs = all.map((q) => q[0]), ys = all.map((q) => q[1]);
      const x0 = Math.min(-2, ...xs) - 1, x1 = Math.max(11, ...xs) + 1;
      const y0 = Math.min(-2, ...ys) - 1, y1 = Math.max(11, ...ys) + 1;
      const W = (x1 - x0) * S + 2 * M, H = (y1 - y0) * S + 2 * M;
      svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
      svgEl("rect", { x: 0, y: 0, width: W, height: H, class: "paper" }, svg);
      const pt = flipper(W, H, ui.flipped);
      const at = ([x, y]) => pt(M + (x - x0) * S, M + (y1 - y) * S);
      for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) {
        const [cx, cy] = at([x, y]);
        svgEl("circle", { cx, cy, r: 1.8, class: "lattice" }, svg);
      }
      const [ox, oy] = at([0, 0]);
      svgEl("text", { x: ox - 12, y: oy + 16, class: "coord small" }, svg, "0,0");
      p.moves.forEach((m, i) => {
        const [a, b] = line(m).ends.map(at);
        const last = i === p.moves.length - 1;
        svgEl("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: last ? "morpiae-line last-line" : "morpiae-line" }, svg);
      });
      const colour = {};
      p.red.forEach((q) => (colour[q.join(",")] = "red"));
      p.green.forEach((q) => (colour[q.join(",")] = "green"));
      const newest = p.moves.length ? line(p.moves[p.moves.length - 1]).point.join(",") : null;
      for (const q of p.circles) {
        const [cx, cy] = at(q);
        const key = q.join(",");
        const cls = colour[key] ? `circle-${colour[key]}` : key === newest ? "circle-new" : "circle";
        svgEl("circle", { cx, cy, r: 9, class: cls }, svg);
      }
      // Clickable points (every lattice point), then the lines that can be chosen.
      for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) {
        const [cx, cy] = at([x, y]);
        svgEl("circle", { cx, cy, r: 15, class: "hit", "data-cell": `${x},${y}` }, svg);
      }
      for (const m of choices) {
        const [a, b] = line(m).ends.map(at);
        svgEl("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "hit line-choice", "data-cell": m }, svg);
      }
    },
    // A line to choose, as a button: its two ends.
    label(t) {
      if (t.split(",").length !== 4) return t;
      const [a, b] = line(t).ends;
      return `line ${a.join(",")} – ${b.join(",")}`;
    },
    // The new circle's point; then, when several lines can be drawn through it, the line.
    tokens(move, legal) {
      const point = move.split(",").slice(0, 2).join(",");
      const through = legal.filter((m) => m.startsWith(`${point},`)).length;
      return through > 1 ? [point, move] : [point];
    },
  };
})();
