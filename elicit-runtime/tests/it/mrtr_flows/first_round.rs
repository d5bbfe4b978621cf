//! The first round on the wire.

use super::*;

#[test]
fn first_round_is_exactly_the_spec_shape() {
    let server = server().with_server_info("flow-server", "1.2.3");
    let ask = asks(round(&server, &first_params(forms()), ask_guests));
    let value = serde_json::to_value(&ask).unwrap();
    let state = value["requestState"]
        .as_str()
        .expect("requestState is a string")
        .to_owned();
    assert!(state.starts_with("es1."), "{state}");
    assert_eq!(
        value,
        json!({
            "resultType": "input_required",
            "inputRequests": {"guests": form_request("How many guests?", guests_schema())},
            "requestState": state,
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "flow-server", "version": "1.2.3"}}
        })
    );
    // The schema sent is exactly the form's own.
    assert_eq!(
        value["inputRequests"]["guests"]["params"]["requestedSchema"],
        serde_json::to_value(Guests::requested_schema()).unwrap()
    );
}

/// The keys of a JSON object's text, in the order written (a `Value` would sort them).
fn top_level_keys(json: &str) -> Vec<String> {
    struct Keys;
    impl<'de> serde::de::Visitor<'de> for Keys {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut keys = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                map.next_value::<serde::de::IgnoredAny>()?;
                keys.push(key);
            }
            Ok(keys)
        }
    }
    serde::Deserializer::deserialize_map(&mut serde_json::Deserializer::from_str(json), Keys)
        .unwrap()
}

#[test]
fn first_round_without_server_info_has_no_meta() {
    let ask = asks(round(&server(), &first_params(forms()), ask_guests));
    let text = serde_json::to_string(&ask).unwrap();
    assert_eq!(
        top_level_keys(&text),
        ["resultType", "inputRequests", "requestState"]
    );
    assert_eq!(ask.meta(), None);
}
