//! `impl Arena`: the metadata (`BUFFERS`, `LEVERS`, `PHASES`), the field
//! sizes, the slab, and the carving entry point.

use proc_macro2::TokenStream;
use quote::quote;

use crate::attr::DType;
use crate::model::{self, Model, Role};
use crate::monotone;

use super::docs::formula_text;
use super::shapes::shapes_ident;
use super::sizing::{Gen, is_dyn};
use super::views::{carve_body, phased_carve, phases_ident, views_ident};
use super::{carved_fields, inner_type, rt};

pub(super) fn arena_impl(m: &Model, g: &Gen) -> TokenStream {
    let ident = &m.input.ident;
    let name = ident.to_string();
    let align = m.align;
    let one_of = m.one_of();
    let rt = rt();
    let infos = m.fields.iter().enumerate().map(|(fi, f)| {
        let n = f.name();
        let doc = f.doc.first().cloned().unwrap_or_default();
        let formula = formula_text(f);
        let role = model::role(f);
        let base = match &role {
            Some(Role::Nested { .. }) => {
                let it = inner_type(f);
                let short = f.ty_name();
                quote!(::arena::BufferInfo::region(#n, #doc, #formula, #short, <#it as ::arena::Arena>::REGION_ALIGN))
            }
            Some(Role::Value(_)) => quote!(::arena::BufferInfo::value(#n, #doc, #formula)),
            _ if is_dyn(f) => {
                let dtype = f.attrs.dtype.get().map_or(String::new(), DType::name);
                quote!(::arena::BufferInfo::dyn_buffer(#n, #doc, #formula, #dtype))
            }
            _ => {
                let d = f.attrs.dtype.get();
                let elem = d.map_or(quote!(u8), DType::rust);
                let dtype = d.map_or("u8".into(), DType::name);
                quote!(::arena::BufferInfo::buffer::<#elem>(#n, #doc, #formula, #dtype))
            }
        };
        let mut info = base;
        if let Some(dims) = f.attrs.shape.get() {
            let shape = dims.iter().map(|d| d.text.clone());
            info = quote!(#info.shape(&[#(#shape),*]));
        }
        if let Some(l) = f.attrs.lever.get() {
            let l = l.to_string();
            info = quote!(#info.lever(#l));
        }
        if let Some(w) = f.attrs.when.get() {
            let w = &w.text;
            info = quote!(#info.when(#w));
        }
        if let Some(u) = f.attrs.unless.get() {
            let u = &u.text;
            info = quote!(#info.unless(#u));
        }
        if let Some(t) = f.attrs.trim.get() {
            let t = t.to_string();
            info = quote!(#info.trim(#t));
        }
        if f.attrs.not_in_total.get().is_some() && !matches!(role, Some(Role::Value(_))) {
            info = quote!(#info.not_in_total());
        }
        if f.attrs.zeroed.get().is_some() {
            info = quote!(#info.zeroed());
        }
        if let Some(a) = f.attrs.align.get() {
            info = quote!(#info.align(#a));
        }
        if let Some(Some((a, b))) = m.live.get(fi) {
            info = quote!(#info.live(#a, #b));
        }
        info
    });
    let levers = m.levers().iter().map(|l| {
        let n = l.name.to_string();
        let d = match (&l.parse, &l.default) {
            (Some(_), _) => quote!(::core::option::Option::None),
            (None, d) => {
                let d = d.as_ref().is_some_and(|d| d.value);
                quote!(::core::option::Option::Some(#d))
            }
        };
        quote!(::arena::LeverInfo { name: #n, default: #d })
    });
    let levers: Vec<_> = levers.collect();
    let levers_const = (!levers.is_empty())
        .then(|| quote!(const LEVERS: &'static [::arena::LeverInfo] = &[#(#levers),*];));
    let empties = m.fields.iter().map(|f| {
        let n = &f.ident;
        match model::role(f) {
            Some(Role::Nested { .. }) => {
                let it = inner_type(f);
                quote!(#n: ::arena::Region::new(0, <#it as ::arena::Arena>::empty()))
            }
            Some(Role::Value(_)) => quote!(#n: ::core::default::Default::default()),
            _ if is_dyn(f) => quote!(#n: ::arena::DynBytes::new(0, ::arena::DType::U8)),
            _ => quote!(#n: 0),
        }
    });
    let bytes_arms = m.fields.iter().enumerate().map(|(i, f)| {
        let n = &f.ident;
        let is_bool = g.value_is_bool.get(&i) == Some(&true);
        let i = proc_macro2::Literal::usize_unsuffixed(i);
        match model::role(f) {
            Some(Role::Nested { .. }) => quote!(#i => self.#n.bytes,),
            Some(Role::Value(_)) if is_bool => quote!(#i => usize::from(self.#n),),
            _ if is_dyn(f) => quote!(#i => self.#n.bytes,),
            _ => quote!(#i => self.#n,),
        }
    });
    // The buffers whose dtype is chosen at run time tell it; the others'
    // is in `BUFFERS`.
    let dtype_arms: Vec<_> = m
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            is_dyn(f)
                && !matches!(
                    model::role(f),
                    Some(Role::Value(_)) | Some(Role::Nested { .. }) | None
                )
        })
        .map(|(i, f)| {
            let n = &f.ident;
            let i = proc_macro2::Literal::usize_unsuffixed(i);
            quote!(#i => ::core::option::Option::Some(self.#n.dtype),)
        })
        .collect();
    let dtype_item = (!dtype_arms.is_empty()).then(|| {
        quote! {
            #[inline]
            fn field_dtype(&self, index: usize) -> ::core::option::Option<::arena::DType> {
                match index {
                    #(#dtype_arms)*
                    _ => #rt::static_dtype(Self::BUFFERS, index),
                }
            }
        }
    });
    // The nested fields, by index: their layout and their fills.
    let nested: Vec<_> = m
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| matches!(model::role(f), Some(Role::Nested { .. })))
        .map(|(i, f)| (proc_macro2::Literal::usize_unsuffixed(i), &f.ident))
        .collect();
    let nested_arms: Vec<_> = nested
        .iter()
        .map(|(i, n)| quote!(#i => #rt::nested_layout(&self.#n),))
        .collect();
    let fill_arms = nested.iter().map(
        |(i, n)| quote!(#i => #rt::Plumbing::fill_region::<M>(&self.#n.inner, &step.#n.inner, region, fill),),
    );
    let lever_pushes = m.levers().iter().map(|l| {
        let n = l.name.to_string();
        quote!(out.push(#n);)
    });
    let nested_levers = m
        .fields
        .iter()
        .filter(|f| matches!(model::role(f), Some(Role::Nested { .. })))
        .map(|f| {
            let it = inner_type(f);
            quote!(<#it as ::arena::Arena>::collect_lever_names(out);)
        });
    let carve_sig = quote! {
        &'a self,
        step: &'a Self,
        region: M::Bytes<'a>,
        carving: ::arena::Carving,
    };
    let carve_ret = quote!(#rt::Result<Self::Views<'a, M>, ::arena::StepError>);
    let (carve, carve_planned) = if m.phases().is_empty() {
        let body = carve_body(m);
        let carve = quote! {
            fn carve_step<'a, M: ::arena::Memory>(#carve_sig) -> #carve_ret {
                #body
            }
        };
        (carve, quote!())
    } else {
        // The slab hands in the offsets it planned once; a bare carve plans.
        let body = phased_carve(m);
        let carve = quote! {
            fn carve_step<'a, M: ::arena::Memory>(#carve_sig) -> #carve_ret {
                <Self as #rt::Plumbing>::carve_planned::<M>(
                    self, step, region, carving, ::core::option::Option::None,
                )
            }
        };
        let planned = quote! {
            fn carve_planned<'a, M: ::arena::Memory>(
                #carve_sig
                slab: ::core::option::Option<#rt::SlabRef<'a>>,
            ) -> #rt::Result<<Self as ::arena::Arena>::Views<'a, M>, ::arena::StepError> {
                #body
            }
        };
        (carve, planned)
    };
    let slab = slab_bytes_body(m);
    let shapes_ty = shapes_ident(m);
    let phase_names = m
        .phases()
        .iter()
        .map(|p| syn::ext::IdentExt::unraw(p).to_string());
    let phases_item = (!m.phases().is_empty())
        .then(|| quote!(const PHASES: &'static [&'static str] = &[#(#phase_names),*];));
    let budget_item = m
        .attrs
        .plan_budget
        .map(|(b, _)| quote!(const PLAN_BUDGET: u64 = #b;));
    let when_item = m.attrs.when.as_ref().map(|w| {
        let w = &w.text;
        quote!(const WHEN: ::core::option::Option<&'static str> = ::core::option::Option::Some(#w);)
    });
    let one_of_item = one_of.then(|| {
        quote!(
            const ONE_OF: bool = true;
        )
    });
    let nested_item = (!nested_arms.is_empty()).then(|| {
        quote! {
            fn nested_layout(&self, index: usize) -> #rt::NestedLayout {
                match index {
                    #(#nested_arms)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    });
    let fill_nested = (!nested.is_empty()).then(|| {
        quote! {
            fn fill_nested<M: ::arena::Memory>(
                &self,
                step: &Self,
                index: usize,
                region: M::Bytes<'_>,
                fill: #rt::Fill,
            ) -> #rt::Result<(), ::arena::CarveError> {
                match index {
                    #(#fill_arms)*
                    _ => #rt::Result::Ok(()),
                }
            }
        }
    });
    let lever_pushes: Vec<_> = lever_pushes.chain(nested_levers).collect();
    let levers_item = (!lever_pushes.is_empty()).then(|| {
        quote! {
            fn collect_lever_names(out: &mut #rt::Vec<&'static str>) {
                #(#lever_pushes)*
            }
        }
    });
    let growth = growth_items(m);
    let views = if m.phases().is_empty() {
        views_ident(m)
    } else {
        phases_ident(m)
    };
    quote! {
        impl ::arena::Arena for #ident {
            const NAME: &'static str = #name;
            const ALIGN: usize = #align;
            #one_of_item
            const BUFFERS: &'static [::arena::BufferInfo] = &[#(#infos),*];
            #levers_const
            #when_item
            #budget_item
            #phases_item
            type Views<'a, M: ::arena::Memory> = #views<'a, M> where Self: 'a;
            type Shapes = #shapes_ty;

            fn empty() -> Self {
                Self { #(#empties),* }
            }

            #[inline]
            fn field_bytes(&self, index: usize) -> usize {
                match index {
                    #(#bytes_arms)*
                    _ => 0,
                }
            }

            #dtype_item

            #nested_item

            #[inline]
            fn slab_bytes(&self) -> #rt::Result<usize, ::arena::SizeError> {
                #slab
            }

            #levers_item

            #growth

            #carve
        }

        impl #rt::Plumbing for #ident {
            #carve_planned

            #fill_nested
        }
    }
}

/// `PARAMS` and `growth`: the declared parameters, and for each whether
/// every buffer can only grow with it ([`monotone`]), a nested region's
/// growth asked of its arena at run time.
fn growth_items(m: &Model) -> TokenStream {
    if m.params().is_empty() {
        return quote!();
    }
    let rt = rt();
    let names: Vec<String> = m
        .params()
        .iter()
        .map(|p| syn::ext::IdentExt::unraw(&p.name).to_string())
        .collect();
    let arms = m.params().iter().zip(&names).map(|(p, name)| {
        let mut spelt = vec![name.clone()];
        spelt.extend(
            p.short
                .as_ref()
                .map(|s| syn::ext::IdentExt::unraw(s).to_string()),
        );
        spelt.dedup();
        let body = match monotone::verdict(m, &spelt) {
            monotone::Verdict::Unknown { item, formula } => {
                quote!(::arena::fit::Growth::NotKnown { item: #item, formula: #formula })
            }
            monotone::Verdict::Grows { nested } => {
                let checks = nested.iter().map(|(fi, k, text)| {
                    let f = &m.fields[*fi];
                    let it = inner_type(f);
                    let item = f.name();
                    quote! {
                        if let g @ ::arena::fit::Growth::NotKnown { .. } =
                            #rt::nested_growth::<#it>(#k, #item, #text)
                        {
                            return g;
                        }
                    }
                });
                quote!({ #(#checks)* ::arena::fit::Growth::Grows })
            }
        };
        quote!(#(#spelt)|* => #body,)
    });
    quote! {
        const PARAMS: &'static [&'static str] = &[#(#names),*];
        fn growth(param: &str) -> ::arena::fit::Growth {
            match param {
                #(#arms)*
                _ => ::arena::fit::Growth::NotAParam,
            }
        }
    }
}

/// `slab_bytes`: the runtime's slab of the carved fields' bytes.
fn slab_bytes_body(m: &Model) -> TokenStream {
    let bytes = carved_fields(m).map(|(_, f)| {
        let n = &f.ident;
        match model::role(f) {
            Some(Role::Nested { .. }) => quote!(self.#n.bytes),
            _ if is_dyn(f) => quote!(self.#n.bytes),
            _ => quote!(self.#n),
        }
    });
    let rt = rt();
    quote!(#rt::slab::<Self, _>([#(#bytes),*]))
}
