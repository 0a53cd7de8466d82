//! End-to-end tests of `ugine gui` in a real headless Chromium: a short game of every game
//! entered by mouse clicks against the ugine engine, take-back, engine against engine,
//! replay of a record file, and that a closed tab stops its engines; the bugs of issue
//! #40, each with its test; safety (token, origin, size limit, engines ended with their
//! tab) with raw HTTP and WebSocket traffic; the board on a laptop and a phone, keyboard
//! and touch play to the end of a game, analysis mode and the watched match. Screenshots
//! go to `$UGINE_GUI_SHOTS` (default `target/gui-screenshots`).
//!
//! Without chromium the browser tests are skipped, unless `UGINE_BROWSER_TESTS=require`;
//! the raw-traffic tests need no browser.

mod browser;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use browser::{Chrome, Tab};
use serde_json::Value;

/// `ugine gui` on a free port; killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start() -> Server {
        Server::with_args(&[])
    }

    fn with_args(extra: &[&str]) -> Server {
        Server::with(&["--port", "0"], extra, None)
    }

    /// `ugine gui` with `args`, `extra` and, when given, a fixed `$UGINE_GUI_TOKEN`.
    fn with(args: &[&str], extra: &[&str], token: Option<&str>) -> Server {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ugine"));
        match token {
            Some(t) => cmd.env("UGINE_GUI_TOKEN", t),
            None => cmd.env_remove("UGINE_GUI_TOKEN"),
        };
        let mut child = cmd
            .arg("gui")
            .args(args)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start ugine gui");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).expect("url line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in '{line}'"))
            .to_string();
        Server { child, url }
    }

    /// `host:port` of the server.
    fn host(&self) -> String {
        self.url.trim_start_matches("http://").split('/').next().unwrap().to_string()
    }

    /// The access token in the printed URL.
    fn token(&self) -> String {
        self.url.split("token=").nth(1).expect("a token in the URL").to_string()
    }

    /// Waits until no engine process of the server runs; fails after `secs` seconds.
    fn wait_no_engines(&self, secs: u64, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(secs);
        while self.engines() > 0 {
            assert!(Instant::now() < deadline, "{what}: an engine process still runs");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The engine processes the server has started and not yet ended.
    fn engines(&self) -> usize {
        let dir = format!("/proc/{}/task", self.child.id());
        let Ok(tasks) = std::fs::read_dir(dir) else { return 0 };
        tasks
            .flatten()
            .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
            .map(|c| c.split_whitespace().count())
            .sum()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn shots_dir() -> PathBuf {
    let dir = std::env::var_os("UGINE_GUI_SHOTS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/gui-screenshots"),
        PathBuf::from,
    );
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    dir
}

/// Sets the settings form and clicks "New game".
fn new_game(c: &mut Chrome, tab: &Tab, game: &str, p1: &str, p2: &str, movetime: f64) {
    let js = format!(
        "(() => {{ const g = document.getElementById('game'); g.value = {game};
           g.dispatchEvent(new Event('change'));
           document.getElementById('p1').value = {p1}; document.getElementById('p2').value = {p2};
           document.getElementById('movetime').value = {movetime}; return true; }})()",
        game = Value::from(game),
        p1 = Value::from(p1),
        p2 = Value::from(p2)
    );
    c.eval(tab, &js);
    c.click(tab, "#newgame");
    c.wait(
        tab,
        &format!("ugine.state.game === {} && ugine.state.moves.length === 0", Value::from(game)),
        20,
        "the new game",
    );
}

fn moves_played(c: &mut Chrome, tab: &Tab) -> usize {
    c.eval(tab, "ugine.state.moves.length").as_u64().unwrap() as usize
}

/// Enters one legal move (chosen by `pick` among the legal moves) by clicking its tokens:
/// places on the board, or the buttons offered for tokens that have none.
fn click_move(c: &mut Chrome, tab: &Tab, game: &str, pick: usize) -> String {
    let legal = c.wait(tab, "ugine.state.legal.length > 0 && ugine.state.legal", 30, "legal moves");
    let legal = legal.as_array().unwrap();
    let mv = legal[pick % legal.len()].as_str().unwrap().to_string();
    let tokens = c.eval(
        tab,
        &format!(
            "Boards[{}].tokens({}, ugine.state.legal)",
            Value::from(game),
            Value::from(mv.clone())
        ),
    );
    for t in tokens.as_array().unwrap() {
        let t = Value::from(t.as_str().unwrap());
        let on_board = format!("#board [data-cell={t}].target");
        let button = format!("#choices button[data-token={t}]");
        let js = format!(
            "document.querySelector({b}) ? {b} : document.querySelector({k}) ? {k} : null",
            b = Value::from(on_board),
            k = Value::from(button)
        );
        let sel = c.wait(tab, &js, 10, &format!("a place to click for {t} of {mv}"));
        c.click(tab, sel.as_str().unwrap());
    }
    mv
}

#[test]
fn every_game_is_played_by_clicks_against_the_engine() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = c.open(&server.url);
    c.wait(&tab, "window.ugine && ugine.hello && ugine.state", 30, "the page");
    let games = ["morris", "moebius-chess", "mobius", "mabula", "morpiae"];
    for (g, game) in games.iter().enumerate() {
        new_game(&mut c, &tab, game, "human", "ugine", 0.2);
        for ply in 0..2 {
            let mv = click_move(&mut c, &tab, game, 7 * g + 5 * ply + 3);
            let want = 2 * ply + 2;
            c.wait(
                &tab,
                &format!("ugine.state.moves.length >= {want} && ugine.state.thinking === null"),
                30,
                &format!("{game}: the engine's reply to {mv}"),
            );
            let moves = c.eval(&tab, "ugine.state.moves");
            assert_eq!(
                moves[2 * ply],
                Value::from(mv.clone()),
                "{game}: the move clicked is played"
            );
        }
        let listed = c.eval(&tab, "document.querySelectorAll('#moves [data-ply]').length");
        assert_eq!(listed, Value::from(moves_played(&mut c, &tab)), "{game}: the move list");
        let info = c.eval(&tab, "document.getElementById('info1').textContent");
        assert!(info.as_str().unwrap().contains("depth"), "{game}: engine output shown: {info}");
        let drawn = c.eval(&tab, "document.querySelectorAll('#board [data-cell]').length");
        assert!(drawn.as_u64().unwrap() > 0, "{game}: the board is drawn");
        c.screenshot(&tab, "#left", &shots_dir().join(format!("{game}.png")));
        if g == 0 {
            c.screenshot(&tab, "body", &shots_dir().join("page.png"));
        }

        // Take back: the person's last move and the engine's answer.
        let before = moves_played(&mut c, &tab);
        c.click(&tab, "#undo");
        c.wait(
            &tab,
            &format!("ugine.state.moves.length === {} && ugine.state.legal.length > 0", before - 2),
            20,
            "the take-back",
        );
    }
}

