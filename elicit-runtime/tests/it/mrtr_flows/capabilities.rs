//! Client capabilities.

use super::*;

#[test]
fn a_client_without_elicitation_gets_32021() {
    let error = fails(round(&server(), &first_params(json!({})), ask_guests));
    assert_eq!(
        serde_json::to_value(&error).unwrap(),
        json!({
            "code": -32021,
            "message": "Server requires the elicitation capability (form mode) for this request",
            "data": {"requiredCapabilities": {"elicitation": {"form": {}}}}
        })
    );
}

#[test]
fn ask_if_supported_gives_none_without_elicitation() {
    let handler = async |cx: &mut ElicitContext| Guests::ask_if_supported(cx).await;
    assert_eq!(
        completes(round(&server(), &first_params(json!({})), handler)),
        None
    );
    let url_only = first_params(json!({"elicitation": {"url": {}}}));
    assert_eq!(completes(round(&server(), &url_only, handler)), None);
    // With forms it asks.
    let ask = asks(round(&server(), &first_params(forms()), handler));
    assert_eq!(keys(&ask), ["guests"]);
}

#[test]
fn a_bare_elicitation_object_means_forms() {
    let ask = asks(round(
        &server(),
        &first_params(json!({"elicitation": {}})),
        ask_guests,
    ));
    assert_eq!(keys(&ask), ["guests"]);
    // Unknown members inside `form` are fine.
    let ask = asks(round(
        &server(),
        &first_params(json!({"elicitation": {"form": {"applyDefaults": true}}})),
        ask_guests,
    ));
    assert_eq!(keys(&ask), ["guests"]);
}

#[test]
fn a_url_only_client_cannot_get_a_form() {
    let error = fails(round(
        &server(),
        &first_params(json!({"elicitation": {"url": {}}})),
        ask_guests,
    ));
    assert_eq!(error.code, -32021);
    assert_eq!(
        error.data,
        Some(json!({"requiredCapabilities": {"elicitation": {"form": {}}}}))
    );
}

#[test]
fn capabilities_are_read_again_on_every_retry() {
    let server = server();
    let first = first_params(forms());
    let r1 = asks(round(&server, &first, ask_guests));
    let mut without = retry(&first, &r1, json!({}));
    without["_meta"]["io.modelcontextprotocol/clientCapabilities"] = json!({});
    assert_eq!(fails(round(&server, &without, ask_guests)).code, -32021);
}

#[test]
fn sampling_needs_its_capability() {
    let handler = async |cx: &mut ElicitContext| cx.sample(SAMPLING, sampling_params()).await;
    let error = fails(round(&server(), &first_params(forms()), handler));
    assert_eq!(
        serde_json::to_value(&error).unwrap()["data"],
        json!({"requiredCapabilities": {"sampling": {}}})
    );
    assert_eq!(error.code, -32021);
}

#[test]
fn sampling_travels_as_sampling_create_message() {
    let handler = async |cx: &mut ElicitContext| cx.sample(SAMPLING, sampling_params()).await;
    let server = server();
    let first = first_params(json!({"sampling": {}}));
    let r1 = asks(round(&server, &first, handler));
    assert_eq!(
        request(&r1, SAMPLING),
        json!({"method": "sampling/createMessage", "params": sampling_params()})
    );
    let reply = json!({"role": "assistant", "content": {"type": "text", "text": "Soup."}, "model": "m", "stopReason": "endTurn"});
    let done = completes(round(
        &server,
        &retry(&first, &r1, json!({SAMPLING: reply.clone()})),
        handler,
    ));
    assert_eq!(done, reply);
}

#[test]
fn roots_need_their_capability() {
    let handler = async |cx: &mut ElicitContext| cx.list_roots("roots").await;
    let error = fails(round(&server(), &first_params(forms()), handler));
    assert_eq!(error.code, -32021);
    assert_eq!(
        error.data,
        Some(json!({"requiredCapabilities": {"roots": {}}}))
    );
}

#[test]
fn roots_travel_as_roots_list() {
    let handler = async |cx: &mut ElicitContext| cx.list_roots("where").await;
    let server = server();
    let first = first_params(json!({"roots": {"listChanged": true}}));
    let r1 = asks(round(&server, &first, handler));
    assert_eq!(request(&r1, "where"), json!({"method": "roots/list"}));
    let reply = json!({"roots": [{"uri": "file:///menu", "name": "menu"}]});
    assert_eq!(
        completes(round(
            &server,
            &retry(&first, &r1, json!({"where": reply.clone()})),
            handler
        )),
        reply
    );
}

#[test]
fn forms_sampling_and_roots_batch_into_one_round() {
    let handler = async |cx: &mut ElicitContext| {
        let a = Guests::ask(cx).await;
        let b = cx.sample(SAMPLING, sampling_params()).await;
        let c = cx.list_roots("where").await;
        Ok::<_, Interrupt>((a?, b?, c?))
    };
    let server = server();
    let first = first_params(json!({"elicitation": {}, "sampling": {}, "roots": {}}));
    let r1 = asks(round(&server, &first, handler));
    let value = serde_json::to_value(&r1).unwrap();
    assert_eq!(
        value["inputRequests"],
        json!({
            "guests": form_request("How many guests?", guests_schema()),
            SAMPLING: {"method": "sampling/createMessage", "params": sampling_params()},
            "where": {"method": "roots/list"}
        })
    );
    let responses = json!({
        "guests": {"action": "accept", "content": {"count": 1}},
        SAMPLING: {"role": "assistant", "content": {"type": "text", "text": "x"}, "model": "m"},
        "where": {"roots": []}
    });
    let (g, s, r) = completes(round(&server, &retry(&first, &r1, responses), handler));
    assert_eq!(g, Answer::Accepted(guests(1)));
    assert_eq!(s["model"], "m");
    assert_eq!(r, json!({"roots": []}));
}
