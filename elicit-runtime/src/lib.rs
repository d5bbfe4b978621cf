#![doc = include_str!("../../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "rmcp")]
pub mod adapters;
mod answer;
mod choice;
mod context;
mod field;
mod form;
pub mod legacy;
mod question;
pub mod schema;
pub mod state;
pub mod tasks;
pub mod testing;
pub mod url;
pub mod wire;

pub use answer::{Answer, Interrupt};
pub use choice::ElicitEnum;
pub use context::{ContextBuilder, ContextError, ElicitContext, Elicitation, Outcome};
pub use elicit_macros::{ElicitEnum, ElicitForm, ElicitUrl};
pub use field::{ElicitField, FieldKind, FieldSpec};
pub use form::ElicitForm;
pub use question::{Prepared, Question};
pub use url::{UrlElicitation, UrlOutcome};

#[doc(hidden)]
pub mod __private;
