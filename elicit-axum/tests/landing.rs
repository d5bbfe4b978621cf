//! The ready landing route (`elicit-axum`), driven through axum's router without a socket.
//!
//! A `GET` of the link shows a confirmation page and records nothing; only the page's own
//! `POST` with the CSRF token bound to the handle and the browser's user records, once.
//! Cross-site posts are refused (403) before anything is looked up; every refusal a requester
//! can provoke with a handle or a token is one page with one status (404); texts are escaped;
//! `HEAD`, sign-in redirects and the application's own responses finish nothing.
//! `security.rs` holds the CSRF regression tests; this file the route's contract.

use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime};

mod common;
mod support;

use axum::Router;
use axum::http::{Method, StatusCode, header};
use common::trace::recorded;
use common::url::*;
use elicit_axum::{LandingRoute, PageTexts};
use elicit_runtime::state::{KeyRing, StateSealer};
use elicit_runtime::url::{Completion, LandingPage, PageError, Shown};
use elicit_runtime::{ElicitContext, ElicitServer, ElicitUrl, UrlAnswer};
use pollster::block_on;
use serde_json::json;
use support::*;

#[test]
fn alice_confirms_and_her_flow_completes_with_the_hooks_result() {
    let f = fixture(Then::Complete);

    // The confirmation page: which server, what for, for whom; nothing recorded.
    let (status, html) = get(&f.app, &f.handle, Some(ALICE));
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("<p class=\"from\">Request from issues-server</p>"),
        "{html}"
    );
    assert!(html.contains("<h1>Confirm this request</h1>"), "{html}");
    assert!(
        html.contains(&format!("<p class=\"ask\">{MESSAGE}</p>")),
        "{html}"
    );
    assert!(
        html.contains("<dt>Your account</dt><dd>alice</dd>"),
        "{html}"
    );
    // What is being confirmed: the bound state's field marked `show` (issue 32).
    assert!(
        html.contains("<dt>Repository</dt><dd>octo/hello</dd></dl>"),
        "{html}"
    );
    assert!(!html.contains("<dt>Provider</dt>"), "not marked: not shown");
    assert!(html.contains("value=\"confirm\" class=\"confirm\">Confirm</button>"));
    assert!(html.contains("value=\"cancel\" class=\"cancel\">Cancel</button>"));
    assert!(
        html.contains("<form method=\"post\">"),
        "posts to its own URL"
    );
    assert!(!html.contains("<script"));
    assert!(f.hook.opened.lock().unwrap().is_empty());

    let (status, html) = post(
        &f.app,
        &f.handle,
        Some(ALICE),
        SAME_ORIGIN,
        &form(&token_in(&html), "confirm"),
    );
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("<h1>Connected octo/hello</h1>\n<p>This step is done.</p>"),
        "{html}"
    );

    let [id] = f.hook.opened.lock().unwrap().clone().try_into().unwrap();
    let result = json!({"account": "octocat", "repo": "octo/hello"});
    assert_eq!(
        lookup(&f.store, &id),
        Some(Completion::Completed {
            result: Some(result.clone())
        })
    );
    assert_eq!(
        retry(&f.caller, &f.state),
        UrlAnswer::Completed {
            state: bound(),
            result: Some(result)
        }
    );
}

#[test]
fn cancel_records_a_failure_the_tool_reads_at_once() {
    let f = fixture(Then::Complete);

    let token = token_in(&get(&f.app, &f.handle, Some(ALICE)).1);
    let (status, html) = press(&f.app, &f.handle, ALICE, &token, "cancel");
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<h1>Cancelled</h1>"), "{html}");
    assert!(
        f.hook.opened.lock().unwrap().is_empty(),
        "connect never ran"
    );
    let reason = "the user cancelled on the confirmation page".to_owned();
    assert_eq!(
        retry(&f.caller, &f.state),
        UrlAnswer::Failed {
            state: bound(),
            reason: reason.clone()
        }
    );
    // Spent: Confirm afterwards records nothing more.
    let (status, _) = press(&f.app, &f.handle, ALICE, &token, "confirm");
    assert_eq!(status, StatusCode::NOT_FOUND);
    let id = block_on(LandingPage::new(&f.server).open_raw(&f.handle, ALICE)).unwrap_err();
    assert_eq!(id, PageError::AlreadyRecorded);
    let recorded = f.store.snapshot();
    assert_eq!(recorded, vec![Completion::Failed { reason }]);
}

