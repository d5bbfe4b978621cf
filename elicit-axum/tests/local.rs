//! Issue 31 item 3: a stdio server's one local user. `LocalBrowser` ties each link to the
//! first browser that opens it; every other local browser (another profile, another program
//! holding the link) is refused, before Confirm and after, with the uniform page.

#[allow(dead_code)]
mod common;
mod support;

use axum::Router;
use axum::http::request::Parts;
use axum::http::{Method, StatusCode, header};
use axum::response::Response;
use common::url::*;
use elicit_axum::{ConnectHook, ConnectStep, LocalBrowser, OpenedLink, landing_routes};
use elicit_runtime::url::LandingPage;
use elicit_runtime::{LOCAL_PRINCIPAL, UrlAnswer};
use serde_json::json;
use support::*;

/// The demo's hook, with the local user built in.
struct Local {
    local: LocalBrowser,
}

impl ConnectHook for Local {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        self.local.subject(parts).await
    }
    async fn connect(&self, _: &OpenedLink, _: &Parts) -> ConnectStep {
        ConnectStep::complete(Some(json!({"account": "octocat"})))
    }
}

/// A browser: what it sends, and the cookie it keeps (none at first).
struct Browser<'a> {
    app: &'a Router,
    cookie: Option<String>,
}

impl Browser<'_> {
    /// `GET uri` as this browser, following the one claim redirect as a browser would.
    fn get(&mut self, uri: &str) -> (StatusCode, String) {
        let (status, response) = self.send(Method::GET, uri, "");
        if status != StatusCode::SEE_OTHER {
            return (status, body(response));
        }
        let set = response.headers()[header::SET_COOKIE]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            set.starts_with("elicit_browser=")
                && set.contains("HttpOnly")
                && set.contains("SameSite=Lax"),
            "{set}"
        );
        assert!(!set.contains("Secure"), "a loopback http page: {set}");
        self.cookie = Some(set.split(';').next().unwrap().to_owned());
        let location = response.headers()[header::LOCATION]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            location.starts_with(uri),
            "back to the same link: {location}"
        );
        let (status, response) = self.send(Method::GET, &location, "");
        (status, body(response))
    }

    /// Opens the link and presses Confirm.
    fn confirm(&mut self, handle: &str) -> (StatusCode, String) {
        let uri = format!("/connect?elicitation={handle}");
        let (status, html) = self.get(&uri);
        assert_eq!(status, StatusCode::OK, "{html}");
        let (status, response) = self.send(Method::POST, &uri, &form(&token_in(&html), "confirm"));
        (status, body(response))
    }

    /// One request as this browser: its cookie, and a form from the page's own origin, a
    /// loopback one (the route has no origin set: it serves only loopback names).
    fn send(&self, method: Method, uri: &str, form: &str) -> (StatusCode, Response) {
        let mut headers = vec![
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080"),
            ("sec-fetch-site", "same-origin"),
        ];
        if let Some(cookie) = &self.cookie {
            headers.push(("cookie", cookie.as_str()));
        }
        send(self.app, method, uri, None, &headers, form)
    }
}

fn app() -> (
    std::sync::Arc<Recording>,
    elicit_runtime::ElicitServer,
    Router,
) {
    let (store, server) = store_and_server(sealer());
    let hook = Local {
        local: LocalBrowser::new(&server),
    };
    let app = landing_routes(LandingPage::new(&server), hook);
    (store, server, app)
}

#[test]
fn the_first_browser_to_open_a_link_is_the_local_user_and_confirms() {
    let (store, server, app) = app();
    let caller = Caller::new(&server, Some(LOCAL_PRINCIPAL));
    let (handle, state) = start(&caller);
    let mut first = Browser {
        app: &app,
        cookie: None,
    };
    let (status, html) = first.confirm(&handle);
    assert_eq!(status, StatusCode::OK, "{html}");
    assert_eq!(store.snapshot().len(), 1);
    assert_eq!(
        retry(&caller, &state),
        UrlAnswer::Completed {
            state: bound(),
            result: Some(json!({"account": "octocat"}))
        }
    );
    // The same browser's cookie serves its next link too, without another redirect.
    let (handle, _) = start(&caller);
    let (status, response) = first.send(Method::GET, &format!("/connect?elicitation={handle}"), "");
    assert_eq!(status, StatusCode::OK, "{}", body(response));
}

/// The local user is named once: a link asked under any other principal (a server that
/// wrote `Principal::fixed("alice")` instead of `Principal::local()`) never opens, before or
/// after the claim, and nothing is recorded.
#[test]
fn a_link_asked_for_another_principal_than_the_local_one_is_refused() {
    let (store, server, app) = app();
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);
    let mut browser = Browser {
        app: &app,
        cookie: None,
    };
    let uri = format!("/connect?elicitation={handle}");
    assert_eq!(browser.get(&uri), refused());
    assert!(store.snapshot().is_empty(), "{:?}", store.snapshot());
}

#[test]
fn another_local_browser_cannot_take_the_flow_before_or_after_confirm() {
    let (store, server, app) = app();
    let caller = Caller::new(&server, Some(LOCAL_PRINCIPAL));
    let (handle, _) = start(&caller);
    let uri = format!("/connect?elicitation={handle}");
    let mut first = Browser {
        app: &app,
        cookie: None,
    };
    let (status, html) = first.get(&uri);
    assert_eq!(status, StatusCode::OK);

    // Another profile opens the same link: the uniform refusal, and no form to post.
    let mut other = Browser {
        app: &app,
        cookie: None,
    };
    let (status, refused_page) = other.get(&uri);
    assert_eq!((status, refused_page.clone()), refused());
    // Even with the first browser's page token, its form is refused.
    let (status, response) = other.send(Method::POST, &uri, &form(&token_in(&html), "confirm"));
    assert_eq!(status, StatusCode::NOT_FOUND, "{}", body(response));
    // A form without any cookie (a local program posting the link) is refused too.
    let cookieless = Browser {
        app: &app,
        cookie: None,
    };
    let (status, _) = cookieless.send(Method::POST, &uri, &form(&token_in(&html), "confirm"));
    assert_eq!(status, StatusCode::FORBIDDEN);
    // A forged cookie is no cookie: a claim redirect, then the refusal.
    let mut forged = Browser {
        app: &app,
        cookie: Some("elicit_browser=es1.AAAA".into()),
    };
    assert_eq!(forged.get(&uri), refused());
    assert!(store.snapshot().is_empty(), "{:?}", store.snapshot());

    // The first browser still confirms; afterwards the others are still refused.
    let (status, response) = first.send(Method::POST, &uri, &form(&token_in(&html), "confirm"));
    assert_eq!(status, StatusCode::OK, "{}", body(response));
    assert_eq!(other.get(&uri), refused());
}

#[test]
fn a_browser_that_keeps_no_cookies_is_told_so_not_redirected_again() {
    let (_, server, app) = app();
    let caller = Caller::new(&server, Some(LOCAL_PRINCIPAL));
    let (handle, _) = start(&caller);
    let cookieless = Browser {
        app: &app,
        cookie: None,
    };
    let uri = format!("/connect?elicitation={handle}");
    let (status, response) = cookieless.send(Method::GET, &uri, "");
    assert_eq!(status, StatusCode::SEE_OTHER);
    let location = response.headers()[header::LOCATION]
        .to_str()
        .unwrap()
        .to_owned();
    // It comes back without the cookie.
    let (status, response) = cookieless.send(Method::GET, &location, "");
    assert_eq!(status, StatusCode::FORBIDDEN);
    let html = body(response);
    assert!(html.contains("Cookies are needed"), "{html}");
}