#[test]
fn engines_play_each_other_and_a_closed_tab_stops_them() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let watch = c.open(&server.url);
    c.wait(&watch, "window.ugine && ugine.hello && ugine.state", 30, "the page");
    // Clocks of 3 s and 0.1 s per move.
    c.eval(
        &watch,
        "document.getElementById('timemode').value = 'clock';
         document.getElementById('base').value = 0.05; document.getElementById('inc').value = 0.1; true",
    );
    new_game(&mut c, &watch, "morris", "ugine", "ugine", 0.05);
    c.wait(&watch, "ugine.state.moves.length >= 6", 60, "six engine moves");
    let clocks = c.eval(&watch, "ugine.state.clocks");
    assert!(clocks[0].as_u64().unwrap() < 3000 + 3 * 100, "p1 used time: {clocks}");
    let shown = c.eval(&watch, "document.querySelector('#bottom-player .clock').textContent");
    assert!(shown.as_str().unwrap().starts_with("0:0"), "{shown}");
    assert_eq!(server.engines(), 2, "one engine process per side");

    // A second tab plays its own game; the first goes on undisturbed.
    let other = c.open(&server.url);
    c.wait(&other, "window.ugine && ugine.state && ugine.state.legal.length > 0", 30, "second tab");
    new_game(&mut c, &other, "mobius", "human", "human", 1.0);
    click_move(&mut c, &other, "mobius", 0);
    c.wait(&other, "ugine.state.moves.length === 1", 20, "the second tab's move");
    let game = c.eval(&watch, "ugine.state.game");
    assert_eq!(game, Value::from("morris"));

    c.close(watch);
    let deadline = Instant::now() + Duration::from_secs(20);
    while server.engines() > 0 {
        assert!(Instant::now() < deadline, "the closed tab's engines still run");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_record_file_is_replayed_move_by_move() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = c.open(&server.url);
    c.wait(&tab, "window.ugine && ugine.hello && ugine.state", 30, "the page");
    let record = std::env::temp_dir().join(format!("ugine-gui-{}.records", std::process::id()));
    std::fs::write(
        &record,
        "id=0.0.1\tgame=morris\toptions=Morris Rules=seed\tp1=a\tp2=b\topening=startpos moves d1\t\
         moves=d7 g1 a7 a1xa7\ttimes=1 1 1 1\tresult=p1win\ttermination=adjudication\tdetail=test\n",
    )
    .unwrap();
    c.set_file(&tab, "#recordfile", &record);
    c.wait(&tab, "ugine.replay && ugine.replay.games.length === 1", 20, "the replay");
    assert_eq!(c.eval(&tab, "document.getElementById('fen').value"), "3/3/3/6/3/3/3 w 9 9 0");
    c.click(&tab, "#last");
    assert_eq!(c.eval(&tab, "document.getElementById('fen').value"), "1B1/3/3/6/3/3/WWW b 6 7 0");
    c.click(&tab, "#prev");
    c.click(&tab, "#moves [data-ply='1']");
    assert_eq!(c.eval(&tab, "document.querySelector('#moves .current').textContent"), "d1");
    let _ = std::fs::remove_file(record);
}

#[test]
fn a_crashed_engine_is_reported_and_restarted() {
    let Some(mut c) = Chrome::launch() else { return };
    // An engine that dies at its first start and works (as ugine) from the second on.
    let marker = std::env::temp_dir().join(format!("ugine-gui-flaky-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let script = format!(
        "if [ -e '{m}' ]; then exec '{ugine}'; else touch '{m}'; exit 3; fi",
        m = marker.display(),
        ugine = env!("CARGO_BIN_EXE_ugine")
    );
    let spec = format!("name=flaky cmd=sh arg=-c \"arg={script}\"");
    let server = Server::with_args(&["--engine", &spec]);
    let tab = c.open(&server.url);
    c.wait(&tab, "window.ugine && ugine.hello && ugine.state", 30, "the page");
    c.eval(&tab, "document.getElementById('game').value = 'morris'; true");
    c.eval(&tab, "document.getElementById('p1').value = 'flaky'; true");
    c.eval(&tab, "document.getElementById('p2').value = 'human'; true");
    c.eval(&tab, "document.getElementById('movetime').value = 0.1; true");
    c.click(&tab, "#newgame");
    let shown = c.wait(
        &tab,
        "!document.getElementById('error').hidden && document.getElementById('error').textContent",
        30,
        "the engine failure on the page",
    );
    assert!(shown.as_str().unwrap().contains("flaky"), "{shown}");
    c.click(&tab, "#restart");
    c.wait(
        &tab,
        "ugine.state.moves.length === 1 && ugine.state.error === null",
        30,
        "the restarted engine's move",
    );
    let _ = std::fs::remove_file(marker);
}

#[test]
fn a_resigned_game_is_saved_and_replayed() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = c.open(&server.url);
    c.wait(&tab, "window.ugine && ugine.hello && ugine.state", 30, "the page");
    new_game(&mut c, &tab, "mabula", "human", "human", 1.0);
    // The first push by dragging the marble to where it stops.
    c.wait(&tab, "ugine.state.legal.includes('a4-d4')", 20, "the push a4-d4");
    c.drag(&tab, "#board [data-cell='a4']", "#board [data-cell='d4'].target");
    c.wait(&tab, "ugine.state.moves.length === 1", 20, "the first move");
    let first = "a4-d4";
    c.click(&tab, "#flip");
    click_move(&mut c, &tab, "mabula", 9);
    c.wait(&tab, "ugine.state.moves.length === 2", 20, "the second move");
    c.screenshot(&tab, "#left", &shots_dir().join("mabula-flipped.png"));
    c.click(&tab, "#resign");
    c.wait(&tab, "ugine.state.result === 'p2win'", 20, "the resignation");
    c.click(&tab, "#save");
    let line = c.wait(&tab, "ugine.lastRecord", 20, "the saved record");
    let line = line.as_str().unwrap().to_string();
    assert!(line.contains("\tgame=mabula\t") && line.contains("\tresult=p2win\t"), "{line}");
    let record =
        std::env::temp_dir().join(format!("ugine-gui-saved-{}.records", std::process::id()));
    std::fs::write(&record, &line).unwrap();
    c.set_file(&tab, "#recordfile", &record);
    c.wait(&tab, "ugine.replay && ugine.replay.games.length === 1", 20, "the replay");
    c.click(&tab, "#next");
    let shown = c.eval(&tab, "document.querySelector('#moves .current').textContent");
    assert_eq!(shown, Value::from(first));
    let _ = std::fs::remove_file(record);
}

// ---- helpers for the bugs and the safety tests ----------------------------------------------

/// A UGI engine written in sh: it answers the handshake, runs `on_go` for `go` and, unless
/// `deaf`, leaves at `quit` (a deaf engine must be killed). Returns its `--engine` spec.
fn script_engine(name: &str, on_go: &str, deaf: bool) -> String {
    let path = std::env::temp_dir().join(format!("ugine-gui-{name}-{}.sh", std::process::id()));
    let quit = if deaf { ":" } else { "exit 0" };
    std::fs::write(
        &path,
        format!(
            "while read -r cmd rest; do\n  case \"$cmd\" in\n    ugi) echo 'id name {name}'; echo ugiok;;\n    \
             isready) echo readyok;;\n    go) {on_go};;\n    quit) {quit};;\n  esac\ndone\n"
        ),
    )
    .unwrap();
    format!("name={name} cmd=sh arg={}", path.display())
}

type Socket = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>;

/// A WebSocket to the server as a page would open it: with `origin` and `token` when given.
fn raw_socket(
    server: &Server,
    origin: Option<&str>,
    token: Option<&str>,
) -> Result<Socket, tungstenite::Error> {
    use tungstenite::client::IntoClientRequest;
    let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
    let mut req = format!("ws://{}/ws{query}", server.host()).into_client_request()?;
    if let Some(o) = origin {
        req.headers_mut().insert("Origin", o.parse().unwrap());
    }
    let (ws, _) = tungstenite::connect(req)?;
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    }
    Ok(ws)
}

/// The socket of the server's own page.
fn own_socket(server: &Server) -> Socket {
    raw_socket(server, Some(&format!("http://{}", server.host())), Some(&server.token()))
        .expect("the page's own socket")
}

/// Reads messages until one of type `kind`; returns it.
fn read_until(ws: &mut Socket, kind: &str) -> Value {
    loop {
        let m = ws.read().expect("a message from the server");
        if let tungstenite::Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == kind {
                return v;
            }
        }
    }
}

fn send_json(ws: &mut Socket, v: Value) {
    ws.send(tungstenite::Message::text(v.to_string())).expect("send");
}

/// A GET request with `headers`: the status and the whole response.
fn http_get(host: &str, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(host).expect("connect");
    let mut req = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    let status = resp.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, resp)
}

/// Opens the page and waits for it.
fn open_page(c: &mut Chrome, server: &Server) -> Tab {
    let tab = c.open(&server.url);
    c.wait(&tab, "window.ugine && ugine.hello && ugine.state", 30, "the page");
    tab
}

