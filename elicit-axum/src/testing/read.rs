//! What the test browser reads in a page: its heading, its text as a person reads it, and its
//! forms (inputs with their labels, buttons). Plain HTML without script, as the landing
//! route's pages are: tags and attributes (quoted or not), the common entities, `<style>`
//! and `<script>` skipped; `<select>` and `<textarea>` are not read.

/// A form of the page.
#[derive(Debug, Clone, Default)]
pub(super) struct Form {
    pub(super) method: String,
    pub(super) action: Option<String>,
    pub(super) novalidate: bool,
    pub(super) fields: Vec<Field>,
    pub(super) buttons: Vec<Button>,
}

/// An `<input>`.
#[derive(Debug, Clone)]
pub(super) struct Field {
    pub(super) kind: String,
    pub(super) name: Option<String>,
    pub(super) id: Option<String>,
    pub(super) value: String,
    pub(super) label: Option<String>,
    pub(super) required: bool,
    pub(super) checked: bool,
    pub(super) max_length: Option<usize>,
}

/// A `<button>` (or an `<input type="submit">`).
#[derive(Debug, Clone)]
pub(super) struct Button {
    pub(super) text: String,
    pub(super) name: Option<String>,
    pub(super) value: String,
    pub(super) submits: bool,
    pub(super) class: String,
    pub(super) novalidate: bool,
}

/// A page, read.
#[derive(Debug, Clone, Default)]
pub(super) struct Doc {
    pub(super) heading: Option<String>,
    pub(super) text: String,
    pub(super) alerts: Vec<String>,
    pub(super) forms: Vec<Form>,
}

/// A `<label>` being read: its `for`, its text so far, the inputs inside it (form, field).
type OpenLabel = (Option<String>, String, Vec<(usize, usize)>);

enum Token {
    Start(String, Vec<(String, String)>),
    End(String),
    Text(String),
}

/// Tags that start a new line of text.
const BLOCKS: &[&str] = &[
    "p", "div", "h1", "h2", "h3", "main", "form", "dl", "dt", "dd", "li", "ul", "ol", "br",
    "label", "button", "section", "header", "footer", "title", "body", "tr", "td", "th",
];

