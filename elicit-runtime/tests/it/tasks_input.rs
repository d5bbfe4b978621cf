//! Input for a running task: a worker thread asks, `tasks/get` shows the outstanding questions,
//! `tasks/update` answers them (unknown keys ignored, partial sets accepted), and keys are never
//! reused within the task.

use std::pin::pin;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::task::{Context, Waker};
use std::time::{Duration, Instant};

use elicit_runtime::tasks::TaskInput;
use elicit_runtime::wire::{ClientCapabilities, TaskInputRequired, TasksUpdateParams};
use elicit_runtime::{Answer, ElicitForm, Interrupt};
use pollster::block_on;
use serde_json::{Value, json};

/// How many guests?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Guests {
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
}

/// Which day?
#[derive(Debug, Clone, PartialEq, ElicitForm)]
struct Day {
    #[elicit(format = "date")]
    date: String,
}

const PATIENCE: Duration = Duration::from_secs(10);

fn forms() -> ClientCapabilities {
    serde_json::from_value(json!({"elicitation": {}})).unwrap()
}

/// Runs `f` on its own thread; its result arrives on the receiver.
fn spawn<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Receiver<T> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx
}

fn ask_guests(input: &TaskInput) -> Receiver<Result<Answer<Guests>, Interrupt>> {
    let mut worker = input.clone();
    spawn(move || block_on(Guests::ask(&mut worker)))
}

fn ask_day(input: &TaskInput) -> Receiver<Result<Answer<Day>, Interrupt>> {
    let mut worker = input.clone();
    spawn(move || block_on(Day::ask(&mut worker)))
}

