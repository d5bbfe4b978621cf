//! Former library bugs.

use super::*;

// Bounds and defaults the form could not honour (on aliases, beyond the 64-bit signed range,
// defaults breaking `format` or the field's limits) are compile errors now: see
// `tests/ui/form/fail/alias-*.rs`, `default-breaks-format.rs`, `default-beyond-i64.rs`.

#[derive(Debug, PartialEq, ElicitForm)]
#[elicit(message = "f32 bounds")]
struct F32Bounds {
    #[elicit(minimum = 0.7)]
    low: Option<f32>,
    #[elicit(maximum = 0.1)]
    high: Option<f32>,
}

#[test]
fn f32_rounding_must_not_leave_the_bounds() {
    for content in [json!({"low": 0.7}), json!({"high": 0.1})] {
        let form = F32Bounds::from_content(&content).unwrap();
        let again = Value::Object(form.to_content());
        assert_eq!(
            F32Bounds::requested_schema().validate(&again),
            Ok(()),
            "{content} decoded as {form:?}, re-encoded as {again}"
        );
    }
}
