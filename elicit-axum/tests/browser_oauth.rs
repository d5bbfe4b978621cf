//! Issue 31 item 2 in a real browser: headless Chromium goes through the ready OAuth connection
//! on a plain-`http` loopback origin, as a developer's machine serves it, and over https, as
//! production serves it (a self-signed certificate, `--ignore-certificate-errors`). The user
//! clicks Confirm; the browser follows the redirect to the provider (a stand-in consent page on
//! another loopback port), clicks Approve, and comes back to the callback carrying the nonce
//! cookie the route set: `elicit_oauth` on http (a `__Host-` or `Secure` cookie would have been
//! dropped there), `__Host-elicit_oauth`, `Secure`, over https. The flow completes only
//! because the browser kept it, and the callback clears it. (The same with the browser's user
//! from elicit-axum-auth's `SignIn`: its test `browser_signin`.)
//!
//! Ignored by a plain `cargo test`; `./scripts/test` installs Chromium and runs it
//! (`cargo test -p elicit-axum --features oauth --test browser_oauth -- --ignored` by hand).

#[allow(dead_code)]
mod common;
mod support;

#[path = "browser/cdp.rs"]
#[allow(dead_code)]
mod cdp;
#[path = "browser/oauth_flow.rs"]
#[allow(dead_code)]
mod oauth_flow;

use axum::Router;
use axum::http::StatusCode;
use axum::http::request::Parts;
use elicit_axum::oauth::OAuth;
use oauth_flow::{Arrival, through_the_provider};
use support::*;

/// The browser user: the app's `session` cookie.
fn signed_in(parts: &Parts) -> Result<String, (StatusCode, &'static str)> {
    session_user(parts).ok_or((StatusCode::UNAUTHORIZED, "sign in first"))
}

/// The browser user is the app's own `session` cookie, set before the run.
fn signed_in_by_the_app() -> Arrival {
    Arrival {
        app: Box::new(|server, github, hook, _, _| {
            let app: Router = OAuth::new(server, github, signed_in, hook)
                .unwrap()
                .routes();
            app
        }),
        arrive: Box::new(|browser, tab, origin, _, link| {
            browser.sign_in(tab, origin, "s-alice");
            browser.goto(tab, link);
        }),
        kept: &["session"],
    }
}

#[test]
#[ignore = "needs Chromium: `./scripts/test` runs it (or `cargo test -p elicit-axum --features oauth --test browser_oauth -- --ignored`)"]
fn a_real_browser_keeps_the_development_cookie_through_the_provider_and_back() {
    let nonce_cookie = through_the_provider(false, signed_in_by_the_app());
    assert!(
        nonce_cookie["name"] == "elicit_oauth" && nonce_cookie["secure"] == false,
        "{nonce_cookie}"
    );
}

/// Production: the app over https (a self-signed certificate Chromium is told to accept), the
/// nonce cookie `__Host-elicit_oauth`, `Secure`.
#[test]
#[ignore = "needs Chromium: `./scripts/test` runs it (or `cargo test -p elicit-axum --features oauth --test browser_oauth -- --ignored`)"]
fn a_real_browser_keeps_the_host_cookie_over_https_through_the_provider_and_back() {
    let nonce_cookie = through_the_provider(true, signed_in_by_the_app());
    assert!(
        nonce_cookie["name"] == "__Host-elicit_oauth" && nonce_cookie["secure"] == true,
        "{nonce_cookie}"
    );
}
