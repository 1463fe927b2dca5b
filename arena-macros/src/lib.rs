//! `#[derive(Arena)]`: parse -> check -> expand. Use it through the `arena`
//! crate, which documents the attribute language.

#![warn(missing_docs)]

mod attr;
mod expand;
mod formula;
mod infer;
mod model;
mod monotone;

use proc_macro::TokenStream;

/// Derives an arena's sizing, total, layout, metadata and typed views from
/// `#[arena(...)]` attributes. See the `arena` crate for the reference.
#[proc_macro_derive(Arena, attributes(arena, size, lever))]
pub fn derive_arena(input: TokenStream) -> TokenStream {
    // The walks of a formula recurse once per level of its tree (a chain of
    // 10,000 terms is 10,000 levels): on a stack of their own, on this
    // thread, so rustc's stack is never the limit (the parser bounds the
    // nesting, `formula::parse::MAX_NESTING`).
    stacker::grow(DERIVE_STACK, || {
        let input = syn::parse_macro_input!(input as syn::DeriveInput);
        expand::derive(&input).into()
    })
}

/// The derive's stack: reserved, and only touched as deep as it is used. The
/// longest and deepest formulas allowed (16,384 operators, 4,096 nested
/// parentheses) need between 32 and 64 MiB in an unoptimised build of the
/// macro: twice that.
const DERIVE_STACK: usize = 128 << 20;

#[cfg(test)]
mod snapshot {
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
        check("tests/phases.rs", "Pass", "phases.expanded.rs");
    }

    #[test]
    fn runtime_dtype_expansion_matches_the_snapshot() {
        check(
            "examples/dtype_from_config.rs",
            "Activations",
            "dtype_from_config.expanded.rs",
        );
    }
}

#[cfg(test)]
mod expand_files {
    //! For `scripts/build-cost.sh`: writes a copy of a source file with every
    //! `#[derive(Arena)]` replaced by the code it generates, formatted.
    //! `ARENA_EXPAND_IN=src.rs ARENA_EXPAND_OUT=out.rs cargo test -p arena-macros expand_files`

    use syn::punctuated::Punctuated;

    fn is_arena_derive(attr: &syn::Attribute) -> bool {
        attr.path().is_ident("derive")
            && attr
                .parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
                .is_ok_and(|paths| paths.iter().any(|p| p.is_ident("Arena")))
    }

    fn strip(attrs: &mut Vec<syn::Attribute>) {
        attrs.retain(|a| !a.path().is_ident("arena"));
        for a in attrs.iter_mut() {
            if is_arena_derive(a) {
                let rest: Vec<syn::Path> = a
                    .parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
                    .unwrap()
                    .into_iter()
                    .filter(|p| !p.is_ident("Arena"))
                    .collect();
                *a = syn::parse_quote!(#[derive(#(#rest),*)]);
            }
        }
    }

    #[test]
    fn expand_files() {
        let (Some(input), Some(output)) = (
            std::env::var_os("ARENA_EXPAND_IN"),
            std::env::var_os("ARENA_EXPAND_OUT"),
        ) else {
            return;
        };
        let mut file = syn::parse_file(&std::fs::read_to_string(input).unwrap()).unwrap();
        let mut generated = Vec::new();
        for item in &mut file.items {
            if let syn::Item::Struct(s) = item
                && s.attrs.iter().any(is_arena_derive)
            {
                let input: syn::DeriveInput = syn::parse_quote!(#s);
                let tokens = crate::expand::derive(&input);
                generated.extend(syn::parse2::<syn::File>(tokens).unwrap().items);
                strip(&mut s.attrs);
                for f in &mut s.fields {
                    f.attrs.retain(|a| {
                        !["arena", "size", "lever"]
                            .iter()
                            .any(|k| a.path().is_ident(k))
                    });
                }
            }
        }
        file.items.extend(generated);
        std::fs::write(output, prettyplease::unparse(&file)).unwrap();
    }
}
