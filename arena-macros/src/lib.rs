//! `#[derive(Arena)]`: parse -> check -> expand. Use it through the `arena`
//! crate, which documents the attribute language.

mod attr;
mod expand;
mod formula;
mod model;

use proc_macro::TokenStream;

/// Derives an arena's sizing, total, layout, metadata and typed views from
/// `#[arena(...)]` attributes. See the `arena` crate for the reference.
#[proc_macro_derive(Arena, attributes(arena))]
pub fn derive_arena(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input).into()
}

#[cfg(test)]
mod snapshot {
    //! The expansion of the quickstart arena, formatted and checked in, so a
    //! reviewer reads the generated code without cargo-expand.
    //! `ARENA_BLESS=1 cargo test -p arena-macros snapshot` regenerates it.

    use std::path::Path;

    #[test]
    fn quickstart_expansion_matches_the_snapshot() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let source = std::fs::read_to_string(root.join("examples/quickstart.rs")).unwrap();
        let file = syn::parse_file(&source).unwrap();
        let input = file
            .items
            .iter()
            .find_map(|item| match item {
                syn::Item::Struct(s) if s.ident == "Scratch" => Some(s.clone()),
                _ => None,
            })
            .expect("examples/quickstart.rs defines `Scratch`");
        let derive: syn::DeriveInput = syn::parse_quote!(#input);
        let expanded = crate::expand::derive(&derive);
        let formatted = prettyplease::unparse(&syn::parse2(expanded).unwrap());
        let text = format!(
            "// The code `#[derive(Arena)]` generates for `Scratch` in examples/quickstart.rs.\n// Regenerate: ARENA_BLESS=1 cargo test -p arena-macros snapshot\n\n{formatted}"
        );
        let path = root.join("tests/expand/quickstart.expanded.rs");
        if std::env::var_os("ARENA_BLESS").is_some() {
            std::fs::write(&path, &text).unwrap();
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            expected == text,
            "the expansion changed; review it and regenerate with ARENA_BLESS=1\n--- new expansion ---\n{text}"
        );
    }
}