#[test]
fn another_user_is_refused_and_the_flow_stays_open_for_alice() {
    let f = fixture(Then::Complete);
    let alices_token = token_in(&get(&f.app, &f.handle, Some(ALICE)).1);

    for nobody in [MALLORY, ""] {
        let (status, html) = get(&f.app, &f.handle, Some(nobody));
        assert_eq!((status, html), refused(), "{nobody:?}");
        // Even with alice's token (stolen somehow), another session confirms nothing.
        let (status, html) = press(&f.app, &f.handle, nobody, &alices_token, "confirm");
        assert_eq!((status, html), refused(), "{nobody:?}");
    }
    assert!(
        f.hook.opened.lock().unwrap().is_empty(),
        "connect ran for mallory"
    );
    assert!(f.store.snapshot().is_empty());

    assert_eq!(confirm(&f.app, &f.handle, ALICE).0, StatusCode::OK);
    assert!(matches!(
        retry(&f.caller, &f.state),
        UrlAnswer::Completed { .. }
    ));
}

#[test]
fn forged_and_missing_handles_get_the_uniform_refusal() {
    let f = fixture(Then::Complete);

    // Forged: one changed character, truncated, garbage, a requestState; another server's key.
    let (_, other) = store_and_server(StateSealer::new(KeyRing::new(1, [8; 32]), "issues-server"));
    let foreign = start(&Caller::new(&other, Some(ALICE))).0;
    for bad in [
        tamper(&f.handle),
        f.handle[..f.handle.len() - 4].to_owned(),
        "eu1.AAAA".to_owned(),
        f.state,
        foreign,
    ] {
        assert_eq!(get(&f.app, &bad, Some(ALICE)), refused(), "{bad}");
    }
    let asked = f.hook.subjects_asked.load(Ordering::SeqCst);
    assert_eq!(asked, 5);

    // Missing, empty, twice: refused before asking who the user is.
    for uri in [
        "/connect",
        "/connect?",
        "/connect?elicitation=",
        "/connect?other=1",
        &format!("/connect?elicitation={0}&elicitation={0}", f.handle),
    ] {
        let (status, response) = send(&f.app, Method::GET, uri, Some(ALICE), &[], "");
        assert_guarded(&response);
        assert_eq!((status, body(response)), refused(), "{uri}");
    }
    assert_eq!(f.hook.subjects_asked.load(Ordering::SeqCst), asked);
    assert!(f.hook.opened.lock().unwrap().is_empty());

    // The genuine handle, percent-encoded and among other parameters, still opens.
    let encoded = f.handle.replace('.', "%2E");
    let uri = format!("/connect?provider=github&elicitation={encoded}");
    assert_eq!(
        send(&f.app, Method::GET, &uri, Some(ALICE), &[], "").0,
        StatusCode::OK
    );
}

#[test]
fn a_finished_flow_is_refused_and_keeps_its_first_outcome() {
    let f = fixture(Then::Complete);

    let token = token_in(&get(&f.app, &f.handle, Some(ALICE)).1);
    assert_eq!(confirm(&f.app, &f.handle, ALICE).0, StatusCode::OK);
    assert_eq!(get(&f.app, &f.handle, Some(ALICE)), refused());

    // A failure posted by another tab (its page loaded before) loses too.
    let failing = app_failing(&f.server);
    let (status, html) = press(&failing, &f.handle, ALICE, &token, "confirm");
    assert_eq!((status, html), refused());
    assert_eq!(f.store.snapshot().len(), 1);
    assert!(matches!(
        retry(&f.caller, &f.state),
        UrlAnswer::Completed { .. }
    ));
}

