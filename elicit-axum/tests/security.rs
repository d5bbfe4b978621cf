//! Issue 21 items 1 and 6, as an attacker would try them against the landing route: each test
//! fails on the route that completed a flow on a plain `GET` and told refusals apart by status.
//!
//! * A `GET` (a link preview, another site's `<img>` with the victim's cookie) records nothing.
//! * A `POST` records nothing without the page's token, with a token for another handle or
//!   another session, cross-site by `Sec-Fetch-Site`, or from a foreign `Origin`.
//! * The right token, from the page's own origin, records once.
//! * Every refusal a requester can provoke reads the same: one status, one body.

use std::time::{Duration, SystemTime};

#[allow(dead_code)]
mod common;
mod support;

use axum::http::{Method, StatusCode};
use common::url::*;
use elicit_runtime::url::{Completion, LandingPage};
use pollster::block_on;
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
    let asked = f
        .hook
        .subjects_asked
        .load(std::sync::atomic::Ordering::SeqCst);

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
        f.hook
            .subjects_asked
            .load(std::sync::atomic::Ordering::SeqCst),
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
        elicit_runtime::UrlAnswer::Completed { .. }
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