/// Starts a new game from the position string `fen`, both sides people.
fn set_up(c: &mut Chrome, tab: &Tab, game: &str, fen: &str) {
    new_game(c, tab, game, "human", "human", 1.0);
    c.eval(tab, &format!("document.getElementById('fen').value = {}; true", Value::from(fen)));
    c.click(tab, "#setfen");
    c.wait(
        tab,
        &format!("ugine.state.fens[0] === {} && ugine.state.legal.length > 0", Value::from(fen)),
        20,
        "the position set up",
    );
}

// ---- bug 1: Morpiae plays a line the player did not choose ------------------------------------

#[test]
fn a_click_on_a_morpiae_point_waits_for_the_line_to_be_chosen() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = open_page(&mut c, &server);
    set_up(
        &mut c,
        &tab,
        "morpiae",
        "r cross -1,3,H,0;-1,6,H,0;1,4,A,2;1,5,D,2;3,5,V,0;5,3,H,0 - -",
    );
    let through = c.eval(&tab, "ugine.state.legal.filter((m) => m.startsWith('3,4,'))");
    assert!(through.as_array().unwrap().len() >= 2, "several lines through 3,4: {through}");
    // One click on the point: nothing is played, the candidate lines are offered.
    c.click(&tab, "#board [data-cell='3,4']");
    c.wait(
        &tab,
        "document.querySelectorAll('#board .line-choice.target').length >= 2",
        10,
        "lines",
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(moves_played(&mut c, &tab), 0, "a click on the point alone plays nothing");
    // Then a click on one line plays that line.
    let line = c.eval(
        &tab,
        "[...document.querySelectorAll('#board .line-choice.target')].map((l) => {
           const r = l.getBoundingClientRect();
           const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
           return top && top.dataset.cell === l.dataset.cell ? l.dataset.cell : null;
         }).find((m) => m)",
    );
    let line = line.as_str().expect("a line that can be clicked").to_string();
    c.click(&tab, &format!("#board [data-cell='{line}']"));
    c.wait(&tab, "ugine.state.moves.length === 1", 10, "the line's move");
    assert_eq!(c.eval(&tab, "ugine.state.moves[0]"), Value::from(line));
}

// ---- bug 2: the result banner, the sides by their colours -----------------------------------

#[test]
fn the_result_banner_names_the_winner_by_the_games_colours() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = open_page(&mut c, &server);
    let banner = "!document.getElementById('banner').hidden && [document.getElementById('banner-title').textContent, document.getElementById('banner-reason').textContent]";
    // Mabula: Black moves first and resigns.
    new_game(&mut c, &tab, "mabula", "human", "human", 1.0);
    c.click(&tab, "#resign");
    let shown = c.wait(&tab, banner, 20, "the banner");
    assert_eq!(shown, serde_json::json!(["White wins", "Black resigned"]));
    let text = c.eval(&tab, "document.body.innerText").as_str().unwrap().to_string();
    assert!(
        !text.split(|ch: char| !ch.is_alphanumeric()).any(|w| w == "p1" || w == "p2"),
        "{text}"
    );
    c.click(&tab, "#banner-close");
    assert_eq!(c.eval(&tab, "document.getElementById('banner').hidden"), Value::Bool(true));
    // Morris by the rules: White closes a mill and leaves Black two men.
    set_up(&mut c, &tab, "morris", "BB1/B2/3/5W/3/3/WW1 w 0 0 0");
    for place in ["g4", "g1", "a7"] {
        let sel = format!("#board [data-cell='{place}'].target");
        c.wait(&tab, &format!("document.querySelector({})", Value::from(sel.clone())), 10, place);
        c.click(&tab, &sel);
    }
    let shown = c.wait(&tab, banner, 20, "the banner");
    // The reason is the rules' (Session::end_reason, as the match runner records it).
    assert_eq!(shown, serde_json::json!(["White wins", "reduced to two men"]));
    assert_eq!(c.eval(&tab, "ugine.state.reason"), "reduced to two men");
    c.screenshot(&tab, "#left", &shots_dir().join("banner.png"));
}

// ---- bug 3: the engine panel when the engine reports a solved position -----------------------

#[test]
fn the_engine_panel_keeps_its_report_when_the_engine_says_solved() {
    let Some(mut c) = Chrome::launch() else { return };
    let spec = script_engine(
        "solver",
        "echo 'info depth 7 seldepth 9 score cp 35 nodes 1234 nps 5000 pv d1 d7'; \
         echo 'info string solved: win in 9'; echo 'bestmove d1'",
        false,
    );
    let server = Server::with_args(&["--engine", &spec]);
    let tab = open_page(&mut c, &server);
    new_game(&mut c, &tab, "morris", "solver", "human", 0.1);
    c.wait(&tab, "ugine.state.moves.length === 1", 20, "the engine's move");
    let panel = c.wait(
        &tab,
        "document.getElementById('info0').textContent.includes('solved') && document.getElementById('info0').textContent",
        10,
        "the note",
    );
    let panel = panel.as_str().unwrap();
    assert_eq!(c.eval(&tab, "ugine.info[0].pv"), serde_json::json!(["d1", "d7"]));
    for part in ["depth 7", "1234 nodes", "pv d1", "solved: win in 9"] {
        assert!(panel.contains(part), "'{part}' in the panel: {panel}");
    }
}

// ---- bug 4: time settings, engines that outlive their tab -------------------------------------

#[test]
fn absurd_time_settings_are_refused_by_the_server() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = open_page(&mut c, &server);
    c.eval(&tab, "document.getElementById('p1').value = 'ugine'; document.getElementById('movetime').value = '1e16'; true");
    c.click(&tab, "#newgame");
    let notice =
        c.wait(&tab, "document.getElementById('notice').textContent || null", 20, "the refusal");
    assert_eq!(
        notice,
        "The time per move must be between 0.01 s and 3600 s (not 10000000000000000 s)"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(c.eval(&tab, "ugine.state.thinking"), Value::Null, "no engine thinks");
    assert_eq!(server.engines(), 0, "no engine started");
    // The same from a socket, for the clock: nothing changes.
    let mut ws = own_socket(&server);
    read_until(&mut ws, "state");
    for time in [
        serde_json::json!({ "clock": { "base_ms": 1e300, "inc_ms": 0 } }),
        serde_json::json!({ "clock": { "base_ms": 60000, "inc_ms": -5 } }),
        serde_json::json!({ "movetime": { "ms": "soon" } }),
    ] {
        send_json(
            &mut ws,
            serde_json::json!({ "type": "new", "game": "mobius", "players": ["human", "human"], "time": time }),
        );
        let e = read_until(&mut ws, "error");
        let text = e["message"].as_str().unwrap();
        assert!(text.contains("must be between") || text.contains("does not understand"), "{text}");
        assert!(!text.contains("expected"), "no parser text: {text}");
        let s = read_until(&mut ws, "state");
        assert_eq!(s["game"], "morris", "the game is unchanged");
    }
}

#[test]
fn a_closed_tab_or_a_new_game_ends_its_engines_whatever_they_do() {
    // An engine that never answers `go`, and ignores `stop` and `quit`.
    let spec = script_engine("hang", ":", true);
    let server = Server::with_args(&["--engine", &spec]);
    let start = |ws: &mut Socket| {
        read_until(ws, "state");
        send_json(
            ws,
            serde_json::json!({ "type": "new", "game": "morris", "players": [{ "engine": "hang" }, "human"],
                                "time": { "movetime": { "ms": 60000 } } }),
        );
        let deadline = Instant::now() + Duration::from_secs(20);
        while server.engines() == 0 {
            assert!(Instant::now() < deadline, "the engine starts");
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(300));
    };
    let mut ws = own_socket(&server);
    start(&mut ws);
    drop(ws);
    server.wait_no_engines(3, "the tab closed while its engine thought");
    let mut ws = own_socket(&server);
    start(&mut ws);
    send_json(
        &mut ws,
        serde_json::json!({ "type": "new", "game": "morris", "players": ["human", "human"],
                            "time": { "movetime": { "ms": 1000 } } }),
    );
    server.wait_no_engines(3, "the game was replaced while its engine thought");
}

