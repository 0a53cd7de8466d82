// Mobius: the 138-cell hex strip, rows 1 (top) to 12, zones coloured along the edge
// (Red R1 R2 R3, Blue B1 B2 B3; junction cells striped). Row 1 is glued to row 12 in
// reverse order: the seam is marked by dashed lines, and the faded half-rows beyond
// them repeat the cells across the seam (row 12 reversed above row 1, row 1 reversed
// below row 12), so a chain can be followed over it.
"use strict";

(() => {
  const R = 22, CW = Math.sqrt(3) * R, RH = 1.5 * R, MX = 75, MY = 30;
  const W = 2 * MX + 12 * CW + CW / 2, H = 2 * MY + 13 * RH + 2 * R;
  const ZONES = [
    ["red", "a1 a2 a3 a4 a5"], ["blue", "a5 a6 a7 a8 a9"], ["red", "a9 a10 a11 a12 l1"],
    ["blue", "l1 k2 l3 k4 l5"], ["red", "l5 k6 l7 k8 l9"], ["blue", "l9 k10 l11 k12 a1"],
  ];
  const zone = {};
  for (const [colour, cells] of ZONES) {
    for (const c of cells.split(" ")) zone[c] = zone[c] && zone[c] !== colour ? "both" : colour;
  }

  const cellName = (r, c) => `${String.fromCharCode(97 + c)}${r + 1}`;
  const width = (r) => (r % 2 === 0 ? 12 : 11);

  function parse(fen) {
    const stones = {};
    fen.trim().split(/\s+/)[0].split("/").forEach((row, r) => {
      let c = 0;
      for (const m of row.matchAll(/\d+|[rb]/g)) {
        if (/\d/.test(m[0])) c += Number(m[0]);
        else stones[cellName(r, c++)] = m[0];
      }
    });
    return stones;
  }

  function hexPoints(x, y) {
    const pts = [];
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 3) * k + Math.PI / 6;
      pts.push(`${(x + R * Math.cos(a)).toFixed(1)},${(y + R * Math.sin(a)).toFixed(1)}`);
    }
    return pts.join(" ");
  }

  Boards.mobius = {
    // cp = 400·log10(w / (1 − w)), w the playout win rate of the side to move.
    score: (cp) => `${(100 / (1 + Math.pow(10, -cp / 400))).toFixed(1)} % wins`,
    draw(svg, fen, ui) {
      const stones = parse(fen);
      svg.setAttribute("viewBox", `0 0 ${W.toFixed(0)} ${H.toFixed(0)}`);
      svgEl("rect", { x: 0, y: 0, width: W, height: H, class: "frame" }, svg);
      const defs = svgEl("defs", {}, svg);
      const pat = svgEl("pattern", { id: "junction", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
      svgEl("rect", { x: 0, y: 0, width: 4, height: 8, fill: "#f2b8b5" }, pat);
      svgEl("rect", { x: 4, y: 0, width: 4, height: 8, fill: "#b9cbf3" }, pat);
      const pt = flipper(W, H, ui.flipped);
      // Row index -1 (above row 1) and 12 (below row 12) are the faded copies over the seam.
      const centre = (r, pos) => pt(MX + CW / 2 + pos * CW + (((r % 2) + 2) % 2 === 1 ? CW / 2 : 0), MY + R + (r + 1) * RH);
      const cells = [];
      for (let r = 0; r < 12; r++) for (let c = 0; c < width(r); c++) cells.push([r, c, cellName(r, c), false]);
      for (let p = 0; p < 11; p++) cells.push([-1, p, cellName(11, 10 - p), true]);
      for (let p = 0; p < 12; p++) cells.push([12, p, cellName(0, 11 - p), true]);
      for (const [r, pos, name, ghost] of cells) {
        const [x, y] = centre(r, pos);
        const z = zone[name];
        const fill = z === "both" ? "url(#junction)" : z === "red" ? "#f2b8b5" : z === "blue" ? "#b9cbf3" : "#f4efe4";
        svgEl("polygon", { points: hexPoints(x, y), fill, class: ghost ? "hex ghost" : "hex" }, svg);
        const s = stones[name];
        if (s) svgEl("circle", { cx: x, cy: y, r: R * 0.7, class: `${s === "r" ? "stone-red" : "stone-blue"}${ghost ? " ghost" : ""}` }, svg);
        else svgEl("text", { x, y: y + 4, class: ghost ? "cell-name ghost" : "cell-name" }, svg, name);
        svgEl("polygon", { points: hexPoints(x, y), class: "hit", "data-cell": name }, svg);
      }
      // The seam: between the faded copies and rows 1 and 12.
      for (const r of [-0.5, 11.5]) {
        const [x1, y1] = pt(MX - 10, MY + R + (r + 1) * RH);
        const [x2, y2] = pt(W - MX + 10, MY + R + (r + 1) * RH);
        svgEl("line", { x1, y1, x2, y2, class: "seam" }, svg);
        const [tx, ty] = pt(MX - 14, MY + R + (r + 1) * RH + 4);
        svgEl("text", { x: tx, y: ty, class: "seam-label" }, svg, "seam");
      }
      for (let r = 0; r < 12; r++) {
        const [x, y] = pt(MX - 16, MY + R + (r + 1) * RH + 5);
        svgEl("text", { x, y, class: "coord" }, svg, String(r + 1));
      }
    },
    tokens: (move) => [move],
    label: (t) => (t === "swap" ? "swap (take Red's stone)" : t),
  };
})();
