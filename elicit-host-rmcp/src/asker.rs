//! Who is asking: the server, as its handshake named it.

/// Who is asking: the server, as it named itself in its handshake. A host shows it with every
/// question (the spec requires clients to show which server asks).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Asker {
    /// The server's `serverInfo.name`.
    pub name: String,
    /// Its `serverInfo.title`, when it sent one.
    pub title: Option<String>,
    /// Its `serverInfo.version`.
    pub version: String,
    /// The origin of the server's own URL (`https://mcp.example.com`), when the host knows it
    /// (streamable HTTP: set with [`Answerer::with_server_origin`](crate::Answerer::with_server_origin)).
    /// URL reports compare each page's host with it.
    pub origin: Option<String>,
}

impl Asker {
    /// The name to show: the title, else the name. The server chose it: print it through
    /// [`elicit_host::safe_text`].
    ///
    /// ```
    /// use elicit_host_rmcp::Asker;
    ///
    /// let asker = Asker { name: "desk".into(), title: Some("Release desk".into()), ..Asker::default() };
    /// assert_eq!(asker.shown_name(), "Release desk");
    /// ```
    pub fn shown_name(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.name)
    }
}
