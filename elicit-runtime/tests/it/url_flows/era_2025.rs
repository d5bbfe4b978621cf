//! The 2025-11-25 back channel: `elicitation/create` in URL mode, the completion notification,
//! bounded waits, `URLElicitationRequiredError`, and stores that fail.

use super::*;

/// What the scripted page does once the link went out.
#[derive(Clone)]
enum PageAction {
    Complete(Option<Value>),
    Fail(&'static str),
}

/// A scripted 2025-11-25 client: records requests and notifications, replies with `reply`
/// and, if scripted, has the "browser" finish the page ~100 ms later in a spawned task.
struct UrlPeer {
    reply: Result<Value, JsonRpcError>,
    page: Option<(LandingPage, PageAction)>,
    requests: Mutex<Vec<(String, Value)>>,
    notifications: Mutex<Vec<(String, Value)>>,
    page_task: Mutex<Option<tokio::task::JoinHandle<Result<String, PageError>>>>,
}

impl UrlPeer {
    fn new(reply: Value, page: Option<(&ElicitServer, PageAction)>) -> Arc<Self> {
        Arc::new(UrlPeer {
            reply: Ok(reply),
            page: page.map(|(server, action)| (LandingPage::new(server), action)),
            requests: Mutex::default(),
            notifications: Mutex::default(),
            page_task: Mutex::default(),
        })
    }

    fn requests(&self) -> Vec<(String, Value)> {
        self.requests.lock().unwrap().clone()
    }

    fn notifications(&self) -> Vec<(String, Value)> {
        self.notifications.lock().unwrap().clone()
    }

    /// The id of the handle the page opened, once its task finished.
    async fn page_result(&self) -> Result<String, PageError> {
        let task = self.page_task.lock().unwrap().take().expect("the page ran");
        task.await.expect("the page task panicked")
    }
}

impl LegacyPeer for UrlPeer {
    fn request<'a>(
        &'a self,
        request: &'a InputRequest,
    ) -> BoxFuture<'a, Result<Value, JsonRpcError>> {
        Box::pin(async move {
            let params = serde_json::to_value(request).unwrap()["params"].take();
            self.requests
                .lock()
                .unwrap()
                .push((request.method().to_owned(), params.clone()));
            if let Some((page, action)) = self.page.clone() {
                let handle = handle_of(params["url"].as_str().unwrap_or_default());
                let task = tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    let opened = page.open::<ConnectGithub>(&handle, ALICE).await?;
                    match action {
                        PageAction::Complete(result) => page.complete(&opened, result).await?,
                        PageAction::Fail(reason) => page.fail(&opened, reason).await?,
                    }
                    Ok(opened.id().to_owned())
                });
                *self.page_task.lock().unwrap() = Some(task);
            }
            self.reply.clone()
        })
    }

    fn notify<'a>(
        &'a self,
        method: &'a str,
        params: Value,
    ) -> BoxFuture<'a, Result<(), JsonRpcError>> {
        Box::pin(async move {
            self.notifications
                .lock()
                .unwrap()
                .push((method.to_owned(), params));
            Ok(())
        })
    }
}

/// `tools/call` params as a 2025-11-25 client sends them.
fn legacy_params() -> Value {
    json!({"name": TOOL, "arguments": tool_args()})
}

/// Runs `handler` for `principal` on a 2025-11-25 session declaring `capabilities`.
async fn run_legacy<R>(
    server: &ElicitServer,
    capabilities: Value,
    principal: Option<&str>,
    peer: Option<Arc<UrlPeer>>,
    handler: impl AsyncFnOnce(&mut ElicitContext) -> Result<R, Interrupt>,
) -> Result<Reply<R>, JsonRpcError> {
    let params = legacy_params();
    let capabilities: ClientCapabilities = serde_json::from_value(capabilities).unwrap();
    let mut cx = server
        .context("tools/call", &params)
        .principal(principal)
        .legacy(capabilities, peer.map(|p| p as Arc<dyn LegacyPeer>))
        .build()
        .map_err(|e| e.error)?;
    assert_eq!(cx.era(), ProtocolEra::Legacy2025);
    let result = tokio::time::timeout(Duration::from_secs(20), handler(&mut cx))
        .await
        .expect("the handler never finished");
    cx.respond(result).await
}

