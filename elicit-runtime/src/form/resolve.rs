//! Resolvers: "use this value when the server already knows it, otherwise ask".

use std::future::Future;

use super::ElicitForm;
use super::answer::Answer;
use super::question::Question;
use crate::channel::InputChannel;
use crate::interrupt::Interrupt;
use crate::request::{AdapterChannel, ElicitContext};

/// What a [`Resolve`]r found: the value itself, or the question to ask the user for it.
pub enum Resolved<T: ElicitForm> {
    /// The server knows the value (a saved preference, an earlier answer): nobody is asked.
    Known(T),
    /// Ask the user this question.
    Ask(Question<T>),
}

impl<T: ElicitForm> Resolved<T> {
    /// Ask the form's question as declared.
    pub fn ask() -> Self {
        Resolved::Ask(Question::new())
    }

    /// The answer: the known value as accepted, or the user's answer to the question (asked
    /// as [`Question::ask`] asks it, so it joins the current round).
    pub fn answer<C: InputChannel + ?Sized>(
        self,
        channel: &mut C,
    ) -> impl Future<Output = Result<Answer<T>, C::Error>> + Send + '_
    where
        T: Send,
    {
        let asked = match self {
            Resolved::Known(value) => Ok(value),
            Resolved::Ask(question) => Err(question.ask(channel)),
        };
        async move {
            match asked {
                Ok(value) => Ok(Answer::Accepted(value)),
                Err(asking) => asking.await,
            }
        }
    }
}

impl<T: ElicitForm> std::fmt::Debug for Resolved<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The value is the user's: not printed.
        f.write_str(match self {
            Resolved::Known(_) => "Resolved::Known(..)",
            Resolved::Ask(_) => "Resolved::Ask(..)",
        })
    }
}

impl<T: ElicitForm> From<Question<T>> for Resolved<T> {
    fn from(question: Question<T>) -> Self {
        Resolved::Ask(question)
    }
}

/// Decides a form's value before anyone is asked: from the call (its arguments, the
/// principal, the client's capabilities) and the resolver's own state (a store of saved
/// preferences, an earlier answer). SDK-free: any adapter runs it through the core.
///
/// It may run again on every round of a call (on 2026-07-28 each retry is a new request), so
/// it decides from what it reads, never from having run before; the question it returns is
/// asked like any other (the same key, re-asks, strict provenance and single use), and an
/// answer is used only for the exact question it answered.
///
/// ```
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use elicit_runtime::form::{Resolve, Resolved};
/// use elicit_runtime::{ElicitContext, ElicitForm, Interrupt};
///
/// /// Which tone?
/// #[derive(Clone, ElicitForm)]
/// struct Tone {
///     #[elicit(title = "Formal")]
///     formal: bool,
/// }
///
/// /// Each user's saved tone; asked for when there is none.
/// struct SavedTone(Mutex<HashMap<String, Tone>>);
///
/// impl Resolve<Tone> for SavedTone {
///     async fn resolve(&self, cx: &ElicitContext) -> Result<Resolved<Tone>, Interrupt> {
///         let saved = cx.principal().and_then(|user| self.0.lock().unwrap().get(user).cloned());
///         Ok(match saved {
///             Some(tone) => Resolved::Known(tone),
///             None => Resolved::ask(),
///         })
///     }
/// }
/// # let _ = SavedTone(Mutex::default());
/// ```
pub trait Resolve<T: ElicitForm>: Sync {
    /// The value, or the question to ask; an `Err` fails the call with that error.
    fn resolve(
        &self,
        cx: &ElicitContext,
    ) -> impl Future<Output = Result<Resolved<T>, Interrupt>> + Send;

