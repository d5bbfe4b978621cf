//! The landing route's pages: minimal HTML with one inline stylesheet (allowed by its hash),
//! every text escaped, nothing loaded, no script, never cached or framed.

use ::axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};

use super::texts::PageTexts;
use elicit_runtime::url::PageError;

/// The one stylesheet of every page (a card, light and dark). Its SHA-256 is in [`CSP`]; a
/// unit test keeps the two in step.
pub(super) const STYLE: &str = concat!(
    ":root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#f6f8fa;--card:#fff;",
    "--line:#d1d9e0;--accent:#0969da;--on-accent:#fff}",
    "@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;",
    "--card:#151b23;--line:#3d444d;--accent:#4493f8;--on-accent:#0d1117}}",
    "*{box-sizing:border-box}",
    "body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;",
    "padding:24px;background:var(--bg);color:var(--fg);",
    "font:16px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,sans-serif}",
    "main{width:100%;max-width:460px;background:var(--card);border:1px solid var(--line);",
    "border-radius:12px;padding:28px 32px;box-shadow:0 1px 3px rgba(0,0,0,.08)}",
    "p,dd{overflow-wrap:anywhere}",
    ".from{margin:0 0 4px;color:var(--muted);font-size:14px}",
    "h1{margin:0 0 16px;font-size:22px;line-height:1.3}",
    ".ask{margin:0 0 20px;padding:12px 16px;border-left:3px solid var(--accent);",
    "background:var(--bg);border-radius:4px}",
    "dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:0 0 20px;font-size:14px}",
    "dt{color:var(--muted)}dd{margin:0;font-weight:600;white-space:pre-wrap}",
    ".esc{font:12px ui-monospace,monospace;color:var(--muted);border:1px solid var(--line);",
    "border-radius:3px;padding:0 2px}",
    ".cut{display:block;font-weight:400;color:var(--muted)}",
    ".hint{color:var(--muted);font-size:14px;margin:0}",
    "form{margin:24px 0 0}.actions{display:flex;gap:12px;justify-content:flex-end}",
    "button{font:inherit;font-weight:600;padding:8px 20px;border-radius:8px;",
    "border:1px solid var(--line);background:var(--card);color:var(--fg);cursor:pointer}",
    "button.confirm{background:var(--accent);border-color:var(--accent);color:var(--on-accent)}",
    "button:focus-visible{outline:2px solid var(--accent);outline-offset:2px}",
    "label{font-size:14px;font-weight:600}",
    "input{display:block;width:100%;margin:4px 0 0;font:inherit;padding:8px 10px;",
    "border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg)}",
    "input:focus-visible{outline:2px solid var(--accent);outline-offset:1px}",
);

/// Nothing loads, no script runs, only [`STYLE`] applies, no `<base>`, never framed. No
/// `form-action`: browsers apply it to the redirects after a form's submission, and the
/// application's connect step may redirect to an OAuth provider; the one form is ours, its
/// target the page's own URL.
pub(super) const CSP: &str = "default-src 'none'; \
     style-src 'sha256-1EslaXPGiJufkv4YmEyDH23qwSqc44Bm2jdeI5ME9h4='; \
     base-uri 'none'; frame-ancestors 'none'";

/// Headers on every page of the route: the link's handle is in the URL, so no caching and no
/// referrer; nothing to load, script or frame.
pub(super) fn guard_headers(headers: &mut http::HeaderMap) {
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
}

/// A whole page: `title`, then `main` (already-escaped HTML) in the card.
pub(super) fn document(status: StatusCode, title: &str, main: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>{STYLE}</style></head>\n<body><main>\n{main}</main></body></html>\n",
        title = Escaped(title),
    );
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    guard_headers(headers);
    response
}

/// A page with a heading, a message and a hint.
fn note(status: StatusCode, heading: &str, message: &str, hint: &str) -> Response {
    let main = format!(
        "<h1>{}</h1>\n<p>{}</p>\n<p class=\"hint\">{}</p>\n",
        Escaped(heading),
        Escaped(message),
        Escaped(hint),
    );
    document(status, heading, &main)
}

impl PageTexts {
    pub(super) fn completed_page(&self, heading: Option<&str>, message: Option<&str>) -> Response {
        let (h, m) = self.completed();
        note(
            StatusCode::OK,
            heading.unwrap_or(h),
            message.unwrap_or(m),
            self.close_hint(),
        )
    }

    /// The page of a flow that did not complete (status 200): `heading` and `message`, or
    /// these texts' [`failed`](PageTexts::failed) ones, and the close hint.
    pub(crate) fn failed_page(&self, heading: Option<&str>, message: Option<&str>) -> Response {
        let (h, m) = self.failed();
        note(
            StatusCode::OK,
            heading.unwrap_or(h),
            message.unwrap_or(m),
            self.close_hint(),
        )
    }

    pub(super) fn cancelled_page(&self) -> Response {
        let (heading, message) = self.cancelled();
        note(StatusCode::OK, heading, message, self.close_hint())
    }

    /// The one page of every refusal a requester can provoke with a handle, a token or its
    /// headers (forged, expired, another user's, another kind's, spent, unconfirmed, no handle),
    /// with `status`: 404 for those, 403 for a cross-site request (decided before any handle
    /// is looked at). Only [`PageError::is_unavailable`] refusals read otherwise.
    pub(crate) fn refused_page(&self, status: StatusCode) -> Response {
        let text = sentence(&PageError::Expired.to_string());
        note(status, self.refused(), &text, self.refused_hint())
    }

    /// The page for `error`: the uniform refusal (404), or "try again later" for the server's
    /// own failures (503 the store failed, 500 no store configured).
    pub(super) fn error_page(&self, error: &PageError) -> Response {
        if !error.is_unavailable() {
            return self.refused_page(StatusCode::NOT_FOUND);
        }
        let status = match error {
            PageError::NoStore => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::SERVICE_UNAVAILABLE,
        };
        note(
            status,
            self.refused(),
            &sentence(&error.to_string()),
            self.close_hint(),
        )
    }
}

/// `text` as a sentence: capitalized, ending with a full stop.
pub(super) fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    out.push_str(chars.as_str());
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// Text escaped for HTML element content and attribute values.
pub(super) struct Escaped<'a>(pub(super) &'a str);

impl std::fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(&rest[..at])?;
            f.write_str(match rest.as_bytes()[at] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&#39;",
            })?;
            rest = &rest[at + 1..];
        }
        f.write_str(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::{CSP, Escaped, STYLE, sentence};
    use base64::Engine as _;
    use sha2::{Digest, Sha256};

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            Escaped(r#"<a href="x" onclick='y'>&amp;</a>"#).to_string(),
            "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;"
        );
        assert_eq!(Escaped("plain ünïcode").to_string(), "plain ünïcode");
    }

    #[test]
    fn sentences() {
        assert_eq!(
            sentence("this link is invalid or has expired"),
            "This link is invalid or has expired."
        );
        assert_eq!(sentence("done!"), "Done!");
        assert_eq!(sentence(""), ".");
    }

    /// The CSP allows exactly the stylesheet the pages carry.
    #[test]
    fn the_csp_names_the_stylesheets_hash() {
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(STYLE));
        assert!(
            CSP.contains(&format!("style-src 'sha256-{hash}'")),
            "{hash}"
        );
        assert!(
            !STYLE.contains("</"),
            "the stylesheet cannot close its element"
        );
    }
}
