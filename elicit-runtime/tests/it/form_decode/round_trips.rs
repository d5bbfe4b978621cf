//! Round trips.

use super::*;

#[derive(Debug, Clone, PartialEq, ElicitForm)]
#[elicit(message = "Everything", rename_all = "camelCase")]
struct Filled {
    #[elicit(min_length = 3, max_length = 40, format = "email")]
    email: String,
    #[elicit(format = "uri")]
    home_page: String,
    #[elicit(format = "date")]
    birthday: Option<String>,
    #[elicit(format = "date-time")]
    seen_at: Option<String>,
    #[elicit(minimum = 1, maximum = 12)]
    guests: u8,
    offset: i64,
    big: u64,
    #[elicit(minimum = -1.5, maximum = 100)]
    ratio: f64,
    single: f32,
    vip: bool,
    nickname: Option<String>,
    color: Color,
    hex: Option<Hex>,
    #[elicit(min_items = 1, max_items = 2)]
    extras: Vec<Color>,
    tree: BTreeSet<Hex>,
    seats: HashSet<Seating>,
    #[elicit(default = 3)]
    nights: u16,
}

fn filled() -> Filled {
    Filled {
        email: "octocat@github.com".into(),
        home_page: "https://github.com/octocat".into(),
        birthday: Some("2008-02-08".into()),
        seen_at: None,
        guests: 12,
        offset: i64::MIN,
        big: i64::MAX as u64,
        ratio: -1.5,
        single: 0.1,
        vip: false,
        nickname: Some("🐙 cat".into()),
        color: Color::Blue,
        hex: None,
        extras: vec![Color::Green, Color::Red],
        tree: BTreeSet::from([Hex::Blue, Hex::Red]),
        seats: HashSet::from([Seating::Bar, Seating::IndoorWindow]),
        nights: 3,
    }
}

#[test]
fn to_content_round_trips() {
    let form = filled();
    let content = Value::Object(form.to_content());
    assert_eq!(
        content,
        json!({
            "email": "octocat@github.com",
            "homePage": "https://github.com/octocat",
            "birthday": "2008-02-08",
            "guests": 12,
            "offset": i64::MIN,
            "big": i64::MAX,
            "ratio": -1.5,
            "single": 0.1,
            "vip": false,
            "nickname": "🐙 cat",
            "color": "Blue",
            "extras": ["Green", "Red"],
            "tree": ["#FF0000", "#0000FF"],
            "seats": ["indoor-window", "bar"],
            "nights": 3
        })
    );
    assert_eq!(accepts::<Filled>(&content), form);
    // Round trips a second time to the same JSON.
    assert_eq!(
        Value::Object(accepts::<Filled>(&content).to_content()),
        content
    );
    for form in [kinds(), accepts::<Kinds>(&kinds_json())] {
        assert_eq!(accepts::<Kinds>(&Value::Object(form.to_content())), form);
    }
    assert_eq!(
        accepts::<Defaults>(&Value::Object(defaults().to_content())),
        defaults()
    );
}

#[test]
fn to_content_of_unrepresentable_floats_drops_the_field() {
    // A value built in Rust (never decoded) can hold what JSON cannot: it is left out.
    let form = Kinds {
        number: f64::NAN,
        ..kinds()
    };
    let content = Value::Object(form.to_content());
    assert!(content.get("number").is_none(), "{content}");
    rejects::<Kinds>(&content, &[("number", "is required")]);
    let form = Kinds {
        number: f64::INFINITY,
        ..kinds()
    };
    assert!(form.to_content().get("number").is_none());
}