// ---- bug 5: the move list ---------------------------------------------------------------------

#[test]
fn the_move_list_is_numbered_rows_that_wrap_and_follow_the_game() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = open_page(&mut c, &server);
    new_game(&mut c, &tab, "morpiae", "human", "human", 1.0);
    // Morpiae's moves are the longest (`10,-1,A,4`); 41 plies.
    for n in 0..41 {
        c.wait(
            &tab,
            &format!("ugine.state.moves.length === {n} && ugine.state.legal.length > 0"),
            20,
            "legal",
        );
        c.eval(&tab, "sendMove(ugine.state.legal[ugine.state.legal.length - 1]); true");
    }
    c.wait(&tab, "ugine.state.moves.length === 41", 20, "41 plies");
    let list = c.eval(
        &tab,
        "(() => { const l = document.getElementById('moves'); const box = l.getBoundingClientRect();
           const rows = [...l.querySelectorAll('.row')];
           const cut = [...l.querySelectorAll('.move')].filter((m) => m.scrollWidth > m.clientWidth + 1).length;
           const last = l.querySelector('[data-ply=\"41\"]').getBoundingClientRect();
           const [a, b] = rows[0].querySelectorAll('.move').length === 2 ? [...rows[0].querySelectorAll('.move')].map((m) => m.getBoundingClientRect()) : [null, null];
           return { sideways: l.scrollWidth > l.clientWidth, cut, rows: rows.length,
             nums: rows.map((r) => r.querySelector('.num').textContent),
             sideBySide: !!a && Math.abs(a.top - b.top) < 1 && b.left > a.right,
             lastVisible: last.top >= box.top - 1 && last.bottom <= box.bottom + 1,
             current: l.querySelector('.current').dataset.ply, scrolled: l.scrollTop > 0 }; })()",
    );
    assert_eq!(list["sideways"], false, "{list}");
    assert_eq!(list["cut"], 0, "no move is cut: {list}");
    assert_eq!(list["rows"], 21, "{list}");
    let nums: Vec<String> = (1..=21).map(|n| format!("{n}.")).collect();
    assert_eq!(list["nums"], serde_json::json!(nums));
    assert_eq!(list["sideBySide"], true, "both sides' moves in one row: {list}");
    assert_eq!(list["lastVisible"], true, "scrolled to the latest move: {list}");
    assert_eq!(list["scrolled"], true, "{list}");
    assert_eq!(list["current"], "41");
}

// ---- safety ---------------------------------------------------------------------------------

#[test]
fn requests_without_the_token_are_refused() {
    let server = Server::start();
    let (host, token) = (server.host(), server.token());
    for path in ["/", "/static/app.js"] {
        assert_eq!(http_get(&host, path, &[]).0, 403, "{path} without a token");
        let wrong = format!("{path}?token={}", token.replace(|ch: char| ch != '0', "0"));
        assert_eq!(http_get(&host, &wrong, &[]).0, 403, "{path} with a wrong token");
    }
    let (status, page) = http_get(&host, &format!("/?token={token}"), &[]);
    assert_eq!(status, 200);
    assert!(page.contains(&format!("ugine_token={token}")), "the page sets the cookie: {page}");
    let cookie = format!("ugine_token={token}");
    assert_eq!(http_get(&host, "/static/app.js", &[("Cookie", &cookie)]).0, 200);
    let own = format!("http://{host}");
    match raw_socket(&server, Some(&own), None) {
        Err(tungstenite::Error::Http(r)) => assert_eq!(r.status().as_u16(), 403),
        other => panic!("a socket without the token: {:?}", other.map(|_| ())),
    }
    let mut ws = raw_socket(&server, Some(&own), Some(&token)).expect("with the token");
    assert_eq!(read_until(&mut ws, "hello")["type"], "hello");
}

#[test]
fn a_websocket_from_another_origin_is_refused() {
    let server = Server::start();
    let token = server.token();
    for origin in [Some("http://evil.example"), Some("http://127.0.0.1:1"), None] {
        match raw_socket(&server, origin, Some(&token)) {
            Err(tungstenite::Error::Http(r)) => assert_eq!(r.status().as_u16(), 403, "{origin:?}"),
            other => panic!("{origin:?}: {:?}", other.map(|_| ())),
        }
    }
    assert_eq!(server.engines(), 0);
}

#[test]
fn an_oversized_message_is_refused_without_its_text_coming_back() {
    let server = Server::start();
    let mut ws = own_socket(&server);
    read_until(&mut ws, "state");
    let started = Instant::now();
    let big = format!("{{\"type\":\"move\",\"mv\":\"{}\"}}", "x".repeat(10 << 20));
    let _ = ws.send(tungstenite::Message::text(big));
    let mut received = 0;
    let close = loop {
        match ws.read() {
            Ok(tungstenite::Message::Close(f)) => break f,
            Ok(m) => received += m.len(),
            Err(_) => break None,
        }
    };
    assert!(started.elapsed() < Duration::from_secs(3), "refused at once: {:?}", started.elapsed());
    assert!(received < 1000, "nothing of the message comes back ({received} bytes)");
    if let Some(f) = close {
        assert_eq!(u16::from(f.code), 1009);
        assert_eq!(f.reason.as_str(), "a message is limited to 64 KiB");
    }
    // Under the limit, a move that is no move is refused in a few words.
    let mut ws = own_socket(&server);
    read_until(&mut ws, "state");
    send_json(&mut ws, serde_json::json!({ "type": "move", "mv": "x".repeat(60_000) }));
    let e = read_until(&mut ws, "error");
    assert!(e["message"].as_str().unwrap().len() < 200, "{e}");
}

// ---- the board a player expects ---------------------------------------------------------------

const GAMES: [&str; 5] = ["morris", "moebius-chess", "mobius", "mabula", "morpiae"];

/// Opens the settings (closed on a phone), starts a game of people, closes them again.
fn new_game_of_people(c: &mut Chrome, tab: &Tab, game: &str) {
    let open = c.eval(tab, "document.getElementById('settings').open");
    c.eval(tab, "document.getElementById('settings').open = true; true");
    new_game(c, tab, game, "human", "human", 1.0);
    c.eval(tab, &format!("document.getElementById('settings').open = {open}; fitBoard(); true"));
    c.wait(tab, "ugine.state.legal.length > 0", 10, "legal moves");
}

/// The smallest place of the board on screen, in CSS pixels.
fn smallest_place(c: &mut Chrome, tab: &Tab) -> f64 {
    c.eval(tab, "smallestPlace()").as_f64().unwrap()
}