#[test]
fn two_tabs_open_the_link_and_the_second_record_is_refused() {
    let (_, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);
    // The other tab's page opened the handle before this route's completion...
    let page = LandingPage::new(&server);
    let (other_tab, _) = block_on(page.open_raw(&handle, ALICE)).unwrap();
    let app = app(&server, &Hook::new(Then::Complete));
    assert_eq!(confirm(&app, &handle, ALICE).0, StatusCode::OK);
    // ...and records after it: refused.
    assert_eq!(
        block_on(page.complete_raw(&other_tab, None)).unwrap_err(),
        PageError::AlreadyRecorded
    );
}

/// The page shows everything the hook will act on: a long value whole (seventeen repository
/// names of 30 characters, one a line), its whitespace kept, a bidirectional override marked
/// rather than obeyed.
#[test]
fn a_shown_value_appears_whole_with_its_whitespace_and_its_invisible_characters_marked() {
    let (_, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let repos: Vec<String> = (0..17)
        .map(|i| format!("octo-org/repository-number-{i:03}"))
        .collect();
    assert!(repos.iter().all(|repo| repo.len() == 30));
    let listed = ConnectGithub {
        provider: "github".into(),
        repo: format!("{}\n\tand  evil\u{202e}gro-otco", repos.join("\n")),
    };
    let (handle, _) = start_with(&caller, listed);
    let app = app(&server, &Hook::new(Then::Complete));
    let (status, page) = get(&app, &handle, Some(ALICE));
    assert_eq!(status, StatusCode::OK);
    let expected = format!(
        "<dt>Repository</dt><dd>{}\n\tand  evil<span class=\"esc\">&lt;U+202E&gt;</span>gro-otco</dd></dl>",
        repos.join("\n")
    );
    assert!(page.contains(&expected), "{page}");
    assert!(page.contains("dd{margin:0;font-weight:600;white-space:pre-wrap}"));
    assert!(page.contains(
        "<button type=\"submit\" name=\"decision\" value=\"confirm\" class=\"confirm\">Confirm</button>"
    ));
    let (status, _) = confirm(&app, &handle, ALICE);
    assert_eq!(status, StatusCode::OK);
}

/// A value too long to seal whole: the page says how much of it is not shown and offers only
/// Cancel; a confirm posted anyway fails the flow and never reaches the hook.
#[test]
fn a_value_not_shown_whole_cannot_be_confirmed() {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let long = ConnectGithub {
        provider: "github".into(),
        repo: "x".repeat(Shown::MAX_CHARS + 25),
    };
    let (handle, _) = start_with(&caller, long);
    let hook = Hook::new(Then::Complete);
    let app = app(&server, &hook);
    let (status, page) = get(&app, &handle, Some(ALICE));
    assert_eq!(status, StatusCode::OK);
    let expected = format!(
        "<dt>Repository</dt><dd>{}<span class=\"cut\">25 more characters not shown</span></dd></dl>\n\
         <p class=\"hint\">Part of this request is too long to show here, so it cannot be \
         confirmed. Cancel, and ask your assistant for a shorter request.</p>\n",
        "x".repeat(Shown::MAX_CHARS)
    );
    assert!(page.contains(&expected), "{page}");
    assert!(!page.contains("value=\"confirm\""), "no Confirm: {page}");
    assert!(page.contains("value=\"cancel\" class=\"cancel\">Cancel</button></div>"));

    let (status, html) = press(&app, &handle, ALICE, &token_in(&page), "confirm");
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("<h1>Not completed</h1>"), "{html}");
    assert!(hook.opened.lock().unwrap().is_empty(), "the hook never ran");
    let reason = "the confirmation page could not show everything this request acts on".to_owned();
    assert_eq!(store.snapshot(), vec![Completion::Failed { reason }]);
}