fn url_caps() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}})
}

/// Checks the 2025 `elicitation/create` params; returns its `elicitationId`.
#[track_caller]
fn legacy_url_request(sent: &[(String, Value)]) -> String {
    assert_eq!(sent.len(), 1, "{sent:?}");
    let (method, params) = &sent[0];
    assert_eq!(method, "elicitation/create");
    assert_eq!(params["mode"], "url");
    assert_eq!(params["message"], MESSAGE);
    let url = params["url"].as_str().unwrap();
    assert!(
        url.starts_with("https://connect.example.com/github?elicitation=eu1."),
        "{url}"
    );
    let id = params["elicitationId"].as_str().expect("2025 needs an id");
    assert!(
        !id.is_empty() && !url.contains(id),
        "the id is not the handle"
    );
    id.to_owned()
}

#[tokio::test]
async fn legacy_accept_waits_for_the_page_then_notifies_completion() {
    let server = server();
    let account = json!({"account": "octocat"});
    let peer = UrlPeer::new(
        json!({"action": "accept"}),
        Some((&server, PageAction::Complete(Some(account.clone())))),
    );
    let outcome = run_legacy(
        &server,
        url_caps(),
        Some(ALICE),
        Some(peer.clone()),
        connect,
    )
    .await;
    assert_eq!(complete(outcome), completed(Some(account)));

    let id = legacy_url_request(&peer.requests());
    assert_eq!(
        peer.page_result().await.unwrap(),
        id,
        "elicitationId = handle id"
    );
    assert_eq!(
        peer.notifications(),
        [(
            "notifications/elicitation/complete".to_owned(),
            json!({"elicitationId": id})
        )]
    );
}

#[tokio::test]
async fn legacy_failure_is_failed_and_also_notified() {
    let server = server();
    let peer = UrlPeer::new(
        json!({"action": "accept"}),
        Some((&server, PageAction::Fail("denied"))),
    );
    let outcome = run_legacy(
        &server,
        url_caps(),
        Some(ALICE),
        Some(peer.clone()),
        connect,
    )
    .await;
    assert_eq!(
        complete(outcome),
        UrlAnswer::Failed {
            state: bound(),
            reason: "denied".into()
        }
    );
    let id = legacy_url_request(&peer.requests());
    assert_eq!(peer.page_result().await.unwrap(), id);
    assert_eq!(peer.notifications().len(), 1);
    assert_eq!(peer.notifications()[0].1, json!({"elicitationId": id}));
}

#[tokio::test]
async fn legacy_decline_and_cancel_send_no_notification() {
    for (action, expected) in [
        ("decline", UrlAnswer::Declined),
        ("cancel", UrlAnswer::Cancelled),
    ] {
        let server = server();
        let peer = UrlPeer::new(json!({"action": action}), None);
        let outcome = run_legacy(
            &server,
            url_caps(),
            Some(ALICE),
            Some(peer.clone()),
            connect,
        )
        .await;
        assert_eq!(complete(outcome), expected);
        legacy_url_request(&peer.requests());
        assert!(peer.notifications().is_empty(), "{action}");
    }
}

#[tokio::test]
async fn legacy_accept_without_completion_expires_with_the_handle() {
    let server = server_with(sealer().with_ttl(Duration::from_secs(1)));
    let peer = UrlPeer::new(json!({"action": "accept"}), None);
    let started = std::time::Instant::now();
    let outcome = run_legacy(
        &server,
        url_caps(),
        Some(ALICE),
        Some(peer.clone()),
        connect,
    )
    .await;
    assert_eq!(complete(outcome), UrlAnswer::Expired);
    // A 1 s link (rounded up to the next second) polled every 200 ms: over within 1–5 s.
    assert!((Duration::from_secs(1)..Duration::from_secs(5)).contains(&started.elapsed()));
    legacy_url_request(&peer.requests());
    assert!(peer.notifications().is_empty());
}

