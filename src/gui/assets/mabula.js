// Mabula: the 8×8 board without its corners; the 24 border squares (darker) hold the
// marbles of the setup, the 6×6 field (lighter) is crossed by the push lanes along
// ranks 2–7 and files b–g.
"use strict";

(() => {
  const S = 60, M = 40, W = 8 * S + 2 * M, H = W;

  function parse(fen) {
    const parts = fen.trim().split(/\s+/);
    const marbles = {};
    parts[1].split("/").forEach((rank, i) => {
      let f = 0;
      for (const ch of rank) {
        if (/\d/.test(ch)) f += Number(ch);
        else marbles[`${String.fromCharCode(97 + f++)}${8 - i}`] = ch;
      }
    });
    return marbles;
  }

  const isCorner = (f, r) => (f === 0 || f === 7) && (r === 0 || r === 7);
  const isBorder = (f, r) => f === 0 || f === 7 || r === 0 || r === 7;

  Boards.mabula = {
    score: (cp) => `${(cp / 100).toFixed(2)} marbles`,
    draw(svg, fen, ui) {
      const marbles = parse(fen);
      svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
      svgEl("rect", { x: 0, y: 0, width: W, height: H, class: "frame" }, svg);
      const pt = flipper(W, H, ui.flipped);
      const centre = (f, r) => pt(M + f * S + S / 2, M + (7 - r) * S + S / 2);
      for (let f = 0; f < 8; f++) {
        for (let r = 0; r < 8; r++) {
          if (isCorner(f, r)) continue;
          const [x, y] = centre(f, r);
          svgEl("rect", { x: x - S / 2, y: y - S / 2, width: S, height: S, class: isBorder(f, r) ? "mabula-border" : "mabula-field" }, svg);
        }
      }
      // Push lanes: every rank 2–7 and file b–g, from border to border.
      for (let k = 1; k < 7; k++) {
        for (const [a, b] of [[[0, k], [7, k]], [[k, 0], [k, 7]]]) {
          const [x1, y1] = centre(...a), [x2, y2] = centre(...b);
          svgEl("line", { x1, y1, x2, y2, class: "lane" }, svg);
        }
      }
      for (let k = 0; k < 8; k++) {
        const [fx, fy] = centre(k, 0);
        svgEl("text", { x: fx, y: fy + (ui.flipped ? -S / 2 - 10 : S / 2 + 24), class: "coord" }, svg, String.fromCharCode(97 + k));
        const [rx, ry] = centre(0, k);
        svgEl("text", { x: rx + (ui.flipped ? S / 2 + 18 : -S / 2 - 18), y: ry + 5, class: "coord" }, svg, String(k + 1));
      }
      for (let f = 0; f < 8; f++) {
        for (let r = 0; r < 8; r++) {
          if (isCorner(f, r)) continue;
          const sq = `${String.fromCharCode(97 + f)}${r + 1}`;
          const [x, y] = centre(f, r);
          const m = marbles[sq];
          if (m) svgEl("circle", { cx: x, cy: y, r: S * 0.36, class: m === "B" ? "man-black" : "man-white", "data-piece": sq }, svg);
          svgEl("rect", { x: x - S / 2, y: y - S / 2, width: S, height: S, class: "hit", "data-cell": sq }, svg);
        }
      }
    },
    tokens: (move) => move.split("-"),
    label: (t) => (t === "pass" ? "pass (no push)" : t),
  };
})();
