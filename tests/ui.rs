//! The UI suite: one compile-fail case per error message of the derive, each
//! `.stderr` read by eye, and pass cases that must compile and run.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
