//! Defaults, options, names.

use super::*;

#[test]
fn defaults_apply_when_absent_or_null() {
    assert!(Defaults::requested_schema().required.is_empty());
    assert_eq!(accepts::<Defaults>(&json!({})), defaults());
    let nulls = Defaults::requested_schema()
        .properties
        .iter()
        .map(|(name, _)| (name.clone(), Value::Null));
    assert_eq!(
        accepts::<Defaults>(&Value::Object(Map::from_iter(nulls))),
        defaults()
    );
    // Some given, some not.
    let got = accepts::<Defaults>(&json!({
        "name": "Mona", "count": 1, "flag": false, "colors": [], "tree": null, "maybe": 0
    }));
    assert_eq!(
        got,
        Defaults {
            name: "Mona".into(),
            count: 1,
            flag: false,
            colors: vec![],
            maybe: Some(0),
            ..defaults()
        }
    );
}

#[test]
fn defaults_do_not_hide_bad_answers() {
    rejects::<Defaults>(
        &json!({"name": "x", "count": 0, "ratio": "2.5", "flag": 1, "color": "Pink",
                "colors": ["Red", "Green", "Blue"], "hash": ["bar", "bar"], "maybe": 256}),
        &[
            ("name", "must be at least 2 characters long"),
            ("count", "must be at least 1"),
            ("ratio", "must be a number"),
            ("flag", "must be true or false"),
            ("color", "must be one of `Red`, `Green`, `Blue`"),
            ("colors", "must choose at most 2 options"),
            ("hash", "chooses `bar` more than once"),
            ("maybe", "must be at most 255"),
        ],
    );
}

#[test]
fn options_absent_null_and_present() {
    let none = Optional {
        name: None,
        count: None,
        ratio: None,
        flag: None,
        color: None,
        colors: None,
        seats: None,
    };
    assert!(Optional::requested_schema().required.is_empty());
    assert_eq!(accepts::<Optional>(&json!({})), none);
    assert_eq!(
        accepts::<Optional>(&json!({
            "name": null, "count": null, "ratio": null, "flag": null, "color": null,
            "colors": null, "seats": null
        })),
        none
    );
    let some = accepts::<Optional>(&json!({
        "name": "", "count": 0, "ratio": 0.25, "flag": false, "color": "Red",
        "colors": [], "seats": ["terrace", "bar"]
    }));
    assert_eq!(
        some,
        Optional {
            name: Some(String::new()),
            count: Some(0),
            ratio: Some(0.25),
            flag: Some(false),
            color: Some(Color::Red),
            colors: Some(vec![]),
            seats: Some(HashSet::from([Seating::Terrace, Seating::Bar])),
        }
    );
    // An optional field, once answered, must be valid.
    rejects::<Optional>(
        &json!({"name": 1, "count": -1, "flag": "no", "colors": [null], "seats": "bar"}),
        &[
            ("name", "must be text"),
            ("count", "must be at least 0"),
            ("flag", "must be true or false"),
            ("colors", "must list options as text, not null"),
            ("seats", "must be a list of options"),
        ],
    );
    // `None` is left out of the content, `Some` is written.
    assert_eq!(none.to_content(), Map::new());
    assert_eq!(
        Value::Object(some.to_content()),
        json!({
            "name": "", "count": 0, "ratio": 0.25, "flag": false, "color": "Red",
            "colors": [], "seats": ["terrace", "bar"]
        })
    );
}

