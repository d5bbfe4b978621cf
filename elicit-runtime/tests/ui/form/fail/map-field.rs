use std::collections::HashMap;

use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Settings")]
struct Settings {
    values: HashMap<String, String>,
}

fn main() {}
