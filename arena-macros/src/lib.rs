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
