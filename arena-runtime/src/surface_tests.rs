//! Pins the public surface: the items this crate exports (at its root and
//! in its public modules, read from their `pub` lines) must be the list in
//! the crate's documentation, "What is public". An item added or removed
//! without the list changing fails here, naming it.

use std::collections::BTreeSet;

/// The source of each file whose `pub` lines make the surface, by the
/// path its items are named under.
const FILES: [(&str, &str); 5] = [
    ("", include_str!("lib.rs")),
    ("plan::", include_str!("plan/mod.rs")),
    ("fit::", include_str!("fit.rs")),
    ("checked::", include_str!("checked.rs")),
    ("device::", include_str!("device.rs")),
];

/// The names a file exports at its top level, each after `prefix`: its
/// `pub` items and the names of its `pub use` lines, but those marked
/// `#[doc(hidden)]` and `pub(crate)` ones.
fn exported(prefix: &str, source: &str) -> BTreeSet<String> {
    // Only the file's own top level: its test module ends it.
    let source = source.split("#[cfg(test)]\nmod").next().unwrap_or(source);
    let mut out = BTreeSet::new();
    let mut hidden = false;
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        // Hidden, or compiled only for rustdoc's tests.
        if line.starts_with("#[doc(hidden)]") || line.starts_with("#[cfg(doctest)]") {
            hidden = true;
            continue;
        }
        if line.starts_with("#[") || line.starts_with("///") {
            continue;
        }
        let was_hidden = std::mem::take(&mut hidden);
        let Some(rest) = line.strip_prefix("pub ") else {
            continue;
        };
        if was_hidden {
            continue;
        }
        if let Some(path) = rest.strip_prefix("use ") {
            let mut statement = path.to_string();
            while !statement.contains(';') {
                match lines.next() {
                    Some(more) => statement.push_str(more.trim()),
                    None => break,
                }
            }
            let statement = statement.trim_end_matches(';');
            let names = match statement.split_once('{') {
                Some((_, list)) => list.trim_end_matches('}').to_string(),
                None => statement.rsplit("::").next().unwrap_or("").to_string(),
            };
            for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                let name = name.rsplit(" as ").next().unwrap_or(name);
                out.insert(format!("{prefix}{name}"));
            }
            continue;
        }
        let rest = rest.trim_start_matches("const fn ");
        let words: Vec<&str> = rest.split_whitespace().collect();
        let name = match words.as_slice() {
            [
                "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "mod",
                name,
                ..,
            ] => *name,
            [name, ..] => *name,
            [] => continue,
        };
        let name: String = name
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        out.insert(format!("{prefix}{name}"));
    }
    out
}

/// The list in a crate's documentation (`lib`, its root file): the words
/// of the `text` block after the heading "What is public".
fn documented(lib: &str) -> BTreeSet<String> {
    let section = lib
        .split("//! # What is public")
        .nth(1)
        .expect("the crate documentation has a \"What is public\" section");
    let block = section
        .split("//! ```text")
        .nth(1)
        .and_then(|b| b.split("//! ```").next())
        .expect("the section lists the items in a text block");
    block
        .lines()
        .flat_map(|l| l.trim_start_matches("//!").split_whitespace())
        .map(str::to_string)
        .collect()
}

/// Fails naming every item exported but not listed in `place`'s "What is
/// public", and every one listed but not exported.
fn same(found: &BTreeSet<String>, listed: &BTreeSet<String>, place: &str) {
    let added: Vec<_> = found.difference(listed).collect();
    let removed: Vec<_> = listed.difference(found).collect();
    assert!(
        added.is_empty() && removed.is_empty(),
        "the public surface changed without the list in {place}'s \"What is public\": \
         exported but not listed {added:?}; listed but not exported {removed:?}"
    );
}

#[test]
fn the_public_items_are_the_documented_list() {
    let mut found = BTreeSet::new();
    for (prefix, source) in FILES {
        found.extend(exported(prefix, source));
    }
    same(&found, &documented(FILES[0].1), "the runtime's lib.rs");
}

#[test]
fn the_reader_sees_pub_lines_and_skips_hidden_and_crate_ones() {
    let source = "pub use a::{B, c as d};\n#[doc(hidden)]\npub use e::F;\n#[cfg(doctest)]\n#[doc = \"x\"]\npub struct Z;\npub(crate) fn g() {}\npub const fn h() {}\npub struct I<T>(T);\npub use j::\n    K;\n#[cfg(test)]\nmod tests {\npub fn l() {}\n}\n";
    let names: Vec<String> = exported("m::", source).into_iter().collect();
    assert_eq!(names, ["m::B", "m::I", "m::K", "m::d", "m::h"]);
}

/// The files of the `arena` facade whose `pub` lines make its surface: its
/// root and the `report` module (the rest it re-exports from this crate,
/// whose list the test above pins), read from the repository at run time
/// (this crate's package does not hold them).
const FACADE: [(&str, &str); 3] = [
    ("", "src/lib.rs"),
    ("report::", "src/report/mod.rs"),
    ("report::gpu::", "src/report/gpu.rs"),
];

#[test]
fn the_facade_exports_its_documented_list() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |path: &str| std::fs::read_to_string(root.join(path)).ok();
    let Some(lib) = read(FACADE[0].1) else {
        eprintln!("not applicable: the `arena` facade's sources are not beside this package");
        return;
    };
    let mut found = BTreeSet::new();
    for (prefix, path) in FACADE {
        let source = read(path).unwrap_or_else(|| panic!("the facade's {path} is missing"));
        found.extend(exported(prefix, &source));
    }
    same(&found, &documented(&lib), "the facade's src/lib.rs");
}
