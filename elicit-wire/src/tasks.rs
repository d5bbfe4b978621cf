//! Input requests on the task channel (the `io.modelcontextprotocol/tasks` extension,
//! SEP-2663): a `tasks/get` result in status `input_required`, the client's `tasks/update`,
//! and the server's empty acknowledgement.
//!
//! Once a request has turned into a task, input is no longer asked for through
//! `InputRequiredResult`: `tasks/get` reports the outstanding requests and `tasks/update`
//! answers them. Task keys are a namespace of their own and are never reused within a task.

use std::collections::BTreeMap;

use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::mrtr::{InputRequest, RESULT_TYPE_COMPLETE, RESULT_TYPE_INPUT_REQUIRED};
use super::retry::InputResponses;
use crate::ordered::Ordered;

/// Method name of the task status poll.
pub const METHOD_TASKS_GET: &str = "tasks/get";
/// Method name of the request that delivers answers to a task.
pub const METHOD_TASKS_UPDATE: &str = "tasks/update";
/// The task `status` that comes with `inputRequests`.
pub const TASK_STATUS_INPUT_REQUIRED: &str = RESULT_TYPE_INPUT_REQUIRED;

/// A `tasks/get` result whose `status` is `"input_required"`:
/// `{"status":"input_required", "inputRequests":{…}, …}`.
///
/// Only the members elicitation needs are typed; everything else (`taskId`, timestamps,
/// `_meta`, …) stays in [`TaskInputRequired::other`]. Deserialization refuses any other
/// status.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskInputRequired {
    /// The outstanding requests, keyed by ids unique over the task's lifetime.
    pub input_requests: BTreeMap<String, InputRequest>,
    /// All other members of the result.
    pub other: Map<String, Value>,
}

impl TaskInputRequired {
    /// A status with these outstanding requests and no other members.
    pub fn new(input_requests: BTreeMap<String, InputRequest>) -> Self {
        Self {
            input_requests,
            other: Map::new(),
        }
    }
}

impl Serialize for TaskInputRequired {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("status", TASK_STATUS_INPUT_REQUIRED)?;
        map.serialize_entry("inputRequests", &self.input_requests)?;
        // The typed members win over stray copies of the same names in `other`.
        for (key, value) in &self.other {
            if key != "status" && key != "inputRequests" {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for TaskInputRequired {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut tree = Ordered::deserialize(deserializer)?;
        if !matches!(tree, Ordered::Object(_)) {
            return Err(de::Error::custom("a task result must be a JSON object"));
        }
        match tree.take("status") {
            Some(Ordered::String(s)) if s == TASK_STATUS_INPUT_REQUIRED => {}
            Some(Ordered::String(s)) => {
                return Err(de::Error::custom(format_args!(
                    "expected task status \"input_required\", found {s:?}"
                )));
            }
            Some(_) => return Err(de::Error::custom("task `status` must be a string")),
            None => return Err(de::Error::missing_field("status")),
        }
        let input_requests = tree
            .take("inputRequests")
            .ok_or_else(|| de::Error::missing_field("inputRequests"))?
            .parse::<BTreeMap<String, InputRequest>, D::Error>()?;
        let other = tree.parse::<Map<String, Value>, D::Error>()?;
        Ok(Self {
            input_requests,
            other,
        })
    }
}

/// Params of `tasks/update`: `{"taskId", "inputResponses", "_meta"?}`. There is no
/// `requestState` on the task channel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TasksUpdateParams {
    /// The task being answered.
    #[serde(rename = "taskId")]
    pub task_id: String,
    /// Answers keyed like the task's `inputRequests`; keys that are not outstanding are to
    /// be ignored, and a partial set may be accepted.
    #[serde(rename = "inputResponses")]
    pub input_responses: InputResponses,
    /// Request metadata (on 2026-07-28, the per-request keys of `RequestMeta`).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// The result of `tasks/update`: `{"resultType":"complete"}`.
///
/// Deserialization checks `resultType` and ignores other members.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TasksUpdateAck;

impl Serialize for TasksUpdateAck {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("TasksUpdateAck", 1)?;
        s.serialize_field("resultType", RESULT_TYPE_COMPLETE)?;
        s.end()
    }
}

impl<'de> Deserialize<'de> for TasksUpdateAck {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct In {
            #[serde(rename = "resultType")]
            result_type: String,
        }
        let raw = In::deserialize(deserializer)?;
        if raw.result_type == RESULT_TYPE_COMPLETE {
            Ok(Self)
        } else {
            Err(de::Error::custom(format_args!(
                "expected \"resultType\":\"complete\", found {:?}",
                raw.result_type
            )))
        }
    }
}
