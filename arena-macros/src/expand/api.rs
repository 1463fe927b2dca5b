//! The inherent API of the derived struct: `try_from_config_with`,
//! `try_step_with`, `try_from_config`, `from_config` and `total_bytes`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::Model;

use super::docs::doc_table;
use super::shapes::shapes_ident;
use super::{local, rt};

pub(super) fn param_list(m: &Model, with_defaults: bool) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mut decls = Vec::new();
    let mut call = Vec::new();
    for p in m.params() {
        let n = &p.name;
        let ty = &p.ty;
        match (&p.default, with_defaults) {
            (Some(d), false) => call.push(quote!(#d)),
            _ => {
                decls.push(quote!(#n: #ty));
                call.push(quote!(#n));
            }
        }
    }
    (decls, call)
}

pub(super) fn inherent(m: &Model, body: TokenStream) -> TokenStream {
    let ident = &m.input.ident;
    let vis = &m.input.vis;
    let (all_decls, _) = param_list(m, true);
    let all_names: Vec<_> = m.params().iter().map(|p| &p.name).collect();
    let (req_decls, req_call) = param_list(m, false);
    let req_names: Vec<_> = m
        .params()
        .iter()
        .filter(|p| p.default.is_none())
        .map(|p| &p.name)
        .collect();
    let rt = rt();
    let (levers, shapes_arg) = (local("levers"), local("shapes"));
    let table = doc_table(m);
    let with_doc = format!(
        "Sizes every field of [`{ident}`] from its formula, with levers taken from `levers`.\n\n{table}\n# Errors\n\nA [`SizeError`](::arena::SizeError) naming the field and its formula when a formula overflows, divides by zero or a lever value is malformed."
    );
    let try_doc = format!(
        "Sizes every field of [`{ident}`], reading its levers from the environment once.\n\nParameters with a default take it. See [`{ident}::try_from_config_with`] for the formulas.\n\n# Errors\n\nAs [`{ident}::try_from_config_with`]."
    );
    let shapes = shapes_ident(m);
    let step_doc = format!(
        "Sizes [`{ident}`] for one step, as [`{ident}::try_from_config_with`], and gives the step's dimensions of every buffer declared with `shape = [...]` ([`{shapes}`]), computed by the same sizing: a kernel launch reads them instead of recomputing them. The views of the step come from [`HostSlab::views_for`](::arena::HostSlab::views_for).\n\n# Errors\n\nAs [`{ident}::try_from_config_with`]."
    );
    let from_doc = format!(
        "Sizes every field of [`{ident}`], reading its levers from the environment once.\n\n# Panics\n\nWhen [`{ident}::try_from_config`] returns an error; the message names the field and its formula."
    );
    quote! {
        #[allow(non_snake_case, unused, clippy::all, clippy::pedantic)]
        impl #ident {
            #[doc = #with_doc]
            #vis fn try_from_config_with(
                #levers: &::arena::Levers,
                #(#all_decls),*
            ) -> #rt::Result<Self, ::arena::SizeError> {
                #rt::sized(|#shapes_arg| Self::__arena_build::<false, false>(#levers, #(#all_names,)* #shapes_arg))
            }

            #[doc = #step_doc]
            #vis fn try_step_with(
                #levers: &::arena::Levers,
                #(#all_decls),*
            ) -> #rt::Result<(Self, #shapes), ::arena::SizeError> {
                #rt::with_shapes(|#shapes_arg| Self::__arena_build::<false, true>(#levers, #(#all_names,)* #shapes_arg))
            }

            /// The sizing, and the slab's bytes for a parent.
            #[doc(hidden)]
            #[inline]
            #vis fn __arena_build<const __ARENA_SLAB: bool, const __ARENA_SHAPES: bool>(
                #levers: &::arena::Levers,
                #(#all_decls,)*
                #shapes_arg: &mut #shapes,
            ) -> #rt::Result<(Self, usize), ::arena::SizeError> {
                #body
            }

            #[doc = #try_doc]
            #vis fn try_from_config(#(#req_decls),*) -> #rt::Result<Self, ::arena::SizeError> {
                Self::try_from_config_with(
                    &<Self as ::arena::Arena>::levers_from_env(),
                    #(#req_call),*
                )
            }

            /// The sum a preflight reserves: every buffer but `not_in_total` ones.
            #[inline]
            #vis fn total_bytes(&self) -> usize {
                <Self as ::arena::Arena>::total_bytes(self)
            }

            #[doc = #from_doc]
            #[track_caller]
            #vis fn from_config(#(#req_decls),*) -> Self {
                #rt::or_panic(Self::try_from_config(#(#req_names),*))
            }
        }
    }
}
