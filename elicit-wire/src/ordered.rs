//! The one order-preserving JSON buffer of this crate.
//!
//! `serde_json::Value` sorts object keys unless serde_json's `preserve_order` is on, and the
//! core never turns it on (a unified feature changes every `Value` in a user's program; only
//! the `rmcp` feature needs it). Buffering through `Value` would therefore reorder the `properties` of a
//! `requestedSchema`, which is the order clients show the form's fields in. Everything that
//! must keep input order buffers through [`Ordered`] instead: the wire shapes whose variant is
//! decided by a member that may come after the data it governs (`mode`, `method`), the schema
//! parser (`properties` in document order), and the rmcp adapter's JSON rewriting. Output order
//! comes from typed `Serialize` impls (declaration order), never from a `Value`.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{self, Deserialize, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Number, Value};

/// A JSON value whose objects keep their members in input order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ordered {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Ordered>),
    Object(Vec<(String, Ordered)>),
}

impl Ordered {
    /// Removes every member named `key` from an object and returns the last one (JSON's
    /// "last one wins"). `None` for non-objects or when absent.
    pub(crate) fn take(&mut self, key: &str) -> Option<Ordered> {
        let Self::Object(entries) = self else {
            return None;
        };
        let mut found = None;
        entries.retain_mut(|(k, v)| {
            if k == key {
                found = Some(std::mem::replace(v, Ordered::Null));
                false
            } else {
                true
            }
        });
        found
    }

    /// The last member named `key` of an object.
    pub(crate) fn get(&self, key: &str) -> Option<&Ordered> {
        match self {
            Self::Object(entries) => entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Parses `T` out of this buffer, reporting errors as `E`.
    pub(crate) fn parse<'de, T: Deserialize<'de>, E: de::Error>(self) -> Result<T, E> {
        T::deserialize(OrderedDeserializer::<E>::new(self))
    }

    /// The same JSON as a [`Value`]; objects lose their order (and keep the last of repeated
    /// members, as parsing into a `Value` does).
    pub(crate) fn into_value(self) -> Value {
        match self {
            Self::Null => Value::Null,
            Self::Bool(b) => Value::Bool(b),
            Self::Number(n) => Value::Number(n),
            Self::String(s) => Value::String(s),
            Self::Array(items) => Value::Array(items.into_iter().map(Self::into_value).collect()),
            Self::Object(entries) => Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, v.into_value()))
                    .collect(),
            ),
        }
    }
}

/// Writes the JSON back with every object in its buffered order.
impl Serialize for Ordered {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Null => serializer.serialize_unit(),
            Self::Bool(b) => serializer.serialize_bool(*b),
            Self::Number(n) => n.serialize(serializer),
            Self::String(s) => serializer.serialize_str(s),
            Self::Array(items) => serializer.collect_seq(items),
            Self::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = Ordered;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Ordered, E> {
        Ok(Ordered::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Ordered, E> {
        Ok(Ordered::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Ordered, E> {
        Ok(Ordered::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Ordered, E> {
        Number::from_f64(v)
            .map(Ordered::Number)
            .ok_or_else(|| E::custom("JSON numbers must be finite"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Ordered, E> {
        Ok(Ordered::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Ordered, E> {
        Ok(Ordered::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Ordered, E> {
        Ok(Ordered::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Ordered, E> {
        Ok(Ordered::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Ordered, D::Error> {
        Ordered::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Ordered::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
        while let Some((key, value)) = map.next_entry::<String, Ordered>()? {
            entries.push((key, value));
        }
        Ok(Ordered::Object(entries))
    }
}

/// Replays an [`Ordered`] buffer into any `Deserialize` type.
pub(crate) struct OrderedDeserializer<E> {
    value: Ordered,
    error: PhantomData<E>,
}

impl<E> OrderedDeserializer<E> {
    fn new(value: Ordered) -> Self {
        Self {
            value,
            error: PhantomData,
        }
    }
}

impl<'de, E: de::Error> IntoDeserializer<'de, E> for Ordered {
    type Deserializer = OrderedDeserializer<E>;

    fn into_deserializer(self) -> OrderedDeserializer<E> {
        OrderedDeserializer::new(self)
    }
}

impl<'de, E: de::Error> Deserializer<'de> for OrderedDeserializer<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Ordered::Null => visitor.visit_unit(),
            Ordered::Bool(b) => visitor.visit_bool(b),
            Ordered::Number(n) => {
                if let Some(u) = n.as_u64() {
                    visitor.visit_u64(u)
                } else if let Some(i) = n.as_i64() {
                    visitor.visit_i64(i)
                } else {
                    visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            Ordered::String(s) => visitor.visit_string(s),
            Ordered::Array(items) => {
                let mut seq = SeqDeserializer::new(items.into_iter());
                let value = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(value)
            }
            Ordered::Object(entries) => {
                let mut map = MapDeserializer::new(entries.into_iter());
                let value = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(value)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Ordered::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        match self.value {
            // Unit variants, the only enum shape this module reads from a buffer.
            Ordered::String(s) => visitor.visit_enum(s.into_deserializer()),
            _ => Err(de::Error::invalid_type(
                de::Unexpected::Other("non-string enum value"),
                &"a string",
            )),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}
