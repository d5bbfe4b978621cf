//! Decoding + validating a 10-field form answer, beside what a Rust user would otherwise write.
//!
//! Group `form_decode_10_fields`, every function over the same answer value:
//! - `elicit_from_content`: `Signup::from_content(&value)`, decode plus every schema check;
//! - `serde_from_value_only`: `serde_json::from_value::<SignupSerde>(value)` with no validation,
//!   the input cloned outside the timed routine (criterion `iter_batched`);
//! - `serde_from_value_with_clone`: the same with `value.clone()` inside the timed routine, the
//!   cost for a caller that only holds `&Value` and uses `from_value`;
//! - `serde_from_value_ref`: `SignupSerde::deserialize(&value)` (`&Value` is a `Deserializer`),
//!   no clone, no validation;
//! - `serde_plus_jsonschema`: a `jsonschema` validator built once from the derive's own
//!   `requestedSchema` (formats checked), then per iteration `validator.validate(&value)` plus
//!   `SignupSerde::deserialize(&value)`;
//! - `jsonschema_is_valid_only` / `elicit_schema_validate_only`: validation alone, to split the
//!   cost of checking from the cost of building the value;
//! - `requested_schema_cached`: `Signup::requested_schema()` after the first call.
//!
//! Group `form_decode_10_fields_parts` times pieces of `elicit_from_content` on their own (the
//! 10 content lookups, the 10 property checks, the email format check) to show where it spends.
//!
//! Every routine drops what it produced inside the timed region, so each one pays for the
//! allocations it makes and the ones it frees.
//!
//! Allocation check for `requested_schema()`: counting allocations needs a `#[global_allocator]`
//! wrapper, and implementing `GlobalAlloc` takes an `unsafe impl`, which this codebase does not
//! allow. Instead: the derive stores the schema in a `static OnceLock`, whose `get_or_init` after
//! the first call is one atomic load returning a reference, with no allocation. Before timing
//! anything, `form_decode` asserts that two calls return the same address (`std::ptr::eq`), and
//! `requested_schema_cached` measures the call. To count allocations from outside the process,
//! run the bench binary under `valgrind --tool=dhat … --bench --profile-time N
//! requested_schema_cached` for two values of N: the block totals do not grow with N.
//!
//! Run: `cargo bench -p elicit-runtime --bench form_decode -- --warm-up-time 1 --measurement-time 3`
//!
//! Instruction counts per call (independent of machine load): see `support/mod.rs`
//! (`ELICIT_BENCH_COUNT=<routine>:<n>` under `valgrind --tool=callgrind`; every routine above
//! except `serde_from_value_only`, which needs criterion's batching).
//!
//! Ratios on a loaded machine: `ELICIT_BENCH_PAIRED=<rounds>` times `elicit_from_content`
//! against `serde_from_value_ref`, `serde_from_value_only` and `serde_from_value_with_clone`,
//! `serde_plus_jsonschema` against `elicit_from_content`, and `jsonschema_is_valid_only`
//! against `elicit_schema_validate_only`, in alternating batches (see `support/mod.rs`).

mod support;

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use elicit_runtime::schema::{PropertySchema, is_valid_email};
use elicit_runtime::{ElicitEnum, ElicitForm};
use serde::Deserialize;
use serde_json::{Value, json};

/// The plan being signed up for: a titled single-select (`oneOf` of `{const, title}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ElicitEnum, Deserialize)]
#[elicit(rename_all = "kebab-case", doc_titles)]
#[serde(rename_all = "kebab-case")]
enum Plan {
    /// Free, up to 3 seats
    Free,
    /// Team, billed monthly
    Team,
    /// Enterprise, with SSO
    Enterprise,
}

/// Topics of interest: an untitled multi-select (`items.enum`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ElicitEnum, Deserialize)]
#[elicit(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
enum Topic {
    Billing,
    Security,
    Performance,
    Api,
    Mobile,
}

