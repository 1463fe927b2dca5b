//! `XShapes`: the step dimensions of every buffer declared with a shape.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::attr::Field;
use crate::model::{self, Model, Role};

use super::inner_type;

pub(super) fn shapes_ident(m: &Model) -> Ident {
    format_ident!("{}Shapes", m.input.ident)
}

pub(super) fn dims_len(f: &Field) -> usize {
    f.attrs.shape.get().map_or(0, Vec::len)
}

/// `XShapes`: the step dimensions of every shaped buffer, a nested arena's
/// own shapes for a nested field.
pub(super) fn shapes(m: &Model) -> TokenStream {
    let ident = &m.input.ident;
    let vis = &m.input.vis;
    let shapes = shapes_ident(m);
    let doc = format!(
        "The dimensions of every buffer of [`{ident}`] declared with `shape = [...]`, as [`{ident}::try_step_with`] computes them; all 0 for a buffer that is off."
    );
    let mut fields = Vec::new();
    let mut zeros = Vec::new();
    for f in &m.fields {
        let n = &f.ident;
        let fvis = f.vis;
        match model::role(f) {
            Some(Role::Shape(dims)) => {
                let len = proc_macro2::Literal::usize_unsuffixed(dims.len());
                let text: Vec<String> = dims.iter().map(|d| d.text.clone()).collect();
                let d = format!("`[{}]`", text.join(", "));
                fields.push(quote!(#[doc = #d] #fvis #n: [usize; #len]));
                zeros.push(quote!(#n: [0; #len]));
            }
            Some(Role::Nested { .. }) => {
                let it = inner_type(f);
                fields.push(quote!(#fvis #n: <#it as ::arena::Arena>::Shapes));
                zeros.push(quote!(#n: ::core::default::Default::default()));
            }
            _ => {}
        }
    }
    quote! {
        #[doc = #doc]
        #vis struct #shapes {
            #(#fields,)*
        }

        impl ::core::default::Default for #shapes {
            fn default() -> Self {
                Self { #(#zeros),* }
            }
        }

        impl ::core::clone::Clone for #shapes {
            #[inline]
            fn clone(&self) -> Self {
                *self
            }
        }

        impl ::core::marker::Copy for #shapes {}
    }
}
