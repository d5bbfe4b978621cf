//! Issue 21 items 1 and 6, as an attacker would try them against the landing route: each test
//! fails on the route that completed a flow on a plain `GET` and told refusals apart by status.
//!
//! * A `GET` (a link preview, another site's `<img>` with the victim's cookie) records nothing.
//! * A `POST` records nothing without the page's token, with a token for another handle or
//!   another session, cross-site by `Sec-Fetch-Site`, or from a foreign `Origin`.
//! * The right token, from the page's own origin, records once.
//! * Every refusal a requester can provoke reads the same: one status, one body.
//!
//! Issue 32, the same way:
//!
//! * DNS rebinding: where the route has an origin, a `GET` or a `POST` for another `Host` (an
//!   attacker's name for the server's address) is refused, with the uniform 404.
//! * A page's token confirms its own link only: not a later link of the same flow, neither
//!   while the page's link is open nor once it expired.

use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime};

#[allow(dead_code)]
mod common;
mod support;

use axum::Router;
use axum::http::{Method, StatusCode};
use common::trace::recorded;
use common::url::*;
use elicit_axum::{LandingRoute, landing_routes};
use elicit_runtime::url::{Completion, LandingPage, UrlLink, UrlSettings};
use elicit_runtime::{ElicitContext, ElicitUrl, Reply, UrlAnswer};
use pollster::block_on;
use serde_json::json;
use support::*;

/// What another site's page makes the victim's browser send: an `<img>`, a top-level
/// navigation, a prefetch, a link preview.
const CROSS_SITE_GETS: &[&[(&str, &str)]] = &[
    &[],
    &[
        ("sec-fetch-site", "cross-site"),
        ("sec-fetch-mode", "no-cors"),
        ("sec-fetch-dest", "image"),
    ],
    &[
        ("sec-fetch-site", "cross-site"),
        ("sec-fetch-mode", "navigate"),
        ("sec-fetch-dest", "document"),
    ],
    &[("sec-purpose", "prefetch")],
];

#[test]
fn a_get_never_records() {
    let f = fixture(Then::Complete);

    let uri = format!("/connect?elicitation={}", f.handle);
    for headers in CROSS_SITE_GETS {
        let (status, _) = send(&f.app, Method::GET, &uri, Some(ALICE), headers, "");
        assert_eq!(status, StatusCode::OK, "{headers:?}: the confirmation page");
    }
    assert!(
        f.hook.opened.lock().unwrap().is_empty(),
        "connect ran on a GET"
    );
    assert!(
        f.store.snapshot().is_empty(),
        "a GET recorded {:?}",
        f.store.snapshot()
    );
    // The tool still waits: the question again, not a completion.
    let round = input_required(block_on(
        f.caller
            .call(&f.caller.retry(&f.state, Some(answer("accept"))), connect),
    ));
    assert_asked_again(&round);
}

#[test]
fn a_post_without_the_pages_token_records_nothing() {
    let f = fixture(Then::Complete);
    let (_, html) = get(&f.app, &f.handle, Some(ALICE));
    let token = token_in(&html);

    for body in [
        String::new(),
        "decision=confirm".to_owned(),
        "token=&decision=confirm".to_owned(),
        format!("token={}&decision=confirm", tamper(&token)),
        format!("token={}&decision=confirm", &token[..token.len() - 2]),
        "token=ec1.AAAA&decision=confirm".to_owned(),
        // A handle, or the request's state, in the token's place.
        format!("token={}&decision=confirm", f.handle),
        // The right token, an unknown or doubled decision.
        format!("token={token}"),
        format!("token={token}&decision=yes"),
        format!("token={token}&decision=confirm&decision=confirm"),
        format!("token={token}&token={token}&decision=confirm"),
    ] {
        let (status, html) = post(&f.app, &f.handle, Some(ALICE), SAME_ORIGIN, &body);
        assert_eq!((status, html), refused(), "{body}");
    }
    assert!(f.hook.opened.lock().unwrap().is_empty());
    assert!(f.store.snapshot().is_empty());
}