/// Tell us about your team so we can set up the workspace.
#[derive(Debug, PartialEq, ElicitForm)]
#[elicit(rename_all = "camelCase")]
struct Signup {
    /// Your full name
    #[elicit(title = "Name", min_length = 2, max_length = 60)]
    full_name: String,
    #[elicit(title = "Work email", format = "email", max_length = 254)]
    email: String,
    #[elicit(title = "Company", min_length = 1, max_length = 100)]
    company: String,
    #[elicit(title = "Age", minimum = 18, maximum = 120)]
    age: u8,
    /// How many people will use the workspace
    #[elicit(minimum = 1, maximum = 500)]
    seats: u32,
    /// Monthly budget in euros
    #[elicit(minimum = 0, maximum = 1_000_000)]
    budget: f64,
    #[elicit(title = "Send me the newsletter")]
    newsletter: bool,
    #[elicit(title = "Plan")]
    plan: Plan,
    #[elicit(title = "Topics", min_items = 1, max_items = 3)]
    topics: Vec<Topic>,
    /// Who referred you, if anyone
    #[elicit(max_length = 40)]
    referral_code: Option<String>,
}

/// The struct a user would write for `serde_json::from_value`: same fields and wire names,
/// no validation at all.
#[derive(Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SignupSerde {
    full_name: String,
    email: String,
    company: String,
    age: u8,
    seats: u32,
    budget: f64,
    newsletter: bool,
    plan: Plan,
    topics: Vec<Topic>,
    referral_code: Option<String>,
}

/// A realistic accepted answer to the form: every field answered, all constraints met.
fn answer() -> Value {
    json!({
        "fullName": "Ada Lovelace",
        "email": "ada.lovelace@analytical-engines.co.uk",
        "company": "Analytical Engines Ltd",
        "age": 36,
        "seats": 25,
        "budget": 1499.5,
        "newsletter": true,
        "plan": "team",
        "topics": ["security", "api"],
        "referralCode": "BABBAGE-1837"
    })
}

/// Checks, once, that every contender accepts the answer and agrees on what it means.
fn check_agreement(value: &Value, validator: &jsonschema::Validator) {
    let ours = Signup::from_content(value).expect("the answer satisfies the form");
    let theirs = SignupSerde::deserialize(value).expect("serde decodes the answer");
    let owned: SignupSerde = serde_json::from_value(value.clone()).expect("serde decodes it");
    assert_eq!(theirs, owned);
    assert_eq!(
        (
            &ours.full_name,
            &ours.email,
            &ours.company,
            ours.age,
            ours.seats,
            ours.budget,
            ours.newsletter,
            ours.plan,
            &ours.topics,
            &ours.referral_code,
        ),
        (
            &theirs.full_name,
            &theirs.email,
            &theirs.company,
            theirs.age,
            theirs.seats,
            theirs.budget,
            theirs.newsletter,
            theirs.plan,
            &theirs.topics,
            &theirs.referral_code,
        )
    );
    assert!(validator.is_valid(value), "jsonschema accepts the answer");
    assert!(Signup::requested_schema().validate(value).is_ok());
    // Both validators refuse the same bad answer (an email that is not one, too many topics).
    let mut bad = value.clone();
    bad["email"] = json!("not an email");
    bad["topics"] = json!(["security", "api", "billing", "mobile"]);
    assert!(
        !validator.is_valid(&bad),
        "jsonschema refuses the bad answer"
    );
    let errors = Signup::from_content(&bad).expect_err("elicit refuses the bad answer");
    let fields: Vec<&str> = errors.errors().iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, ["email", "topics"], "{errors}");
}

