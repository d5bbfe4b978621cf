//! A form's question as the client sees it, as one reviewable text.

use serde::Serialize;

use elicit_runtime::form::ElicitForm;
use elicit_runtime::schema::RequestedSchema;

/// The form's key, message and `requestedSchema` as pretty JSON, in declaration order: pin it
/// in a snapshot so that any change to what users are asked shows up as a reviewed diff.
///
/// With [`insta`](https://docs.rs/insta) (the first run writes the snapshot next to the test;
/// `cargo insta review` accepts changes):
///
/// ```
/// use elicit_runtime::ElicitForm;
///
/// /// Book a table
/// #[derive(ElicitForm)]
/// struct Booking {
///     #[elicit(minimum = 1, maximum = 12)]
///     guests: u8,
///     /// Anything we should know?
///     note: Option<String>,
/// }
///
/// insta::assert_snapshot!(elicit_testing::review::<Booking>(), @r#"
/// {
///   "key": "booking",
///   "message": "Book a table",
///   "requestedSchema": {
///     "type": "object",
///     "properties": {
///       "guests": {
///         "type": "integer",
///         "minimum": 1,
///         "maximum": 12
///       },
///       "note": {
///         "type": "string",
///         "description": "Anything we should know?"
///       }
///     },
///     "required": [
///       "guests"
///     ]
///   }
/// }
/// "#);
/// ```
///
/// (`assert_snapshot!(review::<Booking>())` without the inline `@"…"` keeps the snapshot in a
/// `snapshots/` file instead.)
pub fn review<T: ElicitForm>() -> String {
    #[derive(Serialize)]
    struct Review<'a> {
        key: &'a str,
        message: &'a str,
        #[serde(rename = "requestedSchema")]
        requested_schema: &'a RequestedSchema,
    }
    let review = Review {
        key: T::key(),
        message: T::message(),
        requested_schema: T::requested_schema(),
    };
    serde_json::to_string_pretty(&review).expect("a requestedSchema always serializes")
}
