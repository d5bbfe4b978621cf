//! Other round shapes.

use super::*;

#[test]
fn retry_later_is_a_state_only_round() {
    let calls = AtomicUsize::new(0);
    let handler = async |cx: &mut ElicitContext| {
        if calls.fetch_add(1, Ordering::SeqCst) == 0 {
            return Err(cx.retry_later());
        }
        Ok("ready")
    };
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, handler));
    let state = r1.request_state().unwrap().to_owned();
    assert_eq!(
        serde_json::to_value(&r1).unwrap(),
        json!({"resultType": "input_required", "requestState": state})
    );
    let mut again = first.clone();
    again["requestState"] = Value::from(state);
    assert_eq!(completes(round(&server, &again, handler)), "ready");
}

#[test]
fn only_tools_prompts_and_resources_may_ask() {
    let params = first_params(forms());
    let mut cx = server()
        .context("completion/complete", &params)
        .build()
        .unwrap();
    let result = block_on(Guests::ask(&mut cx));
    let error = block_on(cx.respond(result)).unwrap_err();
    assert_eq!(error.code, -32603);

    for method in ["prompts/get", "resources/read"] {
        let mut params = first_params(forms());
        params["uri"] = json!("file:///menu");
        let mut cx = server().context(method, &params).build().unwrap();
        let result = block_on(Guests::ask(&mut cx));
        assert!(
            matches!(block_on(cx.respond(result)), Ok(Reply::InputRequired(_))),
            "{method}"
        );
    }
}

#[test]
fn a_request_without_meta_and_without_a_session_is_invalid_params() {
    let params = json!({"name": "book_table", "arguments": {}});
    let error = server()
        .context("tools/call", &params)
        .build()
        .unwrap_err()
        .error;
    assert_eq!(error.code, -32602);
}

#[test]
fn an_unknown_protocol_version_is_invalid_params() {
    let mut params = first_params(forms());
    params["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2019-01-01");
    let error = server()
        .context("tools/call", &params)
        .build()
        .unwrap_err()
        .error;
    assert_eq!(error.code, -32602);
    assert_eq!(
        error.data,
        Some(json!({"supported": ["2025-11-25", "2026-07-28"]}))
    );
}

/// Issue 21 item 7: a sampling or roots answer keeps only the members its result defines;
/// anything else the client adds is neither handed to the handler nor carried in later states.
#[test]
fn sampling_and_roots_answers_keep_only_their_defined_members() {
    let handler = async |cx: &mut ElicitContext| {
        let summary = cx.sample(SAMPLING, sampling_params()).await?;
        let roots = cx.list_roots("where").await?;
        let guests = Guests::ask(cx).await?;
        Ok((summary, roots, guests))
    };
    let summary = json!({
        "role": "assistant", "content": {"type": "text", "text": "Soup."},
        "model": "m-1", "stopReason": "endTurn"
    });
    let roots = json!({"roots": [{"uri": "file:///menu", "name": "menu"}]});
    let stuff = |defined: &Value| {
        let mut stuffed = defined.clone();
        stuffed["junk"] = json!("x".repeat(30_000));
        stuffed["_meta"] = json!({"k": "y".repeat(1_000)});
        stuffed
    };
    let server = server();
    let caps = json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}});
    let mut sizes = Vec::new();
    for (s, r) in [
        (summary.clone(), roots.clone()),
        (stuff(&summary), stuff(&roots)),
    ] {
        let first = first_params(caps.clone());
        let r1 = asks(round(&server, &first, handler));
        let r2 = asks(round(
            &server,
            &retry(&first, &r1, json!({SAMPLING: s})),
            handler,
        ));
        assert_eq!(keys(&r2), ["where"]);
        let r3 = asks(round(
            &server,
            &retry(&first, &r2, json!({"where": r})),
            handler,
        ));
        assert_eq!(keys(&r3), ["guests"]);
        sizes.push([&r2, &r3].map(|r| r.request_state().unwrap().len()));
        let done = completes(round(
            &server,
            &retry(
                &first,
                &r3,
                Responses::new().accept(&guests(2)).into_value(),
            ),
            handler,
        ));
        assert_eq!(
            done,
            (summary.clone(), roots.clone(), Answer::Accepted(guests(2)))
        );
    }
    assert_eq!(sizes[0], sizes[1], "{sizes:?}");
}
