//! The restricted schema of form-mode elicitation: the typed model, strict parsing from any
//! JSON, exact serialization, and validation of answers against it.

mod error;
mod model;
mod parse;
mod serialize;
mod validate;
#[doc(hidden)] // elicit-runtime's; not part of the API
pub use validate::Expect;

/// The format checks, shared with the derive (which runs them on `default` literals).
pub use elicit_formats::{is_valid_date, is_valid_date_time, is_valid_email, is_valid_uri};
pub use error::{ContentError, FieldError, InvalidValue, SchemaError};
pub use model::{
    Annotations, BooleanSchema, EnumOptions, MultiSelectSchema, NumberSchema, PropertySchema,
    RequestedSchema, SingleSelectSchema, StringFormat, StringSchema, TitledOption,
};