/// Waits until `tasks/get` shows exactly `keys` outstanding.
#[track_caller]
fn outstanding(input: &TaskInput, keys: &[&str]) -> TaskInputRequired {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let now = input.input_required();
        let current: Vec<String> = now
            .iter()
            .flat_map(|s| s.input_requests.keys().cloned())
            .collect();
        if current == keys {
            return now.expect("outstanding questions");
        }
        assert!(
            Instant::now() < deadline,
            "still {current:?}, waiting for {keys:?}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Sends `tasks/update` with `responses`; returns the ack's JSON.
fn update(input: &TaskInput, responses: Value) -> Value {
    let params: TasksUpdateParams =
        serde_json::from_value(json!({"taskId": "task-1", "inputResponses": responses})).unwrap();
    serde_json::to_value(input.update(None, &params).unwrap()).unwrap()
}

#[track_caller]
fn received<T>(rx: &Receiver<T>) -> T {
    rx.recv_timeout(PATIENCE).expect("the worker finished")
}

#[track_caller]
fn still_waiting<T: std::fmt::Debug>(rx: &Receiver<T>) {
    match rx.recv_timeout(Duration::from_millis(100)) {
        Err(RecvTimeoutError::Timeout) => {}
        other => panic!("the worker should still be waiting, got {other:?}"),
    }
}

fn guests_request() -> Value {
    json!({
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": "How many guests?",
            "requestedSchema": {
                "type": "object",
                "properties": {"count": {"type": "integer", "minimum": 1, "maximum": 12}},
                "required": ["count"]
            }
        }
    })
}

// ---------------------------------------------------------------------------------------------

#[test]
fn a_worker_asks_tasks_get_shows_it_and_tasks_update_answers() {
    let input = TaskInput::new(forms());
    assert!(input.input_required().is_none());
    let worker = ask_guests(&input);

    let status = outstanding(&input, &["guests"]);
    assert_eq!(
        serde_json::to_value(&status).unwrap(),
        json!({"status": "input_required", "inputRequests": {"guests": guests_request()}})
    );
    still_waiting(&worker);

    let ack = update(
        &input,
        json!({"guests": {"action": "accept", "content": {"count": 5}}}),
    );
    assert_eq!(ack, json!({"resultType": "complete"}));
    assert_eq!(
        received(&worker).unwrap(),
        Answer::Accepted(Guests { count: 5 })
    );
    assert!(input.input_required().is_none());
}

#[test]
fn decline_and_cancel_reach_the_worker() {
    for (action, expected) in [("decline", Answer::Declined), ("cancel", Answer::Cancelled)] {
        let input = TaskInput::new(forms());
        let worker = ask_guests(&input);
        outstanding(&input, &["guests"]);
        update(&input, json!({"guests": {"action": action}}));
        assert_eq!(received(&worker).unwrap(), expected);
    }
}

#[test]
fn unknown_keys_are_ignored() {
    let input = TaskInput::new(forms());
    let worker = ask_guests(&input);
    outstanding(&input, &["guests"]);

    let ack = update(
        &input,
        json!({"other": {"action": "accept", "content": {"count": 1}}, "junk": 12345}),
    );
    assert_eq!(ack, json!({"resultType": "complete"}));
    still_waiting(&worker);
    outstanding(&input, &["guests"]);

    update(
        &input,
        json!({"guests": {"action": "accept", "content": {"count": 2}}, "more_junk": null}),
    );
    assert_eq!(
        received(&worker).unwrap(),
        Answer::Accepted(Guests { count: 2 })
    );
}

#[test]
fn a_partial_set_answers_only_its_keys() {
    let input = TaskInput::new(forms());
    let day = ask_day(&input);
    outstanding(&input, &["day"]);
    let guests = ask_guests(&input);
    outstanding(&input, &["day", "guests"]);

    update(
        &input,
        json!({"day": {"action": "accept", "content": {"date": "2026-12-24"}}}),
    );
    assert_eq!(
        received(&day).unwrap(),
        Answer::Accepted(Day {
            date: "2026-12-24".into()
        })
    );
    still_waiting(&guests);
    let status = outstanding(&input, &["guests"]);
    assert_eq!(
        serde_json::to_value(&status).unwrap()["inputRequests"]["guests"],
        guests_request()
    );

    update(&input, json!({"guests": {"action": "decline"}}));
    assert_eq!(received(&guests).unwrap(), Answer::Declined);
    assert!(input.input_required().is_none());
}

#[test]
fn keys_are_unique_for_the_life_of_the_task() {
    let input = TaskInput::new(forms());
    let mut worker = input.clone();
    let both = spawn(move || {
        block_on(async {
            let first = Guests::ask(&mut worker).await?;
            let second = Guests::question()
                .message("And for dessert?")
                .ask(&mut worker)
                .await?;
            Ok::<_, Interrupt>((first, second))
        })
    });
    outstanding(&input, &["guests"]);
    update(
        &input,
        json!({"guests": {"action": "accept", "content": {"count": 3}}}),
    );

    let status = outstanding(&input, &["guests.2"]);
    assert_eq!(
        status.input_requests["guests.2"]
            .as_elicit()
            .unwrap()
            .message(),
        "And for dessert?"
    );
    // An answer under the first key, already used, does not answer the second question.
    update(
        &input,
        json!({"guests": {"action": "accept", "content": {"count": 9}}}),
    );
    still_waiting(&both);
    outstanding(&input, &["guests.2"]);

    update(
        &input,
        json!({"guests.2": {"action": "accept", "content": {"count": 4}}}),
    );
    let (first, second) = received(&both).unwrap();
    assert_eq!(
        (first, second),
        (
            Answer::Accepted(Guests { count: 3 }),
            Answer::Accepted(Guests { count: 4 })
        )
    );
}

#[test]
fn the_same_form_asked_twice_at_once_gets_two_keys() {
    let input = TaskInput::new(forms());
    let a = ask_guests(&input);
    outstanding(&input, &["guests"]);
    let b = ask_guests(&input);
    outstanding(&input, &["guests", "guests.2"]);
    update(
        &input,
        json!({
            "guests.2": {"action": "accept", "content": {"count": 2}},
            "guests": {"action": "accept", "content": {"count": 1}}
        }),
    );
    assert_eq!(received(&a).unwrap(), Answer::Accepted(Guests { count: 1 }));
    assert_eq!(received(&b).unwrap(), Answer::Accepted(Guests { count: 2 }));
    // A third question continues the sequence.
    let c = ask_guests(&input);
    outstanding(&input, &["guests.3"]);
    update(&input, json!({"guests.3": {"action": "cancel"}}));
    assert_eq!(received(&c).unwrap(), Answer::Cancelled);
}

#[test]
fn invalid_content_is_asked_again_under_a_fresh_key_then_invalid_params() {
    let input = TaskInput::new(forms());
    let worker = ask_guests(&input);
    outstanding(&input, &["guests"]);
    let bad = json!({"action": "accept", "content": {"count": 13}});
    update(&input, json!({"guests": bad}));
    // Keys are never reused in a task: the re-asked question is `guests.2`.
    let again = outstanding(&input, &["guests.2"]);
    assert_eq!(
        serde_json::to_value(&again.input_requests["guests.2"]).unwrap(),
        json!({
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": "How many guests?\n\nPlease correct and send again:\n- count must be at most 12",
                "requestedSchema": {
                    "type": "object",
                    "properties": {"count": {"type": "integer", "minimum": 1, "maximum": 12}},
                    "required": ["count"]
                }
            }
        })
    );
    update(&input, json!({"guests.2": bad}));
    outstanding(&input, &["guests.3"]);
    update(&input, json!({"guests.3": bad}));
    let error = received(&worker)
        .unwrap_err()
        .into_error()
        .expect("an error");
    assert_eq!(error.code, -32602);
    assert_eq!(
        error.data,
        Some(
            json!({"key": "guests", "errors": [{"field": "count", "reason": "must be at most 12"}]})
        )
    );
}

