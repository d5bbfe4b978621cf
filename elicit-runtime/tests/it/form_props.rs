//! Properties of the derived decoder against the schema model, on generated content.
//!
//! (a) `from_content` and `RequestedSchema::validate` agree on every content, and report the
//!     same failing fields;
//! (b) whatever `from_content` accepts, `to_content` re-encodes into content that validates and
//!     decodes to an equal value;
//! (c) every valid content decodes, and `to_content` gives it back (see `canonical` for the
//!     equality used);
//! (d) the schema's JSON, parsed back, validates exactly like the original.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Debug;

use crate::common::{Color, Hex, Seating};
use elicit_runtime::ElicitForm;
use elicit_runtime::schema::{ContentError, PropertySchema, RequestedSchema};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Map, Value as Json, json};

// ---------------------------------------------------------------------------------------------
// Forms
// ---------------------------------------------------------------------------------------------

/// Required fields of every kind, one optional, one defaulted.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Book a trip", rename_all = "camelCase")]
struct Rich {
    #[elicit(min_length = 6, max_length = 24, format = "email")]
    email_address: String,
    #[elicit(minimum = 1, maximum = 12)]
    guests: u8,
    offset: i64,
    #[elicit(minimum = -1.5, maximum = 100)]
    ratio: f64,
    vip: bool,
    nickname: Option<String>,
    color: Color,
    #[elicit(min_items = 1, max_items = 2)]
    extras: Vec<Color>,
    #[elicit(default = 3, maximum = 30)]
    nights: u16,
}

/// Mostly optional or defaulted fields: the other formats, `f32`, sets, titled options.
#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Anything else?")]
struct Loose {
    #[elicit(format = "date")]
    day: Option<String>,
    #[elicit(format = "date-time")]
    at: Option<String>,
    #[elicit(format = "uri", max_length = 30)]
    link: Option<String>,
    ratio: Option<f32>,
    #[elicit(minimum = -5, maximum = 5)]
    small: Option<i8>,
    big: Option<u64>,
    whole: u32,
    #[elicit(default = ["#FF0000"], max_items = 2)]
    tree: BTreeSet<Hex>,
    seats: HashSet<Seating>,
    #[elicit(default = true)]
    flag: bool,
    #[elicit(default = "x", min_length = 1)]
    label: String,
    #[elicit(default = "terrace")]
    seating: Seating,
    #[elicit(default = 0.5, minimum = 0, maximum = 1)]
    share: f64,
    /// An `Option` with a default: absent means the default, never `None`.
    #[elicit(default = 2, maximum = 9)]
    spare: Option<u8>,
}

/// Multi-selects whose order is not kept (sets); compared as sets in (c).
const UNORDERED: [&str; 2] = ["tree", "seats"];
/// Fields held as `f32`: their numbers are compared at `f32` precision.
const SINGLE_PRECISION: [&str; 1] = ["ratio"];

const COLORS: [&str; 3] = ["Red", "Green", "Blue"];
const HEXES: [&str; 3] = ["#FF0000", "#00FF00", "#0000FF"];
const SEATINGS: [&str; 3] = ["indoor-window", "terrace", "bar"];

fn wire_names<T: ElicitForm>() -> Vec<String> {
    T::requested_schema()
        .properties
        .iter()
        .map(|(name, _)| name.clone())
        .collect()
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        // Nothing is written next to the sources on failure; the seed is printed instead.
        failure_persistence: None,
        ..Config::default()
    }
}

mod arbitrary;
mod client_valid;
mod differential;
mod generated;
mod properties;
mod sanity;
mod valid;

use arbitrary::content;
use properties::{
    accepted_round_trips, decoder_agrees_with_model, from_value, reparsed, sorted_by_name,
    valid_round_trips, value_keeps_order,
};
use valid::{valid_loose, valid_rich};
