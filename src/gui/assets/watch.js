// The match of `ugine gui --watch`: the standings, the finished games and the games in
// progress (from the match's live file), read again every second while games are in
// progress (every 2 s otherwise). Each game in progress is drawn on a small board of its
// own; the one on the big board follows its moves as they come, with its clocks. While
// "follow" is ticked the big board shows the newest game in progress (and the end of a
// game it showed, for a few seconds); every game, finished or not, can be picked,
// stepped through and replayed.
"use strict";

const watch = {
  data: null, // the last `watch` answer of the server
  at: 0, // performance.now() when it came
  follow: true, // show the newest game as it comes
  key: null, // the id of the game on the board
  ended: null, // the game followed that has just ended: { key, at (performance.now()) }
};
// How long the end of a followed game stays on the board before the newest game (ms).
const SHOW_END_MS = 4000;

function renderStandings(d) {
  const body = $("standings").querySelector("tbody");
  body.replaceChildren();
  for (const s of d.standings) {
    const tr = document.createElement("tr");
    const elo = s.elo === null ? "n/a" : `${s.elo >= 0 ? "+" : ""}${s.elo} ± ${s.error}`;
    const score = s.score === null ? "" : `${(100 * s.score).toFixed(1)} %`;
    for (const v of [s.engine, `${s.wins}-${s.losses}-${s.draws}`, score, elo]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

// Every game of the match: the finished ones, then the ones in progress.
function watchedGames(d) {
  return d.games.concat(d.live);
}

function gameTitle(g) {
  const who = `${g.players[0]} – ${g.players[1]}`;
  if (g.live) return `● game ${g.number}/${g.total} (${g.id}): ${who}, in progress, ${g.moves.length - g.opening_plies} moves`;
  return `${g.id} ${g.game}: ${who}, ${resultText(g.game, g.result)}`;
}

// A watched game's clock of `side` now: its clock at the last move, the side to move's
// running since then.
function watchedClock(g, side) {
  if (!g.clock_ms) return null;
  const running = g.to_move === (side === 0 ? "p1" : "p2");
  let ms = g.clock_ms[side];
  if (running) ms -= g.since_ms + (performance.now() - watch.at);
  return { ms, running };
}

// Shows game `key` of the match (its end, or the position shown when the same game is
// stepped through).
function showWatched(key) {
  const games = watchedGames(watch.data);
  const index = games.findIndex((g) => g.id === key);
  if (index < 0) return;
  const before = app.replay && app.replay.watch ? app.replay.games[app.replay.index] : null;
  const same = before && before.id === key;
  const atEnd = !same || app.view === null || app.view >= before.fens.length - 1;
  app.replay = { games, index, watch: true };
  if (atEnd) app.view = games[index].fens.length - 1;
  if (!same) app.clicked = [];
  watch.key = key;
  $("watchgame").value = String(index);
  render();
}

// The game a follower sees: the one shown while it is in progress (and a few seconds
// after its end), else the newest game in progress, else the newest finished game.
function followed(d) {
  const shownLive = d.live.some((g) => g.id === watch.key);
  if (shownLive) return watch.key;
  const wasLive = app.replay && app.replay.watch && app.replay.games[app.replay.index].live;
  if (wasLive && d.games.some((g) => g.id === watch.key)) {
    watch.ended = { key: watch.key, at: performance.now() };
  }
  const e = watch.ended;
  if (e && e.key === watch.key && performance.now() - e.at < SHOW_END_MS) return watch.key;
  watch.ended = null;
  if (d.live.length) return d.live.reduce((a, b) => (b.number > a.number ? b : a)).id;
  return d.games.length ? d.games[d.games.length - 1].id : null;
}

// The small boards of the games in progress; a click shows one on the big board.
function renderLiveBoards(d) {
  const box = $("livegames");
  box.replaceChildren();
  for (const g of d.live) {
    const b = board(g.game);
    if (!b) continue;
    const fig = document.createElement("button");
    fig.className = "livegame" + (g.id === watch.key && app.replay ? " shown" : "");
    fig.dataset.id = g.id;
    fig.title = `show game ${g.number} on the board`;
    const svg = svgEl("svg", { class: "thumb", "aria-hidden": "true" });
    const n = g.moves.length;
    const last = n > 0 ? g.moves[n - 1] : null;
    b.draw(svg, g.fens[n], { flipped: false, next: [], lastMove: last, clicked: [] });
    const marks = last ? b.tokens(last, []) : [];
    svg.querySelectorAll("[data-cell]").forEach((el) => {
      el.classList.toggle("last", marks.includes(el.dataset.cell));
      el.removeAttribute("data-cell");
    });
    fig.appendChild(svg);
    const cap = document.createElement("span");
    const clocks = [0, 1].map((s) => watchedClock(g, s));
    const clock = (s) => (clocks[s] ? ` ${fmtClock(clocks[s].ms)}` : "");
    cap.textContent = `game ${g.number}/${g.total} · ${g.players[0]}${clock(0)} – ${g.players[1]}${clock(1)} · move ${n - g.opening_plies}`;
    fig.appendChild(cap);
    fig.addEventListener("click", () => pick(g.id));
    box.appendChild(fig);
  }
  box.hidden = d.live.length === 0;
}

// The person picks a game: followed only when it is the newest.
function pick(key) {
  watch.follow = key === followed(watch.data) && watch.data.live.some((g) => g.id === key);
  $("watchfollow").checked = watch.follow;
  showWatched(key);
  renderLiveBoards(watch.data);
}

function onWatch(d) {
  const firstTime = watch.data === null;
  watch.data = d;
  watch.at = performance.now();
  $("watchbox").hidden = false;
  const parts = [`${d.games.length} games finished, ${d.live.length} in progress, in ${d.files.join(", ")}`];
  if (d.stale.length) parts.push(`stale live file: ${d.stale.join("; ")}`);
  if (d.errors.length) parts.push(`unreadable: ${d.errors.join("; ")}`);
  $("watchinfo").textContent = parts.join("; ");
  renderStandings(d);
  const games = watchedGames(d);
  const sel = $("watchgame");
  sel.replaceChildren(...games.map((g, k) => new Option(gameTitle(g), k)));
  const watching = app.replay && app.replay.watch;
  let key = null;
  if (watch.follow && (watching || firstTime || !app.replay)) key = followed(d);
  else if (watching) key = watch.key;
  if (key !== null && games.some((g) => g.id === key)) showWatched(key);
  else if (watching) sel.value = String(app.replay.index);
  renderLiveBoards(d);
}

async function pollWatch() {
  const r = await fetch("/watch", { cache: "no-store" }).catch(() => null);
  if (r && r.status === 404) return; // no --watch: no tournament view
  if (r && r.ok) onWatch(await r.json());
  setTimeout(pollWatch, watch.data && watch.data.live.length ? 1000 : 2000);
}

$("watchgame").onchange = () => {
  const g = watchedGames(watch.data)[Number($("watchgame").value)];
  if (g) pick(g.id);
};
$("watchfollow").onchange = () => {
  watch.follow = $("watchfollow").checked;
  if (watch.follow && watch.data) {
    watch.key = null;
    const key = followed(watch.data);
    if (key !== null) showWatched(key);
    renderLiveBoards(watch.data);
  }
};
// Back to the page's own game: the match is no longer followed.
$("backtoplay").addEventListener("click", () => {
  watch.follow = false;
  $("watchfollow").checked = false;
});
// The clocks of the small boards run.
setInterval(() => { if (watch.data && watch.data.live.length) renderLiveBoards(watch.data); }, 1000);
pollWatch();
