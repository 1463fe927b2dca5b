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
mod snapshot;

#[cfg(test)]
mod expand_files;
