//! The person's answer on a URL consent screen.

/// The person's answer on a URL consent screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Consent {
    /// The person agreed to open the page; the host opens it, in a browser the host and the
    /// model cannot read (the system browser, not an embedded web view). Sent as `accept`: it
    /// means consent, not that the page's flow finished.
    Opened,
    /// The person refused (`decline`).
    Declined,
    /// The person dismissed the screen without choosing (`cancel`).
    Cancelled,
}

impl Consent {
    /// The `ElicitResult` it is sent as.
    ///
    /// ```
    /// use elicit_host::Consent;
    /// use serde_json::json;
    ///
    /// let sent = serde_json::to_value(Consent::Opened.result())?;
    /// assert_eq!(sent, json!({"action": "accept"}));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn result(self) -> elicit_wire::ElicitResult {
        match self {
            Consent::Opened => elicit_wire::ElicitResult::accept_empty(),
            Consent::Declined => elicit_wire::ElicitResult::decline(),
            Consent::Cancelled => elicit_wire::ElicitResult::cancel(),
        }
    }
}
