//! Protocol versions and the per-request `_meta` of 2026-07-28, which replaces the
//! `initialize` handshake.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::capabilities::ClientCapabilities;
use super::errors::WireError;

/// The last handshake-era revision: elicitation is a pushed server→client request.
pub const PROTOCOL_2025_11_25: &str = "2025-11-25";
/// The first stateless revision: elicitation travels inside `InputRequiredResult`.
pub const PROTOCOL_2026_07_28: &str = "2026-07-28";
/// Handshake-era revisions that are recognised as [`ProtocolEra::Legacy2025`].
pub const LEGACY_PROTOCOL_VERSIONS: &[&str] = &[
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    PROTOCOL_2025_11_25,
];

/// `_meta` key of the request's protocol version (required on 2026-07-28).
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key of the client's capabilities (required on 2026-07-28).
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key of the client's name and version (optional).
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key of the requested log level (optional, deprecated).
pub const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// `_meta` key of the server's name and version, which results should carry.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The `_meta` keys whose presence marks a request as 2026-07-28.
const MRTR_META_KEYS: [&str; 4] = [
    META_PROTOCOL_VERSION,
    META_CLIENT_CAPABILITIES,
    META_CLIENT_INFO,
    META_LOG_LEVEL,
];

/// How elicitation travels for a given protocol version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ProtocolEra {
    /// 2025-11-25 and earlier: `initialize` handshake, pushed `elicitation/create` requests,
    /// `elicitationId`, `-32042` and the completion notification.
    Legacy2025,
    /// 2026-07-28 and later: per-request `_meta`, `InputRequiredResult` and retries.
    Mrtr2026,
}

impl ProtocolEra {
    /// Every era this library speaks, newest first: loop over it to test a tool on each.
    pub const ALL: [ProtocolEra; 2] = [ProtocolEra::Mrtr2026, ProtocolEra::Legacy2025];

    /// The era of a protocol version string.
    ///
    /// A known handshake-era version ([`LEGACY_PROTOCOL_VERSIONS`]) is
    /// [`ProtocolEra::Legacy2025`]. A `YYYY-MM-DD` version that sorts at or after
    /// `2026-07-28` is [`ProtocolEra::Mrtr2026`], so later revisions are assumed to keep the
    /// round-trip model. Anything else (unknown older dates, other text) is `None`.
    pub fn from_version(version: &str) -> Option<Self> {
        if LEGACY_PROTOCOL_VERSIONS.contains(&version) {
            Some(Self::Legacy2025)
        } else if is_date_shaped(version) && version >= PROTOCOL_2026_07_28 {
            Some(Self::Mrtr2026)
        } else {
            None
        }
    }

    /// The newest protocol version of this era that this library speaks.
    pub fn version(self) -> &'static str {
        match self {
            Self::Legacy2025 => PROTOCOL_2025_11_25,
            Self::Mrtr2026 => PROTOCOL_2026_07_28,
        }
    }
}

/// `YYYY-MM-DD` with ASCII digits.
fn is_date_shaped(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
}

/// The 2026-07-28 keys of a client request's `params._meta`.
///
/// Other `_meta` members (e.g. `progressToken`) are kept in [`RequestMeta::other`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequestMeta {
    /// `io.modelcontextprotocol/protocolVersion`.
    #[serde(rename = "io.modelcontextprotocol/protocolVersion")]
    pub protocol_version: String,
    /// `io.modelcontextprotocol/clientCapabilities`; `{}` declares no optional capability.
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities")]
    pub client_capabilities: ClientCapabilities,
    /// `io.modelcontextprotocol/clientInfo` (`{name, version, …}`), kept raw.
    #[serde(
        rename = "io.modelcontextprotocol/clientInfo",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub client_info: Option<Map<String, Value>>,
    /// `io.modelcontextprotocol/logLevel` (deprecated).
    #[serde(
        rename = "io.modelcontextprotocol/logLevel",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub log_level: Option<String>,
    /// All other `_meta` members.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

impl RequestMeta {
    /// Meta with the two required keys.
    pub fn new(
        protocol_version: impl Into<String>,
        client_capabilities: ClientCapabilities,
    ) -> Self {
        Self {
            protocol_version: protocol_version.into(),
            client_capabilities,
            client_info: None,
            log_level: None,
            other: Map::new(),
        }
    }