/// Issue 9 item 10: each 2025-11-25 wait holds a request open for up to the handle's life, so
/// the number of waits is bounded; past it, asking fails at once, before any link is sent.
#[tokio::test]
async fn legacy_waits_are_bounded_and_refused_before_a_link_goes_out() {
    let server = tuned(
        &server_with(sealer().with_ttl(Duration::from_secs(1))),
        |url| url.with_max_waits(1),
    );
    let waiting = UrlPeer::new(json!({"action": "accept"}), None);
    let first = tokio::spawn({
        let (server, peer) = (server.clone(), waiting.clone());
        async move { run_legacy(&server, url_caps(), Some(ALICE), Some(peer), connect).await }
    });
    while waiting.requests().is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let turned_away = UrlPeer::new(json!({"action": "accept"}), None);
    let refused = error(
        run_legacy(
            &server,
            url_caps(),
            Some(ALICE),
            Some(turned_away.clone()),
            connect,
        )
        .await,
    );
    assert_eq!(
        serde_json::to_value(&refused).unwrap(),
        json!({
            "code": -32603,
            "message": "too many URL-mode elicitations are waiting on their pages; try again later",
            "data": {"reason": "busy"}
        })
    );
    assert!(turned_away.requests().is_empty(), "no link was sent");
    assert_eq!(complete(first.await.unwrap()), UrlAnswer::Expired);
    // The finished wait gave its permit back.
    let later = UrlPeer::new(json!({"action": "decline"}), None);
    assert_eq!(
        complete(run_legacy(&server, url_caps(), Some(ALICE), Some(later), connect).await),
        UrlAnswer::Declined
    );
}

/// Issue 21 item 10: a limit beyond what tokio's semaphore can count panicked inside tokio;
/// it is now that many, and waits still work.
#[tokio::test]
async fn any_url_wait_limit_is_safe() {
    let server = tuned(&server_with(sealer()), |url| url.with_max_waits(usize::MAX));
    assert_eq!(server.url_settings().max_waits(), usize::MAX >> 3);
    let declines = UrlPeer::new(json!({"action": "decline"}), None);
    assert_eq!(
        complete(run_legacy(&server, url_caps(), Some(ALICE), Some(declines), connect).await),
        UrlAnswer::Declined
    );
    let none = tuned(&server, |url| url.with_max_waits(0));
    assert_eq!(none.url_settings().max_waits(), 0);
}

/// A store that counts how often a waiting handler looks; it wakes waiters (as the memory
/// store does) when `wakes`.
#[derive(Default)]
struct CountingStore {
    inner: MemoryCompletionStore,
    lookups: std::sync::atomic::AtomicUsize,
    wakes: bool,
}

impl CompletionStore for CountingStore {
    fn record<'a>(
        &'a self,
        id: &'a str,
        completion: Completion,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.inner.record(id, completion, expires_at)
    }
    fn lookup<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        self.lookups
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.lookup(id)
    }
    fn redeem<'a>(
        &'a self,
        id: &'a str,
        expires_at: SystemTime,
    ) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        // Single-use completions (the default) are read by redeeming them.
        self.lookups
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.redeem(id, expires_at)
    }
    fn watch(&self, id: &str) -> Option<BoxFuture<'static, ()>> {
        if self.wakes {
            self.inner.watch(id)
        } else {
            None
        }
    }
}

/// A store that is down, with an error naming where it lives.
struct DownStore;

impl CompletionStore for DownStore {
    fn record<'a>(
        &'a self,
        _: &'a str,
        _: Completion,
        _: SystemTime,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(std::future::ready(Err(down())))
    }
    fn lookup<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        Box::pin(std::future::ready(Err(down())))
    }
    fn redeem<'a>(
        &'a self,
        _: &'a str,
        _: SystemTime,
    ) -> BoxFuture<'a, Result<Option<Completion>, StoreError>> {
        Box::pin(std::future::ready(Err(down())))
    }
}

