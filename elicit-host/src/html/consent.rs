//! The URL consent panel.

use std::fmt::Write;

use super::{actions, escape};
use crate::url_report::{Severity, UrlReport};

/// The consent panel for `report`'s URL, asked by `server` with `message`, as a
/// `<form method="post" action="{action}">`: the full URL with its site in `<mark>`, the site
/// on its own line, every finding (warnings as alerts), and Open, Decline and Cancel posting
/// `elicit-action` (`accept` means the person chose to open it: the host opens it, in the
/// system browser; read the post with [`read_consent`](super::read_consent)). The URL is
/// text, never a link, and nothing is loaded from it. A URL the
/// report refuses gets no Open button.
pub fn consent(server: &str, message: &str, report: &UrlReport, action: &str) -> String {
    let mut html = String::new();
    let _ = write!(
        html,
        "<form class=\"elicit-consent\" method=\"post\" action=\"{}\" aria-labelledby=\"elicit--title\">\n  \
         <h2 id=\"elicit--title\"><span class=\"elicit-server\">{}</span> asks you to open a page</h2>\n  \
         <p class=\"elicit-message\">{}</p>\n",
        escape(action),
        escape(server),
        escape(message)
    );
    let url = match report.highlighted() {
        Some(parts) => format!(
            "{}<mark><strong>{}</strong></mark>{}",
            escape(parts.before),
            escape(parts.site),
            escape(parts.after)
        ),
        None => escape(report.sent()),
    };
    let _ = writeln!(
        html,
        "  <p class=\"elicit-url\">Goes to <code>{url}</code></p>"
    );
    if let Some(site) = report.site_unicode().or(report.site()) {
        let _ = writeln!(
            html,
            "  <p class=\"elicit-site\">Site: <strong>{}</strong></p>",
            escape(site)
        );
    }
    if !report.findings().is_empty() {
        html.push_str("  <ul class=\"elicit-findings\">\n");
        for finding in report.findings() {
            let (class, role) = match finding.severity() {
                Severity::Refuse => ("refuse", " role=\"alert\""),
                Severity::Warning => ("warning", " role=\"alert\""),
                Severity::Notice => ("notice", ""),
            };
            let _ = writeln!(
                html,
                "    <li class=\"elicit-{class}\"{role}>{}</li>",
                escape(&finding.to_string())
            );
        }
        html.push_str("  </ul>\n");
    }
    if report.may_open() {
        html.push_str(&actions("Open in my browser"));
    } else {
        html.push_str(
            "  <p class=\"elicit-refused\">This link will not be opened.</p>\n  \
             <div class=\"elicit-actions\">\n    \
             <button type=\"submit\" name=\"elicit-action\" value=\"decline\">Close</button>\n  </div>\n",
        );
    }
    html.push_str("</form>\n");
    html
}
