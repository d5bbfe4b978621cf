//! Numbers.

use super::*;

#[test]
fn integer_minimum_and_maximum() {
    for (ok, expected) in [(json!(18), 18), (json!(18.0), 18), (json!(99), 99)] {
        assert_eq!(accepts::<Bounds>(&json!({ "age": ok })).age, Some(expected));
    }
    rejects::<Bounds>(&json!({"age": 17}), &[("age", "must be at least 18")]);
    rejects::<Bounds>(&json!({"age": 17.0}), &[("age", "must be at least 18")]);
    rejects::<Bounds>(&json!({"age": 0}), &[("age", "must be at least 18")]);
    rejects::<Bounds>(&json!({"age": -1}), &[("age", "must be at least 18")]);
    rejects::<Bounds>(&json!({"age": 100}), &[("age", "must be at most 99")]);
    rejects::<Bounds>(&json!({"age": 256}), &[("age", "must be at most 99")]);
    // Not whole wins over out of range.
    rejects::<Bounds>(&json!({"age": 17.5}), &[("age", "must be a whole number")]);

    assert_eq!(accepts::<Bounds>(&json!({"offset": -10})).offset, Some(-10));
    assert_eq!(accepts::<Bounds>(&json!({"offset": 10.0})).offset, Some(10));
    rejects::<Bounds>(
        &json!({"offset": -11}),
        &[("offset", "must be at least -10")],
    );
    rejects::<Bounds>(&json!({"offset": 11}), &[("offset", "must be at most 10")]);
    rejects::<Bounds>(
        &json!({"offset": i64::MIN}),
        &[("offset", "must be at least -10")],
    );
    rejects::<Bounds>(
        &json!({"offset": u64::MAX}),
        &[("offset", "must be at most 10")],
    );

    // A user minimum replaces the advertised 0 of `u64`.
    rejects::<Bounds>(&json!({"count": 0}), &[("count", "must be at least 1")]);
    rejects::<Bounds>(&json!({"count": -1}), &[("count", "must be at least 1")]);
    assert_eq!(
        accepts::<Bounds>(&json!({"count": i64::MAX})).count,
        Some(i64::MAX as u64)
    );
    rejects::<Bounds>(&json!({"debt": 1}), &[("debt", "must be at most 0")]);
    assert_eq!(
        accepts::<Bounds>(&json!({"debt": i32::MIN})).debt,
        Some(i32::MIN)
    );
    rejects::<Bounds>(
        &json!({"debt": i64::from(i32::MIN) - 1}),
        &[("debt", "must be at least -2147483648")],
    );
}

#[test]
fn float_minimum_and_maximum() {
    for (ok, expected) in [
        (json!(0.5), 0.5),
        (json!(99.5), 99.5),
        (json!(1), 1.0),
        (json!(42.25), 42.25),
    ] {
        assert_eq!(
            accepts::<Bounds>(&json!({ "score": ok })).score,
            Some(expected)
        );
    }
    rejects::<Bounds>(
        &json!({"score": 0.49}),
        &[("score", "must be at least 0.5")],
    );
    rejects::<Bounds>(&json!({"score": 0}), &[("score", "must be at least 0.5")]);
    rejects::<Bounds>(
        &json!({"score": -1e308}),
        &[("score", "must be at least 0.5")],
    );
    rejects::<Bounds>(
        &json!({"score": 99.51}),
        &[("score", "must be at most 99.5")],
    );
    rejects::<Bounds>(&json!({"score": 100}), &[("score", "must be at most 99.5")]);
    rejects::<Bounds>(
        &json!({"score": u64::MAX}),
        &[("score", "must be at most 99.5")],
    );
    rejects::<Bounds>(
        &json!({"percent": -0.001}),
        &[("percent", "must be at least 0")],
    );
    rejects::<Bounds>(
        &json!({"percent": 100.001}),
        &[("percent", "must be at most 100")],
    );
    assert_eq!(
        accepts::<Bounds>(&json!({"percent": -0.0})).percent,
        Some(0.0)
    );
    assert_eq!(
        accepts::<Bounds>(&json!({"percent": 100})).percent,
        Some(100.0)
    );
    assert_eq!(
        accepts::<Bounds>(&json!({"ratio": -1.25})).ratio,
        Some(-1.25)
    );
    rejects::<Bounds>(
        &json!({"ratio": -1.26}),
        &[("ratio", "must be at least -1.25")],
    );
    // The user's minimum replaces -f32::MAX; the maximum stays f32::MAX.
    let f32_max = Number::from_f64(3.4028235e38).unwrap();
    rejects::<Bounds>(
        &json!({"ratio": 1e39}),
        &[("ratio", format!("must be at most {f32_max}").as_str())],
    );
}

