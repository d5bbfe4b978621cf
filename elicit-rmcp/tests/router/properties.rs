//! Property tests of an rmcp tool that takes `Elicit`, driven as it is (no body moved into a
//! function over `InputChannel`): each case runs the whole server in process with the
//! scripted client, on both eras, fed by the `testing::answers` strategies.

use std::time::Instant;

use elicit_rmcp::testing::answers;
use elicit_rmcp::testing::proptest::prelude::*;
use elicit_rmcp::testing::proptest::test_runner::{Config, TestRunner};
use elicit_rmcp::testing::{ScriptedClient, UserReply};
use elicit_rmcp::wire::ProtocolEra;
use elicit_rmcp::{Answer, Elicit, ElicitForm, ElicitHandler, Principal};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_handler, tool_router};
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

#[derive(Clone)]
struct Tables {
    tool_router: ToolRouter<Self>,
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
}

#[tool_handler(router = self.elicit.tools(&self.tool_router))]
impl ServerHandler for Tables {}

fn tables() -> Tables {
    Tables {
        tool_router: Tables::tool_router(),
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
