use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Where?")]
struct Point {
    at: (f64, f64),
}

fn main() {}
