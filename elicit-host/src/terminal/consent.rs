//! A URL consent screen on the terminal.

use std::io::{self, BufRead, Write};

use super::{Terminal, Typed, from_server};
use crate::consent::Consent;
use crate::url_report::{Severity, UrlReport};

impl<R: BufRead, W: Write> Terminal<R, W> {
    /// Shows the consent screen for `report`'s URL, asked by `server` with `message`, and
    /// returns the person's choice. Nothing is opened or fetched here: on
    /// [`Consent::Opened`] the caller opens the page. A URL the report refuses is not offered:
    /// the screen says why, and the answer is [`Consent::Declined`].
    pub fn consent(
        &mut self,
        server: &str,
        message: &str,
        report: &UrlReport,
    ) -> io::Result<Consent> {
        let server = from_server(server, "");
        let heading = self.bold(&format!("── {server} asks you to open a page ──"));
        self.say(&heading)?;
        self.say(&from_server(message, ""))?;
        let goes_to = match report.highlighted() {
            Some(parts) => {
                let [before, site, after] =
                    [parts.before, parts.site, parts.after].map(|part| from_server(part, "   "));
                if self.styled {
                    format!("{before}\x1b[1;4m{site}\x1b[0m{after}")
                } else {
                    format!("{before}[{site}]{after}")
                }
            }
            None => from_server(report.sent(), "   ").into_owned(),
        };
        self.say(&format!("  goes to  {goes_to}"))?;
        if let Some(site) = report.site_unicode().or(report.site()) {
            let site = self.bold(&from_server(site, "   "));
            self.say(&format!("  site     {site}"))?;
        }
        for finding in report.findings() {
            let mark = match finding.severity() {
                Severity::Refuse => "✗",
                Severity::Warning => "!",
                Severity::Notice => "·",
            };
            // A finding quotes the server's text (a parameter's name, the site as it reads).
            let finding = finding.to_string();
            self.say(&format!("  {mark} {}", from_server(&finding, "   ")))?;
        }
        if !report.may_open() {
            self.say("This link will not be opened.")?;
            return Ok(Consent::Declined);
        }
        loop {
            let typed = self.ask(
                "Nothing has been opened. Open it in your browser? [o]pen, [d]ecline, [c]ancel:",
            )?;
            let line = match typed {
                Typed::Decline => return Ok(Consent::Declined),
                Typed::Cancel => return Ok(Consent::Cancelled),
                Typed::Line(line) => line.trim().to_lowercase(),
            };
            match line.as_str() {
                "o" | "open" | "y" | "yes" => return Ok(Consent::Opened),
                "d" | "decline" | "n" | "no" => return Ok(Consent::Declined),
                "c" | "cancel" => return Ok(Consent::Cancelled),
                _ => self.say("  type o, d or c")?,
            }
        }
    }
}
