//! The demo's tools driven by elicit's scripted client on both protocol eras, with the
//! answers and final texts the Python interop suite (`tests/interop/run.py`) uses.

use elicit_axum::testing::Browser;
use elicit_examples::demo::forms::{Booking, Confirm, ConnectAccount, Extra, Seating};
use elicit_examples::demo::run::connect_routes;
use elicit_examples::demo::server::DemoServer;
use elicit_rmcp::testing::{Capabilities, ScriptedClient, Side, UserReply};
use elicit_rmcp::wire::ProtocolEra;
use serde_json::json;

const ORIGIN: &str = "http://127.0.0.1:8765";

fn demo() -> DemoServer {
    DemoServer::new(ORIGIN)
}

/// The full booking `run.py` sends, as the typed form.
fn full_booking() -> Booking {
    Booking {
        date: "2026-12-24".into(),
        time: "20:00".into(),
        guests: 4,
        seating: Seating::Terrace,
        extras: vec![Extra::HighChair, Extra::BirthdayCake],
        email: Some("ada@example.com".into()),
    }
}

#[tokio::test]
async fn book_table_accept_decline_cancel() {
    for era in ProtocolEra::ALL {
        let run = ScriptedClient::new(era)
            .accept(&full_booking())
            .call_tool(demo(), "book_table", json!({"restaurant": "Chez Rust"}))
            .await;
        assert_eq!(
            run.text(),
            "accept: table for 4 at Chez Rust on 2026-12-24 at 20:00, seating terrace, \
             extras high_chair + birthday_cake, confirmation to ada@example.com",
            "{era:?}"
        );
        let minimal = ScriptedClient::new(era)
            .reply::<Booking>(UserReply::Accept(json!({"date": "2027-01-02"})))
            .call_tool(demo(), "book_table", json!({"restaurant": "Chez Rust"}))
            .await;
        assert_eq!(
            minimal.text(),
            "accept: table for 2 at Chez Rust on 2027-01-02 at 19:30, seating indoor",
            "{era:?}"
        );
        for (reply, text) in [
            (UserReply::Decline, "decline: no table booked at Chez Rust"),
            (UserReply::Cancel, "cancel: booking at Chez Rust left open"),
        ] {
            let run = ScriptedClient::new(era)
                .reply::<Booking>(reply)
                .call_tool(demo(), "book_table", json!({"restaurant": "Chez Rust"}))
                .await;
            assert_eq!(run.text(), text, "{era:?}");
        }
    }
}

