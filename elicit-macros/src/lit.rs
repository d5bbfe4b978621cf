//! Attribute values: literals as written in `#[elicit(key = value)]`.

use darling::FromMeta;
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, ExprUnary, Lit, UnOp};

/// A literal value: `"text"`, `3`, `-2.5`, `true`, `["a", "b"]`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Str(String),
    Int(i128),
    Float(f64),
    Bool(bool),
    List(Vec<String>),
}

impl Value {
    /// How the value's kind is named in messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Value::Str(_) => "a string",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Bool(_) => "a boolean",
            Value::List(_) => "a list",
        }
    }

    /// The value as a number, if it is one.
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }
}

/// A literal with the span it was written at.
#[derive(Debug, Clone)]
pub(crate) struct Literal {
    pub value: Value,
    pub span: Span,
}

impl FromMeta for Literal {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        let value = parse(expr).map_err(|e| e.with_span(expr))?;
        Ok(Literal {
            value,
            span: expr.span(),
        })
    }
}

fn parse(expr: &Expr) -> darling::Result<Value> {
    let unsupported = || {
        darling::Error::custom(
            "expected a literal: a string, a number, `true`/`false`, or a list of strings such as `[\"a\", \"b\"]`",
        )
    };
    match expr {
        Expr::Lit(ExprLit { lit, .. }) => match lit {
            Lit::Str(s) => Ok(Value::Str(s.value())),
            Lit::Int(i) => Ok(Value::Int(i.base10_parse::<i128>()?)),
            Lit::Float(f) => Ok(Value::Float(f.base10_parse::<f64>()?)),
            Lit::Bool(b) => Ok(Value::Bool(b.value)),
            _ => Err(unsupported()),
        },
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => match parse(expr)? {
            Value::Int(i) => Ok(Value::Int(-i)),
            Value::Float(f) => Ok(Value::Float(-f)),
            _ => Err(unsupported()),
        },
        Expr::Group(g) => parse(&g.expr),
        Expr::Paren(p) => parse(&p.expr),
        Expr::Array(a) => a
            .elems
            .iter()
            .map(|e| match parse(e)? {
                Value::Str(s) => Ok(s),
                _ => Err(darling::Error::custom("expected a string").with_span(e)),
            })
            .collect::<darling::Result<_>>()
            .map(Value::List),
        _ => Err(unsupported()),
    }
}

/// A non-negative integer such as a length or an item count.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Count {
    pub value: u64,
    pub span: Span,
}

impl FromMeta for Count {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match parse(expr) {
            Ok(Value::Int(i)) if i >= 0 && i <= i128::from(u64::MAX) => Ok(Count {
                value: i as u64,
                span: expr.span(),
            }),
            _ => {
                Err(darling::Error::custom("expected a non-negative whole number").with_span(expr))
            }
        }
    }
}

/// A string attribute value with its span.
#[derive(Debug, Clone)]
pub(crate) struct Text {
    pub value: String,
    pub span: Span,
}

impl FromMeta for Text {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match parse(expr) {
            Ok(Value::Str(value)) => Ok(Text {
                value,
                span: expr.span(),
            }),
            _ => Err(darling::Error::custom("expected a string literal").with_span(expr)),
        }
    }
}

/// The four string formats the spec allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Email,
    Uri,
    Date,
    DateTime,
}

/// A `format = "…"` value with its span.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FormatAttr {
    pub format: Format,
    pub span: Span,
}

impl FromMeta for FormatAttr {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        let format = match parse(expr) {
            Ok(Value::Str(s)) => match s.as_str() {
                "email" => Format::Email,
                "uri" => Format::Uri,
                "date" => Format::Date,
                "date-time" => Format::DateTime,
                other => {
                    return Err(darling::Error::custom(format!(
                        "unsupported `format` \"{other}\": the MCP spec allows \"email\", \"uri\", \"date\" or \"date-time\""
                    ))
                    .with_span(expr));
                }
            },
            _ => {
                return Err(darling::Error::custom(
                    "expected a string: \"email\", \"uri\", \"date\" or \"date-time\"",
                )
                .with_span(expr));
            }
        };
        Ok(FormatAttr {
            format,
            span: expr.span(),
        })
    }
}