pub(super) fn read(html: &str) -> Doc {
    let mut doc = Doc::default();
    let mut text = String::new();
    let mut in_body = !html.to_ascii_lowercase().contains("<body");
    let mut heading: Option<String> = None;
    let mut alert: Option<(String, usize)> = None;
    let mut label: Option<OpenLabel> = None;
    let mut labels: Vec<(String, String)> = Vec::new();
    let mut button: Option<Button> = None;
    let mut depth = 0usize;
    for token in tokens(html) {
        match token {
            Token::Text(t) => {
                if in_body {
                    text.push_str(&t);
                }
                for open in [heading.as_mut(), alert.as_mut().map(|(a, _)| a)]
                    .into_iter()
                    .flatten()
                {
                    open.push_str(&t);
                }
                if let Some((_, l, _)) = label.as_mut() {
                    l.push_str(&t);
                }
                if let Some(b) = button.as_mut() {
                    b.text.push_str(&t);
                }
            }
            Token::Start(name, attrs) => {
                let attr = |n: &str| attrs.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
                if BLOCKS.contains(&name.as_str()) {
                    text.push('\n');
                }
                depth += 1;
                match name.as_str() {
                    "body" => in_body = true,
                    "h1" if doc.heading.is_none() && heading.is_none() => {
                        heading = Some(String::new())
                    }
                    _ if attr("role").as_deref() == Some("alert") && alert.is_none() => {
                        alert = Some((String::new(), depth));
                    }
                    _ => {}
                }
                match name.as_str() {
                    "form" => doc.forms.push(Form {
                        method: attr("method").unwrap_or_default().to_ascii_lowercase(),
                        action: attr("action").filter(|a| !a.is_empty()),
                        novalidate: attr("novalidate").is_some(),
                        ..Form::default()
                    }),
                    "label" => label = Some((attr("for"), String::new(), Vec::new())),
                    "input" => {
                        let kind = attr("type")
                            .unwrap_or_else(|| "text".into())
                            .to_ascii_lowercase();
                        if kind == "submit" {
                            let b = Button {
                                text: attr("value").unwrap_or_else(|| "Submit".into()),
                                name: attr("name"),
                                value: attr("value").unwrap_or_default(),
                                submits: true,
                                class: attr("class").unwrap_or_default(),
                                novalidate: attr("formnovalidate").is_some(),
                            };
                            if let Some(form) = doc.forms.last_mut() {
                                form.buttons.push(b);
                            }
                        } else if let Some(index) = doc.forms.len().checked_sub(1) {
                            let form = &mut doc.forms[index];
                            let at = (index, form.fields.len());
                            form.fields.push(Field {
                                kind,
                                name: attr("name"),
                                id: attr("id"),
                                value: attr("value").unwrap_or_default(),
                                label: None,
                                required: attr("required").is_some(),
                                checked: attr("checked").is_some(),
                                max_length: attr("maxlength").and_then(|m| m.parse().ok()),
                            });
                            if let Some((_, _, inside)) = label.as_mut() {
                                inside.push(at);
                            }
                        }
                        depth -= 1;
                    }
                    "button" => {
                        let kind = attr("type").unwrap_or_else(|| "submit".into());
                        button = Some(Button {
                            text: String::new(),
                            name: attr("name"),
                            value: attr("value").unwrap_or_default(),
                            submits: kind.eq_ignore_ascii_case("submit"),
                            class: attr("class").unwrap_or_default(),
                            novalidate: attr("formnovalidate").is_some(),
                        });
                    }
                    "br" | "meta" | "link" | "img" | "hr" => depth -= 1,
                    _ => {}
                }
            }
            Token::End(name) => {
                if BLOCKS.contains(&name.as_str()) {
                    text.push('\n');
                }
                match name.as_str() {
                    "h1" => {
                        if let Some(h) = heading.take() {
                            doc.heading = Some(collapse(&h));
                        }
                    }
                    "label" => {
                        if let Some((target, l, inside)) = label.take() {
                            let l = collapse(&l);
                            if let Some(id) = target {
                                labels.push((id, l.clone()));
                            }
                            for (form, field) in inside {
                                doc.forms[form].fields[field].label.get_or_insert(l.clone());
                            }
                        }
                    }
                    "button" => {
                        if let (Some(mut b), Some(form)) = (button.take(), doc.forms.last_mut()) {
                            b.text = collapse(&b.text);
                            form.buttons.push(b);
                        }
                    }
                    _ => {}
                }
                if let Some((a, at)) = &alert
                    && *at == depth
                {
                    doc.alerts.push(collapse(a));
                    alert = None;
                }
                depth = depth.saturating_sub(1);
            }
        }
    }
    for field in doc.forms.iter_mut().flat_map(|f| f.fields.iter_mut()) {
        if field.label.is_none()
            && let Some(id) = &field.id
        {
            field.label = labels.iter().find(|(i, _)| i == id).map(|(_, l)| l.clone());
        }
    }
    doc.text = text
        .lines()
        .map(collapse)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    doc
}

/// Whitespace runs as one space, trimmed.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn tokens(html: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut rest = html;
    while !rest.is_empty() {
        let Some(at) = rest.find('<') else {
            out.push(Token::Text(decode(rest)));
            break;
        };
        if at > 0 {
            out.push(Token::Text(decode(&rest[..at])));
        }
        rest = &rest[at + 1..];
        if rest.starts_with('!') || rest.starts_with('?') {
            let end = if rest.starts_with("!--") {
                rest.find("-->").map_or(rest.len(), |e| e + 3)
            } else {
                rest.find('>').map_or(rest.len(), |e| e + 1)
            };
            rest = &rest[end..];
            continue;
        }
        let end = tag_end(rest);
        let tag = &rest[..end];
        rest = &rest[(end + 1).min(rest.len())..];
        if let Some(name) = tag.strip_prefix('/') {
            out.push(Token::End(name.trim().to_ascii_lowercase()));
            continue;
        }
        let (name, attrs) = tag_parts(tag);
        if name == "style" || name == "script" {
            let lower = rest.to_ascii_lowercase();
            let close = lower.find(&format!("</{name}")).unwrap_or(rest.len());
            rest = &rest[close..];
            rest = &rest[rest.find('>').map_or(rest.len(), |e| e + 1)..];
            continue;
        }
        out.push(Token::Start(name, attrs));
    }
    out
}