#[test]
fn reflected_text_is_escaped() {
    let (_, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let hostile = ConnectGithub {
        provider: "github".into(),
        repo: r#"<script>alert("x")</script>&'"#.into(),
    };
    let (handle, _) = start_with(&caller, hostile);
    let app = app(&server, &Hook::new(Then::Complete));
    let (status, page) = get(&app, &handle, Some(ALICE));
    assert_eq!(status, StatusCode::OK);
    let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;";
    let shown = format!("<dt>Repository</dt><dd>{escaped}</dd>");
    assert!(page.contains(&shown), "a shown value is escaped: {page}");
    let (status, html) = confirm(&app, &handle, ALICE);
    assert_eq!(status, StatusCode::OK);
    let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;";
    assert!(
        html.contains(&format!("<h1>Connected {escaped}</h1>")),
        "{html}"
    );
    assert!(!html.contains("<script"));

    // The confirmation page: the user's name, the server's name and the configured texts.
    let (handle, _) = start(&Caller::new(&server, Some("<b>eve</b>\"")));
    let texts = PageTexts::default()
        .with_server_name("Issues & <Co>")
        .with_confirm("<i>Sure?</i>", "Only if \"you\" asked.")
        .with_buttons("<Go>", "<Stop>");
    let app = LandingRoute::new(LandingPage::new(&server), Hook::new(Then::Complete))
        .with_texts(texts)
        .with_origin(ORIGIN)
        .into_router::<()>();
    let (status, html) = get(&app, &handle, Some("<b>eve</b>\""));
    assert_eq!(status, StatusCode::OK);
    for shown in [
        "<title>&lt;i&gt;Sure?&lt;/i&gt;</title>",
        "Request from Issues &amp; &lt;Co&gt;",
        "<dd>&lt;b&gt;eve&lt;/b&gt;&quot;</dd>",
        "Only if &quot;you&quot; asked.",
        ">&lt;Go&gt;</button>",
        ">&lt;Stop&gt;</button>",
    ] {
        assert!(html.contains(shown), "{shown} in {html}");
    }
    assert!(!html.contains("<b>") && !html.contains("<i>") && !html.contains("<Co>"));

    // The failure page's message too, and the configured texts.
    let bold = ConnectGithub {
        provider: "github".into(),
        repo: "<b>x</b>".into(),
    };
    let (handle, state) = start_with(&caller, bold.clone());
    let texts = PageTexts::default()
        .with_failed("<i>Not connected</i>", "unused")
        .with_close_hint("Close <this> tab & go back.");
    let app = LandingRoute::new(LandingPage::new(&server), Hook::new(Then::Fail))
        .with_texts(texts)
        .with_origin(ORIGIN)
        .into_router();
    let (status, html) = confirm(&app, &handle, ALICE);
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains(
            "<h1>&lt;i&gt;Not connected&lt;/i&gt;</h1>\n\
             <p>Could not connect &lt;b&gt;x&lt;/b&gt;.</p>\n<p class=\"hint\">Close &lt;this&gt; tab &amp; go back.</p>"
        ),
        "{html}"
    );
    // The failure is recorded with the hook's reason, which the browser never sees.
    assert!(!html.contains("no GitHub account"));
    let retry = caller.retry(&state, Some(answer("accept")));
    let ask = async |cx: &mut ElicitContext| bold.clone().ask(cx).await;
    assert_eq!(
        complete(block_on(caller.call(&retry, ask))),
        UrlAnswer::Failed {
            state: bold.clone(),
            reason: "no GitHub account".into()
        }
    );
}

