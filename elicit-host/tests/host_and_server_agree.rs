//! The host checks the person's input with the rules an `elicit` server applies: an answer
//! `FormInput::accept` builds is one the server's decoder takes, and one it refuses, the server
//! refuses too.

use elicit_host::{Control, Elicitation, FormInput, FormModel};
use elicit_runtime::{ElicitEnum, ElicitForm};
use proptest::prelude::*;
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, ElicitEnum)]
#[elicit(rename_all = "lowercase")]
enum Topping {
    #[elicit(title = "Extra cheese")]
    Cheese,
    Olives,
    Basil,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ElicitEnum)]
#[elicit(rename_all = "lowercase")]
enum Seating {
    Inside,
    #[elicit(title = "On the terrace")]
    Terrace,
}

/// Which table would you like?
#[derive(Debug, PartialEq, ElicitForm)]
struct Booking {
    /// How many people, including you
    #[elicit(title = "Guests", minimum = 1, maximum = 12, default = 2)]
    guests: u8,
    #[elicit(format = "date")]
    date: String,
    #[elicit(format = "email")]
    email: Option<String>,
    #[elicit(min_length = 2, max_length = 20)]
    name: String,
    seating: Seating,
    #[elicit(min_items = 1, max_items = 2)]
    toppings: Vec<Topping>,
    high_chair: Option<bool>,
    #[elicit(minimum = 0, maximum = 50)]
    tip_percent: Option<f64>,
}

fn form() -> FormModel {
    // The params as they arrive: the schema as JSON text, parsed by the host.
    let params = json!({
        "mode": "form",
        "message": Booking::message(),
        "requestedSchema": serde_json::to_value(Booking::requested_schema()).unwrap(),
    });
    match Elicitation::from_params(&params).unwrap() {
        Elicitation::Form(form) => form,
        Elicitation::Url(_) => unreachable!(),
    }
}

#[test]
fn every_field_kind_is_described_for_rendering() {
    let form = form();
    assert_eq!(form.message(), "Which table would you like?");
    let guests = form.field("guests").unwrap();
    assert_eq!(
        (guests.label(), guests.description(), guests.required()),
        ("Guests", Some("How many people, including you"), false)
    );
    assert_eq!(
        (guests.control(), guests.integer()),
        (Control::Number, true)
    );
    assert_eq!(guests.hint(), "a whole number from 1 to 12");
    assert_eq!(guests.default_value(), Some(json!(2)));
    let name = form.field("name").unwrap();
    assert_eq!(
        (name.label(), name.hint()),
        ("name", "2 to 20 characters".to_owned())
    );
    assert_eq!(form.field("date").unwrap().hint(), "a date (YYYY-MM-DD)");
    assert_eq!(form.field("email").unwrap().hint(), "an email address");
    let seating = form.field("seating").unwrap();
    assert_eq!(seating.control(), Control::Choice);
    assert_eq!(
        seating.options(),
        [("inside", "inside"), ("terrace", "On the terrace")]
    );
    let toppings = form.field("toppings").unwrap();
    assert_eq!(toppings.control(), Control::MultiChoice);
    assert_eq!(toppings.hint(), "choose 1 to 2");
    assert_eq!(
        toppings.options(),
        [
            ("cheese", "Extra cheese"),
            ("olives", "olives"),
            ("basil", "basil")
        ]
    );
    assert_eq!(
        form.field("high_chair").unwrap().control(),
        Control::Boolean
    );
    assert_eq!(
        form.field("tip_percent").unwrap().hint(),
        "a number from 0 to 50"
    );
}