#[test]
fn a_token_for_another_handle_or_another_session_records_nothing() {
    let (store, server) = store_and_server(sealer());
    let alice = Caller::new(&server, Some(ALICE));
    let mallory = Caller::new(&server, Some(MALLORY));
    let (handle, _) = start(&alice);
    let (other_handle, _) = start(&alice);
    let (mallorys_handle, _) = start(&mallory);
    let hook = Hook::new(Then::Complete);
    let app = app(&server, &hook);

    // alice's token for her other flow does not confirm this one.
    let other_token = token_in(&get(&app, &other_handle, Some(ALICE)).1);
    let (status, html) = press(&app, &handle, ALICE, &other_token, "confirm");
    assert_eq!((status, html), refused());

    // mallory's own page gives her a token for her own flow and session: it confirms
    // nothing of alice's, neither in mallory's session nor planted in alice's.
    let mallorys_token = token_in(&get(&app, &mallorys_handle, Some(MALLORY)).1);
    for user in [ALICE, MALLORY] {
        let (status, html) = press(&app, &handle, user, &mallorys_token, "confirm");
        assert_eq!((status, html), refused(), "{user}");
    }
    // A token of another server (same audience, other keys) does not pass either.
    let (_, other_server) = store_and_server(elicit_runtime::state::StateSealer::new(
        elicit_runtime::state::KeyRing::new(1, [9; 32]),
        "issues-server",
    ));
    let page = LandingPage::new(&other_server);
    let foreign = start(&Caller::new(&other_server, Some(ALICE))).0;
    let (opened, _) = block_on(page.open_raw(&foreign, ALICE)).unwrap();
    let foreign_token = page.confirmation_token(&opened, ALICE).unwrap();
    let (status, _) = press(&app, &handle, ALICE, &foreign_token, "confirm");
    assert_eq!(status, StatusCode::NOT_FOUND);

    assert!(hook.opened.lock().unwrap().is_empty());
    assert!(store.snapshot().is_empty());
}

#[test]
fn cross_site_posts_are_refused_with_403_before_anything_is_looked_up() {
    let f = fixture(Then::Complete);
    // Even with the right token (as if it had leaked), a cross-site post records nothing.
    let token = token_in(&get(&f.app, &f.handle, Some(ALICE)).1);
    let asked = f.hook.subjects_asked.load(Ordering::SeqCst);

    let host = ("host", "app.example.com");
    let attempts: &[&[(&str, &str)]] = &[
        // Another site's auto-submitting form.
        &[
            host,
            ("sec-fetch-site", "cross-site"),
            ("origin", "https://evil.example"),
        ],
        &[host, ("sec-fetch-site", "cross-site"), ("origin", "null")],
        &[host, ("sec-fetch-site", "cross-site")],
        // A sibling subdomain, another port of the same host.
        &[
            host,
            ("sec-fetch-site", "same-site"),
            ("origin", "https://app.example.com:8443"),
        ],
        // Not from a page at all (typed in, bookmark).
        &[host, ("sec-fetch-site", "none")],
        // Browsers without Fetch Metadata: a foreign or opaque origin.
        &[host, ("origin", "https://evil.example")],
        &[host, ("origin", "http://app.example.com.evil.example")],
        &[host, ("origin", "null")],
        // Same origin by one header, foreign by the other.
        &[
            host,
            ("sec-fetch-site", "same-origin"),
            ("origin", "https://evil.example"),
        ],
        // Neither header: not a browser's form.
        &[host],
    ];
    for headers in attempts {
        let (status, html) = post(
            &f.app,
            &f.handle,
            Some(ALICE),
            headers,
            &form(&token, "confirm"),
        );
        assert_eq!(status, StatusCode::FORBIDDEN, "{headers:?}");
        assert_eq!(html, refused().1, "{headers:?}");
    }
    assert_eq!(
        f.hook.subjects_asked.load(Ordering::SeqCst),
        asked,
        "refused before the user was even looked up"
    );
    assert!(f.hook.opened.lock().unwrap().is_empty());
    assert!(f.store.snapshot().is_empty());

    // What a browser sends for the page's own form passes: both headers, or `Origin: null`
    // (the page's `no-referrer` policy) with `Sec-Fetch-Site: same-origin`.
    let own: &[(&str, &str)] = &[host, ("sec-fetch-site", "same-origin"), ("origin", "null")];
    let (status, _) = post(
        &f.app,
        &f.handle,
        Some(ALICE),
        own,
        &form(&token, "confirm"),
    );
    assert_eq!(status, StatusCode::OK);
    assert_eq!(f.store.snapshot().len(), 1);
}

