//! The HTML renderer in a real browser (headless Chromium, driven over the DevTools protocol
//! with the mouse, as a person does): every field labelled and pre-filled, the schema's
//! constraints stopping a bad answer in the page before anything is sent, the posted answer
//! read back by the server's rules, decline with a bad value in the form (and with a field
//! named like the buttons), each label ticking its own box, and the URL consent
//! panel (the site marked, the URL never a link, nothing loaded from it). Screenshots go to
//! `target/host-screenshots/`, and a person-like check looks at what is on screen: every
//! label, value and button visible, inside the window, none on top of another.
//!
//! `#[ignore]`d in a plain `cargo test`; `./scripts/test` installs Chromium and runs it
//! (`cargo test -p elicit-host --test html_in_chromium -- --ignored`).

#[allow(dead_code)]
#[path = "../../elicit-axum/tests/browser/cdp.rs"]
mod cdp;
#[allow(dead_code)]
#[path = "support/forms.rs"]
mod forms;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use elicit_host::{Elicitation, FormInput, FormModel, UrlReport, html};
use serde_json::json;

fn release() -> FormModel {
    match Elicitation::from_params(&forms::typical()).unwrap() {
        Elicitation::Form(form) => form,
        Elicitation::Url(_) => unreachable!(),
    }
}

const STYLE: &str = "<style>body{font:16px sans-serif;margin:24px}.elicit-field{margin:12px 0}\
    label,legend{font-weight:600;margin-right:8px}.elicit-help{color:#555;margin:4px 0}\
    .elicit-actions button{margin-right:12px;padding:6px 14px}mark{background:#ffe066}</style>";

/// A loopback server: `GET /form` and `GET /consent` give the pages, `POST /answer` records
/// the body.
fn serve(form_page: String, consent_page: String) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let posted: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = posted.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut head = String::new();
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = value.trim().parse().unwrap_or(0);
                }
                head.push_str(&line);
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let page = if head.starts_with("POST /answer") {
                seen.lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&body).into_owned());
                "<p id=\"done\">sent</p>".to_owned()
            } else if head.starts_with("GET /consent") {
                consent_page.clone()
            } else {
                form_page.clone()
            };
            let page = format!(
                "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">{STYLE}</head><body>{page}</body></html>"
            );
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}",
                page.len()
            );
        }
    });
    (base, posted)
}

/// The person-like look at the screen: each of `selectors` is on screen, inside the window,
/// with a size, and no two overlap.
fn all_visible(browser: &mut cdp::Browser, page: &str, selectors: &[&str]) {
    let list = serde_json::to_string(selectors).unwrap();
    let boxes = browser.eval(
        page,
        &format!(
            "{list}.map(s => {{ const e = document.querySelector(s); if (!e) return null; \
             const r = e.getBoundingClientRect(); const st = getComputedStyle(e); \
             return [r.left, r.top, r.right, r.bottom, st.visibility, st.display]; }})"
        ),
    );
    let (width, height) = (720.0, 640.0);
    let mut seen: Vec<(f64, f64, f64, f64, &str)> = Vec::new();
    for (selector, b) in selectors.iter().zip(boxes.as_array().unwrap()) {
        assert!(!b.is_null(), "{selector} is not on the page");
        let n = |i: usize| b[i].as_f64().unwrap();
        let (l, t, r, bt) = (n(0), n(1), n(2), n(3));
        assert!(r > l && bt > t, "{selector} has no size: {b}");
        assert!(
            l >= 0.0 && t >= 0.0 && r <= width && bt <= height,
            "{selector} is off screen: {b}"
        );
        assert!(
            b[4] == "visible" && b[5] != "none",
            "{selector} is hidden: {b}"
        );
        for (ol, ot, or, ob, other) in &seen {
            let overlap = l < *or && *ol < r && t < *ob && *ot < bt;
            assert!(!overlap, "{selector} lies over {other}");
        }
        seen.push((l, t, r, bt, selector));
    }
}

fn screenshot(browser: &mut cdp::Browser, page: &str, name: &str) {
    let png = browser.screenshot(page);
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 2000,
        "a real picture"
    );
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/host-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

