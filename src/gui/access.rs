//! Who may use the server: only the page it served, opened with the URL it printed.
//!
//! - A random token (16 bytes of `/dev/urandom`, as hex) is part of the printed URL, as
//!   Jupyter does; every request must carry it, in the `token` query parameter or in the
//!   cookie the page gets with it. Another user of the machine, or a web page that
//!   guesses the port, has no token.
//! - The WebSocket and the upload of record files also need an `Origin` header naming
//!   this very server (its `Host`), so that no other web site open in the same browser
//!   can start engine processes.

use std::io::Read;

use axum::http::{HeaderMap, header};

/// The cookie that carries the token once the page has been opened.
pub const COOKIE: &str = "ugine_token";

/// The environment variable that sets the token instead of a random one (so that an open
/// page can reconnect to a restarted server).
pub const TOKEN_VAR: &str = "UGINE_GUI_TOKEN";

/// The token of this server: `$UGINE_GUI_TOKEN` when set (letters, digits, `-` and `_`,
/// at least 16 of them), else 16 random bytes of `/dev/urandom` written as hex.
pub fn server_token() -> Result<String, String> {
    if let Ok(t) = std::env::var(TOKEN_VAR) {
        let ok =
            t.len() >= 16 && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !ok {
            return Err(format!("${TOKEN_VAR} must be at least 16 letters, digits, '-' or '_'"));
        }
        return Ok(t);
    }
    random_token()
}

/// 16 random bytes of `/dev/urandom` written as hex.
fn random_token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("cannot read /dev/urandom for the access token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Compares without stopping at the first difference.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// True when the request carries `token`: as `token=…` in `query`, or in the cookie.
pub fn has_token(token: &str, query: Option<&str>, headers: &HeaderMap) -> bool {
    let in_query = query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .filter_map(|kv| kv.strip_prefix("token="))
        .any(|t| same(t, token));
    let in_cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().strip_prefix(COOKIE)?.strip_prefix('='))
        .any(|t| same(t, token));
    in_query || in_cookie
}

/// True when the request comes from a page of this server: its `Origin` is
/// `http://<Host>`.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let get = |h| headers.get(h).and_then(|v| v.to_str().ok());
    match (get(header::ORIGIN), get(header::HOST)) {
        (Some(origin), Some(host)) => origin.strip_prefix("http://") == Some(host),
        _ => false,
    }
}

/// The `Set-Cookie` value that lets the page's later requests through.
pub fn cookie(token: &str) -> String {
    format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict")
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn the_token_is_taken_from_the_query_or_the_cookie_only() {
        let t = "0123456789abcdef0123456789abcdef";
        let none = HeaderMap::new();
        assert!(has_token(t, Some(&format!("x=1&token={t}")), &none));
        assert!(!has_token(t, Some("token=0123"), &none));
        assert!(!has_token(t, None, &none));
        let c = headers(&[(header::COOKIE, &format!("a=b; {COOKIE}={t}"))]);
        assert!(has_token(t, None, &c));
        let wrong = headers(&[(header::COOKIE, &format!("{COOKIE}=x{t}"))]);
        assert!(!has_token(t, None, &wrong));
    }

    #[test]
    fn only_the_servers_own_origin_is_accepted() {
        let h = |o: &str| headers(&[(header::HOST, "127.0.0.1:8080"), (header::ORIGIN, o)]);
        assert!(same_origin(&h("http://127.0.0.1:8080")));
        assert!(!same_origin(&h("http://evil.example")));
        assert!(!same_origin(&h("http://127.0.0.1:8081")));
        assert!(!same_origin(&headers(&[(header::HOST, "127.0.0.1:8080")])));
    }

    #[test]
    fn a_random_token_is_32_hex_digits() {
        let (a, b) = (random_token().unwrap(), random_token().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