#[test]
fn the_right_token_records_once() {
    let f = fixture(Then::Complete);
    let token = token_in(&get(&f.app, &f.handle, Some(ALICE)).1);

    let (status, _) = press(&f.app, &f.handle, ALICE, &token, "confirm");
    assert_eq!(status, StatusCode::OK);
    // Replayed (a reload, a double click, a second tab): refused, nothing more recorded.
    for decision in ["confirm", "cancel"] {
        let (status, html) = post(
            &f.app,
            &f.handle,
            Some(ALICE),
            SAME_ORIGIN,
            &form(&token, decision),
        );
        assert_eq!((status, html), refused(), "{decision}");
    }
    assert_eq!(f.hook.opened.lock().unwrap().len(), 1);
    assert!(matches!(
        f.store.snapshot().as_slice(),
        [Completion::Completed { .. }]
    ));
    assert!(matches!(
        retry(&f.caller, &f.state),
        UrlAnswer::Completed { .. }
    ));
}

#[test]
fn refusals_are_indistinguishable() {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let hook = Hook::new(Then::Complete);
    let app = app(&server, &hook);
    // Same keys and audience, a one-second TTL: its handles expire at once, wherever opened.
    let (_, short_lived) = store_and_server(sealer().with_ttl(Duration::from_secs(1)));
    let (expiring, _) = start(&Caller::new(&short_lived, Some(ALICE)));
    let expires_at =
        block_on(LandingPage::new(&short_lived).open::<ConnectGithub>(&expiring, ALICE))
            .unwrap()
            .expires_at();

    let (spent, _) = start(&caller);
    let (alices, _) = start(&caller);
    let (other_kind, _) = start(&caller);
    // The spent flow's token, taken before it finished.
    let spent_token = token_in(&get(&app, &spent, Some(ALICE)).1);
    assert_eq!(confirm(&app, &spent, ALICE).0, StatusCode::OK);
    let token = token_in(&get(&app, &alices, Some(ALICE)).1);

    let mut seen = Vec::new();
    // GET: forged, another user's, spent, missing, garbage.
    seen.push(("forged", get(&app, &tamper(&alices), Some(ALICE))));
    seen.push(("another user's", get(&app, &alices, Some(MALLORY))));
    seen.push(("spent", get(&app, &spent, Some(ALICE))));
    let (status, response) = send(&app, Method::GET, "/connect", Some(ALICE), &[], "");
    seen.push(("missing", (status, body(response))));
    seen.push(("garbage", get(&app, "eu1.AAAA", Some(ALICE))));
    // POST: no token, a wrong token, another user's session, spent.
    seen.push((
        "no token",
        post(&app, &alices, Some(ALICE), SAME_ORIGIN, "decision=confirm"),
    ));
    let wrong = form(&tamper(&token), "confirm");
    seen.push((
        "wrong token",
        post(&app, &alices, Some(ALICE), SAME_ORIGIN, &wrong),
    ));
    let stolen = form(&token, "confirm");
    seen.push((
        "another session",
        post(&app, &alices, Some(MALLORY), SAME_ORIGIN, &stolen),
    ));
    let replay = form(&spent_token, "confirm");
    seen.push((
        "spent, posted",
        post(&app, &spent, Some(ALICE), SAME_ORIGIN, &replay),
    ));
    // Another kind of elicitation (the hook refuses it).
    let refusing = support::app(&server, &Hook::new(Then::WrongKind));
    seen.push(("another kind", confirm(&refusing, &other_kind, ALICE)));
    // Expired.
    std::thread::sleep(
        expires_at
            .duration_since(SystemTime::now())
            .unwrap_or_default()
            + Duration::from_millis(150),
    );
    seen.push(("expired", get(&app, &expiring, Some(ALICE))));

    let expected = refused();
    for (what, answer) in &seen {
        assert_eq!(answer, &expected, "{what}");
    }
    assert_eq!(seen.len(), 11);
    // Only the confirmed one recorded.
    assert_eq!(store.snapshot().len(), 1);
}

