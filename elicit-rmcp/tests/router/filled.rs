//! `Filled<T>` from one declaration: the input schema rmcp's `tools/list` serves is the form's
//! own (names, enum values, bounds, formats, titles, descriptions, defaults), with only the
//! fields marked `model_required` required of the model; the model's values are read by the
//! form's rules, and what they refuse is asked of the user. Both eras.

use elicit_rmcp::testing::{ScriptedClient, Side, UserReply};
use elicit_rmcp::wire::ProtocolEra;
use elicit_rmcp::{ElicitEnum, ElicitForm, ElicitHandler, Filled};
use rmcp::model::ElicitationAction;
use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_router};
use serde_json::{Value, json};

use super::harness::{ERAS, Era, User, connect};

#[derive(Debug, Clone, Copy, PartialEq, ElicitEnum)]
#[elicit(rename_all = "lowercase")]
enum Seating {
    Indoor,
    #[elicit(title = "On the terrace")]
    Terrace,
}

/// Reserve a table
#[derive(Debug, ElicitForm)]
#[elicit(rename_all = "camelCase")]
struct Reservation {
    /// The restaurant
    #[elicit(min_length = 2, model_required)]
    restaurant_name: String,
    /// How many guests
    #[elicit(title = "Guests", minimum = 1, maximum = 12)]
    party_size: u8,
    /// Where to sit
    seating: Seating,
    /// The day
    #[elicit(format = "date")]
    day: String,
    #[elicit(maximum = 4, default = 0)]
    high_chairs: u8,
    /// A note for the kitchen
    note: Option<String>,
}

#[derive(Clone)]
struct Restaurant {
    elicit: ElicitHandler,
}

#[tool_router]
impl Restaurant {
    #[elicit_rmcp::asks(otherwise = "not reserved")]
    #[tool(description = "Reserve a table")]
    async fn reserve(&self, table: Filled<Reservation>) -> Result<String, McpError> {
        let Reservation {
            restaurant_name,
            party_size,
            seating,
            day,
            high_chairs,
            note,
        } = table;
        Ok(format!(
            "{restaurant_name}, {party_size} guests, {seating:?}, {day}, {high_chairs} high chairs, note {note:?}"
        ))
    }
}

#[elicit_rmcp::handler]
impl ServerHandler for Restaurant {}

fn restaurant() -> Restaurant {
    Restaurant {
        elicit: ElicitHandler::local("restaurant"),
    }
}

/// The input schema of `reserve`, exactly as the server's `tools/list` response carried it.
async fn served_input_schema(era: Era) -> Value {
    let session = connect(
        restaurant(),
        era,
        User::always(ElicitationAction::Decline, None),
    )
    .await;
    let tools = session.client.list_all_tools().await.expect("tools/list");
    assert_eq!(tools.len(), 1);
    let [response] = &session.wire.responses_to("tools/list")[..] else {
        panic!("one tools/list response")
    };
    assert_eq!(response["result"]["tools"][0]["name"], "reserve");
    response["result"]["tools"][0]["inputSchema"].clone()
}

#[tokio::test]
async fn the_input_schema_the_model_sees_is_the_forms_declaration() {
    for era in ERAS {
        let schema = served_input_schema(era).await;
        assert_eq!(
            schema,
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {
                    "restaurantName": {"type": "string", "description": "The restaurant", "minLength": 2},
                    "partySize": {
                        "type": "integer", "title": "Guests", "description": "How many guests",
                        "minimum": 1, "maximum": 12
                    },
                    "seating": {
                        "type": "string", "description": "Where to sit",
                        "oneOf": [
                            {"const": "indoor", "title": "indoor"},
                            {"const": "terrace", "title": "On the terrace"}
                        ]
                    },
                    "day": {"type": "string", "description": "The day", "format": "date"},
                    "highChairs": {"type": "integer", "minimum": 0, "maximum": 4, "default": 0},
                    "note": {"type": "string", "description": "A note for the kitchen"}
                },
                "required": ["restaurantName"],
                "additionalProperties": false
            }),
            "{era:?}"
        );
        // Field for field, what the user's form shows.
        let form = serde_json::to_value(Reservation::requested_schema()).unwrap();
        assert_eq!(schema["properties"], form["properties"], "{era:?}");
    }
}