fn down() -> StoreError {
    StoreError::new("connection refused by redis://10.0.0.7:6379 (auth as elicit-prod)")
}

/// A store failure reaches the client as a retryable internal error without the store's own
/// words (found by the soak: Redis error text went onto the wire).
#[test]
fn a_failing_store_is_a_retryable_error_that_names_nothing_inside() {
    for single_use in [false, true] {
        let mut url = UrlSettings::new(Arc::new(DownStore));
        if !single_use {
            url = url.with_reusable_completions();
        }
        let server = ElicitServer::new(sealer()).with_url(url);
        let caller = Caller::new(&server, Some(ALICE));
        let ask = input_required(block_on(caller.call(&caller.first(), connect)));
        let params = caller.retry(&state_of(&ask), Some(answer("accept")));
        let error = block_on(caller.call(&params, connect)).unwrap_err();
        assert_eq!(
            serde_json::to_value(&error).unwrap(),
            json!({
                "code": -32603,
                "message": "the URL-mode completion store is unavailable; retry the request",
                "data": {"reason": "completion_store_unavailable"}
            }),
            "single use: {single_use}"
        );
    }
}

/// Issue 9 item 10, then issue 27: a handler waiting on an abandoned page never spins. A store
/// that wakes its waiters is looked at once on each wake-up and every 2 s besides (a 2 s link:
/// 2 or 3 looks); one that cannot is polled with backoff to every 200 ms, so a record is seen
/// within a quarter of a second (a link of 2 to 3 s, lifetimes rounding up to whole seconds:
/// 12 to 18 looks, never a busy loop).
#[tokio::test]
async fn legacy_waits_back_off() {
    for (wakes, expected) in [(true, 2..=4), (false, 8..=24)] {
        let store = Arc::new(CountingStore {
            wakes,
            ..CountingStore::default()
        });
        let server = ElicitServer::new(sealer().with_ttl(Duration::from_secs(2)))
            .with_url(UrlSettings::new(store.clone()));
        let peer = UrlPeer::new(json!({"action": "accept"}), None);
        let outcome = run_legacy(&server, url_caps(), Some(ALICE), Some(peer), connect).await;
        assert_eq!(complete(outcome), UrlAnswer::Expired);
        let looks = store.lookups.load(std::sync::atomic::Ordering::Relaxed);
        assert!(
            expected.contains(&looks),
            "{looks} looks at the store (wakes: {wakes})"
        );
    }
}

#[tokio::test]
async fn legacy_refusals_happen_before_anything_is_sent() {
    let server = server();
    // No URL mode declared.
    let peer = UrlPeer::new(json!({"action": "accept"}), None);
    let e = error(
        run_legacy(
            &server,
            json!({"elicitation": {"form": {}}}),
            Some(ALICE),
            Some(peer.clone()),
            connect,
        )
        .await,
    );
    assert_eq!(e.code, -32021);
    assert_eq!(
        e.data,
        Some(json!({"requiredCapabilities": {"elicitation": {"url": {}}}}))
    );
    // No principal.
    let e = error(run_legacy(&server, url_caps(), None, Some(peer.clone()), connect).await);
    assert_eq!(e.code, -32603);
    assert!(e.message.contains("principal"), "{e:?}");
    // No back channel.
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, connect).await);
    assert_eq!(e.code, -32603);
    assert!(e.message.contains("back channel"), "{e:?}");
    assert!(peer.requests().is_empty(), "nothing was sent");
    assert!(peer.notifications().is_empty());
}