fn pairs(body: &str) -> Vec<(String, String)> {
    url::form_urlencoded::parse(body.as_bytes())
        .into_owned()
        .collect()
}

#[test]
#[ignore = "needs Chromium: ./scripts/test installs it and runs this"]
fn a_person_answers_the_html_form_and_consent_panel_in_chromium() {
    let form = release();
    let form_page = html::form("Release desk", &FormInput::new(&form), "/answer", &[]);
    let report = UrlReport::assess(
        "https://accounts.github.com/login/oauth/authorize?client_id=abc",
        Some("https://desk.example.com"),
    );
    let consent_page = html::consent("Release desk", "Connect GitHub", &report, "/answer");
    let (base, posted) = serve(form_page, consent_page);
    let chromium =
        cdp::find_chromium().expect("no Chromium: run scripts/chromium or set ELICIT_CHROMIUM");
    let profile = std::env::temp_dir().join(format!("elicit-host-chromium-{}", std::process::id()));
    let mut browser = cdp::Browser::launch(&chromium, profile);
    let page = browser.new_page();

    // What the person sees: every control labelled, defaults pre-filled.
    browser.goto(&page, &format!("{base}/form"));
    let unlabelled = browser.eval(
        &page,
        "[...document.querySelectorAll('input, select')].filter(e => e.labels.length === 0 || !e.labels[0].textContent.trim()).map(e => e.id)",
    );
    assert_eq!(unlabelled, json!([]));
    let values = browser.eval(
        &page,
        "[document.querySelector('#elicit-environment').value, document.querySelector('#elicit-replicas').value, document.querySelector('#elicit-canary').checked]",
    );
    assert_eq!(values, json!(["staging", "2", true]));
    let help = browser.eval(
        &page,
        "document.querySelector('#elicit-environment').getAttribute('aria-describedby')",
    );
    assert_eq!(help, json!("elicit-environment-help"));
    all_visible(
        &mut browser,
        &page,
        &[
            "#elicit--title",
            "label[for=elicit-environment]",
            "#elicit-environment",
            "label[for=elicit-replicas]",
            "#elicit-replicas",
            "label[for=elicit-notify-0]",
            "label[for=elicit-notify-1]",
            "#elicit-owner",
            "label[for=elicit-canary]",
            "button[value=accept]",
            "button[value=decline]",
            "button[value=cancel]",
        ],
    );
    screenshot(&mut browser, &page, "form.png");

    // 40 replicas and no owner: Send does nothing but show the browser's own complaint.
    browser.eval(&page, "{ const r = document.querySelector('#elicit-replicas'); r.value = '40'; r.dispatchEvent(new Event('input')) }");
    browser.click(&page, "button[value=accept]");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(posted.lock().unwrap().is_empty(), "nothing sent");
    let validity = browser.eval(
        &page,
        "[document.querySelector('#elicit-replicas').validity.rangeOverflow, document.querySelector('#elicit-owner').validity.valueMissing]",
    );
    assert_eq!(validity, json!([true, true]));

    // Fixed by the person: 3, Production, Chat ticked by a click, an owner; Send.
    browser.eval(&page, "{ const r = document.querySelector('#elicit-replicas'); r.value = '3'; r.dispatchEvent(new Event('input')) }");
    browser.eval(&page, "{ const s = document.querySelector('#elicit-environment'); s.value = 'production'; s.dispatchEvent(new Event('change')) }");
    browser.eval(&page, "{ const o = document.querySelector('#elicit-owner'); o.value = 'ada@example.com'; o.dispatchEvent(new Event('input')) }");
    browser.click(&page, "label[for=elicit-notify-1]");
    let invalid = browser.eval(
        &page,
        "[...document.querySelectorAll(':invalid')].map(e => e.id || e.tagName)",
    );
    assert_eq!(invalid, json!([]), "all fixed");
    browser.click(&page, "button[value=accept]");
    browser.wait_for(&page, "document.querySelector('#done')");
    let body = posted.lock().unwrap().pop().expect("the answer was posted");
    let result = html::read(&form, pairs(&body)).expect("the server's rules accept it");
    assert_eq!(
        serde_json::to_value(result).unwrap(),
        json!({"action": "accept", "content": {
            "environment": "production", "replicas": 3, "notify": ["chat"],
            "owner": "ada@example.com", "canary": true
        }})
    );

    // Decline skips the page's checks: a bad value still in the form does not stop it.
    browser.goto(&page, &format!("{base}/form"));
    browser.eval(
        &page,
        "document.querySelector('#elicit-replicas').value = '99'",
    );
    browser.click(&page, "button[value=decline]");
    browser.wait_for(&page, "document.querySelector('#done')");
    let body = posted.lock().unwrap().pop().unwrap();
    assert_eq!(
        serde_json::to_value(html::read(&form, pairs(&body)).unwrap()).unwrap(),
        json!({"action": "decline"})
    );

    // The consent panel: the site marked inside the full URL, the URL text and never a link,
    // nothing fetched from it (nor from anywhere but the host's own page: the browser may ask
    // it for a favicon); Open posts the person's consent.
    browser.goto(&page, &format!("{base}/consent"));
    let shown = browser.eval(
        &page,
        "[document.querySelector('mark').textContent, document.querySelector('.elicit-url code').textContent, document.querySelectorAll('a[href], img, iframe').length, performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin + '/'))]",
    );
    assert_eq!(
        shown,
        json!([
            "github.com",
            "https://accounts.github.com/login/oauth/authorize?client_id=abc",
            0,
            []
        ])
    );
    all_visible(
        &mut browser,
        &page,
        &[
            "#elicit--title",
            ".elicit-url mark",
            ".elicit-site",
            ".elicit-findings li",
            "button[value=accept]",
            "button[value=decline]",
            "button[value=cancel]",
        ],
    );
    screenshot(&mut browser, &page, "consent.png");
    browser.click(&page, "button[value=accept]");
    browser.wait_for(&page, "document.querySelector('#done')");
    let body = posted.lock().unwrap().pop().unwrap();
    assert_eq!(
        pairs(&body),
        [("elicit-action".to_owned(), "accept".to_owned())]
    );

    // A server's field named like the buttons (`accept` by default) and two whose names differ
    // only in `.` and `_`: each label ticks its own box, Send sends the field as a field, and
    // Decline is still decline.
    let Elicitation::Form(hostile) = Elicitation::from_params(&json!({"message": "Delete?",
        "requestedSchema": {"type": "object", "properties": {
            "elicit-action": {"type": "string", "title": "Action", "default": "accept"},
            "a.b": {"type": "boolean", "title": "Dot"},
            "a_b": {"type": "boolean", "title": "Underscore"}}}}))
    .unwrap() else {
        unreachable!()
    };
    let hostile_page = html::form("Release desk", &FormInput::new(&hostile), "/answer", &[]);
    let (hostile_base, hostile_posted) = serve(hostile_page, String::new());
    browser.goto(&page, &format!("{hostile_base}/form"));
    browser.click(&page, "label[for=elicit-a_2eb]");
    let ticked = browser.eval(
        &page,
        "[document.querySelector('#elicit-a_2eb').checked, document.querySelector('#elicit-a_5fb').checked, document.querySelectorAll('[id]').length === new Set([...document.querySelectorAll('[id]')].map(e => e.id)).size]",
    );
    assert_eq!(ticked, json!([true, false, true]));
    browser.click(&page, "button[value=accept]");
    browser.wait_for(&page, "document.querySelector('#done')");
    let body = hostile_posted.lock().unwrap().pop().unwrap();
    assert_eq!(
        serde_json::to_value(html::read(&hostile, pairs(&body)).unwrap()).unwrap(),
        json!({"action": "accept", "content": {"elicit-action": "accept", "a.b": true, "a_b": false}})
    );
    browser.goto(&page, &format!("{hostile_base}/form"));
    browser.click(&page, "button[value=decline]");
    browser.wait_for(&page, "document.querySelector('#done')");
    let body = hostile_posted.lock().unwrap().pop().unwrap();
    assert_eq!(
        pairs(&body),
        [
            ("field:elicit-action".to_owned(), "accept".to_owned()),
            ("elicit-action".to_owned(), "decline".to_owned())
        ]
    );
    assert_eq!(
        serde_json::to_value(html::read(&hostile, pairs(&body)).unwrap()).unwrap(),
        json!({"action": "decline"})
    );
}
