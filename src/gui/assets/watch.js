// The match of `ugine gui --watch`: the standings and the finished games, read again
// every 2 s; the newest game is shown as it comes (until the person picks another), and
// every game can be replayed with the move list and the buttons.
"use strict";

const watch = {
  data: null, // the last `watch` answer of the server
  follow: true, // show the newest game as it comes
};

function renderStandings(d) {
  const body = $("standings").querySelector("tbody");
  body.replaceChildren();
  for (const s of d.standings) {
    const tr = document.createElement("tr");
    const elo = s.elo === null ? "" : `${s.elo >= 0 ? "+" : ""}${s.elo} ± ${s.error}`;
    const score = s.score === null ? "" : `${(100 * s.score).toFixed(1)} %`;
    for (const v of [s.engine, `${s.wins}-${s.losses}-${s.draws}`, score, elo]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

function showWatched(index) {
  const games = watch.data.games;
  app.replay = { games, index };
  app.view = games[index].fens.length - 1;
  app.clicked = [];
  $("watchgame").value = String(index);
  render();
}

function onWatch(d) {
  const before = watch.data ? watch.data.games.length : 0;
  watch.data = d;
  $("watchbox").hidden = false;
  $("watchinfo").textContent = `${d.games.length} games in ${d.files.join(", ")}` +
    (d.errors.length ? `; unreadable: ${d.errors.join("; ")}` : "");
  renderStandings(d);
  const sel = $("watchgame");
  const keep = sel.value;
  sel.replaceChildren(...d.games.map((g, k) =>
    new Option(`${g.id} ${g.game}: ${g.players[0]} – ${g.players[1]}, ${resultText(g.game, g.result)}`, k)));
  sel.value = keep;
  // New games, or the page's own game in front (a new game at the start): the newest.
  if (d.games.length && watch.follow && (d.games.length !== before || !app.replay)) showWatched(d.games.length - 1);
}

async function pollWatch() {
  const r = await fetch("/watch", { cache: "no-store" }).catch(() => null);
  if (r && r.status === 404) return; // no --watch: no tournament view
  setTimeout(pollWatch, 2000);
  if (r && r.ok) onWatch(await r.json());
}

$("watchgame").onchange = () => {
  const k = Number($("watchgame").value);
  watch.follow = k === watch.data.games.length - 1;
  $("watchfollow").checked = watch.follow;
  showWatched(k);
};
$("watchfollow").onchange = () => {
  watch.follow = $("watchfollow").checked;
  if (watch.follow && watch.data && watch.data.games.length) showWatched(watch.data.games.length - 1);
};
// Back to the page's own game: the match is no longer followed.
$("backtoplay").addEventListener("click", () => {
  watch.follow = false;
  $("watchfollow").checked = false;
});
pollWatch();
