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
/// `T`); `T` derives `Deserialize`, `JsonSchema` and `ElicitForm`, and the input schema rmcp
/// publishes stays `T`'s. On a decline or cancel the method answers with its `otherwise`.
pub type Filled<T, E = Unexpanded> = <E as Expansion<T>>::Filled;

/// What [`Asked`] and [`Accepted`] are, once [`#[elicit_rmcp::asks]`](crate::asks) rewrote
/// the method (with [`Expanded`]); without the attribute ([`Unexpanded`]) they are nothing,
/// and the compiler says to add it.
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
#[derive(Debug)]
pub enum Unexpanded {}

/// [`Asked`] and [`Accepted`] as the attribute binds them.
#[derive(Debug)]
pub enum Expanded {}

impl<T: ElicitForm> Expansion<T> for Expanded {
    type Answer = Answer<T>;
    type Accepted = T;
    type Filled = T;
}

/// A [`Filled`] parameter's arguments as the model sent them: any object is read (what is
/// missing or wrong is asked), and the input schema published is `T`'s.
#[doc(hidden)]
pub struct ModelArguments<T>(
    pub rmcp::model::JsonObject,
    std::marker::PhantomData<fn() -> T>,
);

impl<'de, T> serde::Deserialize<'de> for ModelArguments<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let given = rmcp::model::JsonObject::deserialize(deserializer)?;
        Ok(ModelArguments(given, std::marker::PhantomData))
    }
}

impl<T: rmcp::schemars::JsonSchema> rmcp::schemars::JsonSchema for ModelArguments<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut rmcp::schemars::SchemaGenerator) -> rmcp::schemars::Schema {
        T::json_schema(generator)
    }
}
