use elicit_runtime::ElicitForm;

type Note = Option<String>;

/// Book a table
#[derive(ElicitForm)]
struct Booking {
    restaurant: String,
    /// An alias the derive cannot see through: the compiler says it is optional.
    #[elicit(model_required)]
    note: Note,
}

fn main() {}
