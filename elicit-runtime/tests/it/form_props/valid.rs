//! Valid content, one strategy per field.

use super::*;

/// A field's entry: `None` leaves the key out.
type Entry = Option<Json>;

/// A whole number as a JSON integer or as a whole float (only where the float is exact).
fn whole(n: i64) -> BoxedStrategy<Json> {
    if n.unsigned_abs() <= 1 << 53 {
        prop_oneof![Just(Json::from(n)), Just(Json::from(n as f64))].boxed()
    } else {
        Just(Json::from(n)).boxed()
    }
}

/// Absent or `null` (both mean "not answered"), or one of `answers`.
fn unanswered_or(answers: impl Strategy<Value = Json> + 'static) -> BoxedStrategy<Entry> {
    prop_oneof![
        1 => Just(None),
        1 => Just(Some(Json::Null)),
        3 => answers.prop_map(Some),
    ]
    .boxed()
}

/// A subset of `options` in random order, of `len` items.
fn choose(
    options: &'static [&'static str],
    len: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Json> {
    prop::sample::subsequence(options.to_vec(), len)
        .prop_shuffle()
        .prop_map(|items| Json::Array(items.into_iter().map(Json::from).collect()))
}

fn object(entries: Vec<(&str, Entry)>) -> Json {
    Json::Object(
        entries
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
            .collect(),
    )
}

pub(super) fn valid_rich() -> impl Strategy<Value = Json> {
    let email = "[a-z0-9]{1,8}(\\.[a-z0-9]{1,4})?@[a-z]{1,6}\\.(com|org|io)".prop_map(Json::from);
    let guests = (1i64..=12).prop_flat_map(whole);
    let offset = prop_oneof![
        any::<i64>().prop_map(Json::from),
        (-(1i64 << 53)..=(1 << 53)).prop_flat_map(whole),
        Just(Json::from(i64::MIN as f64)),
    ];
    let ratio = prop_oneof![
        (-1.5f64..=100.0).prop_map(Json::from),
        (-1i64..=100).prop_flat_map(whole),
        Just(json!(-1.5)),
        Just(json!(100)),
    ];
    let nickname = unanswered_or("\\PC{0,20}".prop_map(Json::from));
    let color = prop::sample::select(&COLORS[..]).prop_map(Json::from);
    let extras = choose(&COLORS, 1..=2);
    let nights = unanswered_or((0i64..=30).prop_flat_map(whole));
    (
        (email, guests, offset, ratio, any::<bool>()),
        (nickname, color, extras, nights),
    )
        .prop_map(
            |((email, guests, offset, ratio, vip), (nickname, color, extras, nights))| {
                object(vec![
                    ("emailAddress", Some(email)),
                    ("guests", Some(guests)),
                    ("offset", Some(offset)),
                    ("ratio", Some(ratio)),
                    ("vip", Some(Json::Bool(vip))),
                    ("nickname", nickname),
                    ("color", Some(color)),
                    ("extras", Some(extras)),
                    ("nights", nights),
                ])
            },
        )
}

fn date() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..=9999, 1u32..=12, 1u32..=28).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}")),
        prop::sample::select(vec!["2024-02-29", "2000-02-29", "1999-12-31", "2023-04-30"])
            .prop_map(str::to_owned),
    ]
}

pub(super) fn valid_loose() -> impl Strategy<Value = Json> {
    let day = unanswered_or(date().prop_map(Json::from));
    // Seconds up to 59, and leap seconds where they happen: 23:59:60 UTC.
    let leap = (
        date(),
        prop::sample::select(vec!["23:59:60Z", "15:59:60.5-08:00"]),
    )
        .prop_map(|(d, t)| Json::from(format!("{d}T{t}")));
    let at = unanswered_or(prop_oneof![
        1 => leap,
        9 => (
            date(),
            0u32..24,
            0u32..60,
            0u32..60,
            prop::option::of("[0-9]{1,6}"),
            prop_oneof![
                Just("Z".to_owned()),
                "[+-](0[0-9]|1[0-9]|2[0-3]):[0-5][0-9]"
            ],
        )
            .prop_map(|(d, h, m, s, frac, zone)| {
                let frac = frac.map(|f| format!(".{f}")).unwrap_or_default();
                Json::from(format!("{d}T{h:02}:{m:02}:{s:02}{frac}{zone}"))
            }),
    ]);
    let link =
        unanswered_or("(https|http|ftp)://[a-z]{1,9}\\.com/[a-z0-9]{0,8}".prop_map(Json::from));
    let ratio = unanswered_or(
        any::<f32>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| Json::from(f64::from(f))),
    );
    let small = unanswered_or((-5i64..=5).prop_flat_map(whole));
    let big = unanswered_or(prop_oneof![
        (0..=i64::MAX).prop_map(Json::from),
        (0i64..=1 << 53).prop_flat_map(whole),
    ]);
    let whole_field = prop_oneof![
        any::<u32>().prop_map(Json::from),
        any::<u32>().prop_map(|u| Json::from(f64::from(u))),
    ];
    let tree = unanswered_or(choose(&HEXES, 0..=2));
    let seats = choose(&SEATINGS, 0..=3);
    let flag = unanswered_or(any::<bool>().prop_map(Json::Bool));
    let label = unanswered_or("\\PC{1,10}".prop_map(Json::from));
    let seating = unanswered_or(prop::sample::select(&SEATINGS[..]).prop_map(Json::from));
    let share = unanswered_or(prop_oneof![
        (0.0f64..=1.0).prop_map(Json::from),
        (0i64..=1).prop_flat_map(whole),
    ]);
    let spare = unanswered_or((0i64..=9).prop_flat_map(whole));
    (
        (day, at, link, ratio, small, big, whole_field),
        (tree, seats, flag, label, seating, share, spare),
    )
        .prop_map(
            |(
                (day, at, link, ratio, small, big, whole),
                (tree, seats, flag, label, seating, share, spare),
            )| {
                object(vec![
                    ("day", day),
                    ("at", at),
                    ("link", link),
                    ("ratio", ratio),
                    ("small", small),
                    ("big", big),
                    ("whole", Some(whole)),
                    ("tree", tree),
                    ("seats", Some(seats)),
                    ("flag", flag),
                    ("label", label),
                    ("seating", seating),
                    ("share", share),
                    ("spare", spare),
                ])
            },
        )
}