#[test]
fn every_board_fits_a_laptop_and_a_phone_with_fingers_sized_places() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = open_page(&mut c, &server);
    for (size, w, h, phone) in [("desktop", 1366, 768, false), ("phone", 390, 844, true)] {
        c.viewport(&tab, w, h, phone);
        c.call(Some(&tab), "Page.reload", serde_json::json!({}));
        c.wait(&tab, "window.ugine && ugine.hello && ugine.state", 30, "the page again");
        for game in GAMES {
            new_game_of_people(&mut c, &tab, game);
            // A game under way: six plies (the screenshots show the move list and marks).
            for n in 0..6 {
                c.wait(
                    &tab,
                    &format!("ugine.state.moves.length === {n} && ugine.state.legal.length > 0"),
                    10,
                    "legal",
                );
                c.eval(
                    &tab,
                    &format!(
                        "sendMove(ugine.state.legal[{} % ugine.state.legal.length]); true",
                        7 * n + 3
                    ),
                );
            }
            c.wait(
                &tab,
                "ugine.state.moves.length === 6 && ugine.state.legal.length > 0",
                10,
                "six plies",
            );
            // Board, both players' bars with their clocks, and the controls, all in view.
            let outside = c.eval(
                &tab,
                "['#top-player', '#board', '#bottom-player', '#controls'].filter((s) => {
                   const r = document.querySelector(s).getBoundingClientRect();
                   return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth || r.height === 0;
                 })",
            );
            assert_eq!(outside, serde_json::json!([]), "{game} at {size}: out of view");
            let scroll = c.eval(&tab, "document.scrollingElement.scrollHeight <= innerHeight");
            assert_eq!(scroll, Value::Bool(true), "{game} at {size}: the page scrolls");
            c.screenshot(&tab, "body", &shots_dir().join(format!("{game}-{size}.png")));
            if !phone {
                continue;
            }
            // A finger's place: at least 40 px from the start (magnified where the whole
            // board would give less).
            let px = smallest_place(&mut c, &tab);
            assert!(px >= 40.0, "{game} on a phone: places of {px} px");
            let zoomed = c.eval(&tab, "ugine.zoom !== null");
            let button = c.eval(&tab, "!document.getElementById('zoomout').hidden");
            assert_eq!(zoomed, button, "{game}: a zoom button where the board is magnified");
            // The boards with many places are always magnified on a phone; Morris's and
            // Mabula's whole boards give places close to 40 px, so whether they are
            // depends on the pixels the page has (a clean-clone CI run magnified
            // Mabula): either way their places are at least 40 px (above).
            let many_places = ["moebius-chess", "mobius", "morpiae"].contains(&game);
            if many_places {
                assert_eq!(zoomed, Value::Bool(true), "{game}: magnified on a phone");
            }
            if zoomed == Value::Bool(true) {
                // Zoom out: the whole board; a tap on it magnifies it again around the tap
                // (and enters nothing).
                c.click(&tab, "#zoomout");
                // (The click scrolled the button into view.)
                c.eval(&tab, "document.querySelector('main').scrollTop = 0; true");
                c.wait(&tab, "ugine.overview && ugine.zoom === null", 10, "the whole board");
                // The button stays to zoom in again, whatever renders follow (a clock, the
                // server's state): the whole board's places were too small with it in place.
                let kept =
                    c.eval(&tab, "render(); render(); !document.getElementById('zoomout').hidden");
                // Morris's and Mabula's whole boards give places close to 40 px (above):
                // a render that gives them more room (a status line gone) may make the
                // whole board's places large enough, and then no zoom is needed.
                if kept != Value::Bool(true) {
                    assert!(!many_places, "{game}: Zoom in after two renders");
                    let px = smallest_place(&mut c, &tab);
                    assert!(px >= 40.0, "{game}: no Zoom in, but places of {px} px");
                } else {
                    if many_places {
                        assert!(smallest_place(&mut c, &tab) < 40.0, "{game}: the whole board");
                    }
                    let at = c.eval(&tab, "(() => { const r = document.getElementById('board').getBoundingClientRect(); return [r.x + r.width / 3, r.y + r.height / 2]; })()");
                    c.tap(&tab, at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
                    c.wait(
                        &tab,
                        "ugine.zoom !== null && smallestPlace() >= 40",
                        10,
                        &format!("{game} magnified again"),
                    );
                    assert_eq!(c.eval(&tab, "ugine.state.moves.length + ugine.clicked.length"), 6);
                }
            }
            // A tap on a place in view enters it.
            let target = c.eval(
                &tab,
                "(() => { const b = document.getElementById('board').getBoundingClientRect();
                   const t = [...document.querySelectorAll('#board .target')].map((e) => e.getBoundingClientRect())
                     .map((r) => [r.x + r.width / 2, r.y + r.height / 2])
                     .find(([x, y]) => x > b.left && y > b.top && x < b.right && y < b.bottom);
                   return t || null; })()",
            );
            assert!(!target.is_null(), "{game}: a target in view");
            c.tap(&tab, target[0].as_f64().unwrap(), target[1].as_f64().unwrap());
            c.wait(
                &tab,
                "ugine.state.moves.length + ugine.clicked.length > 6",
                10,
                "a tap's token",
            );
        }
    }
}

#[test]
fn legal_targets_are_dots_and_rings_of_at_least_3_to_1_contrast() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = open_page(&mut c, &server);
    for game in GAMES {
        new_game_of_people(&mut c, &tab, game);
        // The colour under each mark (the first filled shape beneath it) against the mark's.
        let worst = c.eval(
            &tab,
            "(() => {
               const lum = (c) => { const v = c.match(/[\\d.]+/g).slice(0, 3).map((x) => { x /= 255;
                 return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
                 return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
               const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
               let worst = Infinity, n = 0;
               for (const m of document.querySelectorAll('#board .hint-dot, #board .hint-ring')) {
                 // Seen against what is just outside it (diagonally, off the lines).
                 const r = m.getBoundingClientRect();
                 const ring = m.classList.contains('hint-ring');
                 const out = r.width / 2 + (ring ? 5 : 2), x = r.x + r.width / 2 + out * 0.72, y = r.y + r.height / 2 - out * 0.72;
                 const under = document.elementsFromPoint(x, y).find((e) => {
                   const f = getComputedStyle(e).fill; return !e.classList.contains('hit') && f.startsWith('rgb(') && e !== m; });
                 if (!under) continue;
                 const mark = getComputedStyle(m)[ring ? 'stroke' : 'fill'];
                 worst = Math.min(worst, ratio(mark, getComputedStyle(under).fill)); n++;
               }
               return [n, worst]; })()",
        );
        assert!(worst[0].as_u64().unwrap() > 0, "{game}: marks drawn");
        let ratio = worst[1].as_f64().unwrap();
        assert!(ratio >= 3.0, "{game}: a mark of contrast {ratio:.2}");
    }
}

#[test]
fn a_dragged_piece_follows_the_pointer() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = open_page(&mut c, &server);
    new_game_of_people(&mut c, &tab, "mabula");
    c.wait(&tab, "ugine.state.legal.includes('a4-d4')", 10, "the push a4-d4");
    let (x, y) = c.press_and_move(&tab, "#board [data-cell='a4']", 70.0, 10.0);
    let ghost = c.eval(
        &tab,
        "(() => { const g = document.querySelector('#board .dragged'); if (!g) return null;
           const r = g.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2,
           !!document.querySelector(\"#board [data-piece='a4'].lifted\")]; })()",
    );
    assert!(!ghost.is_null(), "a dragged copy of the marble");
    assert!((ghost[0].as_f64().unwrap() - x).abs() < 3.0, "{ghost} vs {x}");
    assert!((ghost[1].as_f64().unwrap() - y).abs() < 3.0, "{ghost} vs {y}");
    assert_eq!(ghost[2], Value::Bool(true), "the marble itself is lifted");
    let to = c.eval(&tab, "(() => { const r = document.querySelector(\"#board [data-cell='d4']\").getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()");
    c.release(&tab, to[0].as_f64().unwrap(), to[1].as_f64().unwrap());
    c.wait(&tab, "ugine.state.moves.length === 1", 10, "the push");
    assert_eq!(c.eval(&tab, "ugine.state.moves[0]"), "a4-d4");
    assert_eq!(c.eval(&tab, "document.querySelectorAll('#board .dragged').length"), 0);
}

#[test]
fn the_last_move_and_a_king_in_check_are_marked() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = open_page(&mut c, &server);
    set_up(&mut c, &tab, "moebius-chess", "4k11/16/16/16/16/16/16/4K3r7 w - - 0 1");
    assert_eq!(c.eval(&tab, "ugine.state.check"), serde_json::json!(["e1"]));
    let marked =
        c.eval(&tab, "[...document.querySelectorAll('#board .check')].map((e) => e.dataset.cell)");
    assert_eq!(marked, serde_json::json!(["e1"]));
    // The king steps out of check; its move is marked, the check is gone.
    let mv = c.eval(&tab, "ugine.state.legal.find((m) => /^e1[a-h][1-8]$/.test(m))");
    let mv = mv.as_str().unwrap().to_string();
    c.click(&tab, "#board [data-cell='e1']");
    c.click(&tab, &format!("#board [data-cell='{}'].target", &mv[2..]));
    c.wait(&tab, "ugine.state.moves.length === 1", 10, "the king's move");
    let last = c.eval(
        &tab,
        "[...document.querySelectorAll('#board .last')].map((e) => e.dataset.cell).sort()",
    );
    let mut want = vec!["e1".to_string(), mv[2..].to_string()];
    want.sort();
    assert_eq!(last, serde_json::json!(want));
    assert_eq!(c.eval(&tab, "document.querySelectorAll('#board .check').length"), 0);
}

