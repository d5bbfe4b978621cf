//! The forms the conformance fixtures ask for, declared as types: each derive emits exactly
//! the `requestedSchema` the suite expects.

use elicit_runtime::field::{FieldKind, FieldSpec};
use elicit_runtime::schema::InvalidValue;
use elicit_runtime::schema::{Annotations, EnumOptions, PropertySchema, SingleSelectSchema};
use elicit_runtime::{ElicitEnum, ElicitField, ElicitForm};
use serde_json::Value;

/// Please provide your information
///
/// (`test_elicitation` replaces this message with its `message` argument.)
#[derive(Debug, ElicitForm)]
#[elicit(key = "user_info")]
pub(crate) struct UserInfo {
    /// User's response
    pub username: String,
    /// User's email address
    pub email: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ElicitEnum)]
#[elicit(rename_all = "lowercase")]
pub(crate) enum Status {
    Active,
    Inactive,
    Pending,
}

/// Please review your profile (every field is pre-filled)
#[derive(Debug, ElicitForm)]
#[elicit(key = "profile")]
pub(crate) struct Profile {
    #[elicit(default = "John Doe")]
    pub name: String,
    #[elicit(default = 30)]
    pub age: i64,
    #[elicit(default = 95.5)]
    pub score: f64,
    #[elicit(default = "active")]
    pub status: Status,
    #[elicit(default = true)]
    pub verified: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ElicitEnum)]
#[elicit(rename_all = "lowercase")]
pub(crate) enum Plain {
    Option1,
    Option2,
    Option3,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ElicitEnum)]
pub(crate) enum Titled {
    #[elicit(rename = "value1", title = "First Option")]
    Value1,
    #[elicit(rename = "value2", title = "Second Option")]
    Value2,
    #[elicit(rename = "value3", title = "Third Option")]
    Value3,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ElicitEnum)]
pub(crate) enum Legacy {
    #[elicit(rename = "opt1", title = "Option One")]
    Opt1,
    #[elicit(rename = "opt2", title = "Option Two")]
    Opt2,
    #[elicit(rename = "opt3", title = "Option Three")]
    Opt3,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ElicitEnum)]
pub(crate) enum Choice {
    #[elicit(rename = "value1", title = "First Choice")]
    Value1,
    #[elicit(rename = "value2", title = "Second Choice")]
    Value2,
    #[elicit(rename = "value3", title = "Third Choice")]
    Value3,
}

/// Pick some options
#[derive(Debug, ElicitForm)]
#[elicit(key = "choices", rename_all = "camelCase")]
pub(crate) struct Choices {
    pub untitled_single: Plain,
    pub titled_single: Titled,
    pub legacy_enum: LegacyTitled<Legacy>,
    pub untitled_multi: Vec<Plain>,
    pub titled_multi: Vec<Choice>,
}

/// A single-select written the deprecated way: `enum` plus `enumNames` (SEP-1330's "legacy
/// titled" variant). The derive always emits `oneOf` for titled options; a field type of our
/// own is how a server opts into the old shape for clients that only know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LegacyTitled<E>(pub E);

impl<E: ElicitEnum> ElicitField for LegacyTitled<E> {
    const KIND: FieldKind = FieldKind::SingleSelect(E::VALUES);

    fn property(spec: &FieldSpec) -> PropertySchema {
        let owned = |items: &[&str]| items.iter().map(|s| (*s).to_owned()).collect();
        PropertySchema::SingleSelect(SingleSelectSchema {
            annotations: Annotations {
                title: spec.title.clone(),
                description: spec.description.clone(),
            },
            options: EnumOptions::Legacy {
                values: owned(E::VALUES),
                names: owned(if E::TITLES.is_empty() {
                    E::VALUES
                } else {
                    E::TITLES
                }),
            },
            default: spec
                .default
                .as_ref()
                .and_then(Value::as_str)
                .map(str::to_owned),
        })
    }

    fn decode(value: &Value) -> Result<Self, InvalidValue> {
        value
            .as_str()
            .and_then(E::from_value)
            .map(LegacyTitled)
            .ok_or_else(|| format!("must be one of {}", E::VALUES.join(", ")).into())
    }

    fn encode(&self) -> Option<Value> {
        Some(Value::from(self.0.value()))
    }
}

/// What is your name?
#[derive(Debug, ElicitForm)]
#[elicit(key = "user_name")]
pub(crate) struct Name {
    pub name: String,
}

/// Step 2: What is your favorite color?
#[derive(Debug, ElicitForm)]
#[elicit(key = "step2")]
pub(crate) struct FavoriteColor {
    pub color: String,
}

/// Please confirm
#[derive(Debug, ElicitForm)]
#[elicit(key = "confirm")]
pub(crate) struct Confirm {
    pub ok: bool,
}

/// What context should the prompt use?
#[derive(Debug, ElicitForm)]
#[elicit(key = "user_context")]
pub(crate) struct PromptContext {
    pub context: String,
}

/// Delete the file?
///
/// (`confirm_delete` names the file in the message.)
#[derive(Debug, ElicitForm)]
#[elicit(key = "confirm_delete")]
pub(crate) struct ConfirmDelete {
    pub confirm: bool,
}
