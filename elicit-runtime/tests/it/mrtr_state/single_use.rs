//! Single use: a sealed state is accepted once, and replays are refused.

use super::*;

/// A retry whose state the replay guard refuses: the context still builds (the state is
/// redeemed when first used), the first question fails with the uniform refusal, and so does
/// the request. Returns the request's error.
#[track_caller]
fn refused_by_the_guard(server: &ElicitServer, params: &Value) -> JsonRpcError {
    let mut cx = server
        .context("tools/call", params)
        .build()
        .expect("a replayed state still opens: it is redeemed when first used");
    let result = block_on(Guests::ask(&mut cx));
    let asked = result.as_ref().map(|_| ()).unwrap_err().as_error().cloned();
    assert_eq!(asked, Some(JsonRpcError::invalid_request_state()));
    let error = block_on(cx.respond(result)).unwrap_err();
    assert_eq!(serde_json::to_value(&error).unwrap(), uniform_error());
    error
}

/// Safe by default (issue 21): with no setting at all, a state works once per process; the
/// server's clones share the in-process guard, and `without_replay_guard` is the explicit
/// opt-out.
#[test]
fn by_default_a_state_works_once_per_process() {
    let server = ElicitServer::new(sealer());
    assert!(server.sealer().has_replay_guard());
    let token = first_tool_round(&server);
    let retried = with_state(params(TOOL, arguments()), &token, accept(3));
    assert_eq!(
        retry(&server, "tools/call", &retried, None).unwrap(),
        Answer::Accepted(Guests { count: 3 })
    );
    refused_by_the_guard(&server, &retried);
    refused_by_the_guard(&server.clone(), &retried);

    let replayable = ElicitServer::new(sealer().without_replay_guard());
    let token = first_tool_round(&replayable);
    let retried = with_state(params(TOOL, arguments()), &token, accept(3));
    for _ in 0..2 {
        assert_eq!(
            retry(&replayable, "tools/call", &retried, None).unwrap(),
            Answer::Accepted(Guests { count: 3 })
        );
    }
}

#[test]
fn with_a_replay_guard_a_state_works_once() {
    let guard = Arc::new(MemoryReplayGuard::new());
    let server = ElicitServer::new(sealer().with_replay_guard(guard.clone()));
    let token = first_tool_round(&server);
    let retried = with_state(params(TOOL, arguments()), &token, accept(3));
    assert_eq!(
        retry(&server, "tools/call", &retried, None).unwrap(),
        Answer::Accepted(Guests { count: 3 })
    );
    assert_eq!(guard.len(), 1);
    refused_by_the_guard(&server, &retried);
    // A clone of the server shares the guard.
    refused_by_the_guard(&server.clone(), &retried);
    assert_eq!(guard.len(), 1);
}

#[test]
fn with_a_replay_guard_a_handler_that_never_asks_never_redeems() {
    let guard = Arc::new(MemoryReplayGuard::new());
    let server = ElicitServer::new(sealer().with_replay_guard(guard.clone()));
    let token = first_tool_round(&server);
    let retried = with_state(params(TOOL, arguments()), &token, accept(3));
    for _ in 0..2 {
        let cx = server.context("tools/call", &retried).build().unwrap();
        assert_eq!(
            block_on(cx.respond(Ok("no questions"))),
            Ok(Reply::Result("no questions"))
        );
    }
    assert!(guard.is_empty(), "nothing was redeemed");
    // The first use of an answer redeems it.
    assert_eq!(
        retry(&server, "tools/call", &retried, None).unwrap(),
        Answer::Accepted(Guests { count: 3 })
    );
    assert_eq!(guard.len(), 1);
}

#[test]
fn with_a_replay_guard_a_round_that_asks_nothing_redeems_before_it_seals() {
    let guard = Arc::new(MemoryReplayGuard::new());
    let server = ElicitServer::new(sealer().with_replay_guard(guard.clone()));
    let token = first_tool_round(&server);
    let retried = with_state(params(TOOL, arguments()), &token, json!({}));
    // `respond` redeems the state before sealing the next one: nothing to call first.
    let later = |params: &Value| {
        let cx = server.context("tools/call", params).build().unwrap();
        let result: Result<(), _> = Err(cx.retry_later());
        block_on(cx.respond(result))
    };
    let Ok(Reply::InputRequired(next)) = later(&retried) else {
        panic!("a state-only round")
    };
    assert_eq!(guard.len(), 1);
    assert_eq!(
        serde_json::to_value(later(&retried).unwrap_err()).unwrap(),
        uniform_error()
    );
    // The new state carries the request on, once (that round asked nothing, so the question
    // is asked now).
    let next = with_state(
        params(TOOL, arguments()),
        next.request_state().unwrap(),
        json!({}),
    );
    let mut cx = server.context("tools/call", &next).build().unwrap();
    let result = block_on(Guests::ask(&mut cx));
    assert!(matches!(
        block_on(cx.respond(result)),
        Ok(Reply::InputRequired(_))
    ));
    assert_eq!(guard.len(), 2);
    refused_by_the_guard(&server, &next);
}