fn form_decode(c: &mut Criterion) {
    let value = answer();

    // The first call builds the schema; every later call returns the same `&'static` (no work,
    // no allocation: a `static OnceLock`).
    let first = Signup::requested_schema();
    assert!(std::ptr::eq(first, Signup::requested_schema()));
    assert!(std::ptr::eq(
        black_box(Signup::requested_schema()),
        black_box(Signup::requested_schema())
    ));

    // The baseline validator is built once, outside the timed loop, from the exact schema the
    // form advertises. Formats are annotations by default in draft 2020-12; a user wanting the
    // same guarantees (here: `email`) turns their validation on.
    let schema_json = serde_json::to_value(Signup::requested_schema()).expect("schema is JSON");
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema_json)
        .expect("the requested schema is a valid JSON Schema");

    check_agreement(&value, &validator);

    let elicit_from_content = || Signup::from_content(black_box(&value));
    let serde_from_value_with_clone =
        || serde_json::from_value::<SignupSerde>(black_box(&value).clone());
    let serde_from_value_ref = || SignupSerde::deserialize(black_box(&value));
    let serde_plus_jsonschema = || {
        let value = black_box(&value);
        validator
            .validate(value)
            .map_err(|e| e.to_string())
            .and_then(|()| SignupSerde::deserialize(value).map_err(|e| e.to_string()))
    };
    let jsonschema_is_valid_only = || validator.is_valid(black_box(&value));
    let schema = Signup::requested_schema();
    let elicit_schema_validate_only = || schema.validate(black_box(&value));

    if let Some(rounds) = support::paired_rounds() {
        let owned = || {
            support::timed_with_input(
                || value.clone(),
                |owned| serde_json::from_value::<SignupSerde>(black_box(owned)),
            )
        };
        let pairs = [
            (
                ("elicit_from_content", support::timed(elicit_from_content)),
                ("serde_from_value_ref", support::timed(serde_from_value_ref)),
            ),
            (
                ("elicit_from_content", support::timed(elicit_from_content)),
                ("serde_from_value_only", owned()),
            ),
            (
                ("elicit_from_content", support::timed(elicit_from_content)),
                (
                    "serde_from_value_with_clone",
                    support::timed(serde_from_value_with_clone),
                ),
            ),
            (
                (
                    "serde_plus_jsonschema",
                    support::timed(serde_plus_jsonschema),
                ),
                ("elicit_from_content", support::timed(elicit_from_content)),
            ),
            (
                (
                    "jsonschema_is_valid_only",
                    support::timed(jsonschema_is_valid_only),
                ),
                (
                    "elicit_schema_validate_only",
                    support::timed(elicit_schema_validate_only),
                ),
            ),
        ];
        for (a, b) in pairs {
            support::paired(a, b, rounds);
        }
        return;
    }

    let mut group = c.benchmark_group("form_decode_10_fields");

    support::bench(&mut group, "elicit_from_content", elicit_from_content);

    if support::timing() {
        group.bench_function("serde_from_value_only", |b| {
            b.iter_batched(
                || value.clone(),
                |owned| {
                    drop(black_box(serde_json::from_value::<SignupSerde>(black_box(
                        owned,
                    ))));
                },
                BatchSize::SmallInput,
            );
        });
    }

    support::bench(
        &mut group,
        "serde_from_value_with_clone",
        serde_from_value_with_clone,
    );
    support::bench(&mut group, "serde_from_value_ref", serde_from_value_ref);
    support::bench(&mut group, "serde_plus_jsonschema", serde_plus_jsonschema);
    support::bench(
        &mut group,
        "jsonschema_is_valid_only",
        jsonschema_is_valid_only,
    );
    support::bench(
        &mut group,
        "elicit_schema_validate_only",
        elicit_schema_validate_only,
    );

    support::bench(&mut group, "requested_schema_cached", || {
        black_box(Signup::requested_schema())
    });

    group.finish();
}

/// Where `elicit_from_content` spends its time: the pieces it is made of, over the same answer.
fn form_decode_parts(c: &mut Criterion) {
    if support::paired_rounds().is_some() {
        return;
    }
    let value = answer();
    let content = value.as_object().expect("the answer is an object");
    let schema = Signup::requested_schema();
    let answered: Vec<(&PropertySchema, &Value)> = schema
        .properties
        .iter()
        .map(|(name, property)| (property, &content[name.as_str()]))
        .collect();
    let email = value["email"].as_str().expect("the email is text");

    let mut group = c.benchmark_group("form_decode_10_fields_parts");

    // The 10 `content.get(name)` lookups (a `BTreeMap<String, Value>` without `preserve_order`).
    support::bench(&mut group, "content_get_x10", || {
        for (name, _) in &black_box(schema).properties {
            black_box(black_box(content).get(name.as_str()));
        }
    });

    // The 10 `PropertySchema::check` calls, values already looked up.
    support::bench(&mut group, "property_check_x10", || {
        for (property, value) in black_box(&answered) {
            let _ = black_box(property.check(value));
        }
    });

    // The one `format: "email"` check inside the above.
    support::bench(&mut group, "is_valid_email", || {
        is_valid_email(black_box(email))
    });

    group.finish();
}

criterion_group!(benches, form_decode, form_decode_parts);
criterion_main!(benches);
