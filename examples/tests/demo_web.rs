//! `demo --web` in a real browser (headless Chromium over the DevTools protocol): a person
//! answers every question of the demo on the host's HTML page, by clicking: the booking form
//! (a value the server's rules refuse shown again at its field, then fixed), the confirmation
//! ticked, the URL consent panel (its site marked, the URL text, not a link) opened, the
//! landing page's Confirm clicked a moment later, a round of two questions one after the
//! other, and a cancel. What the demo prints for each call is asserted.
//!
//! Needs Chromium (`./scripts/test` installs it): `#[ignore]`d in a plain `cargo test`, run
//! with `cargo test -p elicit-examples --test demo_web -- --ignored`.

#[allow(dead_code)]
#[path = "../../elicit-axum/tests/browser/cdp.rs"]
mod cdp;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The demo, its output collected as it comes.
struct Demo {
    child: Child,
    out: Arc<Mutex<String>>,
}

impl Demo {
    fn start() -> Demo {
        let mut child = Command::new(env!("CARGO_BIN_EXE_demo"))
            .arg("--web")
            .stdout(Stdio::piped())
            .spawn()
            .expect("the demo starts");
        let out: Arc<Mutex<String>> = Arc::default();
        let lines = BufReader::new(child.stdout.take().expect("piped"));
        let seen = out.clone();
        std::thread::spawn(move || {
            for line in lines.lines().map_while(Result::ok) {
                let mut out = seen.lock().unwrap();
                out.push_str(&line);
                out.push('\n');
            }
        });
        Demo { child, out }
    }

