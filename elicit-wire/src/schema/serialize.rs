//! Serialization of the schema model to exactly the spec's JSON, with a fixed key order.
//!
//! Root: `$schema` (when set), `type`, `properties` (declaration order), `required` (when
//! non-empty). Each property: `type`, `title`, `description`, then the variant's own keys, then
//! `default`. Absent options are left out, never written as `null`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::model::{
    Annotations, BooleanSchema, EnumOptions, MultiSelectSchema, NumberSchema, PropertySchema,
    RequestedSchema, SingleSelectSchema, StringFormat, StringSchema, TitledOption,
};

impl StringFormat {
    /// The wire spelling: `email`, `uri`, `date` or `date-time`.
    pub fn as_str(self) -> &'static str {
        match self {
            StringFormat::Email => "email",
            StringFormat::Uri => "uri",
            StringFormat::Date => "date",
            StringFormat::DateTime => "date-time",
        }
    }

    /// The format with the wire spelling `s`, if it is one of the four allowed.
    pub fn from_wire(s: &str) -> Option<Self> {
        match s {
            "email" => Some(StringFormat::Email),
            "uri" => Some(StringFormat::Uri),
            "date" => Some(StringFormat::Date),
            "date-time" => Some(StringFormat::DateTime),
            _ => None,
        }
    }
}

impl Serialize for StringFormat {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl Serialize for RequestedSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len =
            2 + usize::from(self.schema_uri.is_some()) + usize::from(!self.required.is_empty());
        let mut map = serializer.serialize_map(Some(len))?;
        if let Some(uri) = &self.schema_uri {
            map.serialize_entry("$schema", uri)?;
        }
        map.serialize_entry("type", "object")?;
        map.serialize_entry("properties", &Properties(&self.properties))?;
        if !self.required.is_empty() {
            map.serialize_entry("required", &self.required)?;
        }
        map.end()
    }
}

/// The `properties` object, in declaration order.
struct Properties<'a>(&'a [(String, PropertySchema)]);

impl Serialize for Properties<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, schema) in self.0 {
            map.serialize_entry(name, schema)?;
        }
        map.end()
    }
}

/// Writes `key: value` only when the value is present.
fn entry_opt<M: SerializeMap, T: Serialize + ?Sized>(
    map: &mut M,
    key: &'static str,
    value: Option<&T>,
) -> Result<(), M::Error> {
    match value {
        Some(value) => map.serialize_entry(key, value),
        None => Ok(()),
    }
}

/// `type`, `title`, `description`.
fn head<M: SerializeMap>(
    map: &mut M,
    ty: &'static str,
    annotations: &Annotations,
) -> Result<(), M::Error> {
    map.serialize_entry("type", ty)?;
    entry_opt(map, "title", annotations.title.as_ref())?;
    entry_opt(map, "description", annotations.description.as_ref())
}

impl Serialize for PropertySchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self {
            PropertySchema::String(s) => string(&mut map, s)?,
            PropertySchema::Number(s) => number(&mut map, s)?,
            PropertySchema::Boolean(s) => boolean(&mut map, s)?,
            PropertySchema::SingleSelect(s) => single(&mut map, s)?,
            PropertySchema::MultiSelect(s) => multi(&mut map, s)?,
        }
        map.end()
    }
}

fn string<M: SerializeMap>(map: &mut M, s: &StringSchema) -> Result<(), M::Error> {
    head(map, "string", &s.annotations)?;
    entry_opt(map, "minLength", s.min_length.as_ref())?;
    entry_opt(map, "maxLength", s.max_length.as_ref())?;
    entry_opt(map, "format", s.format.as_ref())?;
    entry_opt(map, "default", s.default.as_ref())
}

fn number<M: SerializeMap>(map: &mut M, s: &NumberSchema) -> Result<(), M::Error> {
    head(
        map,
        if s.integer { "integer" } else { "number" },
        &s.annotations,
    )?;
    entry_opt(map, "minimum", s.minimum.as_ref())?;
    entry_opt(map, "maximum", s.maximum.as_ref())?;
    entry_opt(map, "default", s.default.as_ref())
}