/// A rebinding attacker's requests, as alice's browser sends them once `host` (the attacker's
/// name) resolves to the server: the page fetched by the attacker's script (same origin, to
/// the browser), then its form posted with the token read from it, from the attacker's origin.
fn rebinding_attempts(
    app: &Router,
    handle: &str,
    token: &str,
    host: &str,
    scheme: &str,
) -> Vec<(String, (StatusCode, String))> {
    let uri = format!("/connect?elicitation={handle}");
    let origin = format!("{scheme}://{host}");
    let mut seen = Vec::new();
    for headers in [
        vec![("host", host)],
        vec![("host", host), ("sec-fetch-site", "same-origin")],
        vec![],
    ] {
        let (status, response) = send_as_is(app, Method::GET, &uri, Some(ALICE), &headers, "");
        seen.push((format!("GET {headers:?}"), (status, body(response))));
    }
    let form = form(token, "confirm");
    for headers in [
        vec![
            ("host", host),
            ("origin", origin.as_str()),
            ("sec-fetch-site", "same-origin"),
        ],
        vec![
            ("host", host),
            ("origin", "null"),
            ("sec-fetch-site", "same-origin"),
        ],
        vec![("host", host), ("origin", origin.as_str())],
        vec![
            ("origin", origin.as_str()),
            ("sec-fetch-site", "same-origin"),
        ],
    ] {
        let (status, response) = send_as_is(app, Method::POST, &uri, Some(ALICE), &headers, &form);
        seen.push((format!("POST {headers:?}"), (status, body(response))));
    }
    seen
}

/// Issue 32: the demo's `/mcp` refused an attacker's `Host`, its `/connect` showed the page
/// and confirmed. Where the route has an origin (here set on the route), every request for
/// another host is refused with the uniform 404 before the user is even looked up; its own
/// host passes.
#[test]
fn dns_rebinding_is_refused_where_the_route_has_an_origin() {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let hook = Hook::new(Then::Complete);
    let app: Router = LandingRoute::new(LandingPage::new(&server), hook.clone())
        .with_origin("https://connect.example.com")
        .into_router();
    let own_host = [("host", "connect.example.com")];
    let uri = format!("/connect?elicitation={handle}");
    // alice's own page, on the route's own host: the token the attacker would read.
    let (status, response) = send(&app, Method::GET, &uri, Some(ALICE), &own_host, "");
    assert_eq!(status, StatusCode::OK);
    let token = token_in(&body(response));
    let asked = hook.subjects_asked.load(Ordering::SeqCst);

    let events = recorded(|| {
        let seen = rebinding_attempts(&app, &handle, &token, "attacker.example", "https");
        for (what, answer) in &seen {
            assert_eq!(answer, &refused(), "{what}");
        }
    });
    assert_eq!(
        hook.subjects_asked.load(Ordering::SeqCst),
        asked,
        "refused before the user was even looked up"
    );
    assert!(hook.opened.lock().unwrap().is_empty());
    assert!(store.snapshot().is_empty(), "{:?}", store.snapshot());
    // Operators see why, under target `elicit`.
    let reasons: Vec<_> = events
        .iter()
        .map(|e| {
            (
                e["message"].as_str(),
                e["status"].as_str(),
                e["reason"].as_str(),
            )
        })
        .collect();
    let refused_host = "landing page refused a request for another host";
    assert_eq!(reasons.len(), 7, "{events:?}");
    assert_eq!(
        reasons[0],
        (
            refused_host,
            "404",
            r#"Host \"attacker.example\" is not a host the route serves"#
        )
    );
    assert_eq!(reasons[2], (refused_host, "404", "no Host"));
    assert!(reasons.iter().all(|r| r.0 == refused_host), "{reasons:?}");

    // The route's own host, from the page's own origin: confirmed, once.
    let own_post = [
        ("host", "connect.example.com"),
        ("origin", "https://connect.example.com"),
        ("sec-fetch-site", "same-origin"),
    ];
    let (status, _) = send(
        &app,
        Method::POST,
        &uri,
        Some(ALICE),
        &own_post,
        &form(&token, "confirm"),
    );
    assert_eq!(status, StatusCode::OK);
    assert_eq!(store.snapshot().len(), 1);
    assert!(matches!(
        retry(&caller, &state),
        UrlAnswer::Completed { .. }
    ));
}

