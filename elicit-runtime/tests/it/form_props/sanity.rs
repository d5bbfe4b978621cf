//! Sanity checks of the generators and the schemas.

use super::*;

#[test]
fn reparsed_schemas_equal_the_originals() {
    assert_eq!(&reparsed::<Rich>(), Rich::requested_schema());
    assert_eq!(&reparsed::<Loose>(), Loose::requested_schema());
    // Via a `Value` too, whose object keys are sorted: the same properties, in name order.
    assert_eq!(from_value::<Rich>(), sorted_by_name::<Rich>());
    assert_eq!(from_value::<Loose>(), sorted_by_name::<Loose>());
    // The text keeps declaration order, which is the order clients show the fields in.
    assert_eq!(
        sorted_by_name::<Rich>() == *Rich::requested_schema(),
        value_keeps_order()
    );
}

/// The content strategies must exercise both sides: accepted and refused content, and
/// refusals with several fields.
#[test]
fn content_generators_hit_both_sides() {
    fn sample<T: ElicitForm>(strategy: impl Strategy<Value = Json>) -> (usize, usize, usize) {
        let mut runner = TestRunner::deterministic();
        let (mut ok, mut one, mut many) = (0, 0, 0);
        for _ in 0..1000 {
            let content = strategy.new_tree(&mut runner).unwrap().current();
            match T::from_content(&content) {
                Ok(_) => ok += 1,
                Err(e) if e.errors().len() == 1 => one += 1,
                Err(_) => many += 1,
            }
        }
        (ok, one, many)
    }
    for (ok, one, many) in [
        sample::<Rich>(content::<Rich>(valid_rich())),
        sample::<Loose>(content::<Loose>(valid_loose())),
    ] {
        assert!(ok >= 100, "accepted {ok}/1000");
        assert!(one >= 100, "one error {one}/1000");
        assert!(many >= 100, "several errors {many}/1000");
    }
}