fn boolean<M: SerializeMap>(map: &mut M, s: &BooleanSchema) -> Result<(), M::Error> {
    head(map, "boolean", &s.annotations)?;
    entry_opt(map, "default", s.default.as_ref())
}

fn single<M: SerializeMap>(map: &mut M, s: &SingleSelectSchema) -> Result<(), M::Error> {
    head(map, "string", &s.annotations)?;
    match &s.options {
        EnumOptions::Untitled(values) => map.serialize_entry("enum", values)?,
        EnumOptions::Titled(options) => map.serialize_entry("oneOf", &Options(options))?,
        EnumOptions::Legacy { values, names } => {
            map.serialize_entry("enum", values)?;
            map.serialize_entry("enumNames", names)?;
        }
    }
    entry_opt(map, "default", s.default.as_ref())
}

fn multi<M: SerializeMap>(map: &mut M, s: &MultiSelectSchema) -> Result<(), M::Error> {
    head(map, "array", &s.annotations)?;
    entry_opt(map, "minItems", s.min_items.as_ref())?;
    entry_opt(map, "maxItems", s.max_items.as_ref())?;
    map.serialize_entry("items", &Items(&s.options))?;
    entry_opt(map, "default", s.default.as_ref())
}

/// A list of `{"const","title"}` objects.
struct Options<'a>(&'a [TitledOption]);

impl Serialize for Options<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0)
    }
}

impl Serialize for TitledOption {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("const", &self.value)?;
        map.serialize_entry("title", &self.title)?;
        map.end()
    }
}

