//! End-to-end tests of `ugine gui` in a real headless Chromium: a short game of every game
//! entered by mouse clicks against the ugine engine, take-back, engine against engine,
//! replay of a record file, and that a closed tab stops its engines. Screenshots of every
//! board go to `$UGINE_GUI_SHOTS` (default `target/gui-screenshots`).
//!
//! Without chromium the tests are skipped, unless `UGINE_BROWSER_TESTS=require`.

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
        let mut child = Command::new(env!("CARGO_BIN_EXE_ugine"))
            .args(["gui", "--port", "0"])
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
        let listed = c.eval(&tab, "document.querySelectorAll('#moves li').length");
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
    c.click(&tab, "#moves li[data-ply='1']");
    assert_eq!(c.eval(&tab, "document.querySelector('#moves li.current').textContent"), "d1");
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
    let shown = c.eval(&tab, "document.querySelector('#moves li.current').textContent");
    assert_eq!(shown, Value::from(first));
    let _ = std::fs::remove_file(record);
}
