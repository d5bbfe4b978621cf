//! Property tests of an rmcp tool that takes `Elicit`, driven as it is (no body moved into a
//! function over `InputChannel`): each case runs the whole server in process with the
//! scripted client, on both eras, fed by the `testing::answers` strategies. Whatever a client
//! answers, it gets a result, a re-ask or a `-32602` naming the field: never a `-32603` from
//! turning what it sent (a re-ask's pre-filled values, say) into rmcp's types.

use std::time::Instant;

use elicit_rmcp::testing::answers;
use elicit_rmcp::testing::proptest::prelude::*;
use elicit_rmcp::testing::proptest::test_runner::{Config, TestRunner};
use elicit_rmcp::testing::{ScriptedClient, UserReply};
use elicit_rmcp::wire::ProtocolEra;
use elicit_rmcp::{Answer, Elicit, ElicitEnum, ElicitForm, ElicitHandler, Principal};
use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_router};
use serde_json::json;

use super::servers::elicit_server;

/// Which table would you like?
#[derive(Debug, ElicitForm)]
struct Booking {
    #[elicit(minimum = 1, maximum = 12, default = 2)]
    guests: u8,
    #[elicit(format = "date")]
    date: String,
    #[elicit(format = "email")]
    email: Option<String>,
    #[elicit(max_length = 100)]
    note: Option<String>,
}

/// Every kind of field a form can have, each with the rules it can carry.
#[derive(Debug, ElicitForm)]
#[elicit(message = "Tell us about your order")]
struct Order {
    #[elicit(format = "uri", max_length = 200)]
    site: String,
    #[elicit(format = "date-time")]
    when: Option<String>,
    #[elicit(min_length = 2, max_length = 8, default = "ab")]
    code: String,
    #[elicit(minimum = -3, maximum = 3)]
    step: i32,
    #[elicit(minimum = 0.5, maximum = 9.5, default = 1.5)]
    weight: f64,
    gift: bool,
    wrap: Option<bool>,
    size: Size,
    #[elicit(min_items = 1, max_items = 2)]
    extras: Vec<Size>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ElicitEnum)]
#[elicit(rename_all = "lowercase")]
enum Size {
    Small,
    Medium,
    Large,
}

#[derive(Clone)]
struct Tables {
    elicit: ElicitHandler,
}

#[tool_router]
impl Tables {
    #[tool(description = "Book a table")]
    async fn book(&self, mut cx: Elicit) -> Result<String, McpError> {
        Ok(match Booking::ask(&mut cx).await? {
            Answer::Accepted(b) => format!("{} guests on {}", b.guests, b.date),
            _ => "not booked".to_owned(),
        })
    }

    #[tool(description = "Place an order")]
    async fn order(&self, mut cx: Elicit) -> Result<String, McpError> {
        Ok(match Order::ask(&mut cx).await? {
            Answer::Accepted(order) => format!("ordered {:?} from {}", order.size, order.site),
            _ => "not ordered".to_owned(),
        })
    }
}

#[elicit_rmcp::handler]
impl ServerHandler for Tables {}

fn tables() -> Tables {
    Tables {
        elicit: ElicitHandler::new(elicit_server(), Principal::anonymous()),
    }
}

const CASES: u32 = 300;

#[test]
fn every_valid_answer_books_and_every_invalid_one_names_its_field_on_both_eras() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = tables();
    for era in ProtocolEra::ALL {
        let started = Instant::now();
        let mut runner = TestRunner::new(Config::with_cases(CASES));
        runner
            .run(&answers::valid::<Booking>(), |content| {
                let run = rt.block_on(
                    ScriptedClient::new(era)
                        .reply::<Booking>(UserReply::Accept(content.into()))
                        .call_tool(server.clone(), "book", json!({})),
                );
                prop_assert!(run.text().contains(" guests on "), "{}", run.text());
                Ok(())
            })
            .unwrap();
        runner
            .run(&answers::invalid::<Booking>(), |bad| {
                let run = rt.block_on(
                    ScriptedClient::new(era)
                        .reply::<Booking>(UserReply::Accept(bad.content.into()))
                        .call_tool(server.clone(), "book", json!({})),
                );
                let error = run.error();
                prop_assert_eq!(error.code.0, -32602);
                let data = error.data.as_ref().unwrap();
                prop_assert_eq!(
                    &data["errors"][0]["field"],
                    &json!(bad.field),
                    "{}",
                    bad.rule
                );
                Ok(())
            })
            .unwrap();
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "{era:?}: {} cases in {seconds:.2} s, {:.0} cases/s",
            2 * CASES,
            f64::from(2 * CASES) / seconds
        );
    }
}

/// Every kind of field, answered validly, leniently (`null` for optional fields) and with one
/// rule broken, through the whole server on both eras: each invalid answer is asked again
/// (its valid values pre-filled as defaults), then refused naming its field.
#[test]
fn every_field_kind_answered_anyhow_ends_in_a_result_or_a_32602_on_both_eras() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = tables();
    let call = |era, content: serde_json::Map<String, serde_json::Value>| {
        rt.block_on(
            ScriptedClient::new(era)
                .reply::<Order>(UserReply::Accept(content.into()))
                .call_tool(server.clone(), "order", json!({})),
        )
    };
    for era in ProtocolEra::ALL {
        let mut runner = TestRunner::new(Config::with_cases(CASES));
        for accepted in [
            answers::valid::<Order>().boxed(),
            answers::lenient::<Order>().boxed(),
        ] {
            runner
                .run(&accepted, |content| {
                    let run = call(era, content);
                    prop_assert!(run.text().starts_with("ordered "), "{}", run.text());
                    Ok(())
                })
                .unwrap();
        }
        runner
            .run(&answers::invalid::<Order>(), |bad| {
                let run = call(era, bad.content);
                let error = run.error();
                prop_assert_eq!(error.code.0, -32602, "{}: {}", bad.rule, error.message);
                let data = error.data.as_ref().unwrap();
                prop_assert_eq!(&data["errors"][0]["field"], &json!(bad.field));
                Ok(())
            })
            .unwrap();
    }
}
