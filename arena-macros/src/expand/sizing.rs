//! `__arena_build`: the sizing, one checked Rust expression per formula,
//! the lets and levers before the fields that read them.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::attr::Field;
use crate::formula::lower::{BUILTINS, Binding, Env, HELPERS, Lowered, Lowerer, Ty};
use crate::formula::{self, FError, Formula};
use crate::infer::LetType;
use crate::model::{self, Model, Node, Role};

use super::docs::{is_compound, shape_text};
use super::shapes::dims_len;
use super::{carved_fields, inner_type, lit_str, local, rt};

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

pub(super) struct Gen<'m, 'a> {
    m: &'m Model<'a>,
    scope: Scope,
    pub(super) errors: Vec<(&'m Formula, FError)>,
    pub(super) plain_errors: Vec<syn::Error>,
    /// For each field: `Some(true)` when its value is a bool (value fields only).
    pub(super) value_is_bool: HashMap<usize, bool>,
    /// The type each let takes from its uses (see `infer`).
    let_types: Vec<LetType>,
}

/// The sizing context (`arena::__private::Sizing`) of `__arena_build`.
fn cx() -> Ident {
    local("cx")
}

/// A trimmed field's size before its trim.
fn raw_ident(f: &Field) -> Ident {
    local(&format!("{}_raw", f.name()))
}

/// Whether a gated field is on.
fn on_ident(f: &Field) -> Ident {
    local(&format!("{}_on", f.name()))
}

/// The dtype of a buffer whose element type is chosen at run time.
pub(super) fn dtype_ident(f: &Field) -> Ident {
    local(&format!("{}_dtype", f.name()))
}

/// A nested field's arena.
fn inner_ident(f: &Field) -> Ident {
    local(&format!("{}_inner", f.name()))
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
    if let formula::Kind::Call(p, _) = &e.kind
        && p.len() == 1
        && !BUILTINS.contains(&p[0].as_str())
    {
        out.insert(p[0].clone());
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
                .chain(a.dtype.get().and_then(crate::attr::DType::runtime))
        }))
}

impl<'m, 'a> Gen<'m, 'a> {
    pub(super) fn new(m: &'m Model<'a>, let_types: Vec<LetType>) -> Self {
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
    pub(super) fn constructor(&mut self) -> TokenStream {
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
                    let read = if l.flag.is_some() {
                        quote!(flag_lever)
                    } else {
                        quote!(bool_lever)
                    };
                    quote!(let #n: bool = #rt::#read(#levers, #s, #d)?;)
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
                        Some(LetType::DType) => {
                            let code = self.dtype_code(&l.formula, &l.name.to_string());
                            let n = &l.name;
                            out.extend(quote!(let #n: ::arena::DType = #code;));
                            self.scope.names.insert(
                                n.to_string(),
                                Binding {
                                    ty: Ty::Opaque,
                                    local: n.clone(),
                                    what: format!("let `{n}`, an `arena::DType`"),
                                },
                            );
                            continue;
                        }
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
                Some(Role::Size(_) | Role::Shape(_)) if is_dyn(f) => {
                    let dt = dtype_ident(f);
                    quote!(#n: ::arena::DynBytes::new(#n, #dt))
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
            let s = lit_str(&f.name());
            // A formula whose every value is a multiple of a constant that the
            // element size divides needs no check.
            let factor = formula::factor(&formula.expr);
            if d.runtime().is_some() {
                // Every dtype's element divides 8.
                if !factor.is_multiple_of(8) {
                    let dt = dtype_ident(f);
                    out.extend(quote!(#cx.whole_elements(#s, #n, #dt.bytes())?;));
                }
                continue;
            }
            out.extend(match d.elem_bytes() {
                Some(e) if factor.is_multiple_of(e as u128) => quote!(),
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
        let item = f.name();
        if let Some(w) = f.attrs.when.get()
            && let Some((_, c)) = self.eval(w, &item, How::Bool)
        {
            parts.push(c);
        }
        if let Some(u) = f.attrs.unless.get()
            && let Some((_, c)) = self.eval(u, &item, How::Bool)
        {
            parts.push(quote!(!(#c)));
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

    /// The code of a dtype chosen at run time: `f` as plain Rust, which
    /// rustc checks is an `arena::DType` where it is bound; a number or a
    /// condition is an error here.
    fn dtype_code(&mut self, f: &'m Formula, item: &str) -> TokenStream {
        let Some(l) = self.lower(f, How::Any) else {
            return quote!(::arena::DType::U8);
        };
        if matches!(l.ty, Ty::Int | Ty::Bool | Ty::Str) {
            let what = match l.ty {
                Ty::Int => "a number",
                Ty::Bool => "a condition",
                _ => "a string",
            };
            self.errors.push((
                f,
                FError::new(
                    f.expr.loc,
                    format!(
                        "`dtype = {}` is {what}: a dtype chosen at run time is an expression of type `arena::DType`, such as a parameter `dtype: arena::DType` or `DType::BF16`",
                        f.text
                    ),
                ),
            ));
            return quote!(::arena::DType::U8);
        }
        checked(item, &f.text, l)
    }

    fn field(&mut self, i: usize) -> TokenStream {
        let m = self.m;
        let f = &m.fields[i];
        let n = &f.ident;
        let item = f.name();
        let Some(role) = model::role(f) else {
            self.bind(n, Ty::Int, "field");
            return quote!();
        };
        // A dtype chosen at run time, before the size that reads it.
        let dtype_line = match f.attrs.dtype.get().and_then(crate::attr::DType::runtime) {
            Some(d) if matches!(role, Role::Size(_) | Role::Shape(_)) => {
                let code = self.dtype_code(d, &item);
                let dt = dtype_ident(f);
                quote!(let #dt: ::arena::DType = #code;)
            }
            _ => quote!(),
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
                let sized = self.sized(f, size);
                quote!(#dtype_line #sized)
            }
            Role::Shape(dims) => {
                // The element size, then each dimension: `2 * M * h` for a
                // bf16 `[M, h]`, as the formula text reads.
                let elem = match f.attrs.dtype.get().map(|d| (d.elem_bytes(), d)) {
                    Some((_, d)) if d.runtime().is_some() => {
                        let dt = dtype_ident(f);
                        quote!(#dt.bytes())
                    }
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
                let sized = self.sized_with_dims(f, size, dims);
                quote!(#dtype_line #sized)
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
                    local(&format!("{item}_bytes"))
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

/// Whether field `f` is a buffer whose dtype is chosen at run time.
pub(super) fn is_dyn(f: &Field) -> bool {
    f.attrs.dtype.get().is_some_and(|d| d.runtime().is_some())
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
pub(super) fn checked(item: &str, text: &str, l: Lowered) -> TokenStream {
    let code = l.code;
    let cx = cx();
    match (l.tries, l.checked, l.ty) {
        (false, false, _) => code,
        (false, true, _) => quote!(#cx.size(#item, #text, #code)?),
        (true, _, Ty::Int) => quote!(#cx.size_with(#item, #text, || Ok(#code))?),
        (true, _, _) => quote!(#cx.value(#item, #text, || Ok(#code))?),
    }
}