    /// Waits until the output contains `text`; the output so far.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let out = self.out.lock().unwrap().clone();
            if out.contains(text) {
                return out;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the demo never printed {text:?}:\n{out}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// The status line of a raw HTTP/1.1 request to `url`'s host with `head` (request line and
/// headers, CRLF-separated) and `body`.
fn status_of(url: &str, head: &str, body: &str) -> String {
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(host).expect("the page listens");
    write!(
        stream,
        "{head}\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response.lines().next().unwrap_or_default().to_owned()
}

/// Sets a field's value as the browser's own date or select widget would.
fn set(browser: &mut cdp::Browser, page: &str, selector: &str, value: &str) {
    browser.eval(
        page,
        &format!(
            "(() => {{ const e = document.querySelector({}); e.value = {}; \
             e.dispatchEvent(new Event('input', {{bubbles: true}})); return true; }})()",
            serde_json::to_string(selector).unwrap(),
            serde_json::to_string(value).unwrap()
        ),
    );
}

/// Waits for the page (which looks again every second) to show `selector`.
fn shows(browser: &mut cdp::Browser, page: &str, selector: &str) {
    browser.wait_for(
        page,
        &format!(
            "document.querySelector({}) !== null",
            serde_json::to_string(selector).unwrap()
        ),
    );
}

#[test]
#[ignore = "needs Chromium: ./scripts/test installs it"]
fn a_person_answers_the_whole_demo_in_the_browser() {
    let chromium = cdp::find_chromium().expect(
        "no Chromium: run scripts/chromium (installs Debian's `chromium`) or set ELICIT_CHROMIUM",
    );
    let demo = Demo::start();
    let out = demo.wait_for("answering in the browser: open ");
    let url = out
        .split("answering in the browser: open ")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .expect("the page's address")
        .to_owned();
    let profile = std::env::temp_dir().join(format!("elicit-demo-web-{}", std::process::id()));
    let mut browser = cdp::Browser::launch(&chromium, profile);
    let page = browser.new_page();
    browser.goto(&page, &url);

    // Only the page can answer: a post to the form's path from another site, one without the
    // page's secret, and a request naming another host (DNS rebinding) are refused, and the
    // question stays asked.
    shows(&mut browser, &page, "#elicit-date");
    let action = browser.eval(
        &page,
        "document.querySelector('form').getAttribute('action')",
    );
    let action = action.as_str().expect("the form's action").to_owned();
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let forged = "elicit-action=decline";
    assert_eq!(
        status_of(
            &url,
            &format!("POST {action} HTTP/1.1\r\nhost: {host}\r\norigin: http://evil.example"),
            forged
        ),
        "HTTP/1.1 403 Forbidden"
    );
    assert_eq!(
        status_of(
            &url,
            &format!("POST /answer/guessed HTTP/1.1\r\nhost: {host}"),
            forged
        ),
        "HTTP/1.1 403 Forbidden"
    );
    assert_eq!(
        status_of(&url, "GET / HTTP/1.1\r\nhost: rebound.example", ""),
        "HTTP/1.1 421 Misdirected Request"
    );
    assert!(!demo.wait_for("answer in your browser").contains("← result"));

    // The booking form: 30 guests are refused by the server's rules (the page's own check is
    // taken off, as a page that lost it would be), shown at the field; then 4.
    shows(&mut browser, &page, "#elicit-date");
    set(&mut browser, &page, "#elicit-date", "2026-12-24");
    set(&mut browser, &page, "#elicit-guests", "30");
    browser.eval(&page, "document.querySelector('form').noValidate = true");
    browser.click(&page, "button[value=accept]");
    shows(&mut browser, &page, "#elicit-guests[aria-invalid=true]");
    let problem = browser.eval(&page, "document.querySelector('[role=alert]').textContent");
    assert_eq!(problem, "must be at most 12");
    set(&mut browser, &page, "#elicit-guests", "4");
    browser.click(&page, "button[value=accept]");
    demo.wait_for(
        "← result: accept: table for 4 at Chez Rust on 2026-12-24 at 19:30, seating indoor",
    );

    // The confirmation, ticked.
    shows(&mut browser, &page, "#elicit-confirm");
    browser.click(&page, "#elicit-confirm");
    browser.click(&page, "button[value=accept]");
    demo.wait_for("← result: accept: reservation R-1042 cancelled");

    // The consent panel: the site marked, the URL as text; Open; then the link, followed, and
    // the landing page's Confirm clicked.
    shows(&mut browser, &page, ".elicit-consent");
    assert_eq!(
        browser.eval(
            &page,
            "document.querySelector('.elicit-consent mark').textContent"
        ),
        "127.0.0.1"
    );
    assert_eq!(
        browser.eval(
            &page,
            "document.querySelectorAll('.elicit-consent a').length"
        ),
        0
    );
    browser.click(&page, "button[value=accept]");
    shows(&mut browser, &page, "#elicit-opened");
    let link = browser.eval(&page, "document.querySelector('#elicit-opened').href");
    let link = link.as_str().expect("the link").to_owned();
    assert!(link.starts_with("http://127.0.0.1:"), "{link}");
    browser.navigate(&page, &link);
    shows(&mut browser, &page, "button.confirm");
    std::thread::sleep(Duration::from_secs(2));
    browser.click(&page, "button.confirm");
    demo.wait_for("← result: accept: connected github as demo-user@github");

    // Two questions of one round, one after the other; then the last booking cancelled.
    browser.goto(&page, &url);
    shows(&mut browser, &page, "#elicit-start");
    set(&mut browser, &page, "#elicit-start", "2027-03-01");
    browser.click(&page, "button[value=accept]");
    shows(&mut browser, &page, "#elicit-adults");
    browser.click(&page, "button[value=accept]");
    demo.wait_for(
        "← result: accept: 3 nights in Lisbon from 2027-03-01 for 2 adults and 0 children",
    );
    shows(&mut browser, &page, "#elicit-date");
    browser.click(&page, "button[value=cancel]");
    let out = demo.wait_for("── book_table {\"restaurant\":\"Le Borrow Checker\"}");
    let out = if out.contains("← result: cancel") {
        out
    } else {
        demo.wait_for("← result: cancel")
    };
    assert_eq!(out.matches("answer in your browser: ").count(), 6, "{out}");
}
