use elicit_runtime::schema::PropertySchema;
use elicit_runtime::field::{FieldKind, FieldSpec};
use elicit_runtime::schema::InvalidValue;
use elicit_runtime::{ElicitField, ElicitForm};

struct Handle(String);

impl ElicitField for Handle {
    const KIND: FieldKind = FieldKind::Text;
    fn property(spec: &FieldSpec) -> PropertySchema {
        String::property(spec)
    }
    fn decode(value: &serde_json::Value) -> Result<Self, InvalidValue> {
        String::decode(value).map(Handle)
    }
    fn encode(&self) -> Option<serde_json::Value> {
        self.0.encode()
    }
}

#[derive(ElicitForm)]
#[elicit(message = "Who?")]
struct Who {
    #[elicit(min_length = 2)]
    handle: Handle,
}

fn main() {
    let who = Who::from_content(&serde_json::json!({"handle": "@me"})).unwrap();
    assert_eq!(who.handle.0, "@me");
}
