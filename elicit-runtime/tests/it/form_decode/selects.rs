//! Selects.

use super::*;

#[test]
fn single_select_membership() {
    assert_eq!(
        accepts::<Selects>(&json!({"color": "Blue", "hex": "#00FF00", "seating": "indoor-window"})),
        Selects {
            color: Some(Color::Blue),
            hex: Some(Hex::Green),
            seating: Some(Seating::IndoorWindow),
            vec: None,
            tree: None,
            hash: None,
            any: None,
        }
    );
    rejects::<Selects>(
        &json!({"color": "blue"}),
        &[("color", "must be one of `Red`, `Green`, `Blue`")],
    );
    // Titles are labels, not answers.
    rejects::<Selects>(
        &json!({"hex": "Red"}),
        &[("hex", "must be one of `#FF0000`, `#00FF00`, `#0000FF`")],
    );
    rejects::<Selects>(
        &json!({"hex": "#ff0000"}),
        &[("hex", "must be one of `#FF0000`, `#00FF00`, `#0000FF`")],
    );
    // The Rust variant name is not the wire value.
    rejects::<Selects>(
        &json!({"seating": "IndoorWindow"}),
        &[(
            "seating",
            "must be one of `indoor-window`, `terrace`, `bar`",
        )],
    );
}

#[test]
fn multi_select_items_and_counts() {
    let got = accepts::<Selects>(&json!({
        "vec": ["Blue", "Red"], "tree": ["#0000FF", "#FF0000"], "hash": ["bar"], "any": []
    }));
    assert_eq!(got.vec, Some(vec![Color::Blue, Color::Red]));
    assert_eq!(got.tree, Some(BTreeSet::from([Hex::Red, Hex::Blue])));
    assert_eq!(got.hash, Some(HashSet::from([Seating::Bar])));
    assert_eq!(got.any, Some(vec![]));
    rejects::<Selects>(
        &json!({"vec": []}),
        &[("vec", "must choose at least 1 option")],
    );
    rejects::<Selects>(
        &json!({"vec": ["Red", "Green", "Blue"]}),
        &[("vec", "must choose at most 2 options")],
    );
    rejects::<Selects>(
        &json!({"tree": ["#FF0000"]}),
        &[("tree", "must choose at least 2 options")],
    );
    rejects::<Selects>(
        &json!({"hash": ["bar", "terrace"]}),
        &[("hash", "must choose at most 1 option")],
    );
    rejects::<Selects>(
        &json!({"tree": ["Red", "Green"]}),
        &[(
            "tree",
            "chooses `Red`, which is not one of `#FF0000`, `#00FF00`, `#0000FF`",
        )],
    );
    rejects::<Selects>(
        &json!({"hash": ["Bar"]}),
        &[(
            "hash",
            "chooses `Bar`, which is not one of `indoor-window`, `terrace`, `bar`",
        )],
    );
    // Membership is checked item by item before the count.
    rejects::<Selects>(
        &json!({"vec": ["Red", "Green", "Pink"]}),
        &[(
            "vec",
            "chooses `Pink`, which is not one of `Red`, `Green`, `Blue`",
        )],
    );
}

#[test]
fn multi_selects_refuse_duplicates() {
    rejects::<Selects>(
        &json!({"vec": ["Red", "Red"]}),
        &[("vec", "chooses `Red` more than once")],
    );
    rejects::<Selects>(
        &json!({"any": ["Red", "Green", "Blue", "Green"]}),
        &[("any", "chooses `Green` more than once")],
    );
    // A set would silently merge them; the answer is refused instead.
    rejects::<Selects>(
        &json!({"tree": ["#FF0000", "#00FF00", "#FF0000"]}),
        &[("tree", "chooses `#FF0000` more than once")],
    );
    // Duplicates are found before the count is checked.
    rejects::<Selects>(
        &json!({"hash": ["bar", "bar"]}),
        &[("hash", "chooses `bar` more than once")],
    );
    rejects::<Selects>(
        &json!({"vec": ["Blue", "Blue", "Blue"]}),
        &[("vec", "chooses `Blue` more than once")],
    );
}
