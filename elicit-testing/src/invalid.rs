//! The `-32602` a call ends with when an answer fails its form's checks, read back:
//! [`InvalidAnswer`].

use elicit_runtime::schema::FieldError;
use serde_json::Value;

/// What the `-32602` error a call ends with says when an answer fails its form's checks past
/// the last re-ask: the question's key and every bad field, in the form's order (its `data`,
/// `{"key": …, "errors": [{"field": …, "reason": …}, …]}`).
///
/// ```
/// use elicit_testing::InvalidAnswer;
/// use serde_json::json;
///
/// // The `data` of the error, as `elicit_rmcp::testing::Run::error` or a `TestClient` gives it.
/// let data = json!({"key": "booking", "errors": [{"field": "guests", "reason": "must be at most 12"}]});
/// let invalid = InvalidAnswer::from_data(Some(&data)).unwrap();
/// assert_eq!(invalid.key, "booking");
/// assert_eq!(invalid.fields(), ["guests"]);
/// assert_eq!(invalid.errors[0].reason, "must be at most 12");
/// // Any other error's data is not one.
/// assert_eq!(InvalidAnswer::from_data(None), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct InvalidAnswer {
    /// The key of the question whose answer was refused.
    pub key: String,
    /// Every bad field, with what is wrong with it.
    pub errors: Vec<FieldError>,
}

impl InvalidAnswer {
    /// Reads an error's `data`; `None` when it is not an invalid answer's.
    pub fn from_data(data: Option<&Value>) -> Option<Self> {
        let data = data?;
        let key = data.get("key")?.as_str()?.to_owned();
        let errors = data
            .get("errors")?
            .as_array()?
            .iter()
            .map(|e| {
                let field = e.get("field")?.as_str()?;
                Some(FieldError::new(field, e.get("reason")?.as_str()?))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(InvalidAnswer { key, errors })
    }

    /// The bad fields' wire names, in order.
    pub fn fields(&self) -> Vec<&str> {
        self.errors.iter().map(|e| e.field.as_str()).collect()
    }
}