#[test]
fn an_expired_link_is_refused_and_its_confirmation_too() {
    let (store, server) = store_and_server(sealer().with_ttl(Duration::from_secs(1)));
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);
    let hook = Hook::new(Then::Complete);
    let app = app(&server, &hook);
    let token = token_in(&get(&app, &handle, Some(ALICE)).1);
    let expires_at = block_on(LandingPage::new(&server).open::<ConnectGithub>(&handle, ALICE))
        .unwrap()
        .expires_at();
    std::thread::sleep(
        expires_at
            .duration_since(SystemTime::now())
            .unwrap_or_default()
            + Duration::from_millis(150),
    );
    assert_eq!(get(&app, &handle, Some(ALICE)), refused());
    let (status, html) = press(&app, &handle, ALICE, &token, "confirm");
    assert_eq!((status, html), refused());
    assert!(hook.opened.lock().unwrap().is_empty());
    assert!(store.snapshot().is_empty());
}

#[test]
fn sign_in_redirects_oauth_redirects_and_head_record_nothing() {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let uri = format!("/connect?elicitation={handle}");

    // Not signed in: the hook's own response, passed through (plus no-store, no-referrer).
    let hook = Hook::new(Then::Complete);
    let app = app(&server, &hook);
    let (status, response) = send(&app, Method::GET, &uri, None, &[], "");
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[header::LOCATION], "/login");
    assert_eq!(response.headers()[header::CACHE_CONTROL], "no-store");
    assert_eq!(response.headers()[header::REFERRER_POLICY], "no-referrer");
    assert!(hook.opened.lock().unwrap().is_empty());

    // HEAD (a link preview) never runs the flow.
    let (status, response) = send(&app, Method::HEAD, &uri, Some(ALICE), &[], "");
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(response.headers()[header::ALLOW], "GET, POST");
    assert_eq!(hook.subjects_asked.load(Ordering::SeqCst), 1);

    // Confirmed, the connect logic redirects to the OAuth provider: nothing recorded yet.
    let oauth = Hook::new(Then::Redirect);
    let (status, response) = confirm_response(&self::app(&server, &oauth), &handle, ALICE);
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(
        response.headers()[header::LOCATION],
        "https://github.com/login/oauth/authorize"
    );
    let [id] = oauth.opened.lock().unwrap().clone().try_into().unwrap();
    assert_eq!(lookup(&store, &id), None);

    // The OAuth callback opens the handle again and completes.
    let page = LandingPage::new(&server);
    let (opened, _) = block_on(page.open_raw(&handle, ALICE)).unwrap();
    block_on(page.complete_raw(&opened, None)).unwrap();
    assert_eq!(
        retry(&caller, &state),
        UrlAnswer::Completed {
            state: bound(),
            result: None
        }
    );
}

#[test]
fn a_refusing_hook_no_store_and_another_path() {
    let (store, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);

    // The hook reads the state as another kind: the uniform refusal, nothing recorded.
    let hook = Hook::new(Then::WrongKind);
    let (status, html) = confirm(&app(&server, &hook), &handle, ALICE);
    assert_eq!((status, html), refused());
    let [id] = hook.opened.lock().unwrap().clone().try_into().unwrap();
    assert_eq!(lookup(&store, &id), None);

    // A server without a completion store: 500, "try again later".
    let no_store = ElicitServer::new(sealer());
    let (status, html) = get(
        &app(&no_store, &Hook::new(Then::Complete)),
        &handle,
        Some(ALICE),
    );
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        html.contains("<p>This request cannot be completed right now; try again later.</p>"),
        "{html}"
    );

    // Served at another path, for any app state; `/connect` is then not served.
    #[derive(Clone)]
    struct AppState;
    let app: Router<AppState> = Router::new().merge(
        LandingRoute::new(LandingPage::new(&server), Hook::new(Then::Complete))
            .at("/github/connect")
            .with_origin(ORIGIN)
            .into_router(),
    );
    let app = app.with_state(AppState);
    let uri = format!("/connect?elicitation={handle}");
    assert_eq!(
        send(&app, Method::GET, &uri, Some(ALICE), &[], "").0,
        StatusCode::NOT_FOUND
    );
    let uri = format!("/github/connect?elicitation={handle}");
    let (status, response) = send(&app, Method::GET, &uri, Some(ALICE), &[], "");
    assert_eq!(status, StatusCode::OK);
    let token = token_in(&body(response));
    let (status, _) = send(
        &app,
        Method::POST,
        &uri,
        Some(ALICE),
        SAME_ORIGIN,
        &form(&token, "confirm"),
    );
    assert_eq!(status, StatusCode::OK);
    assert!(matches!(
        lookup(&store, &id),
        Some(Completion::Completed { .. })
    ));
}