#[test]
fn a_game_is_played_and_stepped_through_by_keyboard_alone() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = open_page(&mut c, &server);
    new_game_of_people(&mut c, &tab, "morris");
    c.eval(&tab, "document.activeElement.blur(); true");
    let on_board = "document.activeElement && document.activeElement.dataset && document.activeElement.dataset.cell";
    let mut tabs = 0;
    while c.eval(&tab, on_board).is_null() {
        tabs += 1;
        assert!(tabs < 60, "Tab reaches the board");
        c.key(&tab, "Tab");
    }
    for n in 1..=2 {
        c.key(&tab, "Enter");
        c.wait(&tab, &format!("ugine.state.moves.length === {n}"), 10, "a move by Enter");
        c.wait(&tab, on_board, 10, "the focus still on the board");
    }
    // A move typed in the game's notation.
    c.eval(&tab, "document.getElementById('movetext').focus(); true");
    let typed = c.eval(&tab, "ugine.state.legal[0]").as_str().unwrap().to_string();
    c.call(Some(&tab), "Input.insertText", serde_json::json!({ "text": typed }));
    c.key(&tab, "Enter");
    c.wait(&tab, "ugine.state.moves.length === 3", 10, "the typed move");
    assert_eq!(c.eval(&tab, "ugine.state.moves[2]"), Value::from(typed));
    // Not a move: a sentence, no parser text, nothing played.
    c.call(Some(&tab), "Input.insertText", serde_json::json!({ "text": "zz9" }));
    c.key(&tab, "Enter");
    let notice =
        c.wait(&tab, "document.getElementById('notice').textContent || null", 10, "the refusal");
    let notice = notice.as_str().unwrap();
    assert!(notice.contains("zz9") && !notice.contains("expected"), "{notice}");
    assert_eq!(c.eval(&tab, "ugine.state.moves.length"), 3);
    // ← → Home End.
    c.eval(&tab, "document.activeElement.blur(); true");
    let fen = |c: &mut Chrome| c.eval(&tab, "document.getElementById('fen').value");
    let fens = c.eval(&tab, "ugine.state.fens");
    c.key(&tab, "Home");
    assert_eq!(fen(&mut c), fens[0]);
    c.key(&tab, "ArrowRight");
    assert_eq!(fen(&mut c), fens[1]);
    c.key(&tab, "End");
    assert_eq!(fen(&mut c), fens[3]);
    c.key(&tab, "ArrowLeft");
    assert_eq!(fen(&mut c), fens[2]);
}

#[test]
fn the_page_reconnects_after_a_server_restart() {
    let Some(mut c) = Chrome::launch() else { return };
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let port = port.to_string();
    let token = Some("reconnect-test-token-0123456789");
    let server = Server::with(&["--port", &port], &[], token);
    let tab = open_page(&mut c, &server);
    c.eval(&tab, "window.before = ugine.state; true");
    drop(server);
    c.wait(&tab, "!ugine.connected", 10, "the page sees the server gone");
    let live = c.eval(
        &tab,
        "['newgame', 'undo', 'resign', 'play', 'movetext', 'setfen'].filter((id) => !document.getElementById(id).disabled)",
    );
    assert_eq!(live, serde_json::json!([]), "buttons that talk to the server are disabled");
    let status = c.eval(&tab, "document.getElementById('status').textContent");
    assert!(status.as_str().unwrap().contains("reconnecting"), "{status}");
    let _server = Server::with(&["--port", &port], &[], token);
    c.wait(
        &tab,
        "ugine.connected && ugine.state !== window.before && ugine.state.legal.length > 0",
        30,
        "the page back, with a new game",
    );
    assert_eq!(c.eval(&tab, "document.getElementById('newgame').disabled"), Value::Bool(false));
}

// ---- analysis mode ------------------------------------------------------------------------------

#[test]
fn analysis_mode_draws_the_best_lines_and_an_evaluation_graph() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = open_page(&mut c, &server);
    new_game_of_people(&mut c, &tab, "moebius-chess");
    for n in 0..2 {
        c.wait(
            &tab,
            &format!("ugine.state.moves.length === {n} && ugine.state.legal.length > 0"),
            10,
            "legal",
        );
        c.eval(&tab, "sendMove(ugine.state.legal[0]); true");
    }
    c.wait(&tab, "ugine.state.moves.length === 2", 10, "two moves");
    c.eval(
        &tab,
        "document.getElementById('analyst').value = 'ugine'; document.getElementById('mpv').value = 3;
         const a = document.getElementById('analyse'); a.checked = true; a.dispatchEvent(new Event('change')); true",
    );
    // The best lines (three asked; each first move once), each an arrow from a piece to
    // its square.
    let lines = c.wait(
        &tab,
        "document.querySelectorAll('#board g.analysis').length >= 2 && [...document.querySelectorAll('#board g.analysis')].map((g) => [g.dataset.move, g.querySelector('.arrow').tagName, g.querySelector('.arrow-label').textContent])",
        30,
        "the best lines on the board",
    );
    let legal = c.eval(&tab, "ugine.state.legal");
    for l in lines.as_array().unwrap() {
        assert!(legal.as_array().unwrap().contains(&l[0]), "a legal move: {l}");
        assert_eq!(l[1], "line", "an arrow: {l}");
        let score = l[2].as_str().unwrap();
        assert!(score.starts_with(['+', '-', '#']), "a score: {l}");
    }
    assert_eq!(server.engines(), 1, "one analysing engine");
    c.wait(
        &tab,
        "document.querySelector(\"#evalgraph [data-ply='2']\")",
        10,
        "a point of the graph",
    );
    // Another position shown: the analysis follows it.
    c.click(&tab, "#prev");
    c.wait(
        &tab,
        "analysis.ply === 1 && document.querySelectorAll('#board g.analysis').length >= 2",
        30,
        "the lines of position 1",
    );
    c.wait(&tab, "document.querySelector(\"#evalgraph [data-ply='1']\")", 10, "a second point");
    c.screenshot(&tab, "body", &shots_dir().join("analysis.png"));
    // A click on the graph shows its position.
    c.click(&tab, "#evalgraph [data-ply='2']");
    let fens = c.eval(&tab, "ugine.state.fens");
    assert_eq!(c.eval(&tab, "document.getElementById('fen').value"), fens[2]);
    // Off: the engine ends.
    c.eval(&tab, "const b = document.getElementById('analyse'); b.checked = false; b.dispatchEvent(new Event('change')); true");
    server.wait_no_engines(5, "analysis off");
    assert_eq!(c.eval(&tab, "document.querySelectorAll('#board g.analysis').length"), 0);
}

// ---- the watched match ---------------------------------------------------------------------

