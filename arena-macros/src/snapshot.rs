//! The expansions of three small arenas, formatted and checked in, so a
//! reviewer reads the generated code without cargo-expand: the quickstart,
//! an arena with phases (its phase-scoped views) and one whose dtype is
//! chosen at run time (`DynBytes` fields and `DynView`s).
//! `ARENA_BLESS=1 cargo test -p arena-macros snapshot` regenerates them.

use std::path::Path;

/// `name` of `source` expanded, against `tests/expand/{out}`. The
/// sources and snapshots are the workspace's: in the package alone (as a
/// registry or a distribution unpacks it) they are not there, and the
/// check says so and passes.
fn check(source: &str, name: &str, out: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if !root.join("tests/expand").is_dir() {
        eprintln!("skipped: {out}: the workspace's tests/expand is not beside this package");
        return;
    }
    let text = std::fs::read_to_string(root.join(source)).unwrap();
    let file = syn::parse_file(&text).unwrap();
    let input = file
        .items
        .iter()
        .find_map(|item| match item {
            syn::Item::Struct(s) if s.ident == name => Some(s.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{source} defines `{name}`"));
    let derive: syn::DeriveInput = syn::parse_quote!(#input);
    let expanded = crate::expand::derive(&derive);
    let formatted = prettyplease::unparse(&syn::parse2(expanded).unwrap());
    let text = format!(
        "// The code `#[derive(Arena)]` generates for `{name}` in {source}.\n// Regenerate: ARENA_BLESS=1 cargo test -p arena-macros snapshot\n\n{formatted}"
    );
    let path = root.join("tests/expand").join(out);
    if std::env::var_os("ARENA_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == text,
        "the expansion of `{name}` changed; review it and regenerate with ARENA_BLESS=1\n--- new expansion ---\n{text}"
    );
}

#[test]
fn quickstart_expansion_matches_the_snapshot() {
    check(
        "examples/quickstart.rs",
        "Scratch",
        "quickstart.expanded.rs",
    );
}

#[test]
fn phased_expansion_matches_the_snapshot() {
    check("tests/integration/phases.rs", "Pass", "phases.expanded.rs");
}

#[test]
fn runtime_dtype_expansion_matches_the_snapshot() {
    check(
        "examples/dtype_from_config.rs",
        "Activations",
        "dtype_from_config.expanded.rs",
    );
}