    /// Keeps `value`, which the user just accepted when this resolver asked, so that
    /// [`resolve`](Self::resolve) can know it next time: "ask once, then use what the user
    /// said". `cx` is the call that asked: [`cx.principal()`](ElicitContext::principal) is
    /// whose answer it is. Called only for an accepted answer to the resolver's own question
    /// (never for a [`Resolved::Known`] value, a decline or a cancel), before the handler
    /// runs; on 2026-07-28 every later round of the same call reads the answer again and
    /// calls it again with the same value, so keep it idempotent (an insert, not an append).
    /// An `Err` fails the call with that error. The default keeps nothing.
    ///
    /// A request without a principal (`Principal::anonymous()` in `elicit-rmcp`, or an HTTP
    /// request no authentication layer named) has no user to keep the answer for: a resolver
    /// keyed on `cx.principal()`, as below, keeps nothing and the user is asked on every call.
    /// It is still called (a resolver may keep a value for everyone), and the `elicit` target
    /// logs it at `debug` level. A stdio server's one user is `Principal::local()`
    /// ([`LOCAL_PRINCIPAL`](crate::LOCAL_PRINCIPAL)), which `ElicitHandler::local` uses.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use std::sync::Mutex;
    /// use elicit_runtime::form::{Resolve, Resolved};
    /// use elicit_runtime::{ElicitContext, ElicitForm, Interrupt};
    ///
    /// /// Which tone?
    /// #[derive(Clone, ElicitForm)]
    /// struct Tone {
    ///     #[elicit(title = "Formal")]
    ///     formal: bool,
    /// }
    ///
    /// /// Asks each user once, then uses what they said.
    /// #[derive(Default)]
    /// struct ToneOnce(Mutex<HashMap<String, Tone>>);
    ///
    /// impl Resolve<Tone> for ToneOnce {
    ///     async fn resolve(&self, cx: &ElicitContext) -> Result<Resolved<Tone>, Interrupt> {
    ///         let saved = cx.principal().and_then(|user| self.0.lock().unwrap().get(user).cloned());
    ///         Ok(saved.map_or_else(Resolved::ask, Resolved::Known))
    ///     }
    ///
    ///     async fn remember(&self, cx: &ElicitContext, tone: &Tone) -> Result<(), Interrupt> {
    ///         if let Some(user) = cx.principal() {
    ///             self.0.lock().unwrap().insert(user.to_owned(), tone.clone());
    ///         }
    ///         Ok(())
    ///     }
    /// }
    /// # let _ = ToneOnce::default();
    /// ```
    fn remember(
        &self,
        cx: &ElicitContext,
        value: &T,
    ) -> impl Future<Output = Result<(), Interrupt>> + Send {
        let _ = (cx, value);
        std::future::ready(Ok(()))
    }

    /// Resolves on `channel`'s context, then asks if the resolver says so: the answer a
    /// handler uses, the known value as accepted. An accepted answer to the resolver's
    /// question is handed to [`remember`](Self::remember) first. A resolver's error fails
    /// the call.
    fn answer<'a, C: AdapterChannel>(
        &'a self,
        channel: &'a mut C,
    ) -> impl Future<Output = Result<Answer<T>, C::SdkError>> + Send + 'a
    where
        T: Send,
        T::Defaults: Send,
    {
        async move {
            let question = match self.resolve(channel.as_ref()).await {
                Ok(Resolved::Known(value)) => return Ok(Answer::Accepted(value)),
                Ok(Resolved::Ask(question)) => question,
                Err(interrupt) => return Err(channel.stop(interrupt)),
            };
            let answer = question.ask(channel).await?;
            if matches!(answer, Answer::Accepted(_)) && channel.as_ref().principal().is_none() {
                tracing::debug!(
                    target: "elicit",
                    key = T::key(),
                    "a resolver remembers an answer for a request without a principal: one keyed on the principal keeps nothing"
                );
            }
            if let Answer::Accepted(value) = &answer
                && let Err(interrupt) = self.remember(channel.as_ref(), value).await
            {
                return Err(channel.stop(interrupt));
            }
            Ok(answer)
        }
    }
}

/// The body of an impl of [`Resolve`] for a pointer to a resolver: every step goes to the
/// resolver itself, so a step added to the trait is forwarded here once, for every pointer.
macro_rules! forward_to_pointee {
    () => {
        fn resolve(
            &self,
            cx: &ElicitContext,
        ) -> impl Future<Output = Result<Resolved<T>, Interrupt>> + Send {
            (**self).resolve(cx)
        }

        fn remember(
            &self,
            cx: &ElicitContext,
            value: &T,
        ) -> impl Future<Output = Result<(), Interrupt>> + Send {
            (**self).remember(cx, value)
        }
    };
}

impl<T: ElicitForm, R: Resolve<T> + ?Sized> Resolve<T> for &R {
    forward_to_pointee!();
}

impl<T: ElicitForm, R: Resolve<T> + Send + ?Sized> Resolve<T> for std::sync::Arc<R> {
    forward_to_pointee!();
}