#[test]
fn renamed_fields_use_their_wire_names() {
    let schema = serde_json::to_string(Trip::requested_schema()).unwrap();
    assert!(
        schema.contains(r#""required":["partySize","e-mail"]"#),
        "{schema}"
    );
    let trip = accepts::<Trip>(&json!({
        "partySize": 4, "when": "2024-05-01", "e-mail": "a@b.co", "type": "terrace"
    }));
    assert_eq!(
        trip,
        Trip {
            party_size: 4,
            date_of_trip: Some("2024-05-01".into()),
            email_address: "a@b.co".into(),
            r#type: Some(Seating::Terrace),
        }
    );
    // The Rust names are unknown keys.
    rejects::<Trip>(
        &json!({"party_size": 4, "date_of_trip": "nope", "email_address": "a@b.co", "emailAddress": "a@b.co"}),
        &[("partySize", "is required"), ("e-mail", "is required")],
    );
    rejects::<Trip>(
        &json!({"partySize": 256, "when": "May 1st", "e-mail": "a", "type": "Terrace"}),
        &[
            ("partySize", "must be at most 255"),
            ("when", "must be a valid date like 2024-01-31"),
            ("e-mail", "must be a valid email address"),
            ("type", "must be one of `indoor-window`, `terrace`, `bar`"),
        ],
    );
    assert_eq!(
        accepts::<Loud>(&json!({"FIRST-NAME": "Ada", "ROOM-NUMBER": 12})),
        Loud {
            first_name: "Ada".into(),
            room_number: 12
        }
    );
    rejects::<Loud>(
        &json!({"first_name": "Ada", "ROOM-NUMBER": 0, "room-number": 12}),
        &[
            ("FIRST-NAME", "is required"),
            ("ROOM-NUMBER", "must be at least 1"),
        ],
    );
}

#[test]
fn unknown_keys_are_ignored() {
    let mut content = kinds_json();
    let map = content.as_object_mut().unwrap();
    map.insert("unknown".into(), json!({"deep": [1, 2, {"x": null}]}));
    map.insert("".into(), json!(null));
    map.insert("Text".into(), json!(1));
    map.insert("TEXT".into(), json!([]));
    map.insert(" text".into(), json!(false));
    map.insert("__proto__".into(), json!({"text": 1}));
    assert_eq!(accepts::<Kinds>(&content), kinds());
    let many = (0..10_000).map(|i| (format!("extra{i}"), json!(i)));
    let mut content = kinds_json();
    content.as_object_mut().unwrap().extend(many);
    assert_eq!(accepts::<Kinds>(&content), kinds());
}

#[test]
fn several_errors_come_in_declaration_order() {
    let content = json!({
        "omega": ["Red", "Blue"], "gamma": "yes", "beta": "Pink", "mid": 9,
        "alpha": "", "zeta": 1, "aardvark": "ignored"
    });
    rejects::<Order>(
        &content,
        &[
            ("zeta", "must be text"),
            ("alpha", "must be at least 1 character long"),
            ("mid", "must be at most 5"),
            ("beta", "must be one of `Red`, `Green`, `Blue`"),
            ("omega", "must choose at most 1 option"),
            ("gamma", "must be true or false"),
        ],
    );
    rejects::<Order>(
        &json!({"gamma": true, "mid": 0}),
        &[
            ("zeta", "is required"),
            ("alpha", "is required"),
            ("mid", "must be at least 1"),
            ("beta", "is required"),
            ("omega", "is required"),
        ],
    );
}

#[test]
fn display_of_several_errors() {
    let err = Order::from_content(&json!({"alpha": "", "mid": 6, "beta": "Red", "omega": []}))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid form content: `zeta` is required; `alpha` must be at least 1 character long; \
         `mid` must be at most 5"
    );
    let err = Order::from_content(&json!("x")).unwrap_err();
    assert_eq!(err.to_string(), "invalid form content: must be an object");
}

#[test]
fn content_that_is_not_an_object() {
    for content in [
        json!(null),
        json!([]),
        json!([{"zeta": "a"}]),
        json!("x"),
        json!(""),
        json!(3),
        json!(-1.5),
        json!(true),
    ] {
        for err in [
            Kinds::from_content(&content).unwrap_err(),
            Order::from_content(&content).unwrap_err(),
            Defaults::from_content(&content).unwrap_err(),
            Optional::from_content(&content).unwrap_err(),
        ] {
            assert_eq!(
                pairs(&err),
                owned(&[("", "must be an object")]),
                "{content}"
            );
            assert!(err.errors()[0].is_root());
        }
        // Even a form that needs nothing wants an object.
        assert_eq!(
            Defaults::requested_schema().validate(&content).unwrap_err(),
            Defaults::from_content(&content).unwrap_err()
        );
    }
}
