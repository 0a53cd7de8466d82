// Moebius Chess: the 16×8 cylinder drawn as its two halves side by side (unprimed a1…h8
// left, primed a1'…h8' right). The rows wrap: the faded squares at both ends repeat the
// square across the wrap. Hovering or selecting a square highlights its twin (same name,
// prime toggled).
"use strict";

(() => {
  const S = 52, GAP = 14, MX = 100, MY = 40;
  const W = 2 * MX + 16 * S + GAP, H = 2 * MY + 8 * S + 30;
  const GLYPH = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
  const NAMES = { q: "queen", r: "rook", b: "bishop", n: "knight" };

  // The square at column x (0…15, wrapping), row y (0 = top of the picture).
  function name(x, y) {
    x = ((x % 16) + 16) % 16;
    const file = String.fromCharCode(97 + (x % 8));
    return x < 8 ? `${file}${8 - y}` : `${file}${y + 1}'`;
  }

  function twin(sq) {
    return sq.endsWith("'") ? sq.slice(0, -1) : `${sq}'`;
  }

  function parse(fen) {
    const rows = fen.trim().split(/\s+/)[0].split("/");
    const board = {};
    rows.forEach((row, y) => {
      let x = 0;
      for (const m of row.matchAll(/\d+|[A-Za-z]/g)) {
        if (/\d/.test(m[0])) x += Number(m[0]);
        else board[name(x++, y)] = m[0];
      }
    });
    return board;
  }

  Boards["moebius-chess"] = {
    score: (cp) => `${(cp / 100).toFixed(2)} pawns`,
    draw(svg, fen, ui) {
      const board = parse(fen);
      svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
      svgEl("rect", { x: 0, y: 0, width: W, height: H, class: "frame" }, svg);
      // Column x's left edge; the primed half sits GAP to the right; flipped: turned round.
      const left = (x) => {
        const fx = ui.flipped ? 15 - x : x;
        return MX + fx * S + (fx >= 8 ? GAP : 0);
      };
      const top = (y) => MY + (ui.flipped ? 7 - y : y) * S;
      const hits = [];
      for (let y = 0; y < 8; y++) {
        for (let x = -1; x <= 16; x++) {
          const ghost = x < 0 || x > 15;
          const sq = name(x, y);
          const col = ((x % 16) + 16) % 16;
          let px = ghost ? (x < 0 ? MX - S : MX + 16 * S + GAP) : left(col);
          if (ghost && ui.flipped) px = x < 0 ? MX + 16 * S + GAP : MX - S;
          const py = top(y);
          const cls = ((col + y) % 2 ? "sq-dark" : "sq-light") + (ghost ? " ghost" : "");
          svgEl("rect", { x: px, y: py, width: S, height: S, class: cls }, svg);
          const piece = board[sq];
          if (piece) {
            const white = piece === piece.toUpperCase();
            const attrs = { x: px + S / 2, y: py + S / 2 + 2, class: `piece ${white ? "white" : "black"}${ghost ? " ghost" : ""}` };
            if (!ghost) attrs["data-piece"] = sq;
            svgEl("text", attrs, svg, GLYPH[piece.toLowerCase()]);
          }
          if (ghost) {
            svgEl("text", { x: px + S / 2, y: py + S - 4, class: "ghost-name" }, svg, sq);
          } else {
            hits.push([sq, px, py]);
          }
        }
      }
      // Ranks: 8…1 beside the left half, 1'…8' beside the right half; files under both.
      for (let y = 0; y < 8; y++) {
        const py = top(y) + S / 2 + 5;
        svgEl("text", { x: MX - S - 16, y: py, class: "coord" }, svg, ui.flipped ? `${y + 1}'` : String(8 - y));
        svgEl("text", { x: MX + 16 * S + GAP + S + 18, y: py, class: "coord" }, svg, ui.flipped ? String(8 - y) : `${y + 1}'`);
      }
      for (let x = 0; x < 16; x++) {
        const sq = name(x, 7);
        svgEl("text", { x: left(x) + S / 2, y: MY + 8 * S + 22, class: "coord" }, svg, sq[0] + (x >= 8 ? "'" : ""));
      }
      svgEl("text", { x: W / 2, y: MY - 14, class: "note" }, svg,
        "rows wrap round: faded squares repeat the square across the wrap · hover or select a square to see its twin");
      for (const [sq, px, py] of hits) {
        const hit = svgEl("rect", { x: px, y: py, width: S, height: S, class: "hit", "data-cell": sq }, svg);
        hit.addEventListener("mouseenter", () => {
          const t = svg.querySelector(`[data-cell="${twin(sq)}"]`);
          if (t) t.classList.add("twin");
        });
        hit.addEventListener("mouseleave", () => {
          svg.querySelectorAll(".twin").forEach((e) => e.classList.remove("twin"));
        });
      }
      // The twin of a selected square is marked too (a finger does not hover).
      for (const t of ui.clicked) {
        const el = svg.querySelector(`[data-cell="${twin(t)}"]`);
        if (el) el.classList.add("twin");
      }
    },
    tokens(move) {
      const m = move.match(/^([a-h][1-8]'?)([a-h][1-8]'?)([qrbn]?)$/);
      if (!m) return [move];
      return m[3] ? [m[1], m[2], m[3]] : [m[1], m[2]];
    },
    label: (t) => (NAMES[t] ? `${GLYPH[t]} ${NAMES[t]}` : t),
  };
})();
