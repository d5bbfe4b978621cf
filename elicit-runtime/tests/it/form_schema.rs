//! Exact `requestedSchema` JSON for every variant of the spec's form grammar.

use std::collections::{BTreeSet, HashSet};

use elicit_runtime::{ElicitEnum, ElicitForm};

fn schema<T: ElicitForm>() -> String {
    serde_json::to_string(T::requested_schema()).unwrap()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ElicitEnum)]
enum Color {
    Red,
    Green,
    Blue,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ElicitEnum)]
enum Hex {
    #[elicit(rename = "#FF0000", title = "Red")]
    Red,
    #[elicit(rename = "#00FF00", title = "Green")]
    Green,
    #[elicit(rename = "#0000FF", title = "Blue")]
    Blue,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ElicitEnum)]
#[elicit(rename_all = "kebab-case", doc_titles)]
enum Seating {
    /// Inside, by the window
    IndoorWindow,
    /// On the terrace
    Terrace,
    Bar,
}

#[test]
fn string_with_every_keyword() {
    #[derive(ElicitForm)]
    #[elicit(message = "m")]
    struct F {
        /// Description text
        #[elicit(
            title = "Display Name",
            min_length = 3,
            max_length = 50,
            format = "email",
            default = "user@example.com"
        )]
        name: String,
    }
    assert_eq!(
        schema::<F>(),
        r#"{"type":"object","properties":{"name":{"type":"string","title":"Display Name","description":"Description text","minLength":3,"maxLength":50,"format":"email","default":"user@example.com"}}}"#
    );
}

#[test]
fn numbers_integers_booleans() {
    #[derive(ElicitForm)]
    #[elicit(message = "m")]
    struct F {
        #[elicit(
            title = "Display Name",
            description = "Description text",
            minimum = 0,
            maximum = 100,
            default = 50
        )]
        score: f64,
        #[elicit(minimum = 1, default = 3)]
        count: i64,
        small: u8,
        #[elicit(maximum = 10)]
        signed: i16,
        big: u64,
        ratio: f32,
        #[elicit(
            title = "Display Name",
            description = "Description text",
            default = false
        )]
        flag: bool,
        maybe: Option<bool>,
    }
    assert_eq!(
        schema::<F>(),
        concat!(
            r#"{"type":"object","properties":{"#,
            r#""score":{"type":"number","title":"Display Name","description":"Description text","minimum":0,"maximum":100,"default":50},"#,
            r#""count":{"type":"integer","minimum":1,"default":3},"#,
            r#""small":{"type":"integer","minimum":0,"maximum":255},"#,
            r#""signed":{"type":"integer","minimum":-32768,"maximum":10},"#,
            r#""big":{"type":"integer","minimum":0},"#,
            r#""ratio":{"type":"number","minimum":-3.4028235e+38,"maximum":3.4028235e+38},"#,
            r#""flag":{"type":"boolean","title":"Display Name","description":"Description text","default":false},"#,
            r#""maybe":{"type":"boolean"}},"#,
            r#""required":["small","signed","big","ratio"]}"#
        )
    );
}

#[test]
fn selects() {
    #[derive(ElicitForm)]
    #[elicit(message = "m")]
    struct F {
        #[elicit(
            title = "Color Selection",
            description = "Choose your favorite color",
            default = "Red"
        )]
        untitled: Color,
        #[elicit(title = "Color Selection", default = "#FF0000")]
        titled: Hex,
        #[elicit(title = "Color Selection", min_items = 1, max_items = 2, default = ["Red", "Green"])]
        multi: Vec<Color>,
        #[elicit(title = "Color Selection", min_items = 1, max_items = 2, default = ["#FF0000", "#00FF00"])]
        multi_titled: BTreeSet<Hex>,
        seating: Option<Seating>,
        seats: HashSet<Seating>,
    }
    assert_eq!(
        schema::<F>(),
        concat!(
            r#"{"type":"object","properties":{"#,
            r#""untitled":{"type":"string","title":"Color Selection","description":"Choose your favorite color","enum":["Red","Green","Blue"],"default":"Red"},"#,
            r##""titled":{"type":"string","title":"Color Selection","oneOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}],"default":"#FF0000"},"##,
            r#""multi":{"type":"array","title":"Color Selection","minItems":1,"maxItems":2,"items":{"type":"string","enum":["Red","Green","Blue"]},"default":["Red","Green"]},"#,
            r##""multi_titled":{"type":"array","title":"Color Selection","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}]},"default":["#FF0000","#00FF00"]},"##,
            r#""seating":{"type":"string","oneOf":[{"const":"indoor-window","title":"Inside, by the window"},{"const":"terrace","title":"On the terrace"},{"const":"bar","title":"bar"}]},"#,
            r#""seats":{"type":"array","items":{"anyOf":[{"const":"indoor-window","title":"Inside, by the window"},{"const":"terrace","title":"On the terrace"},{"const":"bar","title":"bar"}]}}},"#,
            r#""required":["seats"]}"#
        )
    );
}