#[tokio::test]
async fn book_table_asks_once_per_era() {
    for era in ProtocolEra::ALL {
        let run = ScriptedClient::new(era)
            .accept(&full_booking())
            .call_tool(demo(), "book_table", json!({"restaurant": "Chez Rust"}))
            .await;
        let t = &run.transcript;
        match era {
            ProtocolEra::Mrtr2026 => {
                assert!(t.requests(Side::Client, "initialize").is_empty());
                assert_eq!(t.requests(Side::Client, "server/discover").len(), 1);
                let rounds = t.rounds("tools/call");
                assert_eq!(rounds.len(), 1);
                let asked = &rounds[0]["inputRequests"]["booking"]["params"];
                assert_eq!(asked["message"], "Book a table at Chez Rust");
                let props: Vec<&String> = asked["requestedSchema"]["properties"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .collect();
                assert_eq!(
                    props,
                    ["date", "time", "guests", "seating", "extras", "email"]
                );
                let calls = t.requests(Side::Client, "tools/call");
                assert_eq!(calls.len(), 2, "the call and one retry");
                assert_eq!(calls[1]["requestState"], rounds[0]["requestState"]);
                assert_eq!(calls[1]["inputResponses"]["booking"]["action"], "accept");
            }
            ProtocolEra::Legacy2025 => {
                assert_eq!(t.requests(Side::Client, "initialize").len(), 1);
                assert!(t.rounds("tools/call").is_empty());
                let pushed = t.requests(Side::Server, "elicitation/create");
                assert_eq!(pushed.len(), 1);
                assert_eq!(pushed[0]["message"], "Book a table at Chez Rust");
            }
            _ => unreachable!("a newer era"),
        }
    }
}

#[tokio::test]
async fn cancel_reservation_confirmed_kept_declined() {
    for era in ProtocolEra::ALL {
        for (reply, text) in [
            (
                UserReply::accept_form(&Confirm { confirm: true }),
                "accept: reservation R1 cancelled",
            ),
            (
                UserReply::accept_form(&Confirm { confirm: false }),
                "accept: reservation R1 kept (not confirmed)",
            ),
            (UserReply::Decline, "decline: reservation R1 kept"),
            (UserReply::Cancel, "cancel: reservation R1 kept"),
        ] {
            let run = ScriptedClient::new(era)
                .reply::<Confirm>(reply)
                .call_tool(
                    demo(),
                    "cancel_reservation",
                    json!({"reservation_id": "R1"}),
                )
                .await;
            assert_eq!(run.text(), text, "{era:?}");
        }
    }
}

#[tokio::test]
async fn connect_account_completes_on_the_landing_page() {
    for era in ProtocolEra::ALL {
        let server = demo();
        // The person opens the link on the demo's own landing page and presses Confirm.
        let browser = Browser::new(ORIGIN, connect_routes(&server));
        let run = ScriptedClient::new(era)
            .browser(browser)
            .reply_url::<ConnectAccount>(UserReply::OpenUrl)
            .call_tool(server, "connect_account", json!({"service": "github"}))
            .await;
        assert_eq!(
            run.text(),
            "accept: connected github as demo-user@github",
            "{era:?}"
        );
        let t = &run.transcript;
        let link = match era {
            ProtocolEra::Mrtr2026 => {
                t.rounds("tools/call")[0]["inputRequests"]["connect"]["params"]["url"].clone()
            }
            ProtocolEra::Legacy2025 => {
                let done = t.notifications(Side::Server, "notifications/elicitation/complete");
                assert_eq!(done.len(), 1, "{era:?}");
                t.requests(Side::Server, "elicitation/create")[0]["url"].clone()
            }
            _ => unreachable!("a newer era"),
        };
        let link = link.as_str().unwrap();
        assert!(
            link.starts_with(&format!("{ORIGIN}/connect?elicitation=eu1.")),
            "{link}"
        );
    }
}

#[tokio::test]
async fn connect_account_declined_or_refused_without_url_mode() {
    for era in ProtocolEra::ALL {
        let run = ScriptedClient::new(era)
            .reply_url::<ConnectAccount>(UserReply::Decline)
            .call_tool(demo(), "connect_account", json!({"service": "github"}))
            .await;
        assert_eq!(run.text(), "decline: github not connected", "{era:?}");

        // A form-only client is never sent the link; the scripted client would fail if it were.
        let form_only = ScriptedClient::new(era)
            .capabilities(Capabilities::Form)
            .call_tool(demo(), "connect_account", json!({"service": "github"}))
            .await;
        assert!(
            form_only
                .transcript
                .requests(Side::Server, "elicitation/create")
                .is_empty()
        );
        assert!(form_only.transcript.rounds("tools/call").is_empty());
    }
}

#[tokio::test]
async fn plan_trip_asks_two_questions() {
    for era in ProtocolEra::ALL {
        let client = ScriptedClient::new(era)
            .reply_to_form(
                "dates",
                ["start", "nights"],
                UserReply::Accept(json!({"start": "2026-12-24", "nights": 2})),
            )
            .reply_to_form(
                "travelers",
                ["adults", "children"],
                UserReply::Accept(json!({"adults": 2, "children": 1})),
            );
        let run = client
            .call_tool(demo(), "plan_trip", json!({"destination": "Rome"}))
            .await;
        assert_eq!(
            run.text(),
            "accept: 2 nights in Rome from 2026-12-24 for 2 adults and 1 children",
            "{era:?}"
        );
        match era {
            ProtocolEra::Mrtr2026 => {
                let rounds = run.transcript.rounds("tools/call");
                assert_eq!(rounds.len(), 1, "both questions in one round");
                let keys: Vec<&String> = rounds[0]["inputRequests"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .collect();
                assert_eq!(keys, ["dates", "travelers"]);
            }
            ProtocolEra::Legacy2025 => {
                let pushed = run.transcript.requests(Side::Server, "elicitation/create");
                assert_eq!(pushed.len(), 2);
                assert_eq!(pushed[0]["message"], "When do you travel to Rome?");
            }
            _ => unreachable!("a newer era"),
        }
        let declined = ScriptedClient::new(era)
            .reply_to_form("dates", ["start", "nights"], UserReply::Decline)
            .reply_to_form("travelers", ["adults", "children"], UserReply::Decline)
            .call_tool(demo(), "plan_trip", json!({"destination": "Rome"}))
            .await;
        assert_eq!(
            declined.text(),
            "decline: no trip to Rome planned",
            "{era:?}"
        );
    }
}

/// `export_reservations`: a task for a 2026-07-28 client that declared the tasks extension (its
/// question on `tasks/get`, the answer by `tasks/update`), in the call for any other.
#[tokio::test]
async fn export_reservations_as_a_task_or_in_the_call() {
    use elicit_examples::demo::forms::ExportOptions;
    for era in ProtocolEra::ALL {
        for tasks in [true, false] {
            let mut client = ScriptedClient::new(era)
                .reply::<ExportOptions>(UserReply::Accept(json!({"include_cancelled": true})));
            if tasks {
                client = client.tasks();
            }
            let run = client
                .call_tool(demo(), "export_reservations", json!({}))
                .await;
            let ran = if tasks && era == ProtocolEra::Mrtr2026 {
                "task"
            } else {
                "call"
            };
            assert_eq!(
                run.text(),
                format!("accept: reservations exported with the cancelled ones (in a {ran})"),
                "{era:?} {tasks}"
            );
            let updates = run.transcript.requests(Side::Client, "tasks/update");
            assert_eq!(updates.len(), usize::from(ran == "task"), "{era:?} {tasks}");
        }
    }
}