/// The `-32042` error's single URL elicitation: `(url, elicitationId)`.
#[track_caller]
fn url_required(e: &JsonRpcError) -> (String, String) {
    assert_eq!(e.code, -32042, "{e:?}");
    let data = e.data.as_ref().unwrap();
    let entries = data["elicitations"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    let entry = &entries[0];
    assert_eq!(entry["mode"], "url");
    assert_eq!(entry["message"], MESSAGE);
    let url = entry["url"].as_str().unwrap().to_owned();
    let id = entry["elicitationId"].as_str().unwrap().to_owned();
    // The typed reader agrees.
    let parsed = e.url_elicitations().unwrap();
    assert_eq!(parsed[0].url, url);
    assert_eq!(parsed[0].elicitation_id.as_deref(), Some(id.as_str()));
    (url, id)
}

#[tokio::test]
async fn legacy_url_elicitation_required_fails_with_the_link_then_completes_on_the_call_after() {
    let server = tuned(&server(), UrlSettings::with_url_elicitation_required);
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, connect).await);
    let (url, id) = url_required(&e);
    let handle = handle_of(&url);

    // Calling again before the page finished: the same flow, again -32042.
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, connect).await);
    assert_eq!(url_required(&e).1, id);
    // Another user calling the same tool gets a flow of their own.
    let e = error(run_legacy(&server, url_caps(), Some(MALLORY), None, connect).await);
    assert_ne!(url_required(&e).1, id);

    let page = LandingPage::new(&server);
    assert_eq!(
        page.open::<ConnectGithub>(&handle, MALLORY)
            .await
            .unwrap_err(),
        PageError::WrongSubject
    );
    let opened = page.open::<ConnectGithub>(&handle, ALICE).await.unwrap();
    assert_eq!(opened.id(), id);
    page.complete(&opened, Some(json!({"account": "octocat"})))
        .await
        .unwrap();

    // A new request (new context), same principal, tool and arguments: completed.
    let outcome = run_legacy(&server, url_caps(), Some(ALICE), None, connect).await;
    assert_eq!(
        complete(outcome),
        completed(Some(json!({"account": "octocat"})))
    );
    // Mallory's call is not completed by alice's page.
    let e = error(run_legacy(&server, url_caps(), Some(MALLORY), None, connect).await);
    url_required(&e);
    // Nor is a call with other arguments.
    let other = json!({"name": TOOL, "arguments": {"repo": "octo/other"}});
    let capabilities: ClientCapabilities = serde_json::from_value(url_caps()).unwrap();
    let mut cx = server
        .context("tools/call", &other)
        .principal(ALICE)
        .legacy(capabilities, None)
        .build()
        .unwrap();
    let result = connect(&mut cx).await;
    url_required(&error(cx.respond(result).await));
}

#[tokio::test]
async fn legacy_url_elicitation_required_single_use_redeems_once() {
    let server = tuned(&server(), UrlSettings::with_url_elicitation_required);
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, connect).await);
    let (url, id) = url_required(&e);
    let page = LandingPage::new(&server);
    let opened = page
        .open::<ConnectGithub>(&handle_of(&url), ALICE)
        .await
        .unwrap();
    page.complete(&opened, None).await.unwrap();

    let outcome = run_legacy(&server, url_caps(), Some(ALICE), None, connect).await;
    assert_eq!(complete(outcome), completed(None));
    // The same call again cannot reuse the completion: it starts a new flow (a new id).
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, connect).await);
    let (_, next_id) = url_required(&e);
    assert_ne!(next_id, id);
}

#[tokio::test]
async fn legacy_url_elicitation_required_single_use_a_later_call_starts_a_new_flow() {
    let server = tuned(&server(), UrlSettings::with_url_elicitation_required);
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, connect).await);
    let (url, _) = url_required(&e);
    let page = LandingPage::new(&server);
    let opened = page
        .open::<ConnectGithub>(&handle_of(&url), ALICE)
        .await
        .unwrap();
    page.complete(&opened, None).await.unwrap();
    let outcome = run_legacy(&server, url_caps(), Some(ALICE), None, connect).await;
    assert_eq!(complete(outcome), completed(None));

    // The user runs the tool again later: a new link, which the page can finish.
    let e = error(run_legacy(&server, url_caps(), Some(ALICE), None, connect).await);
    let (url, _) = url_required(&e);
    let opened = page
        .open::<ConnectGithub>(&handle_of(&url), ALICE)
        .await
        .unwrap();
    page.complete(&opened, None).await.unwrap();
    let outcome = run_legacy(&server, url_caps(), Some(ALICE), None, connect).await;
    assert_eq!(complete(outcome), completed(None));
}

