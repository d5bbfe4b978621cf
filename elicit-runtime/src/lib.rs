#![doc = include_str!("../../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod choice;
mod field;
mod form;
pub mod schema;
pub mod state;
pub mod wire;

pub use choice::ElicitEnum;
pub use elicit_macros::{ElicitEnum, ElicitForm};
pub use field::{ElicitField, FieldKind, FieldSpec};
pub use form::ElicitForm;

#[doc(hidden)]
pub mod __private;