#[test]
fn operators_see_the_precise_reason_never_the_handle_the_token_or_the_user() {
    let (_, server) = store_and_server(sealer());
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);
    let app = app(&server, &Hook::new(Then::Complete));
    let forged = tamper(&handle);
    let token = token_in(&get(&app, &handle, Some(ALICE)).1);

    let events = recorded(|| {
        let none = send(&app, Method::GET, "/connect", Some(ALICE), &[], "").0;
        assert_eq!(none, StatusCode::NOT_FOUND);
        assert_eq!(get(&app, &forged, Some(ALICE)).0, StatusCode::NOT_FOUND);
        assert_eq!(get(&app, &handle, Some(MALLORY)).0, StatusCode::NOT_FOUND);
        let hostile = [("sec-fetch-site", "cross-site\"\tforged=1")];
        let (status, _) = post(
            &app,
            &handle,
            Some(ALICE),
            &hostile,
            &form(&token, "confirm"),
        );
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, _) = post(
            &app,
            &handle,
            Some(ALICE),
            SAME_ORIGIN,
            &form("ec1.AAAA", "confirm"),
        );
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(confirm(&app, &handle, ALICE).0, StatusCode::OK);
    });
    let seen: Vec<(&str, &str, &str)> = events
        .iter()
        .map(|e| {
            let field = |name: &str| e.get(name).map(String::as_str).unwrap_or("");
            (field("message"), field("status"), field("reason"))
        })
        .collect();
    assert_eq!(seen.len(), 7, "{events:?}");
    let (refused_request, refused_handle) = (
        "landing page refused a request",
        "landing page refused a handle",
    );
    assert_eq!(
        seen[0],
        (
            refused_request,
            "404",
            "no `elicitation` parameter in the query"
        )
    );
    assert_eq!((seen[1].0, seen[1].1), (refused_handle, "404"));
    assert!(
        seen[1].2.starts_with("invalid elicitation handle: "),
        "{}",
        seen[1].2
    );
    assert_eq!(
        seen[2],
        (refused_handle, "404", "the handle belongs to another user")
    );
    // The hostile header's quote and tab are escaped.
    let cross_site = r#"Sec-Fetch-Site is \"cross-site\"\tforged=1\""#;
    assert_eq!(
        seen[3],
        (
            "landing page refused a cross-site request",
            "403",
            cross_site
        )
    );
    let unconfirmed =
        "the confirmation token is missing, forged, expired, or for another link or user";
    assert_eq!(seen[4], (refused_handle, "404", unconfirmed));
    assert_eq!(seen[5].0, "landing page asked for confirmation");
    assert_eq!(seen[6].0, "landing page completed a flow");
    assert_eq!(events[6]["key"], KEY);
    assert!(events[6]["id"].len() > 8);
    for event in &events {
        for value in event.values() {
            assert!(!value.contains(['\n', '\t']), "{event:?}");
            for secret in [
                handle.as_str(),
                forged.as_str(),
                token.as_str(),
                ALICE,
                MALLORY,
            ] {
                assert!(!value.contains(secret), "{secret} in {event:?}");
            }
        }
    }
}