/// `(field, value, reason)` for every value outside a Rust type's range.
fn out_of_type_range() -> Vec<(&'static str, Value, String)> {
    let f32_max = Number::from_f64(3.4028235e38).unwrap();
    let f32_min = Number::from_f64(-3.4028235e38).unwrap();
    let mut cases = vec![
        ("i8", json!(128), "must be at most 127".to_owned()),
        ("i8", json!(-129), "must be at least -128".to_owned()),
        ("u8", json!(256), "must be at most 255".to_owned()),
        ("u8", json!(256.0), "must be at most 255".to_owned()),
        ("u8", json!(-1), "must be at least 0".to_owned()),
        ("i16", json!(32768), "must be at most 32767".to_owned()),
        ("i16", json!(-32769), "must be at least -32768".to_owned()),
        ("u16", json!(65536), "must be at most 65535".to_owned()),
        ("u16", json!(-1), "must be at least 0".to_owned()),
        (
            "i32",
            json!(2_147_483_648u64),
            "must be at most 2147483647".to_owned(),
        ),
        (
            "i32",
            json!(-2_147_483_649i64),
            "must be at least -2147483648".to_owned(),
        ),
        (
            "u32",
            json!(4_294_967_296u64),
            "must be at most 4294967295".to_owned(),
        ),
        ("u32", json!(-1), "must be at least 0".to_owned()),
        ("u32", json!(-0.5), "must be a whole number".to_owned()),
        ("f32", json!(1e39), format!("must be at most {f32_max}")),
        ("f32", json!(-1e39), format!("must be at least {f32_min}")),
    ];
    // Every whole number lives in the 64-bit signed range, `u64` and `usize` included.
    for field in ["i64", "isize", "u64", "usize"] {
        let unsigned = field.starts_with('u');
        cases.push((
            field,
            json!(u64::MAX),
            "must be at most 9223372036854775807".to_owned(),
        ));
        cases.push((
            field,
            json!(i64::MAX as u64 + 1),
            "must be at most 9223372036854775807".to_owned(),
        ));
        cases.push((
            field,
            json!(9.3e18),
            "must be at most 9223372036854775807".to_owned(),
        ));
        cases.push((
            field,
            json!(-1e19),
            if unsigned {
                "must be at least 0"
            } else {
                "must be at least -9223372036854775808"
            }
            .to_owned(),
        ));
    }
    cases.push(("u64", json!(-1), "must be at least 0".to_owned()));
    cases.push(("usize", json!(i64::MIN), "must be at least 0".to_owned()));
    cases
}

