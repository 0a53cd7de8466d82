//! A headless Chromium driven over the DevTools protocol, for the GUI's end-to-end tests:
//! pages are loaded, clicked with real mouse events, read with JavaScript and
//! photographed. Chromium comes from Debian's `chromium` package (`.ci/run` installs it).

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The Chromium executable: `$CHROMIUM`, else `chromium` on the PATH.
fn executable() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths).map(|d| d.join("chromium")).find(|p| p.is_file())
    })
}

/// A running headless Chromium and one connection to it.
pub struct Chrome {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    profile: PathBuf,
}

/// A tab: the DevTools session attached to one page target.
pub struct Tab {
    pub target: String,
    session: String,
}

impl Chrome {
    /// Starts Chromium, or returns `None` when it is not installed and the tests were not
    /// told to require it (`UGINE_BROWSER_TESTS=require`, as `.ci/run` does).
    pub fn launch() -> Option<Chrome> {
        let Some(exe) = executable() else {
            assert!(
                std::env::var("UGINE_BROWSER_TESTS").as_deref() != Ok("require"),
                "chromium is not installed (apt-get install chromium)"
            );
            eprintln!("skipped: chromium is not installed");
            return None;
        };
        // A fresh profile per browser (tests run in parallel threads of one process).
        static BROWSERS: AtomicUsize = AtomicUsize::new(0);
        let n = BROWSERS.fetch_add(1, Ordering::SeqCst);
        let profile = std::env::temp_dir().join(format!("ugine-chrome-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("profile dir");
        let child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
                "--window-size=1280,1000",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromium");
        // Chromium writes its DevTools port and browser path into the profile.
        let port_file = profile.join("DevToolsActivePort");
        let deadline = Instant::now() + Duration::from_secs(60);
        let text = loop {
            if let Ok(t) = std::fs::read_to_string(&port_file)
                && t.lines().count() >= 2
            {
                break t;
            }
            assert!(Instant::now() < deadline, "chromium did not open its DevTools port");
            std::thread::sleep(Duration::from_millis(50));
        };
        let mut lines = text.lines();
        let port = lines.next().unwrap().trim();
        let path = lines.next().unwrap().trim();
        let (ws, _) =
            tungstenite::connect(format!("ws://127.0.0.1:{port}{path}")).expect("devtools socket");
        Some(Chrome { child, ws, next_id: 0, profile })
    }

    /// Sends a DevTools command (to a tab's session when given) and returns its result.
    pub fn call(&mut self, tab: Option<&Tab>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(t) = tab {
            msg["sessionId"] = Value::from(t.session.clone());
        }
        self.ws.send(Message::text(msg.to_string())).expect("devtools send");
        loop {
            let m = self.ws.read().expect("devtools read");
            let Message::Text(t) = m else { continue };
            let v: Value = serde_json::from_str(t.as_str()).expect("devtools json");
            if v["id"].as_u64() == Some(id) {
                assert!(v.get("error").is_none(), "{method} failed: {}", v["error"]);
                return v["result"].clone();
            }
        }
    }

    /// Opens `url` in a new tab of 1280×1000 CSS pixels.
    pub fn open(&mut self, url: &str) -> Tab {
        let target = self.call(None, "Target.createTarget", json!({ "url": "about:blank" }));
        let target = target["targetId"].as_str().unwrap().to_string();
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
        );
        let tab = Tab { target, session: attached["sessionId"].as_str().unwrap().to_string() };
        self.call(
            Some(&tab),
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": 1280, "height": 1000, "deviceScaleFactor": 1, "mobile": false }),
        );
        self.call(Some(&tab), "Page.navigate", json!({ "url": url }));
        tab
    }

    /// Closes a tab (as a person closing it).
    pub fn close(&mut self, tab: Tab) {
        self.call(None, "Target.closeTarget", json!({ "targetId": tab.target }));
    }

    /// Evaluates `js` in the tab and returns its value (JSON-serialisable values only).
    pub fn eval(&mut self, tab: &Tab, js: &str) -> Value {
        let r = self.call(
            Some(tab),
            "Runtime.evaluate",
            json!({ "expression": js, "returnByValue": true, "awaitPromise": true }),
        );
        assert!(r.get("exceptionDetails").is_none(), "{js}: {}", r["exceptionDetails"]);
        r["result"]["value"].clone()
    }

    /// Waits until `js` is truthy; fails with `what` after `secs` seconds.
    pub fn wait(&mut self, tab: &Tab, js: &str, secs: u64, what: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let v = self.eval(
                tab,
                &format!("(() => {{ try {{ return {js}; }} catch (e) {{ return null; }} }})()"),
            );
            if !(v.is_null() || v == Value::Bool(false)) {
                return v;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what} ({js})");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Clicks the middle of the first element matching `selector` with the mouse.
    pub fn click(&mut self, tab: &Tab, selector: &str) {
        let (x, y) = self.centre(tab, selector);
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.mouse(tab, kind, x, y);
        }
    }

    /// Drags with the mouse from the middle of `from` to the middle of `to` (looked up
    /// once the button is down, so `to` may appear only then).
    pub fn drag(&mut self, tab: &Tab, from: &str, to: &str) {
        let (x, y) = self.centre(tab, from);
        self.mouse(tab, "mouseMoved", x, y);
        self.mouse(tab, "mousePressed", x, y);
        let (x, y) = self.centre(tab, to);
        self.mouse(tab, "mouseMoved", x, y);
        self.mouse(tab, "mouseReleased", x, y);
    }

    /// Gives the tab a window of `width`×`height` CSS pixels; `phone`: a touch screen.
    pub fn viewport(&mut self, tab: &Tab, width: u32, height: u32, phone: bool) {
        self.call(
            Some(tab),
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone }),
        );
        self.call(Some(tab), "Emulation.setTouchEmulationEnabled", json!({ "enabled": phone }));
    }

    /// Touches the screen at (`x`, `y`) with one finger and lifts it.
    pub fn tap(&mut self, tab: &Tab, x: f64, y: f64) {
        for (kind, points) in [("touchStart", json!([{ "x": x, "y": y }])), ("touchEnd", json!([]))]
        {
            self.call(
                Some(tab),
                "Input.dispatchTouchEvent",
                json!({ "type": kind, "touchPoints": points }),
            );
        }
    }

    /// Touches the screen at `from` with one finger, moves it to `to` and lifts it.
    pub fn swipe(&mut self, tab: &Tab, from: (f64, f64), to: (f64, f64)) {
        let steps = 8;
        let mut events = vec![("touchStart", json!([{ "x": from.0, "y": from.1 }]))];
        for k in 1..=steps {
            let t = k as f64 / steps as f64;
            let (x, y) = (from.0 + t * (to.0 - from.0), from.1 + t * (to.1 - from.1));
            events.push(("touchMove", json!([{ "x": x, "y": y }])));
        }
        events.push(("touchEnd", json!([])));
        for (kind, points) in events {
            self.call(
                Some(tab),
                "Input.dispatchTouchEvent",
                json!({ "type": kind, "touchPoints": points }),
            );
        }
    }

    /// Presses and releases a key (`key` as in KeyboardEvent.key: "Tab", "Enter",
    /// "ArrowLeft", …).
    pub fn key(&mut self, tab: &Tab, key: &str) {
        let code = match key {
            "Tab" => 9,
            "Enter" => 13,
            " " => 32,
            "End" => 35,
            "Home" => 36,
            "ArrowLeft" => 37,
            "ArrowRight" => 39,
            _ => 0,
        };
        let text = match key {
            "Enter" => "\r",
            " " => " ",
            _ => "",
        };
        for kind in ["keyDown", "keyUp"] {
            self.call(
                Some(tab),
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code,
                        "text": if kind == "keyDown" { text } else { "" } }),
            );
        }
    }

    /// Presses the mouse button at the middle of `from` and moves it by (`dx`, `dy`)
    /// without releasing it; returns where the pointer is.
    pub fn press_and_move(&mut self, tab: &Tab, from: &str, dx: f64, dy: f64) -> (f64, f64) {
        let (x, y) = self.centre(tab, from);
        self.mouse(tab, "mouseMoved", x, y);
        self.mouse(tab, "mousePressed", x, y);
        self.mouse(tab, "mouseMoved", x + dx, y + dy);
        (x + dx, y + dy)
    }

    /// Releases the mouse button at (`x`, `y`).
    pub fn release(&mut self, tab: &Tab, x: f64, y: f64) {
        self.mouse(tab, "mouseReleased", x, y);
    }

    fn mouse(&mut self, tab: &Tab, kind: &str, x: f64, y: f64) {
        self.call(
            Some(tab),
            "Input.dispatchMouseEvent",
            json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
        );
    }

    /// The middle of the first element matching `selector`, scrolled into view.
    fn centre(&mut self, tab: &Tab, selector: &str) -> (f64, f64) {
        let js = format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return null;
               e.scrollIntoView({{ block: 'center' }}); const r = e.getBoundingClientRect();
               return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            sel = Value::from(selector)
        );
        let at = self.eval(tab, &js);
        (at[0].as_f64().expect(selector), at[1].as_f64().expect(selector))
    }

    /// Saves a PNG of the element matching `selector`.
    pub fn screenshot(&mut self, tab: &Tab, selector: &str, path: &Path) {
        let js = format!(
            "(() => {{ const r = document.querySelector({sel}).getBoundingClientRect();
               return [r.x + window.scrollX, r.y + window.scrollY, r.width, r.height]; }})()",
            sel = Value::from(selector)
        );
        let r = self.eval(tab, &js);
        let clip = json!({ "x": r[0], "y": r[1], "width": r[2], "height": r[3], "scale": 1 });
        let shot = self.call(
            Some(tab),
            "Page.captureScreenshot",
            json!({ "format": "png", "clip": clip, "captureBeyondViewport": true }),
        );
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap())
            .expect("png data");
        std::fs::write(path, png).expect("write screenshot");
    }

    /// Points a file input at `file`.
    pub fn set_file(&mut self, tab: &Tab, selector: &str, file: &Path) {
        let doc = self.call(Some(tab), "DOM.getDocument", json!({}));
        let node = self.call(
            Some(tab),
            "DOM.querySelector",
            json!({ "nodeId": doc["root"]["nodeId"], "selector": selector }),
        );
        self.call(
            Some(tab),
            "DOM.setFileInputFiles",
            json!({ "nodeId": node["nodeId"], "files": [file.to_string_lossy()] }),
        );
    }
}

impl Drop for Chrome {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