/// An empty principal is a server bug (it would bind state to "nobody"): refused before
/// anything is sealed, with an internal error and a reason for the log.
#[test]
fn an_empty_principal_is_refused() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let refused = server
        .context("tools/call", caller.first())
        .principal("")
        .build()
        .unwrap_err();
    assert_eq!(
        serde_json::to_value(&refused.error).unwrap(),
        json!({"code": -32603, "message": "the request's principal is empty"})
    );
    assert!(refused.reason.contains("pass `None`"), "{}", refused.reason);
}

/// A 2025-11-25 client that never answers the pushed request.
struct SilentPeer {
    asked: std::sync::atomic::AtomicUsize,
}

impl LegacyPeer for SilentPeer {
    fn request<'a>(&'a self, _: &'a InputRequest) -> BoxFuture<'a, Result<Value, JsonRpcError>> {
        self.asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Box::pin(std::future::pending())
    }
}

fn silent() -> Arc<SilentPeer> {
    Arc::new(SilentPeer {
        asked: Default::default(),
    })
}

async fn run_silent<R>(
    server: &ElicitServer,
    principal: &str,
    peer: Arc<SilentPeer>,
    handler: impl AsyncFnOnce(&mut ElicitContext) -> Result<R, Interrupt>,
) -> Result<Reply<R>, JsonRpcError> {
    let capabilities: ClientCapabilities = serde_json::from_value(url_caps()).unwrap();
    let mut cx = server
        .context("tools/call", legacy_params())
        .principal(principal)
        .legacy(capabilities, Some(peer as Arc<dyn LegacyPeer>))
        .build()
        .map_err(|e| e.error)?;
    let result = tokio::time::timeout(Duration::from_secs(20), handler(&mut cx))
        .await
        .expect("a silent client held the handler past the link's expiry");
    cx.respond(result).await
}

/// Issue 21 item 3: the pushed request of a client that never answers ends with the link's
/// expiry, and its wait goes back to the pool then.
#[tokio::test]
async fn a_silent_legacy_client_holds_its_wait_only_until_the_link_expires() {
    let server = tuned(
        &server_with(sealer().with_ttl(Duration::from_secs(1))),
        |url| url.with_max_waits(1),
    );
    let peer = silent();
    let outcome = run_silent(&server, ALICE, peer.clone(), connect).await;
    assert_eq!(complete(outcome), UrlAnswer::Expired);
    assert_eq!(peer.asked.load(std::sync::atomic::Ordering::SeqCst), 1);
    // The one wait of the pool is free again.
    let later = UrlPeer::new(json!({"action": "decline"}), None);
    assert_eq!(
        complete(run_legacy(&server, url_caps(), Some(ALICE), Some(later), connect).await),
        UrlAnswer::Declined
    );
}

/// Issue 21 item 3: one user cannot take more than their share of the pool; other users'
/// asks go on.
#[tokio::test]
async fn one_user_cannot_take_more_than_their_share_of_the_waits() {
    let server = tuned(
        &server_with(sealer().with_ttl(Duration::from_secs(2))),
        |url| url.with_max_waits(8).with_max_waits_per_user(1),
    );
    let held = silent();
    let first = tokio::spawn({
        let (server, peer) = (server.clone(), held.clone());
        async move { run_silent(&server, ALICE, peer, connect).await.map(|_| ()) }
    });
    while held.asked.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let again = silent();
    let refused = error(run_silent(&server, ALICE, again.clone(), connect).await);
    assert_eq!(refused.data, Some(json!({"reason": "busy"})));
    assert_eq!(
        again.asked.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "no link was sent"
    );
    // Mallory is another user: her share is untouched.
    let other = UrlPeer::new(json!({"action": "decline"}), None);
    assert_eq!(
        complete(run_legacy(&server, url_caps(), Some(MALLORY), Some(other), connect).await),
        UrlAnswer::Declined
    );
    first.await.unwrap().unwrap();
}
