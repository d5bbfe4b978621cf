//! Doc comments as text: the default form message, field descriptions and variant titles.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The text of the `///` comments in `attrs`: one leading space stripped from each line,
/// lines of a paragraph joined with a space, paragraphs with a blank line. `None` when there
/// is no (non-blank) doc comment.
pub(crate) fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let mut paragraphs: Vec<String> = vec![String::new()];
    for attr in attrs {
        let Meta::NameValue(nv) = &attr.meta else {
            continue;
        };
        if !nv.path.is_ident("doc") {
            continue;
        }
        let Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) = &nv.value
        else {
            continue;
        };
        let value = s.value();
        // An empty `///` line has no lines at all, yet it ends a paragraph.
        let lines: Vec<&str> = if value.trim().is_empty() {
            vec![""]
        } else {
            value.lines().collect()
        };
        for line in lines {
            let line = line.trim();
            let current = paragraphs.last_mut().expect("never empty");
            if line.is_empty() {
                if !current.is_empty() {
                    paragraphs.push(String::new());
                }
            } else {
                if !current.is_empty() {
                    current.push(' ');
                }
                current.push_str(line);
            }
        }
    }
    let text = paragraphs
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    (!text.is_empty()).then_some(text)
}
