//! The HTTP side: `/` is the page, `/static/<file>` its embedded files, `/ws` the
//! WebSocket of one tab, `/replay` (POST) reads a record file for replay, `/watch` the
//! match of `--watch`. Every request
//! needs the server's token, the WebSocket and `/replay` also the server's own origin
//! ([`access`]). Each WebSocket gets its own [`Table`] on its own thread; the table (and
//! its engines) goes when the socket closes.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::channel;

use axum::Router;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use tokio::net::TcpListener;

use super::EngineList;
use super::access;
use super::assets;
use super::records;
use super::table::{Input, Table};
use super::watch::watch_json;

/// The largest message a page may send on its WebSocket; larger ones close the socket
/// (code 1009) without being read.
pub const MAX_MESSAGE: usize = 64 * 1024;
/// The largest record file `/replay` reads.
pub const MAX_RECORDS: usize = 16 * 1024 * 1024;

/// What every request handler sees.
pub struct Gui {
    pub engines: Arc<EngineList>,
    pub token: String,
    /// The record file or directory of `--watch`.
    pub watch: Option<PathBuf>,
}

/// Serves the page on `listener` until the process ends.
pub async fn serve(listener: TcpListener, gui: Arc<Gui>) -> anyhow::Result<()> {
    let app = Router::new()
        .route("/", get(page))
        .route("/static/{file}", get(static_file))
        .route("/ws", get(upgrade))
        .route("/replay", post(replay).layer(DefaultBodyLimit::max(MAX_RECORDS)))
        .route("/watch", get(watch))
        .with_state(gui);
    axum::serve(listener, app).await?;
    Ok(())
}

fn refused(why: &'static str) -> Response {
    (StatusCode::FORBIDDEN, why).into_response()
}

const NO_TOKEN: &str =
    "This server needs the token of the URL that `ugine gui` printed: open that URL.";
const OTHER_ORIGIN: &str = "Only the page of this server may use it.";

/// Lets a request through when it carries the token (and comes from the server's own
/// page, when `own_origin`).
fn allowed(
    gui: &Gui,
    query: Option<&str>,
    headers: &HeaderMap,
    own_origin: bool,
) -> Option<Response> {
    if !access::has_token(&gui.token, query, headers) {
        return Some(refused(NO_TOKEN));
    }
    if own_origin && !access::same_origin(headers) {
        return Some(refused(OTHER_ORIGIN));
    }
    None
}

async fn page(State(gui): State<Arc<Gui>>, RawQuery(q): RawQuery, headers: HeaderMap) -> Response {
    if let Some(r) = allowed(&gui, q.as_deref(), &headers, false) {
        return r;
    }
    ([(header::SET_COOKIE, access::cookie(&gui.token))], Html(assets::INDEX)).into_response()
}

async fn static_file(
    State(gui): State<Arc<Gui>>,
    Path(file): Path<String>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    if let Some(r) = allowed(&gui, q.as_deref(), &headers, false) {
        return r;
    }
    match assets::find(&file) {
        Some(a) => ([(header::CONTENT_TYPE, a.mime)], a.text).into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

async fn replay(
    State(gui): State<Arc<Gui>>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
    text: String,
) -> Response {
    if let Some(r) = allowed(&gui, q.as_deref(), &headers, true) {
        return r;
    }
    let json = records::replay_json(&text).to_string();
    ([(header::CONTENT_TYPE, "application/json")], json).into_response()
}

/// The match of `--watch` as it stands (404 without `--watch`).
async fn watch(State(gui): State<Arc<Gui>>, RawQuery(q): RawQuery, headers: HeaderMap) -> Response {
    if let Some(r) = allowed(&gui, q.as_deref(), &headers, false) {
        return r;
    }
    let Some(path) = gui.watch.clone() else {
        return (StatusCode::NOT_FOUND, "the server watches no match (ugine gui --watch)")
            .into_response();
    };
    let json = tokio::task::spawn_blocking(move || watch_json(&path).to_string())
        .await
        .unwrap_or_default();
    ([(header::CONTENT_TYPE, "application/json")], json).into_response()
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(gui): State<Arc<Gui>>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    if let Some(r) = allowed(&gui, q.as_deref(), &headers, true) {
        return r;
    }
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| talk(socket, gui))
}

/// Relays one tab's socket to and from its table.
async fn talk(mut socket: WebSocket, gui: Arc<Gui>) {
    let (out_tx, mut out_rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let (in_tx, in_rx) = channel::<Input>();
    let table = Table::new(gui.engines.clone(), out_tx, in_tx.clone());
    let started =
        std::thread::Builder::new().name("gui-table".to_string()).spawn(move || table.run(in_rx));
    if let Err(e) = started {
        log::error!("cannot start a table thread: {e}");
        return;
    }
    loop {
        tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(t))) => {
                    if in_tx.send(Input::Client(t.to_string())).is_err() {
                        break;
                    }
                }
                Some(Err(_)) => {
                    // Most often a message over the limit: say so (without its text).
                    let frame = CloseFrame {
                        code: close_code::SIZE,
                        reason: format!("a message is limited to {} KiB", MAX_MESSAGE / 1024).into(),
                    };
                    let _ = socket.send(Message::Close(Some(frame))).await;
                    break;
                }
                Some(Ok(Message::Close(_))) | None => break,
                Some(Ok(_)) => {}
            },
            outgoing = out_rx.recv() => match outgoing {
                Some(text) => {
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                None => break,
            },
        }
    }
    // The table ends, and ends its engines.
    let _ = in_tx.send(Input::Closed);
}