    /// The era of [`RequestMeta::protocol_version`] (see [`ProtocolEra::from_version`]).
    pub fn era(&self) -> Option<ProtocolEra> {
        ProtocolEra::from_version(&self.protocol_version)
    }

    /// Reads the 2026-07-28 keys from a request's `params`.
    ///
    /// * `Ok(None)`: `params` is null or has no `_meta`, or `_meta` has none of the four
    ///   `io.modelcontextprotocol/…` request keys. The request is from the handshake era.
    /// * `Ok(Some(_))`: the keys are present and well-formed.
    /// * `Err(_)`: some key is present but a required one is missing, or a key (or `params`
    ///   or `_meta` itself) has the wrong type. Answer with `-32602`
    ///   ([`WireError::to_json_rpc_error`]).
    pub fn from_params(params: &Value) -> Result<Option<Self>, WireError> {
        Self::read(params, true)
    }

    /// [`RequestMeta::from_params`] checking every key but keeping only what a request
    /// context uses: the protocol version and the client's capabilities (`client_info`,
    /// `log_level` and `other` are left empty).
    #[doc(hidden)] // elicit-runtime's; not part of the API
    pub fn essentials_from_params(params: &Value) -> Result<Option<Self>, WireError> {
        Self::read(params, false)
    }

    fn read(params: &Value, keep_rest: bool) -> Result<Option<Self>, WireError> {
        let params = match params {
            Value::Null => return Ok(None),
            Value::Object(map) => map,
            _ => return Err(WireError::invalid("params", "expected a JSON object")),
        };
        match params.get("_meta") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Object(meta)) => Self::read_meta(meta, keep_rest),
            Some(_) => Err(WireError::invalid("_meta", "expected a JSON object")),
        }
    }

    /// [`RequestMeta::essentials_from_params`] of the `_meta` object itself, for an adapter
    /// that parsed the request already.
    #[doc(hidden)] // elicit-runtime's; not part of the API
    pub fn essentials_from_meta(meta: &Map<String, Value>) -> Result<Option<Self>, WireError> {
        Self::read_meta(meta, false)
    }

    fn read_meta(meta: &Map<String, Value>, keep_rest: bool) -> Result<Option<Self>, WireError> {
        if !MRTR_META_KEYS.iter().any(|k| meta.contains_key(*k)) {
            return Ok(None);
        }

        let protocol_version = match meta.get(META_PROTOCOL_VERSION) {
            None => return Err(WireError::missing(meta_path(META_PROTOCOL_VERSION))),
            Some(Value::String(v)) => v.clone(),
            Some(_) => {
                return Err(WireError::invalid(
                    meta_path(META_PROTOCOL_VERSION),
                    "expected a string",
                ));
            }
        };
        let client_capabilities = match meta.get(META_CLIENT_CAPABILITIES) {
            None => return Err(WireError::missing(meta_path(META_CLIENT_CAPABILITIES))),
            Some(v @ Value::Object(_)) => ClientCapabilities::deserialize(v).map_err(|e| {
                WireError::invalid(meta_path(META_CLIENT_CAPABILITIES), e.to_string())
            })?,
            Some(_) => {
                return Err(WireError::invalid(
                    meta_path(META_CLIENT_CAPABILITIES),
                    "expected a JSON object",
                ));
            }
        };
        let client_info = match meta.get(META_CLIENT_INFO) {
            None | Some(Value::Null) => None,
            Some(Value::Object(info)) => keep_rest.then(|| info.clone()),
            Some(_) => {
                return Err(WireError::invalid(
                    meta_path(META_CLIENT_INFO),
                    "expected a JSON object",
                ));
            }
        };
        let log_level = match meta.get(META_LOG_LEVEL) {
            None | Some(Value::Null) => None,
            Some(Value::String(level)) => keep_rest.then(|| level.clone()),
            Some(_) => {
                return Err(WireError::invalid(
                    meta_path(META_LOG_LEVEL),
                    "expected a string",
                ));
            }
        };
        let other = if keep_rest {
            meta.iter()
                .filter(|(k, _)| !MRTR_META_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        } else {
            Map::new()
        };
        Ok(Some(Self {
            protocol_version,
            client_capabilities,
            client_info,
            log_level,
            other,
        }))
    }
}

fn meta_path(key: &str) -> String {
    format!("_meta.{key}")
}
