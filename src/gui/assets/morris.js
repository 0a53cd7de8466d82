// Nine Men's Morris: the three nested squares, 24 points a1…g7, men in hand beside the board.
"use strict";

(() => {
  // Points of the position string, rank 7 down to rank 1.
  const RANKS = [
    ["a7", "d7", "g7"], ["b6", "d6", "f6"], ["c5", "d5", "e5"],
    ["a4", "b4", "c4", "e4", "f4", "g4"], ["c3", "d3", "e3"], ["b2", "d2", "f2"], ["a1", "d1", "g1"],
  ];
  const LINES = [
    ["a1", "g1"], ["g1", "g7"], ["g7", "a7"], ["a7", "a1"],
    ["b2", "f2"], ["f2", "f6"], ["f6", "b6"], ["b6", "b2"],
    ["c3", "e3"], ["e3", "e5"], ["e5", "c5"], ["c5", "c3"],
    ["a4", "c4"], ["e4", "g4"], ["d1", "d3"], ["d5", "d7"],
  ];
  // Picture: Black's hand on top, the board, the file letters, White's hand below.
  const STEP = 60, M = 70, TOP = 30, W = 6 * STEP + 2 * M, H = W + 60;

  function parse(fen) {
    const [board, side, wh, bh] = fen.trim().split(/\s+/);
    const men = {};
    board.split("/").forEach((rank, i) => {
      let j = 0;
      for (const ch of rank) {
        if (/\d/.test(ch)) j += Number(ch);
        else men[RANKS[i][j++]] = ch;
      }
    });
    return { men, side, hands: [Number(wh), Number(bh)] };
  }

  function xy(point, pt) {
    return pt(M + (point.charCodeAt(0) - 97) * STEP, TOP + M + (7 - Number(point[1])) * STEP);
  }

  function man(g, x, y, colour, r, point) {
    const attrs = { cx: x, cy: y, r, class: colour === "W" ? "man-white" : "man-black" };
    if (point) attrs["data-piece"] = point;
    svgEl("circle", attrs, g);
  }

  Boards.morris = {
    score: (cp) => `${(cp / 100).toFixed(2)} men`,
    draw(svg, fen, ui) {
      const p = parse(fen);
      const pt = flipper(W, H, ui.flipped);
      svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
      svgEl("rect", { x: 0, y: 0, width: W, height: H, class: "wood" }, svg);
      for (const [a, b] of LINES) {
        const [x1, y1] = xy(a, pt), [x2, y2] = xy(b, pt);
        svgEl("line", { x1, y1, x2, y2, class: "morris-line" }, svg);
      }
      for (let i = 0; i < 7; i++) {
        const [fx, fy] = pt(M + i * STEP, TOP + M + 6 * STEP + 45);
        svgEl("text", { x: fx, y: fy, class: "coord" }, svg, String.fromCharCode(97 + i));
        const [rx, ry] = pt(M - 45, TOP + M + (6 - i) * STEP + 5);
        svgEl("text", { x: rx, y: ry, class: "coord" }, svg, String(i + 1));
      }
      p.hands.forEach((n, s) => {
        for (let k = 0; k < n; k++) {
          const [x, y] = pt(M + k * 28, s === 0 ? H - 22 : 22);
          man(svg, x, y, s === 0 ? "W" : "B", 11);
        }
      });
      for (const point of RANKS.flat()) {
        const [x, y] = xy(point, pt);
        svgEl("circle", { cx: x, cy: y, r: 7, class: "point" }, svg);
        if (p.men[point]) man(svg, x, y, p.men[point], 22, point);
        // 54 units across: 41 px on a 390 px phone (points are 60 apart).
        svgEl("circle", { cx: x, cy: y, r: 27, class: "hit", "data-cell": point }, svg);
      }
    },
    tokens: (move) => move.split(/[-x]/),
  };
})();
