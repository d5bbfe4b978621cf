//! Runnable examples of `elicit`: see the `examples/` and `src/bin/` folders.
