//! Any [`BrowserUser`] behind one `Arc`, so the ready steps (the OAuth connection, the secret page) do
//! not carry its type.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use ::axum::response::Response;
use http::request::Parts;

use crate::BrowserUser;

/// A future an [`AnyBrowser`] gives.
type Subject<'a> = Pin<Box<dyn Future<Output = Result<String, Response>> + Send + 'a>>;

/// [`BrowserUser`], object-safe.
trait Erased: Send + Sync {
    fn subject<'a>(&'a self, parts: &'a Parts) -> Subject<'a>;
}

impl<B: BrowserUser> Erased for B {
    fn subject<'a>(&'a self, parts: &'a Parts) -> Subject<'a> {
        Box::pin(BrowserUser::subject(self, parts))
    }
}

/// Any [`BrowserUser`], behind one `Arc`.
#[derive(Clone)]
pub(crate) struct AnyBrowser(Arc<dyn Erased>);

impl AnyBrowser {
    pub(crate) fn new(browser: impl BrowserUser) -> Self {
        AnyBrowser(Arc::new(browser))
    }

    pub(crate) fn subject<'a>(&'a self, parts: &'a Parts) -> Subject<'a> {
        self.0.subject(parts)
    }
}