/// Issue 32, with no setting at all: a server whose links are built with a loopback origin
/// (`UrlSettings::with_origin`, as the demo does) gets its route's `Host` checked by `landing_routes`;
/// loopback development keeps working under `127.0.0.1`, `localhost` and `[::1]`.
#[test]
fn the_links_origin_is_enforced_by_default_and_loopback_development_works() {
    let (store, server) = store_and_server(sealer());
    let server = tuned(&server, |url| {
        url.with_origin("http://127.0.0.1:8080").unwrap()
    });
    let caller = Caller::new(&server, Some(ALICE));
    let ask = async |cx: &mut ElicitContext| bound().ask(cx).await;
    let round = input_required(block_on(caller.call(&caller.first(), ask)));
    let request = serde_json::to_value(&round.input_requests().unwrap()[KEY]).unwrap();
    let url = request["params"]["url"].as_str().unwrap();
    assert!(
        url.starts_with("http://127.0.0.1:8080/github?elicitation="),
        "{url}"
    );
    let handle = handle_of(url);
    let hook = Hook::new(Then::Complete);
    let app = landing_routes(LandingPage::new(&server), hook.clone());
    serves_loopback_only(
        &app,
        &handle,
        &store,
        &hook,
        // An attacker's name for 127.0.0.1, on the same port; another port of loopback.
        &["attacker.example:8080", "127.0.0.1:9090"],
    );
}

/// The page of `app` (a route on loopback port 8080) is served under `127.0.0.1`, `localhost`
/// and `[::1]`; under each of the `foreign` hosts nothing is looked up or recorded, and the
/// uniform refusal is all the attacker reads; then the user's own confirm records.
fn serves_loopback_only(
    app: &Router,
    handle: &str,
    store: &Recording,
    hook: &Hook,
    foreign: &[&str],
) {
    let uri = format!("/connect?elicitation={handle}");
    for host in ["127.0.0.1:8080", "localhost:8080", "[::1]:8080"] {
        let (status, response) = send(app, Method::GET, &uri, Some(ALICE), &[("host", host)], "");
        assert_eq!(status, StatusCode::OK, "{host}");
        assert!(body(response).contains("name=\"token\""), "{host}");
    }
    let own = [("host", "127.0.0.1:8080")];
    let token = token_in(&body(send(app, Method::GET, &uri, Some(ALICE), &own, "").1));
    let asked = hook.subjects_asked.load(Ordering::SeqCst);
    for host in foreign {
        for (what, answer) in rebinding_attempts(app, handle, &token, host, "http") {
            assert_eq!(answer, refused(), "{host}: {what}");
        }
    }
    assert_eq!(hook.subjects_asked.load(Ordering::SeqCst), asked);
    assert!(hook.opened.lock().unwrap().is_empty());
    assert!(store.snapshot().is_empty());

    let own_post = [
        ("host", "127.0.0.1:8080"),
        ("origin", "http://127.0.0.1:8080"),
        ("sec-fetch-site", "same-origin"),
    ];
    let form = form(&token, "confirm");
    let (status, _) = send(app, Method::POST, &uri, Some(ALICE), &own_post, &form);
    assert_eq!(status, StatusCode::OK);
    assert_eq!(store.snapshot().len(), 1);
}

/// A route with no origin at all (neither the links' nor its own) cannot tell its own host:
/// it serves only this machine's loopback names, what a local server's page is opened under.
/// An attacker's name rebound to the server's address gets the uniform refusal, before the
/// user is looked up; no `Host` either.
#[test]
fn without_any_origin_only_loopback_hosts_are_served() {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);
    let hook = Hook::new(Then::Complete);
    let app = landing_routes(LandingPage::new(&server), hook.clone());
    serves_loopback_only(
        &app,
        &handle,
        &store,
        &hook,
        &[
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example:8080",
        ],
    );
}