#[test]
fn a_watched_match_shows_standings_and_follows_its_newest_game() {
    let Some(mut c) = Chrome::launch() else { return };
    let record =
        std::env::temp_dir().join(format!("ugine-gui-watch-{}.records", std::process::id()));
    let line = |id: &str, p1: &str, p2: &str, moves: &str, result: &str| {
        format!(
            "id={id}\tgame=morris\toptions=Morris Rules=seed\tp1={p1}\tp2={p2}\topening=startpos\t\
             moves={moves}\ttimes=1 1 1 1 1\tresult={result}\ttermination=adjudication\tdetail=test\n"
        )
    };
    std::fs::write(
        &record,
        [
            line("0.0.0", "alpha", "beta", "d1 d7 g1 a7 a1xa7", "p1win"),
            line("0.0.1", "beta", "alpha", "d1 d7 g1 a7 a1xa7", "p1win"),
        ]
        .concat(),
    )
    .unwrap();
    let server = Server::with_args(&["--watch", record.to_str().unwrap()]);
    let tab = open_page(&mut c, &server);
    c.wait(&tab, "!document.getElementById('watchbox').hidden", 10, "the match");
    let rows = c.eval(
        &tab,
        "[...document.querySelectorAll('#standings tbody tr')].map((r) => [...r.children].map((td) => td.textContent))",
    );
    assert_eq!(rows[0][0], "alpha");
    assert_eq!(rows[0][1], "1-1-0");
    assert_eq!(rows[0][2], "50.0 %");
    // The newest game on the board, at its end.
    c.wait(&tab, "ugine.replay && ugine.replay.index === 1", 10, "the newest game");
    assert_eq!(c.eval(&tab, "document.getElementById('fen').value"), "1B1/3/3/6/3/3/WWW b 6 7 0");
    // A game more in the file: shown within a few seconds.
    let third = line("0.1.0", "alpha", "beta", "d1 d7 g1 a7 a1xa7", "p1win");
    let mut f = std::fs::OpenOptions::new().append(true).open(&record).unwrap();
    std::io::Write::write_all(&mut f, third.as_bytes()).unwrap();
    c.wait(&tab, "ugine.replay && ugine.replay.index === 2", 10, "the third game");
    let alpha =
        c.eval(&tab, "document.querySelector('#standings tbody tr').children[1].textContent");
    assert_eq!(alpha, "2-1-0");
    // An earlier game replayed: step through it.
    c.eval(&tab, "const s = document.getElementById('watchgame'); s.value = '0'; s.dispatchEvent(new Event('change')); true");
    c.wait(
        &tab,
        "ugine.replay.index === 0 && !document.getElementById('watchfollow').checked",
        10,
        "game 1",
    );
    c.click(&tab, "#first");
    assert_eq!(c.eval(&tab, "document.getElementById('fen').value"), "3/3/3/6/3/3/3 w 9 9 0");
    let _ = std::fs::remove_file(record);
}

/// A record file and its live file as `ugine match` leaves them mid-match: the games of a
/// real match (uct against random), the last two still in progress (cut short).
fn match_under_way(
    dir: &std::path::Path,
) -> (PathBuf, Vec<String>, ugine::runner::records::live::LiveSnapshot) {
    use ugine::runner::records::live::{LIVE_VERSION, LiveGame, LiveSnapshot, host_name, unix_ms};
    use ugine::runner::records::record::GameRecord;
    let full = dir.join("full.ugr");
    let o = Command::new(env!("CARGO_BIN_EXE_ugine"))
        .args(["match", "--game", "morris", "--engine", "name=uct nodes=300", "--engine"])
        .args(["name=random", "--rounds", "3", "--quiet", "--live", "off", "--records"])
        .arg(&full)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<String> =
        std::fs::read_to_string(&full).unwrap().lines().map(String::from).collect();
    assert_eq!(lines.len(), 7, "a header and six games");
    let records = dir.join("m.ugr");
    std::fs::write(&records, lines[..5].join("\n") + "\n").unwrap();
    let now = unix_ms();
    let games = lines[5..]
        .iter()
        .enumerate()
        .map(|(k, l)| {
            let r = GameRecord::parse(l).unwrap();
            let n = r.moves.len() * 2 / 3;
            LiveGame {
                id: r.id.to_string(),
                number: 5 + k,
                total: 6,
                game: r.game.clone(),
                options: r.options.clone(),
                players: r.engines.clone(),
                fen: None,
                opening: Vec::new(),
                moves: r.moves[..n].to_vec(),
                times_ms: r.times_ms[..n].to_vec(),
                evals: vec![None; n],
                clock_ms: Some([61_234 - 1000 * k as u64, 58_020]),
                to_move: if n.is_multiple_of(2) { "p1" } else { "p2" }.to_string(),
                started_ms: now - 20_000,
                moved_ms: now,
            }
        })
        .collect();
    let snap = LiveSnapshot {
        version: LIVE_VERSION,
        pid: std::process::id(),
        host: host_name(),
        updated_ms: now,
        games,
    };
    (records, lines, snap)
}

fn write_live(records: &std::path::Path, snap: &mut ugine::runner::records::live::LiveSnapshot) {
    use ugine::runner::records::live::{live_path, unix_ms};
    snap.updated_ms = unix_ms();
    let tmp = records.with_extension("tmp");
    std::fs::write(&tmp, serde_json::to_string(&snap).unwrap()).unwrap();
    std::fs::rename(tmp, live_path(records)).unwrap();
}