#[test]
fn with_a_replay_guard_each_round_gets_a_fresh_single_use_state() {
    /// Which day?
    #[derive(Debug, Clone, PartialEq, ElicitForm)]
    struct Day {
        #[elicit(format = "date")]
        date: String,
    }

    type Both = (Answer<Day>, Answer<Guests>);

    let server = ElicitServer::new(sealer().with_replay_guard(Arc::new(MemoryReplayGuard::new())));
    let first = params(TOOL, arguments());
    let run = |params: &Value| -> Result<Reply<Both>, JsonRpcError> {
        let mut cx = server
            .context("tools/call", params)
            .build()
            .map_err(|e| e.error)?;
        let result = block_on(async {
            let day = Day::ask(&mut cx).await?;
            let guests = Guests::ask(&mut cx).await?;
            Ok((day, guests))
        });
        block_on(cx.respond(result))
    };
    let state = |o: Result<Reply<_>, JsonRpcError>| -> InputRequiredResult {
        match o {
            Ok(Reply::InputRequired(ask)) => ask,
            other => panic!("{other:?}"),
        }
    };
    let r1 = state(run(&first));
    let round2 = with_state(
        first.clone(),
        r1.request_state().unwrap(),
        json!({"day": {"action": "accept", "content": {"date": "2026-01-01"}}}),
    );
    let r2 = state(run(&round2));
    // Replaying round 2 is refused.
    assert_eq!(
        serde_json::to_value(run(&round2).unwrap_err()).unwrap(),
        uniform_error()
    );
    let round3 = with_state(first.clone(), r2.request_state().unwrap(), accept(2));
    match run(&round3) {
        Ok(Reply::Result((day, guests))) => {
            assert_eq!(
                day,
                Answer::Accepted(Day {
                    date: "2026-01-01".into()
                })
            );
            assert_eq!(guests, Answer::Accepted(Guests { count: 2 }));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        serde_json::to_value(run(&round3).unwrap_err()).unwrap(),
        uniform_error()
    );
}

#[test]
fn a_one_second_ttl_gives_about_one_second() {
    let sealer = sealer().with_ttl(Duration::from_secs(1));
    let args = arguments();
    let binding = Binding::tool_call(TOOL, &args);
    let sealed_at = UNIX_EPOCH + Duration::from_millis(1_800_000_000_999);
    let token = sealer.seal(&binding, &asked_guests(), sealed_at).unwrap();
    let opened = sealer
        .open::<Value>(&token, &binding, sealed_at + Duration::from_millis(10))
        .unwrap();
    assert_eq!(opened.payload, asked_guests());
    // Issued at the whole second before, expiring at the whole second after the TTL.
    assert_eq!(
        opened.issued_at,
        UNIX_EPOCH + Duration::from_secs(1_800_000_000)
    );
    assert_eq!(
        opened.expires_at,
        UNIX_EPOCH + Duration::from_secs(1_800_000_002)
    );
}

#[test]
fn the_default_ttl_is_ten_minutes_give_or_take_a_second() {
    let sealer = sealer();
    let args = arguments();
    let binding = Binding::tool_call(TOOL, &args);
    let sealed_at = UNIX_EPOCH + Duration::from_millis(1_800_000_000_500);
    let token = sealer.seal(&binding, &asked_guests(), sealed_at).unwrap();
    // Never less than the TTL: the expiry is rounded up to the next whole second.
    let opened = sealer
        .open::<Value>(&token, &binding, sealed_at + Duration::from_secs(600))
        .unwrap();
    assert_eq!(opened.payload, asked_guests());
    assert_eq!(
        opened.expires_at,
        UNIX_EPOCH + Duration::from_secs(1_800_000_601)
    );
    assert_eq!(
        sealer
            .open::<Value>(&token, &binding, sealed_at + Duration::from_secs(601))
            .unwrap_err(),
        StateError::Expired
    );
}
