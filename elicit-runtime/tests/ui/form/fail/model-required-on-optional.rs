use elicit_runtime::ElicitForm;

/// Book a table
#[derive(ElicitForm)]
struct Booking {
    /// The model must name the restaurant: fine, the form requires it too.
    #[elicit(model_required)]
    restaurant: String,
    /// The user may leave the note out, so the model may as well.
    #[elicit(model_required)]
    note: Option<String>,
    /// The form takes 2 when nobody says: not required of anyone.
    #[elicit(default = 2, model_required)]
    guests: u8,
}

fn main() {}
