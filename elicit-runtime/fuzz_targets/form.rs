//! `form_content`: the derived decoder of a representative form on any JSON.

use serde_json::Value;

use super::fixtures::Booking;
use crate::ElicitForm;

/// Decodes the input as the `content` of an accepted [`Booking`]. What the decoder accepts the
/// schema model accepts too, and it round-trips through `to_content`; what it refuses, the
/// model refuses with the very same errors.
pub fn form_content(data: &[u8]) {
    let Ok(content) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let schema = Booking::requested_schema();
    match Booking::from_content(&content) {
        Ok(booking) => {
            if let Err(e) = schema.validate(&content) {
                panic!("the model refuses what the decoder accepts: {e}");
            }
            let again = Value::Object(booking.to_content());
            assert_eq!(schema.validate(&again), Ok(()), "its own content, {again}");
            assert_eq!(Booking::from_content(&again).as_ref(), Ok(&booking));
        }
        Err(errors) => {
            assert!(!errors.is_empty(), "a refusal names what is wrong");
            assert_eq!(schema.validate(&content), Err(errors), "model vs decoder");
        }
    }
}