#[test]
fn message_renames_and_schema_uri() {
    /// Tell us about
    /// your trip.
    ///
    /// Second paragraph.
    #[derive(ElicitForm)]
    #[elicit(
        rename_all = "camelCase",
        schema_uri = "https://json-schema.org/draft/2020-12/schema"
    )]
    struct Trip {
        party_size: u8,
        #[elicit(rename = "when")]
        date_of_trip: Option<String>,
    }
    assert_eq!(
        Trip::message(),
        "Tell us about your trip.\n\nSecond paragraph."
    );
    assert_eq!(
        schema::<Trip>(),
        r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"partySize":{"type":"integer","minimum":0,"maximum":255},"when":{"type":"string"}},"required":["partySize"]}"#
    );
}

#[test]
fn empty_required_is_omitted_and_schema_is_shared() {
    #[derive(ElicitForm)]
    #[elicit(message = "Anything else?")]
    struct Notes {
        note: Option<String>,
    }
    assert_eq!(
        schema::<Notes>(),
        r#"{"type":"object","properties":{"note":{"type":"string"}}}"#
    );
    assert!(std::ptr::eq(
        Notes::requested_schema(),
        Notes::requested_schema()
    ));
}

/// `testing::review`: key, message and schema as one pretty text, properties in declaration
/// order, pinned with insta (a changed form fails here until its new snapshot is reviewed).
#[test]
fn review_pins_key_message_and_schema() {
    /// Where should we seat you?
    #[derive(ElicitForm)]
    #[elicit(key = "seat_choice", rename_all = "camelCase")]
    #[allow(dead_code)]
    struct SeatChoice {
        /// Party size
        #[elicit(minimum = 1, maximum = 8)]
        party_size: u8,
        #[elicit(default = "terrace")]
        seating: Seating,
        #[elicit(max_items = 2)]
        highlights: BTreeSet<Hex>,
        /// Email for the confirmation
        #[elicit(format = "email")]
        email: Option<String>,
    }
    insta::assert_snapshot!(elicit_testing::review::<SeatChoice>(), @r##"
    {
      "key": "seat_choice",
      "message": "Where should we seat you?",
      "requestedSchema": {
        "type": "object",
        "properties": {
          "partySize": {
            "type": "integer",
            "description": "Party size",
            "minimum": 1,
            "maximum": 8
          },
          "seating": {
            "type": "string",
            "oneOf": [
              {
                "const": "indoor-window",
                "title": "Inside, by the window"
              },
              {
                "const": "terrace",
                "title": "On the terrace"
              },
              {
                "const": "bar",
                "title": "bar"
              }
            ],
            "default": "terrace"
          },
          "highlights": {
            "type": "array",
            "maxItems": 2,
            "items": {
              "anyOf": [
                {
                  "const": "#FF0000",
                  "title": "Red"
                },
                {
                  "const": "#00FF00",
                  "title": "Green"
                },
                {
                  "const": "#0000FF",
                  "title": "Blue"
                }
              ]
            }
          },
          "email": {
            "type": "string",
            "description": "Email for the confirmation",
            "format": "email"
          }
        },
        "required": [
          "partySize",
          "highlights"
        ]
      }
    }
    "##);
}

/// The input schema a model fills the form in by: the form's properties as declared, with
/// `required` only what `model_required` marks (through aliases and enums too, beside
/// `user_decides`), and no other argument.
#[test]
fn input_schema_requires_of_the_model_only_what_model_required_marks() {
    type Count = u8;

    /// Seat the party
    #[derive(ElicitForm)]
    #[allow(dead_code)]
    struct Party {
        #[elicit(model_required, rename = "where")]
        seating: Seating,
        #[elicit(model_required, user_decides, maximum = 20)]
        guests: Count,
        color: Color,
        note: Option<String>,
    }

    assert_eq!(Party::model_required(), ["where", "guests"]);
    let input = serde_json::Value::Object(elicit_runtime::form::input_schema::<Party>());
    let form = serde_json::to_value(Party::requested_schema()).unwrap();
    assert_eq!(input["properties"], form["properties"]);
    assert_eq!(input["required"], serde_json::json!(["where", "guests"]));
    assert_eq!(
        form["required"],
        serde_json::json!(["where", "guests", "color"])
    );
    assert_eq!(input["additionalProperties"], false);
    assert_eq!(input.as_object().unwrap().len(), 4, "{input}");
}