/// Issue 32: a link asked again keeps its flow's id; the token of the first link's page
/// confirms (or cancels) nothing on the second, and the second's nothing on the first. Each
/// page's own token works.
#[test]
fn a_token_from_another_link_of_the_same_flow_records_nothing() {
    let f = fixture(Then::Complete);
    let token_a = token_in(&get(&f.app, &f.handle, Some(ALICE)).1);
    // The client accepts before the page finished: the same flow, asked again, a new link.
    let retry = f.caller.retry(&f.state, Some(answer("accept")));
    let round = input_required(block_on(f.caller.call(&retry, connect)));
    let b = assert_asked_again(&round);
    assert_ne!(b, f.handle);
    let page = LandingPage::new(&f.server);
    let id = |handle: &str| {
        block_on(page.open_raw(handle, ALICE))
            .unwrap()
            .0
            .id()
            .to_owned()
    };
    assert_eq!(id(&f.handle), id(&b), "the same flow");

    for decision in ["confirm", "cancel"] {
        let answer = press(&f.app, &b, ALICE, &token_a, decision);
        assert_eq!(answer, refused(), "{decision}");
    }
    let token_b = token_in(&get(&f.app, &b, Some(ALICE)).1);
    assert_ne!(token_a, token_b);
    let answer = press(&f.app, &f.handle, ALICE, &token_b, "confirm");
    assert_eq!(answer, refused());
    assert!(f.store.snapshot().is_empty());
    assert!(f.hook.opened.lock().unwrap().is_empty());

    assert_eq!(
        press(&f.app, &b, ALICE, &token_b, "confirm").0,
        StatusCode::OK
    );
    assert_eq!(f.store.snapshot().len(), 1);
}

/// The link a form-only client's call ends with (a server with the link fallback).
fn link_for(caller: &Caller) -> String {
    match block_on(caller.call(&caller.first(), connect)) {
        Ok(Reply::Link(UrlLink { url, .. })) => handle_of(&url),
        other => panic!("expected the call to end with a link, got {other:?}"),
    }
}

/// Issue 32, as reported: the same call through the link fallback made again a little later derives the
/// same flow id and gets a later link to it. The token of the first link's page, taken while it
/// was open, confirmed the later link once the first had expired; now it is refused, and the
/// later link's own page confirms.
#[test]
fn a_token_from_an_expired_page_confirms_no_later_link_of_the_same_flow() {
    let (store, server) = store_and_server(sealer().with_ttl(Duration::from_secs(2)));
    let server = tuned(&server, UrlSettings::with_link_fallback);
    let caller = Caller::with_capabilities(&server, Some(ALICE), Some(json!({"elicitation": {}})));
    let page = LandingPage::new(&server);
    let opened = |handle: &str| block_on(page.open::<ConnectGithub>(handle, ALICE)).unwrap();
    let hook = Hook::new(Then::Complete);
    let app = app(&server, &hook);

    // Two calls a second apart within one window of derived flow ids: A, then B of the same
    // flow, B expiring after A. (Crossing a window's end gives B another id: try again.)
    let (a, b, token_a) = (0..4)
        .find_map(|_| {
            let a = link_for(&caller);
            let token_a = token_in(&get(&app, &a, Some(ALICE)).1);
            std::thread::sleep(Duration::from_millis(1100));
            let b = link_for(&caller);
            (opened(&a).id() == opened(&b).id()).then_some((a, b, token_a))
        })
        .expect("the same call a second later continues the same flow");
    let (expires_a, expires_b) = (opened(&a).expires_at(), opened(&b).expires_at());
    assert!(expires_b > expires_a, "B outlives A");

    // A expires; B is still open.
    std::thread::sleep(
        expires_a
            .duration_since(SystemTime::now())
            .unwrap_or_default()
            + Duration::from_millis(50),
    );
    assert!(SystemTime::now() < expires_b, "B still open");
    assert_eq!(get(&app, &a, Some(ALICE)), refused(), "A expired");
    for decision in ["confirm", "cancel"] {
        let answer = press(&app, &b, ALICE, &token_a, decision);
        assert_eq!(answer, refused(), "{decision}");
    }
    assert!(store.snapshot().is_empty(), "{:?}", store.snapshot());
    assert!(hook.opened.lock().unwrap().is_empty());

    let (status, _) = confirm(&app, &b, ALICE);
    assert_eq!(status, StatusCode::OK);
    assert_eq!(store.snapshot().len(), 1);
}