#[test]
fn what_the_person_types_becomes_an_answer_the_server_decodes() {
    let form = form();
    let mut input = FormInput::new(&form);
    assert_eq!(input.missing(), ["date", "name", "seating", "toppings"]);
    input.set_text("date", "2026-12-24").unwrap();
    input.set_text("name", "Ada").unwrap();
    input.set_text("seating", "on the terrace").unwrap(); // by label, any case
    input.set_text("toppings", "Extra cheese, basil").unwrap();
    input.set_text("high_chair", "yes").unwrap();
    input.set_text("email", "").unwrap(); // blank: an optional field left out
    let result = input.accept().unwrap();
    let answer = serde_json::to_value(&result).unwrap();
    assert_eq!(
        answer,
        json!({"action": "accept", "content": {
            "guests": 2, "date": "2026-12-24", "name": "Ada", "seating": "terrace",
            "toppings": ["cheese", "basil"], "high_chair": true
        }})
    );
    let booking = Booking::from_content(&answer["content"]).unwrap();
    assert_eq!(booking.seating, Seating::Terrace);
    assert_eq!(booking.toppings, [Topping::Cheese, Topping::Basil]);
}

#[test]
fn each_value_is_refused_as_it_is_entered_with_the_servers_reason() {
    let form = form();
    let mut input = FormInput::new(&form);
    let refused = |input: &mut FormInput<'_>, field: &str, text: &str| {
        input.set_text(field, text).unwrap_err().to_string()
    };
    assert_eq!(
        refused(&mut input, "guests", "13"),
        "`guests`: must be at most 12"
    );
    assert_eq!(
        refused(&mut input, "guests", "2.5"),
        "`guests`: must be a whole number"
    );
    assert_eq!(
        refused(&mut input, "guests", "two"),
        "`guests`: is not a number"
    );
    assert_eq!(
        refused(&mut input, "date", "24/12/2026"),
        "`date`: must be a valid date like 2024-01-31"
    );
    assert_eq!(
        refused(&mut input, "name", "A"),
        "`name`: must be at least 2 characters long"
    );
    assert_eq!(
        refused(&mut input, "high_chair", "maybe"),
        "`high_chair`: answer yes or no"
    );
    assert_eq!(
        refused(&mut input, "seating", "bar"),
        "`seating`: choose one of: inside, On the terrace"
    );
    assert_eq!(
        refused(&mut input, "toppings", "cheese, olives, basil"),
        "`toppings`: must choose at most 2 options"
    );
    assert_eq!(
        refused(&mut input, "nope", "x"),
        "`nope`: is not a field of this form"
    );
    // A refused value leaves the field as it was.
    assert_eq!(input.value("guests"), Some(&json!(2)));
    // Accepting with required fields missing names every one.
    let error = input.accept().unwrap_err();
    let fields: Vec<&str> = error.errors().iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, ["date", "name", "seating", "toppings"]);
}

/// Any JSON a field might be given: right and wrong types, in and out of range.
fn any_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..60).prop_map(|n| json!(n)),
        (-5.0f64..60.0).prop_map(|n| json!(n)),
        "[a-z@.0-9-]{0,24}".prop_map(Value::String),
        Just(json!("2026-02-30")),
        Just(json!("2026-12-24")),
        Just(json!("ada@example.com")),
        Just(json!("inside")),
        Just(json!("terrace")),
        proptest::collection::vec(
            prop_oneof![Just("cheese"), Just("olives"), Just("basil"), Just("ham")],
            0..4
        )
        .prop_map(|v| json!(v)),
    ]
}

proptest! {
    #[test]
    fn the_host_accepts_exactly_what_the_server_decodes(
        values in proptest::collection::vec(proptest::option::of(any_value()), 8)
    ) {
        let form = form();
        let names: Vec<&str> = form.fields().map(|f| f.name()).collect();
        let mut input = FormInput::empty(&form);
        let mut content = serde_json::Map::new();
        for (name, value) in names.iter().zip(values) {
            if let Some(value) = value {
                content.insert((*name).to_owned(), value.clone());
                // Whatever the host refuses per field, the server refuses in the whole.
                if input.set(name, value).is_err() {
                    prop_assert!(Booking::from_content(&Value::Object(content.clone())).is_err());
                    return Ok(());
                }
            }
        }
        let host = input.accept();
        let server = Booking::from_content(&Value::Object(content));
        prop_assert_eq!(host.is_ok(), server.is_ok(), "host {:?} server {:?}", host, server);
    }
}
