use elicit_runtime::{ElicitUrl, elicit_url};

#[elicit_url(message = "Pay", url = "https://pay.example.com/checkout")]
struct Pay {
    #[elicit(show = "Amount")]
    amount_cents: u64,
    #[elicit(show)]
    payee_name: String,
    #[elicit(show)]
    r#type: Option<String>,
    order: String,
}

fn main() {
    let pay = Pay {
        amount_cents: 1250,
        payee_name: "Café".into(),
        r#type: None,
        order: "o-1".into(),
    };
    let shown: Vec<(String, String)> = pay
        .shown()
        .iter()
        .map(|s| (s.label().to_owned(), s.value().to_owned()))
        .collect();
    let want = [("Amount", "1250"), ("Payee name", "Café"), ("Type", "")];
    assert_eq!(shown, want.map(|(l, v)| (l.to_owned(), v.to_owned())));
    let _ = &pay.order;
}
