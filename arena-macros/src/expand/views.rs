//! `XViews` and, for an arena with phases, `XPhases` and one views struct a
//! phase: the typed views and the code that carves them.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::attr::Field;
use crate::model::{self, Model, Role};

use super::docs::field_doc;
use super::sizing::is_dyn;
use super::{carved_fields, inner_type, rt, view_elem};

pub(super) fn views_ident(m: &Model) -> Ident {
    format_ident!("{}Views", m.input.ident)
}

/// The body of `carve_step`: `self` is the reservation, `step` the sizes
/// of the views.
pub(super) fn carve_body(m: &Model) -> TokenStream {
    let rt = rt();
    let views = views_ident(m);
    if m.one_of() {
        // Every alternative is checked now; its view is cut when taken.
        let checks = carved_fields(m).map(|(i, f)| {
            let n = &f.ident;
            let i = proc_macro2::Literal::usize_unsuffixed(i);
            match model::role(f) {
                Some(Role::Nested { .. }) => quote!(one.nested(#i, &self.#n, &step.#n)?;),
                _ if is_dyn(f) => quote!(one.dyn_view(#i, step.#n.dtype)?;),
                _ => {
                    let t = view_elem(f);
                    let call = super::at_dtype(f, quote!(one.view::<#t>(#i)?));
                    quote!(#call;)
                }
            }
        });
        return quote! {
            let _ = carving;
            let mut one = #rt::Alternatives::<M, Self>::new(self, step, region);
            #(#checks)*
            #rt::Result::Ok(#views { __one_of: one })
        };
    }
    // Each view in the struct literal, carved in declaration order.
    let takes = carved_fields(m).map(|(i, f)| {
        let n = &f.ident;
        let i = proc_macro2::Literal::usize_unsuffixed(i);
        match model::role(f) {
            Some(Role::Nested { .. }) => quote!(#n: c.nested(#i, &self.#n, &step.#n)?),
            _ if is_dyn(f) => quote!(#n: c.dyn_view(#i, step.#n.dtype)?),
            _ => {
                let t = view_elem(f);
                let call = super::at_dtype(f, quote!(c.view::<#t>(#i)?));
                quote!(#n: #call)
            }
        }
    });
    let marker = views_marker(m).map(|_| quote!(__arena_marker: ::core::marker::PhantomData));
    quote! {
        let mut c = #rt::FieldCarver::<M, Self>::new(self, step, region, carving);
        #rt::Result::Ok(#views { #(#takes,)* #marker })
    }
}

/// The marker field of `XViews`, for an arena whose views name neither the
/// lifetime nor the memory otherwise (no carved field).
fn views_marker(m: &Model) -> Option<TokenStream> {
    carved_fields(m).next().is_none().then(|| {
        quote! {
            #[doc(hidden)]
            pub __arena_marker: ::core::marker::PhantomData<(&'a (), fn() -> M)>,
        }
    })
}

pub(super) fn phases_ident(m: &Model) -> Ident {
    format_ident!("{}Phases", m.input.ident)
}

/// `embed` -> `XEmbedViews`.
fn phase_views_ident(m: &Model, phase: &Ident) -> Ident {
    format_ident!("{}{}Views", m.input.ident, model::phase_camel(phase))
}

/// The carved fields with their position among them and their phase range.
fn carved_live<'m, 'a>(m: &'m Model<'a>) -> Vec<(usize, &'m Field<'a>, (usize, usize))> {
    let last = m.phases().len().saturating_sub(1);
    carved_fields(m)
        .enumerate()
        .map(|(k, (i, f))| (k, f, m.live.get(i).copied().flatten().unwrap_or((0, last))))
        .collect()
}

/// `carve_planned` of an arena with phases: the runtime's `Phased` (the
/// offsets, checked once), each nested arena checked in its region, and the
/// value whose phase methods hand out one phase's views at a time.
pub(super) fn phased_carve(m: &Model) -> TokenStream {
    let rt = rt();
    let phases_ty = phases_ident(m);
    let carved = carved_live(m);
    let n = proc_macro2::Literal::usize_unsuffixed(carved.len());
    let nested_checks: Vec<_> = carved
        .iter()
        .filter(|(_, f, _)| matches!(model::role(f), Some(Role::Nested { .. })))
        .map(|(k, f, _)| {
            let id = &f.ident;
            let k = proc_macro2::Literal::usize_unsuffixed(*k);
            quote!(phased.check_nested(#k, &self.#id, &step.#id)?;)
        })
        .collect();
    let new = quote!(#rt::Phased::<M, Self, #n>::new(self, step, region, carving, slab)?);
    if nested_checks.is_empty() {
        return quote!(#rt::Result::Ok(#phases_ty { __phased: #new }));
    }
    quote! {
        let mut phased = #new;
        #(#nested_checks)*
        #rt::Result::Ok(#phases_ty { __phased: phased })
    }
}

/// `XPhases` with one method per phase, each returning `X{Phase}Views`: the
/// views of the buffers live in that phase, one phase at a time.
fn phased_views(m: &Model) -> TokenStream {
    let ident = &m.input.ident;
    let vis = &m.input.vis;
    let rt = rt();
    let phases_ty = phases_ident(m);
    let carved = carved_live(m);
    let n_lit = proc_macro2::Literal::usize_unsuffixed(carved.len());
    let names: Vec<String> = m.phases().iter().map(ToString::to_string).collect();
    let mut items = TokenStream::new();
    let mut methods = TokenStream::new();
    for (p, phase) in m.phases().iter().enumerate() {
        let phase_index = proc_macro2::Literal::usize_unsuffixed(p);
        let views = phase_views_ident(m, phase);
        let live: Vec<_> = carved
            .iter()
            .filter(|(_, _, (a, b))| *a <= p && p <= *b)
            .collect();
        let fields = live.iter().map(|(_, f, _)| view_field(f));
        let inits = live.iter().map(|(k, f, _)| {
            let id = &f.ident;
            let k = proc_macro2::Literal::usize_unsuffixed(*k);
            match model::role(f) {
                Some(Role::Nested { .. }) => quote!(#id: p.nested(#k, &reserved.#id, &step.#id)),
                _ if is_dyn(f) => quote!(#id: p.dyn_view(#k, step.#id.dtype)),
                _ => {
                    let t = view_elem(f);
                    let call = super::at_dtype(f, quote!(p.view::<#t>(#k)));
                    quote!(#id: #call)
                }
            }
        });
        let nested = live
            .iter()
            .any(|(_, f, _)| matches!(model::role(f), Some(Role::Nested { .. })));
        let dynamic = live.iter().any(|(_, f, _)| is_dyn(f));
        let arenas = match (nested, dynamic) {
            (true, _) => quote!(let (reserved, step) = self.__phased.arenas();),
            (false, true) => quote!(let step = self.__phased.arenas().1;),
            (false, false) => quote!(),
        };
        let doc = format!(
            "The views of the buffers of [`{ident}`] live in phase `{phase}` (phase {} of {}), from [`{phases_ty}::{phase}`].",
            p + 1,
            names.len()
        );
        items.extend(quote! {
            #[doc = #doc]
            #vis struct #views<'a, M: ::arena::Memory = ::arena::Host> {
                #(#fields,)*
                #[doc(hidden)]
                pub __arena_marker: ::core::marker::PhantomData<(&'a (), fn() -> M)>,
            }
        });
        let try_phase = format_ident!("try_{}", phase);
        let mdoc = format!(
            "The views of phase `{phase}`: every buffer live in it. A buffer whose range begins here is zeroed if `zeroed`, and poisoned first in poison mode. Borrows the whole slab: one phase's views at a time.\n\n# Panics\n\nWhere [`Self::{try_phase}`] fails: a device error while filling or checking guards."
        );
        let tdoc = format!(
            "The views of phase `{phase}`, as [`Self::{phase}`].\n\n# Errors\n\nA [`StepError`](::arena::StepError) where the memory fails while the phase's buffers are zeroed or poisoned or its guards checked (on a GPU: a driver error, sticky after a kernel fault)."
        );
        methods.extend(quote! {
            #[doc = #tdoc]
            pub fn #try_phase(&mut self) -> #rt::Result<#views<'_, M>, ::arena::StepError> {
                #arenas
                let mut p = self.__phased.try_phase(#phase_index)?;
                #rt::Result::Ok(#views {
                    #(#inits,)*
                    __arena_marker: ::core::marker::PhantomData,
                })
            }
            #[doc = #mdoc]
            #[track_caller]
            pub fn #phase(&mut self) -> #views<'_, M> {
                #rt::or_panic(self.#try_phase())
            }
        });
    }
    let doc = format!(
        "The buffers of [`{ident}`] by phase ({}): one method per phase, each borrowing the whole slab, so two phases' views, which may share bytes, are never alive at once.",
        names.join(", ")
    );
    quote! {
        #[doc = #doc]
        #vis struct #phases_ty<'a, M: ::arena::Memory = ::arena::Host> {
            __phased: #rt::Phased<'a, M, #ident, #n_lit>,
        }

        impl<'a, M: ::arena::Memory> #phases_ty<'a, M> {
            #methods
        }

        #items
    }
}

/// The field of a views struct for a carved field: its typed view, or the
/// nested arena's views, documented with its formula.
fn view_field(f: &Field) -> TokenStream {
    let n = &f.ident;
    let fvis = f.vis;
    let d = field_doc(f);
    match model::role(f) {
        Some(Role::Nested { .. }) => {
            let it = inner_type(f);
            quote!(#[doc = #d] #fvis #n: <#it as ::arena::Arena>::Views<'a, M>)
        }
        _ if is_dyn(f) => quote!(#[doc = #d] #fvis #n: ::arena::DynView<'a, M>),
        _ => {
            let t = view_elem(f);
            let ty = super::at_dtype(f, quote!(M::Slice<'a, #t>));
            quote!(#[doc = #d] #fvis #n: #ty)
        }
    }
}

pub(super) fn views(m: &Model) -> TokenStream {
    if !m.phases().is_empty() {
        return phased_views(m);
    }
    let ident = &m.input.ident;
    let vis = &m.input.vis;
    let views = views_ident(m);
    let rt = rt();
    let doc = format!("Typed views of every buffer of [`{ident}`], carved from one region.");
    if m.one_of() {
        let accessors = carved_fields(m).map(|(i, f)| {
            let n = &f.ident;
            let i = proc_macro2::Literal::usize_unsuffixed(i);
            let d = format!("{}\n\nOne alternative at a time: this view borrows the whole region.", field_doc(f));
            match model::role(f) {
                Some(Role::Nested { .. }) => {
                    let it = inner_type(f);
                    quote! {
                        #[doc = #d]
                        #[track_caller]
                        pub fn #n(&mut self) -> <#it as ::arena::Arena>::Views<'_, M> {
                            let (reserved, step) = self.__one_of.arenas();
                            self.__one_of.nested(#i, &reserved.#n, &step.#n).expect("checked when carved")
                        }
                    }
                }
                _ if is_dyn(f) => quote! {
                    #[doc = #d]
                    #[track_caller]
                    pub fn #n(&mut self) -> ::arena::DynView<'_, M> {
                        let step = self.__one_of.arenas().1;
                        self.__one_of.dyn_view(#i, step.#n.dtype).expect("checked when carved")
                    }
                },
                _ => {
                    let t = view_elem(f);
                    let ty = super::at_dtype(f, quote!(M::Slice<'_, #t>));
                    let call = super::at_dtype(
                        f,
                        quote!(self.__one_of.view::<#t>(#i).expect("checked when carved")),
                    );
                    quote! {
                        #[doc = #d]
                        #[track_caller]
                        pub fn #n(&mut self) -> #ty {
                            #call
                        }
                    }
                }
            }
        });
        return quote! {
            #[doc = #doc]
            #vis struct #views<'a, M: ::arena::Memory = ::arena::Host> {
                __one_of: #rt::Alternatives<'a, M, #ident>,
            }

            impl<'a, M: ::arena::Memory> #views<'a, M> {
                #(#accessors)*
            }
        };
    }
    let fields = carved_fields(m).map(|(_, f)| view_field(f));
    let marker = views_marker(m);
    quote! {
        #[doc = #doc]
        #vis struct #views<'a, M: ::arena::Memory = ::arena::Host> {
            #(#fields,)*
            #marker
        }
    }
}
