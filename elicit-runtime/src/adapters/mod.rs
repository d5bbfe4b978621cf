//! Adapters to MCP SDKs. Nothing else in the runtime depends on an SDK.

pub mod rmcp;