#[test]
fn rust_type_ranges() {
    for (field, value, reason) in out_of_type_range() {
        rejects::<Ranges>(&one(field, value), &[(field, reason.as_str())]);
    }
    let ok = accepts::<Ranges>(&json!({
        "i8": -128, "u8": 255, "i16": 32767, "u16": 0, "i32": -2_147_483_648i64,
        "u32": 4_294_967_295u64, "i64": i64::MIN, "u64": i64::MAX, "isize": i64::MAX,
        "usize": 0, "f32": f64::from(f32::MAX), "f64": -1e308
    }));
    assert_eq!(
        ok,
        Ranges {
            i8: Some(-128),
            u8: Some(255),
            i16: Some(32767),
            u16: Some(0),
            i32: Some(i32::MIN),
            u32: Some(u32::MAX),
            i64: Some(i64::MIN),
            u64: Some(i64::MAX as u64),
            isize: Some(isize::MAX),
            usize: Some(0),
            f32: Some(f32::MAX),
            f64: Some(-1e308),
        }
    );
    // The schema advertises the ranges of the narrow types.
    let schema = serde_json::to_value(Ranges::requested_schema()).unwrap();
    let props = &schema["properties"];
    assert_eq!(
        props["u8"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        props["i32"],
        json!({"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX})
    );
    assert_eq!(props["u64"], json!({"type": "integer", "minimum": 0}));
    assert_eq!(props["i64"], json!({"type": "integer"}));
    assert_eq!(props["f64"], json!({"type": "number"}));
    assert_eq!(
        props["f32"],
        json!({"type": "number", "minimum": -3.4028235e38, "maximum": 3.4028235e38})
    );
}

#[test]
fn whole_floats_are_integers_and_fractions_are_not() {
    for field in INTEGER_FIELDS {
        for (value, expected) in [
            (json!(3.0), 3),
            (json!(0.0), 0),
            (json!(-0.0), 0),
            (json!(1e2), 100),
        ] {
            let got = accepts::<Ranges>(&one(field, value));
            let mut want = NONE;
            match field {
                "i8" => want.i8 = Some(expected as i8),
                "u8" => want.u8 = Some(expected as u8),
                "i16" => want.i16 = Some(expected as i16),
                "u16" => want.u16 = Some(expected as u16),
                "i32" => want.i32 = Some(expected as i32),
                "u32" => want.u32 = Some(expected as u32),
                "i64" => want.i64 = Some(expected),
                "u64" => want.u64 = Some(expected as u64),
                "isize" => want.isize = Some(expected as isize),
                _ => want.usize = Some(expected as usize),
            }
            assert_eq!(got, want, "{field}");
        }
        for fraction in [
            json!(3.5),
            json!(-3.5),
            json!(0.1),
            json!(1e-300),
            json!(1.000_000_1),
        ] {
            rejects::<Ranges>(&one(field, fraction), &[(field, "must be a whole number")]);
        }
    }
    // A whole float as large as f64 can be exactly is still exact.
    assert_eq!(
        accepts::<Ranges>(&json!({"i64": 9.0e18})).i64,
        Some(9_000_000_000_000_000_000)
    );
    assert_eq!(
        accepts::<Ranges>(&json!({"i64": -9_223_372_036_854_775_808.0})).i64,
        Some(i64::MIN)
    );
    // 2^63 as a float is one past i64::MAX.
    rejects::<Ranges>(
        &json!({"u64": 9_223_372_036_854_775_808.0}),
        &[("u64", "must be at most 9223372036854775807")],
    );
}

#[test]
fn huge_numbers_on_every_numeric_field() {
    let f32_max = Number::from_f64(3.4028235e38).unwrap();
    let bounds: [(&str, &str, &str); 12] = [
        ("i8", "127", "-128"),
        ("u8", "255", "0"),
        ("i16", "32767", "-32768"),
        ("u16", "65535", "0"),
        ("i32", "2147483647", "-2147483648"),
        ("u32", "4294967295", "0"),
        ("i64", "9223372036854775807", "-9223372036854775808"),
        ("u64", "9223372036854775807", "0"),
        ("isize", "9223372036854775807", "-9223372036854775808"),
        ("usize", "9223372036854775807", "0"),
        ("f32", "", ""),
        ("f64", "", ""),
    ];
    for (field, max, min) in bounds {
        for (value, high) in [
            (json!(1e308), true),
            (json!(f64::MAX), true),
            (json!(u64::MAX), true),
            (json!(-1e308), false),
            (json!(f64::MIN), false),
            (json!(i64::MIN), false),
        ] {
            let content = one(field, value.clone());
            match field {
                "f64" => {
                    accepts::<Ranges>(&content);
                }
                "f32" => {
                    if value.is_f64() {
                        let reason = if high {
                            format!("must be at most {f32_max}")
                        } else {
                            format!("must be at least -{f32_max}")
                        };
                        rejects::<Ranges>(&content, &[(field, reason.as_str())]);
                    } else {
                        let got = accepts::<Ranges>(&content).f32.unwrap();
                        assert_eq!(got, value.as_f64().unwrap() as f32);
                    }
                }
                "i64" | "isize" if value == json!(i64::MIN) => {
                    // i64::MIN fits the signed 64-bit types.
                    accepts::<Ranges>(&content);
                }
                _ => {
                    let reason = if high {
                        format!("must be at most {max}")
                    } else {
                        format!("must be at least {min}")
                    };
                    rejects::<Ranges>(&content, &[(field, reason.as_str())]);
                }
            }
        }
    }
    // Tiny floats are numbers (f32 rounds them to zero) but never whole.
    assert_eq!(
        accepts::<Ranges>(&json!({"f32": 1e-300, "f64": 5e-324})),
        Ranges {
            f32: Some(0.0),
            f64: Some(5e-324),
            ..NONE
        }
    );
}
