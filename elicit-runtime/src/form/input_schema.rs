//! The input schema of a tool whose arguments are a form the model fills in: the form's own
//! declaration, so the model and the user are told the same names, values and bounds.

use serde_json::{Map, Value};

use super::ElicitForm;
use crate::schema::RequestedSchema;

/// The JSON Schema of a tool's arguments when they are the form `T`, filled in by the model
/// and completed by the user ([`fill_in`](super::fill_in); `Filled<T>` in `elicit-rmcp`).
///
/// It is `T`'s own declaration, so the model sees what the form checks: every field under its
/// wire name (`rename`, `rename_all`), with its type, title, description, enum values, bounds,
/// format and default, exactly as the user's form shows them. What differs is said in `T`'s
/// attributes:
///
/// - `required` lists only the fields marked `#[elicit(model_required)]`. The model may leave
///   any other field out, and the user is asked for it, rather than have the model guess.
/// - `additionalProperties` is `false`: the tool takes no other argument (one the model adds
///   anyway is ignored, never read).
///
/// The model's values are checked by the form's rules when the tool is called: a value out of
/// bounds or not among the options is asked of the user, as a missing one is; a field marked
/// `#[elicit(user_decides)]` is always asked, the model's value only suggested.
///
/// ```
/// use elicit_runtime::ElicitForm;
/// use elicit_runtime::form::input_schema;
/// use serde_json::json;
///
/// /// Book a table
/// #[derive(ElicitForm)]
/// #[elicit(rename_all = "camelCase")]
/// struct Booking {
///     /// The restaurant
///     #[elicit(model_required)]
///     restaurant_name: String,
///     /// How many guests
///     #[elicit(minimum = 1, maximum = 12)]
///     guests: u8,
/// }
///
/// assert_eq!(
///     serde_json::Value::Object(input_schema::<Booking>()),
///     json!({
///         "type": "object",
///         "properties": {
///             "restaurantName": {"type": "string", "description": "The restaurant"},
///             "guests": {"type": "integer", "description": "How many guests", "minimum": 1, "maximum": 12}
///         },
///         "required": ["restaurantName"],
///         "additionalProperties": false
///     })
/// );
/// ```
pub fn input_schema<T: ElicitForm>() -> Map<String, Value> {
    let own = T::requested_schema();
    let model_required = T::model_required();
    let schema = RequestedSchema {
        schema_uri: None,
        properties: own.properties.clone(),
        required: own
            .properties
            .iter()
            .filter(|(name, _)| model_required.contains(&name.as_str()))
            .map(|(name, _)| name.clone())
            .collect(),
    };
    // A schema of strings, numbers and lists always serialises to an object; were it not to,
    // an object of any arguments still lets the form ask for every field.
    let mut object = match serde_json::to_value(&schema) {
        Ok(Value::Object(object)) => object,
        _ => Map::from_iter([("type".to_owned(), Value::from("object"))]),
    };
    object.insert("additionalProperties".to_owned(), Value::Bool(false));
    object
}
