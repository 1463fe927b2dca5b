//! Code generation from the checked model. Generated code is thin: every
//! computation is a call into `::arena::__private` or the `Arena` trait.
//!
//! One file per generated item: `sizing` (`__arena_build`), `api` (the
//! inherent constructors and `total_bytes`), `arena_impl` (`impl Arena`),
//! `views` (the views and their carving), `shapes` (`XShapes`), `stubs` (what
//! stands in while there are errors); `docs` renders the user's formulas as
//! text for all of them.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::DeriveInput;

use crate::attr::{DType, Errors, Field};
use crate::model::{self, Model, Role};

mod api;
mod arena_impl;
mod docs;
mod shapes;
mod sizing;
mod stubs;
mod views;

use api::inherent;
use arena_impl::arena_impl;
use shapes::shapes;
use sizing::Gen;
use stubs::stubs;
use views::views;

pub fn derive(input: &DeriveInput) -> TokenStream {
    let mut errs = Errors::default();
    let Some(model) = model::build(input, &mut errs) else {
        return errs.into_compile_errors();
    };
    let out = generate(&model, errs);
    match &model.attrs.krate {
        Some(path) => rename_crate(out, path),
        None => out,
    }
}

/// The generated code of a struct whose attributes were read, with the
/// errors found so far.
fn generate(model: &Model, mut errs: Errors) -> TokenStream {
    // A struct attribute that did not parse: report that, not the unknown
    // names it would have declared.
    if model.attrs.incomplete {
        return failed(model, errs);
    }
    let let_types = crate::infer::let_types(model, &mut errs);
    let mut g = Gen::new(model, let_types);
    let body = g.constructor();
    for (f, e) in g.errors.drain(..) {
        errs.push(f.error(e));
    }
    for e in g.plain_errors.drain(..) {
        errs.push(e);
    }
    if !errs.is_empty() {
        return failed(model, errs);
    }
    let inherent = inherent(model, body);
    let arena_impl = arena_impl(model, &g);
    let views = views(model);
    let shapes = shapes(model);
    // A nested region is one block, live in its parent field's phases: a
    // nested arena with phases of its own is refused at compile time.
    let no_nested_phases: TokenStream = model
        .fields
        .iter()
        .filter(|f| matches!(model::role(f), Some(Role::Nested { .. })))
        .map(|f| {
            let it = inner_type(f);
            let msg = format!(
                "`{}` is nested in `{}` (field `{}`) and declares phases: a nested region is one block, live in the phases of its parent's field; declare the phases on the outermost arena only",
                f.ty_name(),
                model.input.ident,
                f.name()
            );
            quote!(::arena::__private::no_phases::<#it>(#msg);)
        })
        .collect();
    let no_nested_phases =
        (!no_nested_phases.is_empty()).then(|| quote!(const _: () = { #no_nested_phases };));
    quote! {
        #inherent
        #arena_impl
        #views
        #shapes
        #no_nested_phases
    }
}

/// The errors, with stubs of the generated API so that code using the arena
/// does not add errors of its own (none for a generic struct, itself an error).
fn failed(model: &Model, errs: Errors) -> TokenStream {
    let stubs = model.input.generics.params.is_empty().then(|| {
        // The views are read from the fields and the phases alone: with
        // them, code that takes a phase's views or a buffer's view adds no
        // error of its own while a formula is being fixed.
        let views = views_are_sound(model).then(|| views(model));
        let stubs = stubs(model, views.is_some());
        quote!(#stubs #views)
    });
    let errors = errs.into_compile_errors();
    quote!(#errors #stubs)
}

/// Whether the views can be generated while the struct has errors without
/// adding errors of their own: every phase's names its own, every field of
/// the type its role asks for, every element type a built-in one.
fn views_are_sound(m: &Model) -> bool {
    if m.attrs.incomplete {
        return false;
    }
    let mut names = std::collections::HashSet::new();
    for p in m.phases() {
        for (n, _) in model::phase_names(p) {
            if !names.insert(n) {
                return false;
            }
        }
    }
    let is_usize = |ty: &syn::Type| matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("usize"));
    carved_fields(m).all(|(_, f)| match (model::role(f), f.attrs.dtype.get()) {
        (Some(Role::Nested { .. }), _) => model::is_region(f.ty),
        (_, Some(DType::Runtime(_))) => model::is_dyn_bytes(f.ty),
        (_, Some(DType::Path(_))) => false,
        _ => is_usize(f.ty),
    })
}

/// Keywords after which a path starts (`as ::arena::Arena`, `impl
/// ::arena::Arena for`, `dyn`, `where`, ...).
const PATH_KEYWORDS: [&str; 22] = [
    "as", "for", "impl", "dyn", "in", "where", "mut", "return", "let", "const", "static", "type",
    "pub", "move", "ref", "unsafe", "use", "if", "else", "match", "while", "break",
];

/// The generated code with every absolute path to the `arena` crate
/// (`::arena::...`) through `path` instead (`#[arena(crate = "path")]`): the
/// one place the generated code names the crate. Links in its docs
/// (`(::arena::SizeError)`) alike.
fn rename_crate(tokens: TokenStream, path: &syn::Path) -> TokenStream {
    use proc_macro2::{Group, Literal, Spacing, TokenTree};
    // `crate::..`, `self::..`, `super::..` and `::..` as written; a bare
    // name is a dependency: `::name`.
    let relative = path.leading_colon.is_none()
        && path.segments.first().is_some_and(|s| {
            let s = s.ident.to_string();
            s == "crate" || s == "self" || s == "super"
        });
    let lead: TokenStream = if path.leading_colon.is_some() || relative {
        quote!(#path)
    } else {
        quote!(:: #path)
    };
    let link = format!(
        "({}::",
        if relative {
            quote!(#path).to_string().replace(' ', "")
        } else {
            format!(
                "::{}",
                quote!(#path)
                    .to_string()
                    .replace(' ', "")
                    .trim_start_matches("::")
            )
        }
    );
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        // `::arena` where a path starts (after punctuation, a keyword or a
        // lifetime; not after a name, as in `crate::arena::x`): the crate.
        let starts = match out.last() {
            Some(TokenTree::Ident(id)) => {
                let lifetime = matches!(
                    out.len().checked_sub(2).map(|k| &out[k]),
                    Some(TokenTree::Punct(p)) if p.as_char() == '\''
                );
                lifetime || PATH_KEYWORDS.iter().any(|k| id == k)
            }
            _ => true,
        };
        let is_root = starts
            && matches!(&trees[i], TokenTree::Punct(p) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
            && matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':')
            && matches!(trees.get(i + 2), Some(TokenTree::Ident(id)) if id == "arena");
        if is_root {
            out.extend(lead.clone());
            i += 3;
            continue;
        }
        match &trees[i] {
            TokenTree::Group(g) => {
                let mut ng = Group::new(g.delimiter(), rename_crate(g.stream(), path));
                ng.set_span(g.span());
                out.push(TokenTree::Group(ng));
            }
            TokenTree::Literal(l) if l.to_string().contains("(::arena::") => {
                let text = l.to_string().replace("(::arena::", &link);
                match text.parse::<Literal>() {
                    Ok(mut nl) => {
                        nl.set_span(l.span());
                        out.push(TokenTree::Literal(nl));
                    }
                    Err(_) => out.push(trees[i].clone()),
                }
            }
            t => out.push(t.clone()),
        }
        i += 1;
    }
    out.into_iter().collect()
}

fn rt() -> TokenStream {
    quote!(::arena::__private)
}

/// A name of the generated code that the user's code can neither see nor
/// shadow (`Span::mixed_site`, the hygiene of `macro_rules!` locals).
fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// The nested arena's type: `T` of a field typed `Region<T>`.
fn inner_type(f: &Field) -> TokenStream {
    let ty = f.ty;
    if let syn::Type::Path(p) = ty
        && let Some(seg) = p.path.segments.last()
        && let syn::PathArguments::AngleBracketed(a) = &seg.arguments
        && let Some(syn::GenericArgument::Type(t)) = a.args.first()
    {
        return quote!(#t);
    }
    let rt = rt();
    quote_spanned!(syn::spanned::Spanned::span(ty)=> <#ty as #rt::RegionOf>::Inner)
}

fn lit_str(s: &str) -> syn::LitStr {
    syn::LitStr::new(s, Span::call_site())
}

impl Field<'_> {
    fn ty_name(&self) -> String {
        // `Region<Inner>` -> `Inner`
        if let syn::Type::Path(p) = self.ty
            && let Some(seg) = p.path.segments.last()
            && let syn::PathArguments::AngleBracketed(a) = &seg.arguments
            && let Some(syn::GenericArgument::Type(t)) = a.args.first()
        {
            return quote!(#t).to_string().replace(' ', "");
        }
        let ty = self.ty;
        quote!(#ty).to_string().replace(' ', "")
    }
}

fn carved_fields<'m, 'a>(m: &'m Model<'a>) -> impl Iterator<Item = (usize, &'m Field<'a>)> {
    m.fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !matches!(model::role(f), Some(Role::Value(_)) | None))
}

fn view_elem(f: &Field) -> TokenStream {
    f.attrs.dtype.get().map_or(quote!(u8), DType::rust)
}

/// `tokens` placed at the field's `dtype` ([`DType::place`]): a view type
/// whose element is not `bytemuck::Pod` is reported at the `dtype` token.
fn at_dtype(f: &Field, tokens: TokenStream) -> TokenStream {
    match f.attrs.dtype.get() {
        Some(d) => d.place(tokens),
        None => tokens,
    }
}

#[cfg(test)]
mod rename_tests {
    /// Every `::arena` of the generated code goes through the crate path;
    /// a user's own `crate::arena::...` path is left alone.
    #[test]
    fn the_crate_path_replaces_every_arena_root() {
        let input: syn::DeriveInput = syn::parse_quote! {
            #[arena(crate = "my_arena", params(n: usize, cfg: &crate::arena::Cfg), phases(x, y))]
            pub struct R {
                #[arena(shape = [n], dtype = f32, live = x)]
                pub d: usize,
                #[arena(size = crate::arena::K * n, live = y)]
                pub e: usize,
            }
        };
        let out = super::derive(&input).to_string();
        let roots = out.replace("crate :: arena ::", "");
        assert!(!roots.contains(":: arena ::"), "{out}");
        assert!(out.contains(":: my_arena :: Arena"));
        assert!(out.contains("crate :: arena :: K"));
        assert!(out.contains("(::my_arena::"), "the docs' links");
    }
}