#[test]
fn a_malformed_response_is_invalid_params() {
    for bad in [json!(12345), json!({"action": "perhaps"}), json!({})] {
        let input = TaskInput::new(forms());
        let worker = ask_guests(&input);
        outstanding(&input, &["guests"]);
        update(&input, json!({"guests": bad.clone()}));
        let error = received(&worker)
            .unwrap_err()
            .into_error()
            .expect("an error");
        assert_eq!(error.code, -32602, "{bad}");
        assert!(input.input_required().is_none(), "{bad}");
    }
}

#[test]
fn without_the_capability_the_worker_fails_at_once() {
    let input = TaskInput::new(ClientCapabilities::default());
    let url_only =
        TaskInput::new(serde_json::from_value(json!({"elicitation": {"url": {}}})).unwrap());
    for input in [input, url_only] {
        let error = block_on(Guests::ask(&mut input.clone()))
            .unwrap_err()
            .into_error()
            .expect("an error");
        assert_eq!(
            serde_json::to_value(&error).unwrap(),
            json!({
                "code": -32021,
                "message": "Server requires the elicitation capability (form mode) for this request",
                "data": {"requiredCapabilities": {"elicitation": {"form": {}}}}
            })
        );
        assert!(input.input_required().is_none());
    }
}

#[test]
fn an_update_before_any_question_is_ignored() {
    let input = TaskInput::new(forms());
    update(
        &input,
        json!({"guests": {"action": "accept", "content": {"count": 7}}}),
    );
    let worker = ask_guests(&input);
    outstanding(&input, &["guests"]);
    still_waiting(&worker);
    update(
        &input,
        json!({"guests": {"action": "accept", "content": {"count": 8}}}),
    );
    assert_eq!(
        received(&worker).unwrap(),
        Answer::Accepted(Guests { count: 8 })
    );
}

#[test]
fn tasks_update_params_have_no_request_state() {
    let params: TasksUpdateParams = serde_json::from_value(json!({
        "taskId": "t",
        "inputResponses": {"guests": {"action": "decline"}},
        "requestState": "ignored"
    }))
    .unwrap();
    assert_eq!(
        serde_json::to_value(&params).unwrap(),
        json!({"taskId": "t", "inputResponses": {"guests": {"action": "decline"}}})
    );
}

#[test]
fn a_dropped_ask_withdraws_its_question() {
    let input = TaskInput::new(forms());
    {
        let mut worker = input.clone();
        let mut ask = pin!(Guests::ask(&mut worker));
        let mut cx = Context::from_waker(Waker::noop());
        assert!(ask.as_mut().poll(&mut cx).is_pending());
        outstanding(&input, &["guests"]);
    } // the worker gives up: the future is dropped
    assert!(
        input.input_required().is_none(),
        "{:?}",
        input.input_required()
    );
}

/// Issue 32: a task belongs to its principal. Another user's `tasks/update` (or one without a
/// principal) is refused with what an unknown task gets, delivers nothing, and leaves the
/// question outstanding; the owner's answer goes through.
#[test]
fn only_the_tasks_owner_answers_it() {
    let input = TaskInput::new(forms()).owned_by("alice");
    let rx = ask_guests(&input);
    outstanding(&input, &["guests"]);
    let params: TasksUpdateParams = serde_json::from_value(json!({
        "taskId": "task-1",
        "inputResponses": {"guests": {"action": "accept", "content": {"count": 12}}}
    }))
    .unwrap();
    for intruder in [Some("bob"), Some("alice "), Some(""), None] {
        let refused = input.update(intruder, &params).unwrap_err();
        assert_eq!(
            serde_json::to_value(&refused).unwrap(),
            json!({"code": -32602, "message": "no such task", "data": {"taskId": "task-1"}}),
            "{intruder:?}"
        );
        still_waiting(&rx);
        outstanding(&input, &["guests"]);
        assert!(!input.is_owned_by(intruder));
    }
    let ack = input.update(Some("alice"), &params).unwrap();
    assert_eq!(
        serde_json::to_value(ack).unwrap(),
        json!({"resultType": "complete"})
    );
    let answer = received(&rx).unwrap();
    assert_eq!(answer.accepted(), Some(Guests { count: 12 }));
    // A task without an owner takes anyone's answer, as before.
    assert!(TaskInput::new(forms()).is_owned_by(Some("bob")));
}