/// Where the tag that starts `rest` ends (its `>` outside quotes).
fn tag_end(rest: &str) -> usize {
    let mut quote = None;
    for (i, c) in rest.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return i,
            _ => {}
        }
    }
    rest.len()
}

/// A start tag's name and attributes (names lowercased, values decoded).
fn tag_parts(tag: &str) -> (String, Vec<(String, String)>) {
    let tag = tag.trim_end_matches('/');
    let name_end = tag.find(|c: char| c.is_whitespace()).unwrap_or(tag.len());
    let name = tag[..name_end].to_ascii_lowercase();
    let mut attrs = Vec::new();
    let mut rest = tag[name_end..].trim_start();
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(rest.len());
        let key = rest[..end].to_ascii_lowercase();
        rest = rest[end..].trim_start();
        let value = if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (value, next) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let close = after[1..].find(q).map_or(after.len(), |e| e + 1);
                    (&after[1..close], &after[(close + 1).min(after.len())..])
                }
                _ => {
                    let e = after.find(char::is_whitespace).unwrap_or(after.len());
                    (&after[..e], &after[e..])
                }
            };
            rest = next.trim_start();
            decode(value)
        } else {
            String::new()
        };
        if !key.is_empty() {
            attrs.push((key, value));
        }
    }
    (name, attrs)
}

/// `text` with its character references decoded.
fn decode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find(';').filter(|e| *e <= 10);
        let decoded = end.and_then(|e| {
            let name = &rest[1..e];
            let c = match name {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                "apos" => '\'',
                "nbsp" => '\u{a0}',
                _ => {
                    let n = name.strip_prefix('#')?;
                    let code = match n.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => n.parse().ok()?,
                    };
                    char::from_u32(code)?
                }
            };
            Some((c, e + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn reads_a_confirmation_page() {
        let doc = read(concat!(
            "<!doctype html><html><head><title>T</title><style>p{color:red}</style></head>",
            "<body><main><h1>Confirm &amp; go</h1><p class=\"ask\">Enter your <b>key</b></p>",
            "<form method=\"post\"><input type=\"hidden\" name=\"token\" value=\"a&#39;b\">",
            "<p class=\"ask\" role=\"alert\">That is <em>not</em> a key.</p>",
            "<p><label for=\"secret0\">API key</label><input type=\"password\" id=\"secret0\" ",
            "name=\"secret0\" required maxlength=\"4096\"></p>",
            "<div class=\"actions\"><button type=\"submit\" name=\"decision\" value=\"confirm\" ",
            "class=\"confirm\">Save</button><button type=\"submit\" name=decision value=cancel ",
            "formnovalidate>Cancel</button></div></form></main></body></html>"
        ));
        assert_eq!(doc.heading.as_deref(), Some("Confirm & go"));
        assert_eq!(
            doc.text,
            "Confirm & go\nEnter your key\nThat is not a key.\nAPI key\nSave\nCancel"
        );
        assert_eq!(doc.alerts, ["That is not a key."]);
        let form = &doc.forms[0];
        assert_eq!(form.method, "post");
        assert_eq!(form.fields[0].value, "a'b");
        assert_eq!(form.fields[1].label.as_deref(), Some("API key"));
        assert!(form.fields[1].required);
        assert_eq!(form.fields[1].max_length, Some(4096));
        assert_eq!(form.buttons[0].text, "Save");
        assert_eq!(form.buttons[1].value, "cancel");
        assert!(form.buttons[1].novalidate);
    }
}