#[test]
fn a_watched_match_shows_its_games_in_progress_live() {
    let Some(mut c) = Chrome::launch() else { return };
    let dir = std::env::temp_dir().join(format!("ugine-gui-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (records, lines, mut snap) = match_under_way(&dir);
    write_live(&records, &mut snap);
    let full_games: Vec<Vec<String>> = lines[5..]
        .iter()
        .map(|l| {
            let moves = l.split('\t').find_map(|f| f.strip_prefix("moves=")).unwrap();
            moves.split_whitespace().map(String::from).collect()
        })
        .collect();
    let ids: Vec<String> = snap.games.iter().map(|g| g.id.clone()).collect();
    let server = Server::with_args(&["--watch", records.to_str().unwrap()]);
    let tab = open_page(&mut c, &server);
    // Both games in progress on small boards, the newest on the big board, at its end.
    c.wait(
        &tab,
        "document.querySelectorAll('#livegames .livegame').length === 2",
        10,
        "two small boards",
    );
    let on_board = "(() => { const g = ugine.replay && ugine.replay.games[ugine.replay.index];
        return g ? [g.id, g.live === true, g.moves.length, ugine.view === g.fens.length - 1] : null; })()";
    let n1 = snap.games[1].moves.len();
    let shown = c.wait(
        &tab,
        &format!(
            "(() => {{ const s = {on_board}; return s && s[0] === {} && s; }})()",
            Value::from(ids[1].clone())
        ),
        10,
        "the newest game in progress",
    );
    assert_eq!(shown, serde_json::json!([ids[1], true, n1, true]));
    let status = c.eval(&tab, "document.getElementById('status').textContent");
    assert!(status.as_str().unwrap().starts_with("Game 6 of 6 in progress"), "{status}");
    assert_eq!(c.eval(&tab, "document.getElementById('banner').hidden"), Value::Bool(true));
    assert_eq!(c.eval(&tab, "document.querySelectorAll('#board [data-cell]').length"), 24);
    // Its clocks: the side to move's running down from the live file's.
    let clocks = c.eval(&tab, "[...document.querySelectorAll('.player .clock')].map((e) => [e.textContent, e.classList.contains('running')])");
    for k in 0..2 {
        let (m, s) = clocks[k][0].as_str().unwrap().split_once(':').expect("m:ss");
        let (m, s): (u32, u32) = (m.parse().unwrap(), s.parse().unwrap());
        assert!(m <= 1 && s < 60 && (m, s) != (0, 0), "{clocks}");
    }
    assert_ne!(clocks[0][1], clocks[1][1], "one clock runs: {clocks}");
    let listed =
        c.eval(&tab, "[...document.getElementById('watchgame').options].map((o) => o.textContent)");
    assert_eq!(listed.as_array().unwrap().len(), 6, "{listed}");
    assert!(listed[5].as_str().unwrap().starts_with("● game 6/6"), "{listed}");
    let rows = c.eval(&tab, "document.querySelectorAll('#standings tbody tr').length");
    assert_eq!(rows, 2);
    c.screenshot(&tab, "body", &shots_dir().join("watch.png"));
    // A move more in the live file: on the board within a few seconds.
    snap.games[1].moves.push(full_games[1][n1].clone());
    snap.games[1].times_ms.push(5);
    snap.games[1].evals.push(None);
    write_live(&records, &mut snap);
    c.wait(
        &tab,
        &format!("(() => {{ const s = {on_board}; return s[2] === {} && s[3]; }})()", n1 + 1),
        10,
        "the next move",
    );
    // The game ends: recorded, gone from the live file. Its end (with the result) is
    // shown, then the game still in progress.
    std::fs::write(&records, lines[..5].join("\n") + "\n" + &lines[6] + "\n").unwrap();
    snap.games.pop();
    write_live(&records, &mut snap);
    let end = c.wait(
        &tab,
        &format!(
            "(() => {{ const s = {on_board}; return s[0] === {} && !s[1] && s; }})()",
            Value::from(ids[1].clone())
        ),
        10,
        "the end of the game",
    );
    assert_eq!(end[2], Value::from(full_games[1].len()));
    assert_eq!(c.eval(&tab, "document.getElementById('banner').hidden"), Value::Bool(false));
    // For a few seconds (polls come every second meanwhile).
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(c.eval(&tab, on_board)[0], Value::from(ids[1].clone()), "the end stays a while");
    c.wait(
        &tab,
        &format!(
            "(() => {{ const s = {on_board}; return s[0] === {} && s[1]; }})()",
            Value::from(ids[0].clone())
        ),
        10,
        "the game still in progress",
    );
    assert_eq!(c.eval(&tab, "document.querySelectorAll('#livegames .livegame').length"), 1);
    // A finished game picked from the list is replayed, stepped through; following stops.
    c.eval(&tab, "const s = document.getElementById('watchgame'); s.value = '1'; s.dispatchEvent(new Event('change')); true");
    c.wait(
        &tab,
        "ugine.replay.index === 1 && !document.getElementById('watchfollow').checked",
        10,
        "game 2",
    );
    c.click(&tab, "#first");
    assert_eq!(c.eval(&tab, "document.getElementById('fen').value"), "3/3/3/6/3/3/3 w 9 9 0");
    // A click on a small board shows its game.
    c.click(&tab, "#livegames .livegame");
    c.wait(
        &tab,
        &format!(
            "(() => {{ const s = {on_board}; return s[0] === {} && s[1] && s[3]; }})()",
            Value::from(ids[0].clone())
        ),
        10,
        "the small board's game",
    );
    // A live file left by a match that was killed: stale, no game in progress.
    let mut dead = Command::new("true").spawn().unwrap();
    dead.wait().unwrap();
    snap.pid = dead.id();
    write_live(&records, &mut snap);
    c.wait(&tab, "document.getElementById('livegames').hidden && document.getElementById('watchinfo').textContent.includes('no longer runs')", 10, "the stale live file");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_whole_game_is_played_against_the_engine_by_keyboard_alone() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = open_page(&mut c, &server);
    new_game(&mut c, &tab, "morris", "human", "ugine", 0.02);
    c.eval(&tab, "document.activeElement.blur(); true");
    let on_board = "document.activeElement && document.activeElement.dataset && document.activeElement.dataset.cell";
    let mut tabs = 0;
    while c.eval(&tab, on_board).is_null() {
        tabs += 1;
        assert!(tabs < 60, "Tab reaches the board");
        c.key(&tab, "Tab");
    }
    // Enter on the focused place, again and again: the focus stays on the board and moves
    // to a place that can be played, through the engine's replies, to the end.
    let mut presses = 0;
    loop {
        let ready = c.wait(
            &tab,
            &format!("(ugine.state.result && 'over') || (ugine.state.legal.length > 0 && {on_board} && 'turn')"),
            30,
            "the person's turn with the focus on the board, or the end",
        );
        if ready == "over" {
            break;
        }
        presses += 1;
        assert!(presses < 600, "the game ends");
        c.key(&tab, "Enter");
    }
    let s = c.eval(
        &tab,
        "[ugine.state.result, ugine.state.moves.length, document.getElementById('banner').hidden]",
    );
    assert!(s[1].as_u64().unwrap() > 10, "a whole game: {s}");
    assert_eq!(s[2], Value::Bool(false), "the result banner: {s}");
}

#[test]
fn a_whole_game_of_every_game_is_played_by_touch_on_a_phone() {
    let Some(mut c) = Chrome::launch() else { return };
    let server = Server::start();
    let tab = open_page(&mut c, &server);
    c.viewport(&tab, 390, 844, true);
    c.call(Some(&tab), "Page.reload", serde_json::json!({}));
    c.wait(&tab, "window.ugine && ugine.hello && ugine.state", 30, "the page on a phone");
    // Every token entered is counted.
    c.eval(&tab, "window.entered = 0; const enter0 = enter; enter = (t) => { window.entered++; enter0(t); }; true");
    // The middle of a place that can be played, inside the board's window, and its size
    // (the smaller side of a button, the smallest place of the board); null: none in view.
    let place = "(() => { const b = document.getElementById('board').getBoundingClientRect();
        const buttons = [...document.querySelectorAll('#choices button[data-token]')];
        if (buttons.length) { const r = buttons[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, Math.min(r.width, r.height)]; }
        const t = [...document.querySelectorAll('#board .target')].map((e) => e.getBoundingClientRect())
          .map((r) => [r.x + r.width / 2, r.y + r.height / 2]).find(([x, y]) => x > b.left + 2 && y > b.top + 2 && x < b.right - 2 && y < b.bottom - 2);
        return t ? [t[0], t[1], smallestPlace()] : null; })()";
    // A swipe that brings the nearest place to play into view: from a point of the board
    // that is not one, by the distance (at most most of the board's window).
    let swipe = "(() => { const b = document.getElementById('board').getBoundingClientRect();
        const mid = [b.x + b.width / 2, b.y + b.height / 2];
        const t = [...document.querySelectorAll('#board .target')].map((e) => e.getBoundingClientRect())
          .map((r) => [r.x + r.width / 2, r.y + r.height / 2])
          .reduce((a, p) => (!a || Math.hypot(p[0] - mid[0], p[1] - mid[1]) < Math.hypot(a[0] - mid[0], a[1] - mid[1]) ? p : a), null);
        if (!t) return null;
        const clamp = (v, m) => Math.max(-m, Math.min(m, v));
        const d = [clamp(mid[0] - t[0], b.width * 0.4), clamp(mid[1] - t[1], b.height * 0.4)];
        for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) {
          const x = b.x + b.width * i / 10, y = b.y + b.height * j / 10;
          const e = document.elementFromPoint(x, y);
          if (e && !(e.closest && e.closest('.target'))) return [x, y, x + d[0], y + d[1]];
        }
        return null; })()";
    for game in GAMES {
        c.eval(&tab, "document.getElementById('settings').open = true; true");
        new_game(&mut c, &tab, game, "human", "ugine", 0.02);
        c.eval(&tab, "document.getElementById('settings').open = false; fitBoard(); true");
        let (mut taps, mut swipes) = (0, 0);
        loop {
            let ready = c.wait(
                &tab,
                "(ugine.state.result && 'over') || (ugine.state.legal.length > 0 && 'turn')",
                30,
                &format!("{game}: the person's turn or the end"),
            );
            if ready == "over" {
                break;
            }
            let at = c.eval(&tab, place);
            if at.is_null() {
                // No place to play in the board's window: move the board under the finger.
                swipes += 1;
                assert!(swipes < 300, "{game}: swipes bring the places into view");
                let s = c.eval(&tab, swipe);
                assert!(!s.is_null(), "{game}: somewhere to swipe from");
                let f = |k: usize| s[k].as_f64().unwrap();
                c.swipe(&tab, (f(0), f(1)), (f(2), f(3)));
                continue;
            }
            taps += 1;
            assert!(taps < 1500, "{game}: the game ends");
            let size = at[2].as_f64().unwrap();
            assert!(size >= 40.0, "{game}: a place of {size} px for a finger");
            let before = c.eval(&tab, "window.entered").as_u64().unwrap();
            c.tap(&tab, at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
            let after = c.eval(&tab, "window.entered").as_u64().unwrap();
            assert_eq!(after, before + 1, "{game}: every tap enters a place or a button");
        }
        let moves = c.eval(&tab, "ugine.state.moves.length").as_u64().unwrap();
        assert!(moves > 4, "{game}: a whole game ({moves} plies)");
        eprintln!("{game} on a phone: {moves} plies, {taps} taps, {swipes} swipes");
    }
}
