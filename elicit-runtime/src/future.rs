//! The boxed future type of the object-safe traits (back channel, stores, replay guards).

pub use elicit_state::BoxFuture;
