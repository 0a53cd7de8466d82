//! The page, embedded in the binary: no build step, nothing fetched from the network.

/// One embedded file: its path under `/static/`, content type and text.
pub struct Asset {
    pub path: &'static str,
    pub mime: &'static str,
    pub text: &'static str,
}

/// The page itself, served at `/`.
pub const INDEX: &str = include_str!("assets/index.html");

/// The style sheet and scripts the page loads, in load order for the scripts: the shared
/// drawing helpers, one board per game, then the drawing of the page, move input,
/// analysis, the watched match and the application.
pub const ASSETS: &[Asset] = &[
    Asset { path: "style.css", mime: "text/css", text: include_str!("assets/style.css") },
    Asset { path: "svg.js", mime: "text/javascript", text: include_str!("assets/svg.js") },
    Asset { path: "morris.js", mime: "text/javascript", text: include_str!("assets/morris.js") },
    Asset {
        path: "moebius-chess.js",
        mime: "text/javascript",
        text: include_str!("assets/moebius-chess.js"),
    },
    Asset { path: "mobius.js", mime: "text/javascript", text: include_str!("assets/mobius.js") },
    Asset { path: "mabula.js", mime: "text/javascript", text: include_str!("assets/mabula.js") },
    Asset { path: "morpiae.js", mime: "text/javascript", text: include_str!("assets/morpiae.js") },
    Asset { path: "view.js", mime: "text/javascript", text: include_str!("assets/view.js") },
    Asset { path: "input.js", mime: "text/javascript", text: include_str!("assets/input.js") },
    Asset {
        path: "analysis.js",
        mime: "text/javascript",
        text: include_str!("assets/analysis.js"),
    },
    Asset { path: "watch.js", mime: "text/javascript", text: include_str!("assets/watch.js") },
    Asset { path: "app.js", mime: "text/javascript", text: include_str!("assets/app.js") },
];

/// The embedded file at `/static/<path>`.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}
