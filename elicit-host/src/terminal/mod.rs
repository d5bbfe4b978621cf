//! A terminal renderer: forms and URL consent screens on any line-based terminal (a TTY, a
//! tmux pane, a test's in-memory buffers), with nothing but `std::io`.
//!
//! A form is asked field by field (Enter keeps the value shown, the default pre-filled), then
//! shown whole for review: the person changes any field by its number, sends, declines or
//! cancels (`:d` and `:c` work at every prompt; end of input cancels). Every value is checked
//! as it is typed, by the server's rules ([`FormInput`](crate::FormInput)), and nothing is sent
//! until the whole answer passes. A URL consent screen shows which server asks, the full URL
//! with its registrable site emphasised, and every finding; it never opens or fetches
//! anything: the caller opens the page when the person says so.
//!
//! Every text from the server (its name, the message, titles, descriptions, option labels,
//! defaults, the URL, the parameter names a finding quotes) goes through [`safe_text`]: a
//! control character, an escape sequence, a bidi control or an invisible character is shown
//! as `<U+XXXX>`, never sent to the terminal. A message may have several lines; every line
//! after the first is marked with a `┆`, so that no line of the server's can pass for a line
//! of this screen (a site, a finding, a prompt).
//!
//! ```
//! use elicit_host::terminal::Terminal;
//! use elicit_host::{Elicitation, Consent, UrlReport};
//! use serde_json::json;
//!
//! let params = json!({"message": "Deploy checkout?", "requestedSchema": {
//!     "type": "object",
//!     "properties": {
//!         "environment": {"type": "string", "title": "Environment",
//!             "oneOf": [{"const": "staging", "title": "Staging"},
//!                       {"const": "production", "title": "Production"}],
//!             "default": "staging"},
//!         "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 10}
//!     },
//!     "required": ["environment", "replicas"]
//! }});
//! let Elicitation::Form(form) = Elicitation::from_params(&params)? else { unreachable!() };
//!
//! // The person: keeps Staging, types 40 (refused), then 3, changes field 1 to Production
//! // on the review screen, and sends.
//! let typed = "\n40\n3\n1\n2\ns\n";
//! let mut screen = Vec::new();
//! let result = Terminal::new(typed.as_bytes(), &mut screen).plain().fill("Release desk", &form)?;
//! assert_eq!(
//!     serde_json::to_value(&result)?,
//!     json!({"action": "accept", "content": {"environment": "production", "replicas": 3}})
//! );
//! let screen = String::from_utf8(screen)?;
//! assert!(screen.contains("Release desk asks"));
//! assert!(screen.contains("✗ must be at most 10"));
//!
//! let report = UrlReport::assess("https://accounts.example.com/connect?flow=1", None);
//! let mut screen = Vec::new();
//! let consent = Terminal::new("d\n".as_bytes(), &mut screen).plain().consent(
//!     "Release desk",
//!     "Connect your account",
//!     &report,
//! )?;
//! assert_eq!(consent, Consent::Declined);
//! assert!(String::from_utf8(screen)?.contains("https://accounts.[example.com]/connect?flow=1"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod consent;
mod form;

use std::borrow::Cow;
use std::io::{self, BufRead, Write};

use crate::safe_text;

/// A terminal: where the person types, and where they read.
#[derive(Debug)]
pub struct Terminal<R, W> {
    input: R,
    output: W,
    styled: bool,
}

/// Text from a server as this terminal shows it: [`safe_text`], with every line after the
/// first marked by a `┆` under `indent`.
fn from_server<'a>(text: &'a str, indent: &str) -> Cow<'a, str> {
    let safe = safe_text(text);
    if safe.contains('\n') {
        Cow::Owned(safe.replace('\n', &format!("\n{indent}┆ ")))
    } else {
        safe
    }
}

/// What the person typed at a prompt.
enum Typed {
    /// A line (trimmed of its line ending).
    Line(String),
    /// `:d`: decline.
    Decline,
    /// `:c`, or the end of input: cancel.
    Cancel,
}

impl<R: BufRead, W: Write> Terminal<R, W> {
    /// A terminal reading `input` and writing `output`, with ANSI styles (bold for labels,
    /// bold underlined for a URL's site).
    pub fn new(input: R, output: W) -> Self {
        Terminal {
            input,
            output,
            styled: true,
        }
    }

    /// Without ANSI styles: a URL's site is shown in `[brackets]` instead (for logs, pipes and
    /// terminals without styles).
    pub fn plain(mut self) -> Self {
        self.styled = false;
        self
    }

    fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.output, "{text}")
    }

    fn bold(&self, text: &str) -> String {
        if self.styled {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// Prints `prompt`, reads one line.
    fn ask(&mut self, prompt: &str) -> io::Result<Typed> {
        write!(self.output, "{prompt} ")?;
        self.output.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            writeln!(self.output)?;
            return Ok(Typed::Cancel);
        }
        let line = line.trim_end_matches(['\n', '\r']).to_owned();
        Ok(match line.trim() {
            ":d" => Typed::Decline,
            ":c" => Typed::Cancel,
            _ => Typed::Line(line),
        })
    }
}
