//! What a field's type is, as far as syntax can tell. Types syntax cannot see through (enums,
//! aliases, newtypes) are `Opaque` and checked by trait bounds in the generated code.

use syn::{GenericArgument, PathArguments, Type, TypePath};

use crate::secret::secret_in;

/// The shape of a field type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shape {
    Text,
    Boolean,
    Integer {
        min: i128,
        max: i128,
    },
    Float {
        max: f64,
    },
    /// A set of choices (`Vec`, `BTreeSet`, `HashSet` of a path type).
    Multi,
    /// A path type syntax cannot see through: an `ElicitEnum`, an alias, a newtype.
    Opaque,
}

/// A field type after unwrapping one `Option`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FieldType {
    pub shape: Shape,
    pub optional: bool,
}

const INTEGERS: &[(&str, i128, i128)] = &[
    ("i8", i8::MIN as i128, i8::MAX as i128),
    ("i16", i16::MIN as i128, i16::MAX as i128),
    ("i32", i32::MIN as i128, i32::MAX as i128),
    ("i64", i64::MIN as i128, i64::MAX as i128),
    ("isize", i64::MIN as i128, i64::MAX as i128),
    ("u8", 0, u8::MAX as i128),
    ("u16", 0, u16::MAX as i128),
    ("u32", 0, u32::MAX as i128),
    ("u64", 0, u64::MAX as i128),
    ("usize", 0, u64::MAX as i128),
];

/// Classifies `ty`, or says why it can never be a form field.
pub(crate) fn classify(ty: &Type) -> Result<FieldType, String> {
    if let Some(inner) = generic_arg(ty, &["Option"]) {
        let shape = shape(inner)?;
        if generic_arg(inner, &["Option"]).is_some() {
            return Err(
                "`Option<Option<_>>` cannot be a form field: a field is either answered or absent"
                    .into(),
            );
        }
        return Ok(FieldType {
            shape,
            optional: true,
        });
    }
    Ok(FieldType {
        shape: shape(ty)?,
        optional: false,
    })
}

fn shape(ty: &Type) -> Result<Shape, String> {
    let nested = "the MCP spec allows only flat forms of strings, numbers, booleans and enums; split it into several fields or several questions";
    match ty {
        Type::Paren(p) => return shape(&p.elem),
        Type::Group(g) => return shape(&g.elem),
        Type::Reference(_) => {
            return Err(format!(
                "a reference cannot be a form field: use an owned type such as `String`; {nested}"
            ));
        }
        Type::Tuple(_) => return Err(format!("a tuple cannot be a form field: {nested}")),
        Type::Array(_) | Type::Slice(_) => {
            return Err(format!(
                "an array cannot be a form field: a list must be a `Vec` of an enum deriving `ElicitEnum` (a multi-select); {nested}"
            ));
        }
        Type::Path(_) => {}
        _ => return Err(format!("this type cannot be a form field: {nested}")),
    }
    let Type::Path(TypePath {
        qself: None, path, ..
    }) = ty
    else {
        return Ok(Shape::Opaque);
    };
    let Some(last) = path.segments.last() else {
        return Ok(Shape::Opaque);
    };
    let name = last.ident.to_string();
    if secret_in(&name).is_some() {
        return Err(format!(
            "`{name}` holds a secret, and MCP form mode must not collect secrets: ask for it with a URL-mode elicitation (`#[elicit_url]`), where it never passes through the client"
        ));
    }
    if matches!(last.arguments, PathArguments::None)
        && let Some(primitive) = primitive(&name)
    {
        return primitive;
    }
    match name.as_str() {
        "Vec" | "BTreeSet" | "HashSet" | "VecDeque" | "IndexSet" => {
            let Some(inner) = generic_arg(ty, &[name.as_str()]) else {
                return Ok(Shape::Opaque);
            };
            match shape(inner) {
                Ok(Shape::Opaque) if name != "VecDeque" && name != "IndexSet" => Ok(Shape::Multi),
                Ok(Shape::Opaque) => Err(format!(
                    "`{name}` cannot be a form field: a multi-select is a `Vec`, `BTreeSet` or `HashSet` of an enum deriving `ElicitEnum`"
                )),
                Ok(_) => Err(format!(
                    "a list of free values cannot be a form field: the MCP spec allows lists only as multi-selects, a `{name}` of an enum deriving `ElicitEnum`"
                )),
                Err(e) => Err(e),
            }
        }
        "HashMap" | "BTreeMap" | "IndexMap" | "Map" | "Value" => {
            Err(format!("`{name}` cannot be a form field: {nested}"))
        }
        "Box" | "Rc" | "Arc" | "Cow" | "RefCell" | "Cell" | "Mutex" => Err(format!(
            "`{name}` cannot be a form field: use the owned value itself; {nested}"
        )),
        _ => Ok(Shape::Opaque),
    }
}

/// The shape of a primitive type named `name` (no generic arguments), or why it cannot be a
/// field; `None` when `name` is no primitive.
fn primitive(name: &str) -> Option<Result<Shape, String>> {
    let shape = match name {
        "String" => Shape::Text,
        "bool" => Shape::Boolean,
        "f32" => Shape::Float {
            max: f64::from(f32::MAX),
        },
        "f64" => Shape::Float { max: f64::MAX },
        "str" => return Some(Err("`str` cannot be a form field: use `String`".into())),
        "char" => {
            return Some(Err(
                "`char` cannot be a form field: use `String` with `max_length = 1`".into(),
            ));
        }
        "i128" | "u128" => {
            return Some(Err(format!(
                "`{name}` cannot be a form field: JSON numbers hold at most 64-bit integers; use `i64` or `u64`"
            )));
        }
        _ => {
            let (_, min, max) = INTEGERS.iter().find(|(n, ..)| *n == name)?;
            Shape::Integer {
                min: *min,
                max: *max,
            }
        }
    };
    Some(Ok(shape))
}

/// The `T` of a syntactic `Option<T>`.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    generic_arg(ty, &["Option"])
}

/// The single type argument of `ty` when its last segment is one of `names`.
fn generic_arg<'a>(ty: &'a Type, names: &[&str]) -> Option<&'a Type> {
    let Type::Path(TypePath {
        qself: None, path, ..
    }) = ty
    else {
        return None;
    };
    let last = path.segments.last()?;
    if !names.iter().any(|n| last.ident == n) {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    args.args.iter().find_map(|a| match a {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn classifies() {
        let t = |ty: Type| classify(&ty);
        assert_eq!(t(parse_quote!(String)).unwrap().shape, Shape::Text);
        assert_eq!(
            t(parse_quote!(Option<u8>)).unwrap(),
            FieldType {
                shape: Shape::Integer { min: 0, max: 255 },
                optional: true
            }
        );
        assert_eq!(t(parse_quote!(Vec<Color>)).unwrap().shape, Shape::Multi);
        assert_eq!(t(parse_quote!(Tags)).unwrap().shape, Shape::Opaque);
        assert!(t(parse_quote!(Vec<String>)).is_err());
        assert!(t(parse_quote!(Box<String>)).is_err());
        assert!(t(parse_quote!(&'static str)).is_err());
        assert!(t(parse_quote!((u8, u8))).is_err());
        assert!(t(parse_quote!(HashMap<String, String>)).is_err());
        assert!(t(parse_quote!(secrecy::SecretString)).is_err());
        assert!(t(parse_quote!(Option<Option<bool>>)).is_err());
    }
}
