//! Questions as parameters: the types [`#[elicit_rmcp::asks]`](crate::asks) fills before a
//! tool or prompt body runs.

use crate::{Answer, ElicitForm};

/// The user's answer to the form `T`, asked before the body runs: a parameter
/// [`#[elicit_rmcp::asks]`](crate::asks) fills (in the body it is an [`Answer<T>`]).
///
/// Written without the attribute, it does not compile, and the error says to add it. (The
/// second parameter is the attribute's: leave it out.)
pub type Asked<T, E = Unexpanded> = <E as Expansion<T>>::Answer;

/// The form `T` the user accepted, asked before the body runs: a parameter
/// [`#[elicit_rmcp::asks]`](crate::asks) fills (in the body it is a `T`). On a decline or a
/// cancel the body does not run; the method answers with its `otherwise` value.
pub type Accepted<T, E = Unexpanded> = <E as Expansion<T>>::Accepted;

/// The tool's arguments as the form `T`, complete: what the model gave, with the fields it left
/// out or got wrong asked of the user in one form of just those fields
/// ([`form::fill_in`](crate::form::fill_in)), before the body runs. A parameter
/// [`#[elicit_rmcp::asks]`](crate::asks) fills in place of `Parameters<T>` (in the body it is a
/// `T`). On a decline or cancel the method answers with its `otherwise`.
///
/// `T` is declared once, with `#[derive(ElicitForm)]` alone: the tool's `inputSchema` that rmcp
/// publishes is the form's own declaration ([`form::input_schema`](crate::form::input_schema):
/// the same wire names, enum values, bounds, formats, titles and descriptions the user's form
/// shows), and the model's arguments are read by the form's rules. So:
///
/// - the model may leave out any field, and the user is asked for it, except the fields marked
///   `#[elicit(model_required)]`, which the schema lists in `required`;
/// - a value the form refuses (out of bounds, not among the options, not a date, under another
///   name than the wire name) is not an error: it is asked of the user, like a missing one;
/// - a field marked `#[elicit(user_decides)]` is always asked, the model's value only
///   suggested;
/// - members the form does not declare are ignored (the schema says `additionalProperties:
///   false`).
///
/// ```
/// use elicit_rmcp::{ElicitForm, ElicitHandler, Filled};
/// use rmcp::{ErrorData as McpError, tool, tool_router};
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
/// #[derive(Clone)]
/// struct Tables {
///     elicit: ElicitHandler,
/// }
///
/// #[tool_router]
/// impl Tables {
///     #[elicit_rmcp::asks(otherwise = "not booked")]
///     #[tool(description = "Book a table")]
///     async fn book(&self, booking: Filled<Booking>) -> Result<String, McpError> {
///         Ok(format!("{} for {}", booking.restaurant_name, booking.guests))
///     }
/// }
///
/// let book = Tables::tool_router().get("book").cloned().unwrap();
/// assert_eq!(
///     serde_json::to_value(&book.input_schema).unwrap(),
///     json!({
///         "$schema": "https://json-schema.org/draft/2020-12/schema",
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
pub type Filled<T, E = Unexpanded> = <E as Expansion<T>>::Filled;

/// What [`Asked`] and [`Accepted`] are, once [`#[elicit_rmcp::asks]`](crate::asks) rewrote
/// the method (with [`Expanded`]); without the attribute ([`Unexpanded`]) they are nothing,
/// and the compiler says to add it.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`Asked<{T}>`, `Accepted<{T}>` and `Filled<{T}>` are parameters that `#[elicit_rmcp::asks]` fills before the body runs",
    label = "this method needs `#[elicit_rmcp::asks]`",
    note = "write `#[elicit_rmcp::asks]` above `#[tool]` (or `#[prompt]`) on this method"
)]
pub trait Expansion<T> {
    /// What an [`Asked`] parameter is in the body.
    type Answer;
    /// What an [`Accepted`] parameter is in the body.
    type Accepted;
    /// What a [`Filled`] parameter is in the body.
    type Filled;
}

/// [`Asked`] and [`Accepted`] as written: not a type until the attribute expands them.
#[doc(hidden)]
#[derive(Debug)]
pub enum Unexpanded {}

/// [`Asked`] and [`Accepted`] as the attribute binds them.
#[doc(hidden)]
#[derive(Debug)]
pub enum Expanded {}

impl<T: ElicitForm> Expansion<T> for Expanded {
    type Answer = Answer<T>;
    type Accepted = T;
    type Filled = T;
}

/// A [`Filled`] parameter's arguments as the model sent them: any object is read (what is
/// missing or wrong is asked), and the input schema published is the form's
/// ([`form::input_schema`](crate::form::input_schema)).
#[doc(hidden)]
pub struct ModelArguments<T>(
    pub rmcp::model::JsonObject,
    std::marker::PhantomData<fn() -> T>,
);

impl<T> std::fmt::Debug for ModelArguments<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("ModelArguments").field(&self.0).finish()
    }
}

impl<'de, T> serde::Deserialize<'de> for ModelArguments<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let given = rmcp::model::JsonObject::deserialize(deserializer)?;
        Ok(ModelArguments(given, std::marker::PhantomData))
    }
}

/// The schema rmcp's `#[tool]` publishes as the tool's `inputSchema`: the form's declaration,
/// not a second one (`T` needs no `JsonSchema`).
impl<T: ElicitForm> rmcp::schemars::JsonSchema for ModelArguments<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::key().into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        std::any::type_name::<T>().into()
    }

    fn json_schema(_: &mut rmcp::schemars::SchemaGenerator) -> rmcp::schemars::Schema {
        crate::form::input_schema::<T>().into()
    }
}
