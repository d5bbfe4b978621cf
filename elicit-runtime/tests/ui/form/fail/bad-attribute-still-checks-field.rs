use elicit_runtime::ElicitForm;

// A field whose attributes do not parse still gets its secret and type checks: every error
// comes in one compile.
#[derive(ElicitForm)]
#[elicit(message = "Sign in")]
struct SignIn {
    #[elicit(min_lenght = 3)]
    password: String,
    #[elicit(bogus)]
    notes: Box<String>,
    // Still exempt: `not_secret` is read even though `colour` breaks the attribute.
    #[elicit(colour = "red", not_secret = "a public CSRF nonce, not a credential")]
    csrf_token: String,
}

fn main() {}
