use elicit_runtime::ElicitForm;

// A domain label of 64 letters: the runtime refuses it (at most 63), so the default must not
// compile either, or every answer that omits the field would fail to decode.
#[derive(ElicitForm)]
#[elicit(message = "Contact")]
struct Contact {
    #[elicit(
        format = "email",
        default = "a@bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.com"
    )]
    email: String,
}

fn main() {}