/// The form the user was asked, on `era`.
fn asked(run: &elicit_rmcp::testing::Run<rmcp::model::CallToolResult>, era: ProtocolEra) -> Value {
    match era {
        ProtocolEra::Mrtr2026 => {
            run.transcript.rounds("tools/call")[0]["inputRequests"]["reservation"]["params"].clone()
        }
        _ => run.transcript.requests(Side::Server, "elicitation/create")[0].clone(),
    }
}

#[tokio::test]
async fn valid_arguments_under_the_wire_names_ask_nobody() {
    for era in [ProtocolEra::Mrtr2026, ProtocolEra::Legacy2025] {
        let run = ScriptedClient::new(era)
            .call_tool(
                restaurant(),
                "reserve",
                json!({
                    "restaurantName": "Chez Rust", "partySize": 4, "seating": "terrace",
                    "day": "2026-12-24"
                }),
            )
            .await;
        assert_eq!(
            run.text(),
            "Chez Rust, 4 guests, Terrace, 2026-12-24, 0 high chairs, note None",
            "{era:?}"
        );
        assert!(
            run.transcript.rounds("tools/call").is_empty()
                && run
                    .transcript
                    .requests(Side::Server, "elicitation/create")
                    .is_empty(),
            "{era:?}: nobody asked"
        );
    }
}

/// A value out of bounds, one not among the options, a bad date and a field under its Rust
/// name instead of its wire name: each is asked of the user, in one form of just those fields,
/// and the values that passed are kept.
#[tokio::test]
async fn model_values_the_form_refuses_are_asked_of_the_user() {
    for era in [ProtocolEra::Mrtr2026, ProtocolEra::Legacy2025] {
        let arguments = json!({
            "restaurant_name": "Chez Rust", "partySize": 40, "seating": "patio",
            "day": "24/12/2026", "highChairs": 1, "note": "a birthday"
        });
        let answer = json!({
            "restaurantName": "Chez Rust", "partySize": 6, "seating": "indoor", "day": "2026-12-24"
        });
        let run = ScriptedClient::new(era)
            .reply_as::<Reservation>("reservation", UserReply::Accept(answer))
            .call_tool(restaurant(), "reserve", arguments)
            .await;
        assert_eq!(
            run.text(),
            "Chez Rust, 6 guests, Indoor, 2026-12-24, 1 high chairs, note Some(\"a birthday\")",
            "{era:?}"
        );
        let params = asked(&run, era);
        assert_eq!(
            params["message"], "Reserve a table (kept: highChairs = 1, note = \"a birthday\")",
            "{era:?}"
        );
        let form = serde_json::to_value(Reservation::requested_schema()).unwrap();
        let properties = &form["properties"];
        assert_eq!(
            params["requestedSchema"],
            json!({
                "type": "object",
                "properties": {
                    "restaurantName": properties["restaurantName"],
                    "partySize": properties["partySize"],
                    "seating": properties["seating"],
                    "day": properties["day"]
                },
                "required": ["restaurantName", "partySize", "seating", "day"]
            }),
            "{era:?}"
        );
    }
}

/// The model may leave out anything not `model_required`: the call goes through and the user
/// is asked; a decline answers with `otherwise`.
#[tokio::test]
async fn what_the_model_leaves_out_is_asked_and_a_decline_reserves_nothing() {
    for era in [ProtocolEra::Mrtr2026, ProtocolEra::Legacy2025] {
        let run = ScriptedClient::new(era)
            .reply_as::<Reservation>(
                "reservation",
                UserReply::Accept(
                    json!({"partySize": 2, "seating": "indoor", "day": "2026-12-31"}),
                ),
            )
            .call_tool(
                restaurant(),
                "reserve",
                json!({"restaurantName": "Chez Rust"}),
            )
            .await;
        assert_eq!(
            run.text(),
            "Chez Rust, 2 guests, Indoor, 2026-12-31, 0 high chairs, note None",
            "{era:?}"
        );
        assert_eq!(
            asked(&run, era)["requestedSchema"]["required"],
            json!(["partySize", "seating", "day"]),
            "{era:?}"
        );
        let run = ScriptedClient::new(era)
            .reply_as::<Reservation>("reservation", UserReply::Decline)
            .call_tool(restaurant(), "reserve", json!({}))
            .await;
        assert_eq!(run.text(), "not reserved", "{era:?}");
    }
}
