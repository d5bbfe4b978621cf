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

/// What [`Asked`] and [`Accepted`] are, once [`#[elicit_rmcp::asks]`](crate::asks) rewrote
/// the method (with [`Expanded`]); without the attribute ([`Unexpanded`]) they are nothing,
/// and the compiler says to add it.
#[diagnostic::on_unimplemented(
    message = "`Asked<{T}>` and `Accepted<{T}>` are parameters that `#[elicit_rmcp::asks]` fills before the body runs",
    label = "this method needs `#[elicit_rmcp::asks]`",
    note = "write `#[elicit_rmcp::asks]` above `#[tool]` (or `#[prompt]`) on this method"
)]
pub trait Expansion<T> {
    /// What an [`Asked`] parameter is in the body.
    type Answer;
    /// What an [`Accepted`] parameter is in the body.
    type Accepted;
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
}
