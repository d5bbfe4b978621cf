use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Connect", rename_all = "camelCase")]
struct Connect {
    #[elicit(rename = "apiKey")]
    key_for_service: String,
}

fn main() {}
