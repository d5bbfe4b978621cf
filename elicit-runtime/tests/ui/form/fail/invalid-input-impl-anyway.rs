use elicit_runtime::ElicitForm;

#[derive(ElicitForm)]
#[elicit(message = "Age?")]
struct Age {
    #[elicit(minn = 3)]
    years: u8,
}

fn main() {
    // The form was rejected, but using it causes no second error.
    let _ = Age::message();
    let _ = Age::requested_schema();
}
