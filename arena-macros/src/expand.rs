//! Code generation from the checked model. Generated code is thin: every
//! computation is a call into `::arena::__private` or the `Arena` trait.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::DeriveInput;

use crate::attr::{DType, Errors, Field};
use crate::formula::lower::{BUILTINS, Binding, Env, HELPERS, Lowered, Lowerer, Ty};
use crate::formula::{self, FError, Formula};
use crate::infer::LetType;
use crate::model::{self, Model, Node, Role};

pub fn derive(input: &DeriveInput) -> TokenStream {
    let mut errs = Errors::default();
    let Some(model) = model::build(input, &mut errs) else {
        return errs.into_compile_errors();
    };
    // A struct attribute that did not parse: report that, not the unknown
    // names it would have declared.
    if model.attrs.incomplete {
        return failed(&model, errs);
    }
    let let_types = crate::infer::let_types(&model, &mut errs);
    let mut g = Gen::new(&model, let_types);
    let body = g.constructor();
    for (f, e) in g.errors.drain(..) {
        errs.push(f.error(e));
    }
    for e in g.plain_errors.drain(..) {
        errs.push(e);
    }
    if !errs.is_empty() {
        return failed(&model, errs);
    }
    let inherent = inherent(&model, body);
    let arena_impl = arena_impl(&model, &g);
    let views = views(&model);
    let shapes = shapes(&model);
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
                f.ident
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
    let stubs = model.input.generics.params.is_empty().then(|| stubs(model));
    let errors = errs.into_compile_errors();
    quote!(#errors #stubs)
}

fn rt() -> TokenStream {
    quote!(::arena::__private)
}

struct Scope {
    names: HashMap<String, Binding>,
    all: Vec<String>,
    trims: HashMap<String, Vec<Ident>>,
    /// Runtime helpers the sizing imports by name (those no user name hides).
    importable: HashSet<&'static str>,
    /// The helpers the generated formulas used, for the `use` line.
    used: RefCell<BTreeSet<&'static str>>,
}

impl Env for Scope {
    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.names.get(name)
    }
    fn names(&self) -> Vec<String> {
        self.all.clone()
    }
    fn trim_members(&self, name: &str) -> Option<Vec<Ident>> {
        self.trims.get(name).cloned()
    }
    fn helper(&self, name: &str, span: Span) -> TokenStream {
        let id = Ident::new(name, span);
        match self.importable.get(name) {
            Some(known) => {
                self.used.borrow_mut().insert(known);
                quote!(#id)
            }
            None => quote_spanned!(span=> ::arena::__private::formula::#id),
        }
    }
}

struct Gen<'m, 'a> {
    m: &'m Model<'a>,
    scope: Scope,
    errors: Vec<(&'m Formula, FError)>,
    plain_errors: Vec<syn::Error>,
    /// For each field: `Some(true)` when its value is a bool (value fields only).
    value_is_bool: HashMap<usize, bool>,
    /// The type each let takes from its uses (see `infer`).
    let_types: Vec<LetType>,
}

/// A name of the generated code that the user's code can neither see nor
/// shadow (`Span::mixed_site`, the hygiene of `macro_rules!` locals).
fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// The sizing context (`arena::__private::Sizing`) of `__arena_build`.
fn cx() -> Ident {
    local("cx")
}

/// A trimmed field's size before its trim.
fn raw_ident(f: &Field) -> Ident {
    local(&format!("{}_raw", f.ident))
}

/// Whether a gated field is on.
fn on_ident(f: &Field) -> Ident {
    local(&format!("{}_on", f.ident))
}

/// A nested field's arena.
fn inner_ident(f: &Field) -> Ident {
    local(&format!("{}_inner", f.ident))
}

/// The nested arena's type: `T` of a field typed `Region<T>`.
fn inner_type(f: &Field) -> TokenStream {
    let ty = f.ty;
    if let syn::Type::Path(p) = ty {
        if let Some(seg) = p.path.segments.last() {
            if let syn::PathArguments::AngleBracketed(a) = &seg.arguments {
                if let Some(syn::GenericArgument::Type(t)) = a.args.first() {
                    return quote!(#t);
                }
            }
        }
    }
    let rt = rt();
    quote_spanned!(syn::spanned::Spanned::span(ty)=> <#ty as #rt::RegionOf>::Inner)
}

fn lit_str(s: &str) -> syn::LitStr {
    syn::LitStr::new(s, Span::call_site())
}

fn param_ty(ty: &syn::Type) -> (Ty, String) {
    let text = quote!(#ty).to_string().replace(" ", "");
    let t = match ty {
        syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("usize") => Ty::Int,
        syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("bool") => Ty::Bool,
        _ => Ty::Opaque,
    };
    (t, text)
}

/// Names of plain Rust functions the formulas call by one segment
/// (`f(x)`): a helper of the same name is not imported.
fn called_names(e: &formula::Expr, out: &mut HashSet<String>) {
    if let formula::Kind::Call(p, _) = &e.kind {
        if p.len() == 1 && !BUILTINS.contains(&p[0].as_str()) {
            out.insert(p[0].clone());
        }
    }
    for c in e.children() {
        called_names(c, out);
    }
}

fn all_formulas<'m>(m: &'m Model) -> impl Iterator<Item = &'m Formula> {
    m.lets()
        .iter()
        .map(|l| &l.formula)
        .chain(m.attrs.when.iter())
        .chain(m.fields.iter().flat_map(|f| {
            let a = &f.attrs;
            a.size
                .get()
                .into_iter()
                .chain(a.shape.get().into_iter().flatten())
                .chain(a.nested.get().into_iter().flatten())
                .chain(a.value.get())
                .chain(a.when.get())
                .chain(a.unless.get())
        }))
}

impl<'m, 'a> Gen<'m, 'a> {
    fn new(m: &'m Model<'a>, let_types: Vec<LetType>) -> Self {
        let mut names = HashMap::new();
        let mut all = Vec::new();
        for p in m.params() {
            let (ty, text) = param_ty(&p.ty);
            let what = format!("parameter `{}` of type `{text}`", p.name);
            names.insert(
                p.name.to_string(),
                Binding {
                    ty,
                    local: p.name.clone(),
                    what: what.clone(),
                },
            );
            all.push(p.name.to_string());
            if let Some(s) = &p.short {
                names.insert(
                    s.to_string(),
                    Binding {
                        ty,
                        local: s.clone(),
                        what,
                    },
                );
                all.push(s.to_string());
            }
        }
        for l in m.levers() {
            let ty = if l.parse.is_some() {
                Ty::Opaque
            } else {
                Ty::Bool
            };
            names.insert(
                l.name.to_string(),
                Binding {
                    ty,
                    local: l.name.clone(),
                    what: format!("lever `{}` (an `Option` of its parsed value)", l.name),
                },
            );
            all.push(l.name.to_string());
        }
        all.extend(m.lets().iter().map(|l| l.name.to_string()));
        all.extend(m.fields.iter().map(|f| f.ident.to_string()));
        // Placeholders, replaced as each let and field is computed; only a
        // name on a cycle (already reported) is read before that.
        for name in m
            .lets()
            .iter()
            .map(|l| &l.name)
            .chain(m.fields.iter().map(|f| &f.ident))
        {
            names.entry(name.to_string()).or_insert(Binding {
                ty: Ty::Ext,
                local: name.clone(),
                what: format!("`{name}`"),
            });
        }
        let mut trims: HashMap<String, Vec<Ident>> = HashMap::new();
        for f in &m.fields {
            if let Some(t) = f.attrs.trim.get() {
                trims.entry(t.to_string()).or_default().push(raw_ident(f));
            }
        }
        let mut taken: HashSet<String> = all.iter().cloned().collect();
        for f in all_formulas(m) {
            called_names(&f.expr, &mut taken);
        }
        let importable = HELPERS
            .iter()
            .copied()
            .filter(|h| !taken.contains(*h))
            .collect();
        Gen {
            m,
            scope: Scope {
                names,
                all,
                trims,
                importable,
                used: RefCell::default(),
            },
            errors: Vec::new(),
            plain_errors: Vec::new(),
            value_is_bool: HashMap::new(),
            let_types,
        }
    }

    /// Lowers a formula; on error records it and returns `None`.
    fn lower(&mut self, f: &'m Formula, how: How) -> Option<Lowered> {
        let mut l = Lowerer::new(&self.scope);
        let out = match how {
            How::Int => l.int(&f.expr),
            How::Bool => l.bool(&f.expr),
            How::Value => l.value(&f.expr),
            How::Any => l.any(&f.expr),
            How::Operand => l.operand(&f.expr),
        };
        let errs = std::mem::take(&mut l.errors);
        for e in errs {
            self.errors.push((f, e));
        }
        out
    }

    /// Code for the value of `f`, checked where it can fail: the fault names
    /// `item` and the formula.
    fn eval(&mut self, f: &'m Formula, item: &str, how: How) -> Option<(Ty, TokenStream)> {
        let l = self.lower(f, how)?;
        Some((l.ty, checked(item, &f.text, l)))
    }

    fn bind(&mut self, name: &Ident, ty: Ty, what: &str) {
        self.scope.names.insert(
            name.to_string(),
            Binding {
                ty,
                local: name.clone(),
                what: format!("{what} `{name}`"),
            },
        );
    }

    /// The body of `__arena_build`.
    fn constructor(&mut self) -> TokenStream {
        let rt = rt();
        let (cx, levers, slab_bytes) = (cx(), local("levers"), local("slab"));
        let name = self.m.input.ident.to_string();
        let mut out = TokenStream::new();
        for p in self.m.params() {
            if let Some(s) = &p.short {
                let n = &p.name;
                out.extend(quote!(let #s = #n;));
            }
        }
        for l in self.m.levers() {
            let n = &l.name;
            let s = lit_str(&n.to_string());
            out.extend(match (&l.parse, &l.default) {
                (Some(parse), _) => {
                    quote!(let #n = #rt::parsed_lever(#levers, #s, #parse)?;)
                }
                (None, d) => {
                    let d = d.as_ref().is_some_and(|d| d.value);
                    quote!(let #n: bool = #rt::bool_lever(#levers, #s, #d)?;)
                }
            });
        }
        if let Some(f) = &self.m.attrs.when {
            let code = self
                .eval(f, "when", How::Bool)
                .map_or(quote!(true), |(_, c)| c);
            let on = local("struct_on");
            out.extend(quote!(let #on: bool = #code;));
        }
        let order = self.m.order.clone();
        for node in order {
            match node {
                Node::Let(i) => {
                    let l = &self.m.lets()[i];
                    let how = match self.let_types.get(i) {
                        Some(LetType::Cond) => How::Bool,
                        Some(LetType::Num) => How::Int,
                        Some(LetType::Conflict) => {
                            self.bind(&l.name, Ty::Ext, "let");
                            continue;
                        }
                        _ => How::Value,
                    };
                    match self.eval(&l.formula, &l.name.to_string(), how) {
                        Some((ty, code)) => {
                            let n = &l.name;
                            let t = if ty == Ty::Bool {
                                quote!(bool)
                            } else {
                                quote!(usize)
                            };
                            out.extend(quote!(let #n: #t = #code;));
                            self.bind(&l.name, ty, "let");
                        }
                        None => self.bind(&l.name, Ty::Ext, "let"),
                    }
                }
                Node::Field(i) => {
                    let code = self.field(i);
                    out.extend(code);
                }
            }
        }
        let inits = self.m.fields.iter().map(|f| {
            let n = &f.ident;
            match model::role(f) {
                Some(Role::Nested { .. }) => {
                    let inner = inner_ident(f);
                    quote!(#n: ::arena::Region::new(#n, #inner))
                }
                _ => quote!(#n),
            }
        });
        // What the types of the formulas cannot check: whole elements.
        for f in &self.m.fields {
            let Some(Role::Size(formula)) = model::role(f) else {
                continue;
            };
            let Some(d) = f.attrs.dtype.get() else {
                continue;
            };
            let n = &f.ident;
            let s = lit_str(&n.to_string());
            // A formula whose every value is a multiple of a constant that the
            // element size divides needs no check.
            let factor = formula::factor(&formula.expr);
            out.extend(match elem_bytes(d) {
                Some(e) if factor % e as u128 == 0 => quote!(),
                Some(e) => quote!(#cx.whole_elements(#s, #n, #e)?;),
                None => {
                    let t = d.rust();
                    let factor = proc_macro2::Literal::u128_unsuffixed(factor);
                    quote! {
                        if (#factor as u128) % (::core::mem::size_of::<#t>() as u128) != 0 {
                            #cx.whole_elements(#s, #n, ::core::mem::size_of::<#t>())?;
                        }
                    }
                }
            });
        }
        let _ = name;
        // The fields counted in the total must sum to a `usize`, so
        // `total_bytes()` never saturates; a parent arena gets the slab's
        // bytes, which bound a struct's total. A one-of's total sums its
        // alternatives, checked in both cases.
        let parts: Vec<_> = self
            .m
            .fields
            .iter()
            .filter(|f| {
                !matches!(model::role(f), Some(Role::Value(_)))
                    && f.attrs.not_in_total.get().is_none()
            })
            .map(|f| &f.ident)
            .collect();
        let total = match parts.split_first() {
            Some((first, rest)) => {
                let w = self.scope.helper("wide", Span::call_site());
                quote!(#cx.total::<Self, _>(#w(#first) #(+ #rest)*, move || [#(#parts),*])?;)
            }
            None => quote!(),
        };
        let (always, unless_slab) = if self.m.one_of() {
            (total, quote!())
        } else {
            (quote!(), total)
        };
        let carved = carved_fields(self.m).map(|(_, f)| &f.ident);
        let slab = quote!(#rt::slab::<Self, _>([#(#carved),*])?);
        out.extend(quote! {
            #always
            let #slab_bytes = if __ARENA_SLAB {
                #slab
            } else {
                #unless_slab
                0
            };
            #rt::Result::Ok((Self { #(#inits),* }, #slab_bytes))
        });
        let used: Vec<Ident> = self
            .scope
            .used
            .borrow()
            .iter()
            .map(|h| Ident::new(h, Span::call_site()))
            .collect();
        let imports = if used.is_empty() {
            quote!()
        } else {
            quote!(use ::arena::__private::formula::{#(#used),*};)
        };
        quote! {
            #imports
            let #cx = #rt::Sizing::new(#name);
            #out
        }
    }

    /// The gate of a buffer: struct `when`, lever, `when`, `unless`; `None`
    /// when it always holds.
    fn gate(&mut self, f: &'m Field<'a>) -> Option<TokenStream> {
        let mut parts = Vec::new();
        if self.m.attrs.when.is_some() {
            let on = local("struct_on");
            parts.push(quote!(#on));
        }
        if let Some(l) = f.attrs.lever.get() {
            parts.push(quote!(#l));
        }
        let item = f.ident.to_string();
        if let Some(w) = f.attrs.when.get() {
            if let Some((_, c)) = self.eval(w, &item, How::Bool) {
                parts.push(c);
            }
        }
        if let Some(u) = f.attrs.unless.get() {
            if let Some((_, c)) = self.eval(u, &item, How::Bool) {
                parts.push(quote!(!(#c)));
            }
        }
        (!parts.is_empty()).then(|| quote!(#(#parts)&&*))
    }

    /// `let NAME: usize = ...;` for a buffer sized by `size` under `gate`,
    /// through `NAME_raw` when a trim applies.
    fn sized(&mut self, f: &'m Field<'a>, size: TokenStream) -> TokenStream {
        self.sized_with_dims(f, size, None)
    }

    /// [`Gen::sized`], and for a shaped buffer its step dimensions written
    /// to `shapes` when they are asked for and the buffer is on.
    fn sized_with_dims(
        &mut self,
        f: &'m Field<'a>,
        size: TokenStream,
        dims: Option<Vec<TokenStream>>,
    ) -> TokenStream {
        let n = &f.ident;
        let gate = self.gate(f);
        let on = on_ident(f);
        let (gate_line, value, on_cond) = match (gate, &dims) {
            (Some(g), Some(_)) => (
                quote!(let #on: bool = #g;),
                quote!(if #on { #size } else { 0 }),
                quote!(&& #on),
            ),
            (Some(g), None) => (quote!(), quote!(if #g { #size } else { 0 }), quote!()),
            (None, _) => (quote!(), size, quote!()),
        };
        let trim_cond = f.attrs.trim.get().map(|t| quote!(&& !#t));
        let out = local("shapes");
        let shapes = dims.map(|d| {
            quote! {
                if __ARENA_SHAPES #on_cond #trim_cond {
                    #out.#n = [#(#d),*];
                }
            }
        });
        if f.attrs.trim.get().is_none() {
            return quote!(#gate_line let #n: usize = #value; #shapes);
        }
        let raw = raw_ident(f);
        let trim = self.trim(f);
        quote!(#gate_line let #raw: usize = #value; #trim #shapes)
    }

    fn trim(&mut self, f: &'m Field<'a>) -> TokenStream {
        let n = &f.ident;
        let raw = raw_ident(f);
        let Some(t) = f.attrs.trim.get() else {
            return quote!(let #n: usize = #raw;);
        };
        match self.scope.names.get(&t.to_string()).map(|b| b.ty) {
            Some(Ty::Bool) if matches!(model::role(f), Some(Role::Nested { .. })) => {
                // A trimmed region holds nothing: its nested arena is emptied too.
                let inner = inner_ident(f);
                let inner_ty = inner_type(f);
                quote! {
                    let #n: usize = if #t { 0 } else { #raw };
                    let #inner: #inner_ty = if #t { <#inner_ty as ::arena::Arena>::empty() } else { #inner };
                }
            }
            Some(Ty::Bool) => quote!(let #n: usize = if #t { 0 } else { #raw };),
            Some(_) => {
                self.plain_errors.push(syn::Error::new(
                    t.span(),
                    format!("`trim = {t}` needs a condition: a bool `let` or an on/off lever"),
                ));
                quote!()
            }
            None => {
                self.plain_errors.push(syn::Error::new(
                    t.span(),
                    format!("unknown trim condition `{t}`: declare it as a bool `let` or a lever"),
                ));
                quote!()
            }
        }
    }

    fn field(&mut self, i: usize) -> TokenStream {
        let m = self.m;
        let f = &m.fields[i];
        let n = &f.ident;
        let item = n.to_string();
        let Some(role) = model::role(f) else {
            self.bind(n, Ty::Int, "field");
            return quote!();
        };
        let code = match role {
            Role::Value(v) => {
                let Some((ty, code)) = self.eval(v, &item, How::Value) else {
                    self.bind(n, Ty::Ext, "field");
                    return quote!();
                };
                self.value_is_bool.insert(i, ty == Ty::Bool);
                self.bind(n, ty, "field");
                let t = if ty == Ty::Bool {
                    quote!(bool)
                } else {
                    quote!(usize)
                };
                return quote!(let #n: #t = #code;);
            }
            Role::Size(s) => {
                let size = self.eval(s, &item, How::Int).map_or(quote!(0), |(_, c)| c);
                self.sized(f, size)
            }
            Role::Shape(dims) => {
                // The element size, then each dimension: `2 * M * h` for a
                // bf16 `[M, h]`, as the formula text reads.
                let elem = match f.attrs.dtype.get().map(|d| (elem_bytes(d), d)) {
                    Some((Some(e), _)) => {
                        let lit = proc_macro2::Literal::usize_unsuffixed(e);
                        quote!(#lit)
                    }
                    Some((None, d)) => {
                        let t = d.rust();
                        quote!(::core::mem::size_of::<#t>())
                    }
                    None => quote!(1),
                };
                let nf = self.scope.helper("n", Span::call_site());
                let mut product = quote!(#nf(#elem));
                let mut tries = false;
                for d in dims {
                    if let Some(l) = self.lower(d, How::Operand) {
                        tries |= l.tries;
                        let code = if is_compound(d) {
                            let c = l.code;
                            quote!((#c))
                        } else {
                            l.code
                        };
                        product = quote!(#product * #code);
                    }
                }
                let text = shape_text(f);
                let l = Lowered {
                    ty: Ty::Int,
                    code: product,
                    checked: true,
                    tries,
                };
                let size = checked(&item, &text, l);
                // The step's dimensions, each checked as its own formula, for
                // `try_step_with` (compiled out of the other constructors).
                let before = self.errors.len();
                let dims: Vec<TokenStream> = dims
                    .iter()
                    .filter_map(|d| self.eval(d, &item, How::Int).map(|(_, c)| c))
                    .collect();
                let dims =
                    (self.errors.len() == before && dims.len() == dims_len(f)).then_some(dims);
                self.sized_with_dims(f, size, dims)
            }
            Role::Nested { args, size } => {
                let gate = self.gate(f);
                let on = on_ident(f);
                let inner = inner_ident(f);
                let inner_ty = inner_type(f);
                let mut arg_codes = Vec::new();
                for a in args {
                    if let Some((_, c)) = self.eval(a, &item, How::Any) {
                        arg_codes.push(c);
                    }
                }
                let trimmed = f.attrs.trim.get().is_some();
                // The nested arena's bytes: the field's own value unless a
                // formula or a trim comes between.
                let bytes = if size.is_none() && !trimmed {
                    n.clone()
                } else {
                    local(&format!("{n}_bytes"))
                };
                let region = match size {
                    Some(s) => {
                        // `inner` means this arena's bytes here; a field named
                        // `inner` is visible again afterwards.
                        let shadowed = self.scope.names.insert(
                            "inner".into(),
                            Binding {
                                ty: Ty::Int,
                                local: bytes.clone(),
                                what: "the nested arena's bytes `inner`".into(),
                            },
                        );
                        let r = self.eval(s, &item, How::Int);
                        match shadowed {
                            Some(b) => self.scope.names.insert("inner".into(), b),
                            None => self.scope.names.remove("inner"),
                        };
                        Some(r.map_or(quote!(0), |(_, c)| c))
                    }
                    None => None,
                };
                let (levers, shapes) = (local("levers"), local("shapes"));
                let build = quote! {
                    #inner_ty::__arena_build::<true, __ARENA_SHAPES>(
                        #levers,
                        #(#arg_codes,)*
                        &mut #shapes.#n,
                    )?
                };
                // Gated off, the nested arena is not built and its bytes are 0.
                let inner_value = match &gate {
                    Some(_) => {
                        quote!(if #on { #build } else { (<#inner_ty as ::arena::Arena>::empty(), 0) })
                    }
                    None => build,
                };
                let gate_line = gate.map(|g| quote!(let #on: bool = #g;));
                let target = if trimmed { raw_ident(f) } else { n.clone() };
                let s = lit_str(&item);
                let sized = match region {
                    Some(r) => {
                        let r = match gate_line {
                            Some(_) => quote!(if #on { #r } else { 0 }),
                            None => r,
                        };
                        let cx = cx();
                        quote! {
                            let #target: usize = #r;
                            #cx.region_holds(#s, #target, #bytes)?;
                        }
                    }
                    None if trimmed => quote!(let #target: usize = #bytes;),
                    None => quote!(),
                };
                let trim = if trimmed { self.trim(f) } else { quote!() };
                quote! {
                    #gate_line
                    let (#inner, #bytes) = #inner_value;
                    #sized
                    #trim
                }
            }
        };
        self.bind(n, Ty::Int, "field");
        code
    }
}

/// The element size of a built-in dtype, known to the macro.
fn elem_bytes(d: &DType) -> Option<usize> {
    let DType::Builtin(i, _) = d else {
        return None;
    };
    Some(match i.to_string().as_str() {
        "bf16" | "f16" | "i16" | "u16" => 2,
        "f32" | "i32" | "u32" => 4,
        "f64" | "i64" | "u64" => 8,
        _ => 1,
    })
}

/// The type a formula is lowered as.
#[derive(Clone, Copy)]
enum How {
    Int,
    Bool,
    /// A number or a condition, whichever it is.
    Value,
    /// Any type: a nested arena's argument passes through as written.
    Any,
    /// A number as the right operand of a checked operator: a Rust value
    /// stays as written (`n(2) * M * config.vocab_size`).
    Operand,
}

/// The value of a lowered formula; where it can fail, checked once, the
/// fault naming `item` and the formula's `text`.
fn checked(item: &str, text: &str, l: Lowered) -> TokenStream {
    let code = l.code;
    let cx = cx();
    match (l.tries, l.checked, l.ty) {
        (false, false, _) => code,
        (false, true, _) => quote!(#cx.size(#item, #text, #code)?),
        (true, _, Ty::Int) => quote!(#cx.size_with(#item, #text, || Ok(#code))?),
        (true, _, _) => quote!(#cx.value(#item, #text, || Ok(#code))?),
    }
}

/// A dimension that needs parentheses as a factor of the shape's product.
fn is_compound(d: &Formula) -> bool {
    matches!(d.expr.kind, formula::Kind::Bin(..) | formula::Kind::If(..))
}

fn shape_text(f: &Field) -> String {
    let dims = f.attrs.shape.get().map_or(&[][..], |v| v.as_slice());
    let mut parts: Vec<String> = dims
        .iter()
        .map(|d| {
            if is_compound(d) {
                format!("({})", d.text)
            } else {
                d.text.clone()
            }
        })
        .collect();
    let elem = match f.attrs.dtype.get() {
        Some(d) => match elem_bytes(d) {
            Some(e) => e.to_string(),
            None => format!("size_of::<{}>()", d.name()),
        },
        None => "1".to_owned(),
    };
    if elem != "1" {
        parts.insert(0, elem);
    }
    parts.join(" * ")
}

/// The formula text shown in docs, metadata and reports.
fn formula_text(f: &Field) -> String {
    match model::role(f) {
        Some(Role::Size(s)) => s.text.clone(),
        Some(Role::Shape(_)) => shape_text(f),
        Some(Role::Nested { size: Some(s), .. }) => s.text.clone(),
        Some(Role::Nested { size: None, .. }) => "inner".to_owned(),
        Some(Role::Value(v)) => v.text.clone(),
        None => String::new(),
    }
}

fn param_list(m: &Model, with_defaults: bool) -> (Vec<TokenStream>, Vec<TokenStream>) {
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

fn escape_md(s: &str) -> String {
    s.replace('|', "\\|")
}

fn doc_table(m: &Model) -> String {
    let mut s = String::from("| field | bytes | condition |\n|---|---|---|\n");
    for f in &m.fields {
        let info_cond = condition_text(f);
        s.push_str(&format!(
            "| `{}` | `{}` | {} |\n",
            f.ident,
            escape_md(&formula_text(f)),
            escape_md(&info_cond)
        ));
    }
    s
}

fn condition_text(f: &Field) -> String {
    let mut parts = Vec::new();
    if let Some(l) = f.attrs.lever.get() {
        parts.push(format!("lever `{l}`"));
    }
    if let Some(w) = f.attrs.when.get() {
        parts.push(format!("when `{}`", w.text));
    }
    if let Some(u) = f.attrs.unless.get() {
        parts.push(format!("unless `{}`", u.text));
    }
    if let Some(t) = f.attrs.trim.get() {
        parts.push(format!("trimmed by `{t}`"));
    }
    if f.attrs.not_in_total.get().is_some() {
        parts.push("not in total".into());
    }
    if f.attrs.zeroed.get().is_some() {
        parts.push("zeroed".into());
    }
    parts.join("; ")
}

fn inherent(m: &Model, body: TokenStream) -> TokenStream {
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

fn shapes_ident(m: &Model) -> Ident {
    format_ident!("{}Shapes", m.input.ident)
}

fn dims_len(f: &Field) -> usize {
    f.attrs.shape.get().map_or(0, Vec::len)
}

/// `XShapes`: the step dimensions of every shaped buffer, a nested arena's
/// own shapes for a nested field.
fn shapes(m: &Model) -> TokenStream {
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

fn views_ident(m: &Model) -> Ident {
    format_ident!("{}Views", m.input.ident)
}

fn arena_impl(m: &Model, g: &Gen) -> TokenStream {
    let ident = &m.input.ident;
    let name = ident.to_string();
    let align = m.align;
    let one_of = m.one_of();
    let rt = rt();
    let infos = m.fields.iter().enumerate().map(|(fi, f)| {
        let n = f.ident.to_string();
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
            _ => quote!(#i => self.#n,),
        }
    });
    let nested_arms = m.fields.iter().enumerate().filter_map(|(i, f)| {
        let n = &f.ident;
        let i = proc_macro2::Literal::usize_unsuffixed(i);
        matches!(model::role(f), Some(Role::Nested { .. }))
            .then(|| quote!(#i => #rt::nested_layout(&self.#n),))
    });
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
    let carve = if m.phases().is_empty() {
        let body = carve_body(m);
        quote! {
            fn carve_step<'a, M: ::arena::Memory>(#carve_sig) -> #carve_ret {
                #body
            }
        }
    } else {
        // The slab hands in the offsets it planned once; a bare carve plans.
        let body = phased_carve(m);
        quote! {
            fn carve_step<'a, M: ::arena::Memory>(#carve_sig) -> #carve_ret {
                self.carve_planned::<M>(step, region, carving, ::core::option::Option::None)
            }
            fn carve_planned<'a, M: ::arena::Memory>(
                #carve_sig
                offsets: ::core::option::Option<&[usize]>,
            ) -> #carve_ret {
                #body
            }
        }
    };
    let slab = slab_bytes_body(m);
    let shapes_ty = shapes_ident(m);
    let phase_names = m.phases().iter().map(ToString::to_string);
    let phases_item = (!m.phases().is_empty())
        .then(|| quote!(const PHASES: &'static [&'static str] = &[#(#phase_names),*];));
    let one_of_item = one_of.then(|| {
        quote!(
            const ONE_OF: bool = true;
        )
    });
    let nested_arms: Vec<_> = nested_arms.collect();
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
    let lever_pushes: Vec<_> = lever_pushes.chain(nested_levers).collect();
    let levers_item = (!lever_pushes.is_empty()).then(|| {
        quote! {
            fn collect_lever_names(out: &mut #rt::Vec<&'static str>) {
                #(#lever_pushes)*
            }
        }
    });
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

            #nested_item

            #[inline]
            fn slab_bytes(&self) -> #rt::Result<usize, ::arena::SizeError> {
                #slab
            }

            #levers_item

            #carve
        }
    }
}

impl Field<'_> {
    fn ty_name(&self) -> String {
        // `Region<Inner>` -> `Inner`
        if let syn::Type::Path(p) = self.ty {
            if let Some(seg) = p.path.segments.last() {
                if let syn::PathArguments::AngleBracketed(a) = &seg.arguments {
                    if let Some(syn::GenericArgument::Type(t)) = a.args.first() {
                        return quote!(#t).to_string().replace(' ', "");
                    }
                }
            }
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

/// `slab_bytes`: the runtime's slab of the carved fields' bytes.
fn slab_bytes_body(m: &Model) -> TokenStream {
    let bytes = carved_fields(m).map(|(_, f)| {
        let n = &f.ident;
        match model::role(f) {
            Some(Role::Nested { .. }) => quote!(self.#n.bytes),
            _ => quote!(self.#n),
        }
    });
    let rt = rt();
    quote!(#rt::slab::<Self, _>([#(#bytes),*]))
}

/// The body of `carve_step`: `self` is the reservation, `step` the sizes
/// of the views.
fn carve_body(m: &Model) -> TokenStream {
    let rt = rt();
    let views = views_ident(m);
    if m.one_of() {
        // Every alternative is checked now; its view is cut when taken.
        let checks = carved_fields(m).map(|(i, f)| {
            let n = &f.ident;
            let i = proc_macro2::Literal::usize_unsuffixed(i);
            match model::role(f) {
                Some(Role::Nested { .. }) => quote!(one.nested(#i, &self.#n, &step.#n)?;),
                _ => {
                    let t = view_elem(f);
                    quote!(one.view::<#t>(#i)?;)
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
            _ => {
                let t = view_elem(f);
                quote!(#n: c.view::<#t>(#i)?)
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

fn phases_ident(m: &Model) -> Ident {
    format_ident!("{}Phases", m.input.ident)
}

/// `embed` -> `XEmbedViews`.
fn phase_views_ident(m: &Model, phase: &Ident) -> Ident {
    let name = phase.to_string();
    let camel: String = name
        .trim_start_matches("r#")
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect();
    format_ident!("{}{}Views", m.input.ident, camel)
}

/// The carved fields with their position among them and their phase range.
fn carved_live<'m, 'a>(m: &'m Model<'a>) -> Vec<(usize, usize, &'m Field<'a>, (usize, usize))> {
    let last = m.phases().len().saturating_sub(1);
    carved_fields(m)
        .enumerate()
        .map(|(k, (i, f))| {
            (
                k,
                i,
                f,
                m.live.get(i).copied().flatten().unwrap_or((0, last)),
            )
        })
        .collect()
}

/// `carve_step` of an arena with phases: the offsets (planned unless asked
/// otherwise), every phase's pieces checked once, and the value whose phase
/// methods hand out one phase's views at a time.
fn phased_carve(m: &Model) -> TokenStream {
    let rt = rt();
    let phases_ty = phases_ident(m);
    let carved = carved_live(m);
    let n = carved.len();
    let bytes = |who: TokenStream| {
        carved.iter().map(move |(_, _, f, _)| {
            let id = &f.ident;
            match model::role(f) {
                Some(Role::Nested { .. }) => quote!(#who.#id.bytes),
                _ => quote!(#who.#id),
            }
        })
    };
    let reserved = bytes(quote!(self));
    let step = bytes(quote!(step));
    let nested_checks = carved
        .iter()
        .filter(|(_, _, f, _)| matches!(model::role(f), Some(Role::Nested { .. })))
        .map(|(k, _, f, (first, _))| {
            let id = &f.ident;
            quote! {
                if phase == #first {
                    ::arena::Arena::carve_step::<M>(
                        &self.#id.inner,
                        &step.#id.inner,
                        #rt::piece::<M>(&mut pieces[#k]),
                        ::arena::Carving::default(),
                    )?;
                }
            }
        });
    let phases = m.phases().len();
    quote! {
        let reserved: [usize; #n] = [#(#reserved),*];
        let step_bytes: [usize; #n] = [#(#step),*];
        let offsets = #rt::phase_offsets::<Self, #n>(&reserved, carving, offsets)?;
        let mut region = region;
        for phase in 0..#phases {
            let mut pieces = #rt::phase_pieces::<Self, M, #n>(
                M::reborrow(&mut region), phase, &offsets, &reserved, &step_bytes, None,
            )?;
            #(#nested_checks)*
            let _ = &mut pieces;
        }
        #rt::Result::Ok(#phases_ty {
            __arena: self,
            __step: step,
            __region: region,
            __offsets: offsets,
            __reserved: reserved,
            __step_bytes: step_bytes,
            __poison: carving.poison,
        })
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
    let n = carved.len();
    let names: Vec<String> = m.phases().iter().map(ToString::to_string).collect();
    let mut items = TokenStream::new();
    let mut methods = TokenStream::new();
    for (p, phase) in m.phases().iter().enumerate() {
        let views = phase_views_ident(m, phase);
        let live: Vec<_> = carved
            .iter()
            .filter(|(_, _, _, (a, b))| *a <= p && p <= *b)
            .collect();
        let fields = live.iter().map(|(_, _, f, _)| view_field(f));
        let inits = live.iter().map(|(k, _, f, _)| {
            let id = &f.ident;
            let s = id.to_string();
            match model::role(f) {
                Some(Role::Nested { .. }) => quote! {
                    #id: ::arena::Arena::carve_step::<M>(
                        &self.__arena.#id.inner,
                        &self.__step.#id.inner,
                        #rt::piece::<M>(&mut pieces[#k]),
                        ::arena::Carving::default(),
                    )
                    .expect("checked when the slab was carved")
                },
                _ => {
                    let t = view_elem(f);
                    quote!(#id: #rt::piece_view::<M, #t>(#ident::NAME, #s, &mut pieces[#k]))
                }
            }
        });
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
        let mdoc = format!(
            "The views of phase `{phase}`: every buffer live in it. A buffer whose range begins here is zeroed if `zeroed`, and poisoned first in poison mode. Borrows the whole slab: one phase's views at a time."
        );
        methods.extend(quote! {
            #[doc = #mdoc]
            #[track_caller]
            pub fn #phase(&mut self) -> #views<'_, M> {
                let mut pieces = #rt::phase_pieces::<#ident, M, #n>(
                    M::reborrow(&mut self.__region),
                    #p,
                    &self.__offsets,
                    &self.__reserved,
                    &self.__step_bytes,
                    ::core::option::Option::Some(self.__poison),
                )
                .expect("checked when the slab was carved");
                #views {
                    #(#inits,)*
                    __arena_marker: ::core::marker::PhantomData,
                }
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
            __arena: &'a #ident,
            __step: &'a #ident,
            __region: M::Bytes<'a>,
            __offsets: [usize; #n],
            __reserved: [usize; #n],
            __step_bytes: [usize; #n],
            __poison: bool,
        }

        impl<'a, M: ::arena::Memory> #phases_ty<'a, M> {
            #methods
        }

        #items
    }
}

fn field_doc(f: &Field) -> String {
    let mut d = f.doc.join("\n");
    if !d.is_empty() {
        d.push_str("\n\n");
    }
    d.push_str(&format!("Bytes: `{}`", formula_text(f)));
    let c = condition_text(f);
    if !c.is_empty() {
        d.push_str(&format!(" ({c})"));
    }
    d
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
        _ => {
            let t = view_elem(f);
            quote!(#[doc = #d] #fvis #n: M::Slice<'a, #t>)
        }
    }
}

fn views(m: &Model) -> TokenStream {
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
                _ => {
                    let t = view_elem(f);
                    quote! {
                        #[doc = #d]
                        #[track_caller]
                        pub fn #n(&mut self) -> M::Slice<'_, #t> {
                            self.__one_of.view::<#t>(#i).expect("checked when carved")
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

/// Items that keep the user's other code compiling while the errors are fixed.
fn stubs(m: &Model) -> TokenStream {
    let ident = &m.input.ident;
    let vis = &m.input.vis;
    let (all_decls, _) = param_list(m, true);
    let (req_decls, _) = param_list(m, false);
    let rt = rt();
    let name = ident.to_string();
    let (levers, shapes) = (local("levers"), local("shapes"));
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
            type Views<'a, M: ::arena::Memory> = () where Self: 'a;
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
    }
}