/// The `items` of a multi-select. Legacy options (not allowed there) are written as plain
/// `enum` values, dropping their names.
struct Items<'a>(&'a EnumOptions);

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            EnumOptions::Untitled(values) | EnumOptions::Legacy { values, .. } => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "string")?;
                map.serialize_entry("enum", values)?;
                map.end()
            }
            EnumOptions::Titled(options) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("anyOf", &Options(options))?;
                map.end()
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::model::*;
    use serde_json::{Number, json};

    /// The spec's example of every variant (section 2.3 of the wire reference), in order.
    pub(crate) const SPEC_EXAMPLES: [&str; 9] = [
        r#"{"type":"string","title":"Display Name","description":"Description text","minLength":3,"maxLength":50,"format":"email","default":"user@example.com"}"#,
        r#"{"type":"number","title":"Display Name","description":"Description text","minimum":0,"maximum":100,"default":50}"#,
        r#"{"type":"integer","minimum":1,"default":3}"#,
        r#"{"type":"boolean","title":"Display Name","description":"Description text","default":false}"#,
        r#"{"type":"string","title":"Color Selection","description":"Choose your favorite color","enum":["Red","Green","Blue"],"default":"Red"}"#,
        r##"{"type":"string","title":"Color Selection","oneOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}],"default":"#FF0000"}"##,
        r#"{"type":"array","title":"Color Selection","minItems":1,"maxItems":2,"items":{"type":"string","enum":["Red","Green","Blue"]},"default":["Red","Green"]}"#,
        r##"{"type":"array","title":"Color Selection","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}]},"default":["#FF0000","#00FF00"]}"##,
        r##"{"type":"string","enum":["#FF0000","#00FF00","#0000FF"],"enumNames":["Red","Green","Blue"],"default":"#00FF00"}"##,
    ];

    fn ann(title: &str, description: Option<&str>) -> Annotations {
        Annotations {
            title: Some(title.into()),
            description: description.map(Into::into),
        }
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    fn rgb_titled() -> Vec<TitledOption> {
        [
            ("#FF0000", "Red"),
            ("#00FF00", "Green"),
            ("#0000FF", "Blue"),
        ]
        .into_iter()
        .map(|(value, title)| TitledOption {
            value: value.into(),
            title: title.into(),
        })
        .collect()
    }

    /// Typed equivalents of [`SPEC_EXAMPLES`], in the same order.
    pub(crate) fn spec_models() -> Vec<PropertySchema> {
        let display = || ann("Display Name", Some("Description text"));
        vec![
            PropertySchema::String(StringSchema {
                annotations: display(),
                min_length: Some(3),
                max_length: Some(50),
                format: Some(StringFormat::Email),
                default: Some("user@example.com".into()),
            }),
            PropertySchema::Number(NumberSchema {
                annotations: display(),
                integer: false,
                minimum: Some(Number::from(0)),
                maximum: Some(Number::from(100)),
                default: Some(Number::from(50)),
            }),
            PropertySchema::Number(NumberSchema {
                integer: true,
                minimum: Some(Number::from(1)),
                default: Some(Number::from(3)),
                ..NumberSchema::default()
            }),
            PropertySchema::Boolean(BooleanSchema {
                annotations: display(),
                default: Some(false),
            }),
            PropertySchema::SingleSelect(SingleSelectSchema {
                annotations: ann("Color Selection", Some("Choose your favorite color")),
                options: EnumOptions::Untitled(strings(&["Red", "Green", "Blue"])),
                default: Some("Red".into()),
            }),
            PropertySchema::SingleSelect(SingleSelectSchema {
                annotations: ann("Color Selection", None),
                options: EnumOptions::Titled(rgb_titled()),
                default: Some("#FF0000".into()),
            }),
            PropertySchema::MultiSelect(MultiSelectSchema {
                annotations: ann("Color Selection", None),
                options: EnumOptions::Untitled(strings(&["Red", "Green", "Blue"])),
                min_items: Some(1),
                max_items: Some(2),
                default: Some(strings(&["Red", "Green"])),
            }),
            PropertySchema::MultiSelect(MultiSelectSchema {
                annotations: ann("Color Selection", None),
                options: EnumOptions::Titled(rgb_titled()),
                min_items: Some(1),
                max_items: Some(2),
                default: Some(strings(&["#FF0000", "#00FF00"])),
            }),
            PropertySchema::SingleSelect(SingleSelectSchema {
                annotations: Annotations::default(),
                options: EnumOptions::Legacy {
                    values: strings(&["#FF0000", "#00FF00", "#0000FF"]),
                    names: strings(&["Red", "Green", "Blue"]),
                },
                default: Some("#00FF00".into()),
            }),
        ]
    }

    #[test]
    fn every_variant_serializes_exactly_like_the_spec() {
        for (model, expected) in spec_models().iter().zip(SPEC_EXAMPLES) {
            assert_eq!(serde_json::to_string(model).unwrap(), expected);
        }
    }

    #[test]
    fn minimal_variants_omit_every_absent_key() {
        let cases = [
            (
                PropertySchema::String(StringSchema::default()),
                r#"{"type":"string"}"#,
            ),
            (
                PropertySchema::Number(NumberSchema::default()),
                r#"{"type":"number"}"#,
            ),
            (
                PropertySchema::Boolean(BooleanSchema::default()),
                r#"{"type":"boolean"}"#,
            ),
            (
                PropertySchema::SingleSelect(SingleSelectSchema {
                    annotations: Annotations::default(),
                    options: EnumOptions::Untitled(strings(&["a"])),
                    default: None,
                }),
                r#"{"type":"string","enum":["a"]}"#,
            ),
            (
                PropertySchema::MultiSelect(MultiSelectSchema {
                    annotations: ann("T", Some("D")),
                    options: EnumOptions::Titled(rgb_titled()[..1].to_vec()),
                    min_items: None,
                    max_items: Some(0),
                    default: Some(vec![]),
                }),
                r##"{"type":"array","title":"T","description":"D","maxItems":0,"items":{"anyOf":[{"const":"#FF0000","title":"Red"}]},"default":[]}"##,
            ),
            (
                PropertySchema::MultiSelect(MultiSelectSchema {
                    annotations: Annotations::default(),
                    options: EnumOptions::Legacy {
                        values: strings(&["a"]),
                        names: strings(&["A"]),
                    },
                    min_items: None,
                    max_items: None,
                    default: None,
                }),
                r#"{"type":"array","items":{"type":"string","enum":["a"]}}"#,
            ),
        ];
        for (model, expected) in cases {
            assert_eq!(serde_json::to_string(&model).unwrap(), expected);
        }
    }

    #[test]
    fn string_format_spellings() {
        for format in [
            StringFormat::Email,
            StringFormat::Uri,
            StringFormat::Date,
            StringFormat::DateTime,
        ] {
            assert_eq!(StringFormat::from_wire(format.as_str()), Some(format));
            assert_eq!(
                serde_json::to_value(format).unwrap(),
                json!(format.as_str())
            );
        }
        assert_eq!(StringFormat::from_wire("Email"), None);
        assert_eq!(StringFormat::DateTime.as_str(), "date-time");
    }

    #[test]
    fn root_key_order_and_declaration_order() {
        let schema = RequestedSchema::new()
            .with_schema_uri("https://json-schema.org/draft/2020-12/schema")
            .property(
                "zeta",
                PropertySchema::Boolean(BooleanSchema::default()),
                false,
            )
            .property(
                "alpha",
                PropertySchema::String(StringSchema::default()),
                true,
            )
            .property("mid", PropertySchema::Number(NumberSchema::default()), true);
        assert_eq!(
            serde_json::to_string(&schema).unwrap(),
            r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"zeta":{"type":"boolean"},"alpha":{"type":"string"},"mid":{"type":"number"}},"required":["alpha","mid"]}"#
        );
        assert_eq!(
            serde_json::to_string(&RequestedSchema::new()).unwrap(),
            r#"{"type":"object","properties":{}}"#
        );
    }

    #[test]
    fn builder_replaces_and_updates_required() {
        let schema = RequestedSchema::new()
            .property("a", PropertySchema::String(StringSchema::default()), true)
            .property("b", PropertySchema::String(StringSchema::default()), true)
            .property(
                "a",
                PropertySchema::Boolean(BooleanSchema::default()),
                false,
            )
            .property("b", PropertySchema::String(StringSchema::default()), true);
        assert_eq!(schema.properties.len(), 2);
        assert_eq!(schema.properties[0].0, "a");
        assert_eq!(schema.required, ["b"]);
        assert!(matches!(schema.get("a"), Some(PropertySchema::Boolean(_))));
        assert!(schema.get("c").is_none());
        assert!(schema.is_required("b"));
        assert!(!schema.is_required("a"));
    }

    #[test]
    fn accessors() {
        let models = spec_models();
        assert_eq!(
            models[0].annotations().title.as_deref(),
            Some("Display Name")
        );
        assert_eq!(models[2].annotations(), &Annotations::default());
        let PropertySchema::SingleSelect(legacy) = &models[8] else {
            panic!("legacy example is a single select")
        };
        assert_eq!(
            legacy.options.values().collect::<Vec<_>>(),
            ["#FF0000", "#00FF00", "#0000FF"]
        );
        assert!(legacy.options.contains("#0000FF"));
        assert!(!legacy.options.contains("Blue"));
        assert_eq!(legacy.options.len(), 3);
        assert!(!legacy.options.is_empty());
        assert!(EnumOptions::Untitled(vec![]).is_empty());
    }

    #[test]
    fn floats_and_big_numbers_keep_their_json_spelling() {
        let schema = PropertySchema::Number(NumberSchema {
            minimum: Some(Number::from(i64::MIN)),
            maximum: Some(Number::from(u64::MAX)),
            default: Number::from_f64(2.5),
            ..NumberSchema::default()
        });
        assert_eq!(
            serde_json::to_string(&schema).unwrap(),
            r#"{"type":"number","minimum":-9223372036854775808,"maximum":18446744073709551615,"default":2.5}"#
        );
    }
}
