//! What one form costs a host, from the server's request to the answer read back: a maximal
//! form (at every cap of `elicit_host::limits`: 256 fields, 4,096 options in a single and in a
//! multi-select whose default is every option, 16 KiB message, title, description and answers,
//! just under 1 MiB in all) beside a typical one (five fields, the baseline), each through:
//!
//! - `parse`: `Elicitation::from_params` (the limits, the grammar, every default checked);
//! - `render`: `FormInput::new` and `html::form`, the page with the defaults;
//! - `read`: `html::read` of what a browser posts on Send (every option ticked, every text at
//!   the text cap), the answer checked by the server's rules;
//! - `all`: the three in a row, what one question costs the host's thread.
//!
//! Run: `cargo bench -p elicit-host --bench form_cost`
//!
//! Measured with `cargo bench -p elicit-host --bench form_cost -- --warm-up-time 1
//! --measurement-time 3` on the development machine (2 shared cores, other builds running;
//! criterion's estimate, its 95% interval in the log):
//!
//! | group     | parse   | render  | read    | all     |
//! |-----------|---------|---------|---------|---------|
//! | `typical` | 8.5 µs  | 10.9 µs | 6.2 µs  | 23.7 µs |
//! | `maximal` | 7.7 ms  | 11.4 ms | 15.6 ms | 32.7 ms |
//!
//! The worst case a server can make a host pay for one question is the `maximal` row, about
//! 33 ms: every step is linear in the form's size, and a larger request is refused before it
//! is parsed. (Before the limits and the indexes, a multi-select of 96,000 options with every
//! one as its default took a minute to parse, and a 91 kB form 26 s to read one answer.)

#[path = "../tests/support/forms.rs"]
mod forms;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use elicit_host::{Elicitation, FormInput, FormModel, html};
use serde_json::Value;

fn form(params: &Value) -> FormModel {
    match Elicitation::from_params(params).expect("within the limits") {
        Elicitation::Form(form) => form,
        Elicitation::Url(_) => unreachable!("a form"),
    }
}

fn bench(c: &mut Criterion) {
    for (name, params) in [("typical", forms::typical()), ("maximal", forms::maximal())] {
        let model = form(&params);
        let posted = forms::post(&model);
        assert!(
            html::read(&model, posted.clone()).is_ok(),
            "{name} is accepted"
        );
        let mut group = c.benchmark_group(name);
        if name == "maximal" {
            group.sample_size(20);
        }
        group.bench_function("parse", |b| {
            b.iter(|| Elicitation::from_params(black_box(&params)))
        });
        group.bench_function("render", |b| {
            b.iter(|| html::form("Desk", &FormInput::new(black_box(&model)), "/answer", &[]))
        });
        group.bench_function("read", |b| {
            b.iter(|| html::read(black_box(&model), posted.clone()))
        });
        group.bench_function("all", |b| {
            b.iter(|| {
                let model = form(black_box(&params));
                let page = html::form("Desk", &FormInput::new(&model), "/answer", &[]);
                (page, html::read(&model, posted.clone()))
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
