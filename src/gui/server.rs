//! The HTTP side: `/` is the page, `/static/<file>` its embedded files, `/ws` the
//! WebSocket of one tab. Each WebSocket gets its own [`Table`] on its own thread; the
//! table (and its engines) goes when the socket closes.

use std::sync::Arc;
use std::sync::mpsc::channel;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use tokio::net::TcpListener;

use super::EngineList;
use super::assets;
use super::table::{Input, Table};

/// Serves the page on `listener` until the process ends.
pub async fn serve(listener: TcpListener, engines: Arc<EngineList>) -> anyhow::Result<()> {
    let app = Router::new()
        .route("/", get(|| async { Html(assets::INDEX) }))
        .route("/static/{file}", get(static_file))
        .route("/ws", get(upgrade))
        .with_state(engines);
    axum::serve(listener, app).await?;
    Ok(())
}

async fn static_file(Path(file): Path<String>) -> Response {
    match assets::find(&file) {
        Some(a) => ([(header::CONTENT_TYPE, a.mime)], a.text).into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

async fn upgrade(ws: WebSocketUpgrade, State(engines): State<Arc<EngineList>>) -> Response {
    ws.on_upgrade(move |socket| talk(socket, engines))
}

/// Relays one tab's socket to and from its table.
async fn talk(mut socket: WebSocket, engines: Arc<EngineList>) {
    let (out_tx, mut out_rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let (in_tx, in_rx) = channel::<Input>();
    let table = Table::new(engines, out_tx, in_tx.clone());
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
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
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
    // The table ends, and drops its engines.
    let _ = in_tx.send(Input::Closed);
}
