//! Items that keep the user's other code compiling while the errors are
//! fixed.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::Model;

use super::api::param_list;
use super::views::{phases_ident, views_ident};
use super::{local, rt};

/// Items that keep the user's other code compiling while the errors are fixed.
/// `with_views`: the real views are generated beside the stubs, and the
/// stub arena's `Views` are they.
pub(super) fn stubs(m: &Model, with_views: bool) -> TokenStream {
    let ident = &m.input.ident;
    let vis = &m.input.vis;
    let (all_decls, _) = param_list(m, true);
    let (req_decls, _) = param_list(m, false);
    let rt = rt();
    let name = ident.to_string();
    let (levers, shapes) = (local("levers"), local("shapes"));
    let views = match (with_views, m.phases().is_empty()) {
        (false, _) => quote!(()),
        (true, true) => {
            let v = views_ident(m);
            quote!(#v<'a, M>)
        }
        (true, false) => {
            let v = phases_ident(m);
            quote!(#v<'a, M>)
        }
    };
    quote! {
        #[allow(unused_variables, clippy::all)]
        impl #ident {
            #vis fn try_from_config_with(
                #levers: &::arena::Levers,
                #(#all_decls),*
            ) -> #rt::Result<Self, ::arena::SizeError> {
                ::core::unreachable!()
            }
            #vis fn try_step_with(
                #levers: &::arena::Levers,
                #(#all_decls),*
            ) -> #rt::Result<(Self, ()), ::arena::SizeError> {
                ::core::unreachable!()
            }
            #[doc(hidden)]
            #vis fn __arena_build<const __ARENA_SLAB: bool, const __ARENA_SHAPES: bool>(
                #levers: &::arena::Levers,
                #(#all_decls,)*
                #shapes: &mut (),
            ) -> #rt::Result<(Self, usize), ::arena::SizeError> {
                ::core::unreachable!()
            }
            #vis fn try_from_config(#(#req_decls),*) -> #rt::Result<Self, ::arena::SizeError> {
                ::core::unreachable!()
            }
            #vis fn from_config(#(#req_decls),*) -> Self {
                ::core::unreachable!()
            }
        }
        #[allow(unused_variables, clippy::all)]
        impl ::arena::Arena for #ident {
            const NAME: &'static str = #name;
            const ALIGN: usize = 1;
            const ONE_OF: bool = false;
            const BUFFERS: &'static [::arena::BufferInfo] = &[];
            const LEVERS: &'static [::arena::LeverInfo] = &[];
            type Views<'a, M: ::arena::Memory> = #views where Self: 'a;
            type Shapes = ();
            fn empty() -> Self {
                ::core::unreachable!()
            }
            fn field_bytes(&self, index: usize) -> usize {
                ::core::unreachable!()
            }
            fn nested_layout(
                &self,
                index: usize,
            ) -> ::core::option::Option<#rt::Result<::arena::Layout, ::arena::SizeError>> {
                ::core::unreachable!()
            }
            fn collect_lever_names(out: &mut #rt::Vec<&'static str>) {}
            fn carve_step<'a, M: ::arena::Memory>(
                &'a self,
                step: &'a Self,
                region: M::Bytes<'a>,
                carving: ::arena::Carving,
            ) -> #rt::Result<Self::Views<'a, M>, ::arena::StepError> {
                ::core::unreachable!()
            }
        }
        impl #rt::Plumbing for #ident {}
    }
}
