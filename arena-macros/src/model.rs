//! The checked model of a derived struct: every field's role, the names in
//! scope, and the order in which lets and fields are computed.

use std::collections::{BTreeMap, HashMap};

use proc_macro2::Ident;

use proc_macro2::Span;
use syn::{Data, DeriveInput, Fields};

use crate::attr::{
    DType, Errors, Field, Let, Lever, Param, StructAttrs, doc_lines, parse_field_attrs,
    parse_struct_attrs,
};
use crate::formula::{Expr, Formula, Kind, did_you_mean, edit_distance};

/// What a field is.
pub enum Role<'f> {
    /// `size = formula`.
    Size(&'f Formula),
    /// `shape = [dims]` with a `dtype`.
    Shape(&'f [Formula]),
    /// `nested(args)` with an optional `size` using `inner`.
    Nested {
        args: &'f [Formula],
        size: Option<&'f Formula>,
    },
    /// `value = formula`.
    Value(&'f Formula),
}

/// A node of the computation order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Node {
    Let(usize),
    Field(usize),
}

pub struct Model<'a> {
    pub input: &'a DeriveInput,
    pub attrs: StructAttrs,
    pub fields: Vec<Field<'a>>,
    pub align: usize,
    /// Lets and fields in an order where every name is computed before its use.
    pub order: Vec<Node>,
    /// Each field's phase range, indices into `phases`: `None` without
    /// `live` (every phase).
    pub live: Vec<Option<(usize, usize)>>,
}

impl Model<'_> {
    pub fn params(&self) -> &[Param] {
        self.attrs
            .params
            .as_ref()
            .map_or(&[], |(_, p)| p.as_slice())
    }

    pub fn lets(&self) -> &[Let] {
        &self.attrs.lets
    }

    pub fn levers(&self) -> &[Lever] {
        &self.attrs.levers
    }

    pub fn one_of(&self) -> bool {
        self.attrs.one_of.is_some()
    }

    /// The declared phases, empty without `phases(...)`.
    pub fn phases(&self) -> &[proc_macro2::Ident] {
        self.attrs
            .phases
            .as_ref()
            .map_or(&[], |(_, p)| p.as_slice())
    }
}

pub fn role<'f>(f: &'f Field) -> Option<Role<'f>> {
    let a = &f.attrs;
    if let Some(args) = a.nested.get() {
        return Some(Role::Nested {
            args,
            size: a.size.get(),
        });
    }
    if let Some(v) = a.value.get() {
        return Some(Role::Value(v));
    }
    if let Some(s) = a.size.get() {
        return Some(Role::Size(s));
    }
    a.shape.get().map(|s| Role::Shape(s.as_slice()))
}

/// Parses and checks the input; errors go to `errs`, and a model is returned
/// whenever the struct's shape could be read, so stubs can still be emitted.
pub fn build<'a>(input: &'a DeriveInput, errs: &mut Errors) -> Option<Model<'a>> {
    let named = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(n) => n,
            _ => {
                errs.at(
                    input.ident.span(),
                    "`#[derive(Arena)]` needs a struct with named fields, one per buffer",
                );
                return None;
            }
        },
        _ => {
            errs.at(
                input.ident.span(),
                "`#[derive(Arena)]` needs a struct with named fields, one per buffer",
            );
            return None;
        }
    };
    if let Some(p) = input.generics.params.first() {
        errs.at(
            syn::spanned::Spanned::span(p),
            "`#[derive(Arena)]` does not support generic parameters: an arena's sizes are plain `usize`",
        );
    }
    let attrs = parse_struct_attrs(&input.attrs, errs);
    let fields: Vec<Field> = named
        .named
        .iter()
        .filter_map(|f| {
            Some(Field {
                ident: f.ident.clone()?,
                ty: &f.ty,
                vis: &f.vis,
                doc: doc_lines(&f.attrs),
                attrs: parse_field_attrs(&f.attrs, errs),
            })
        })
        .collect();
    let mut attrs = attrs;
    implicit_levers(&mut attrs, &fields, errs);
    let align = attrs.align.map_or(256, |(v, _)| v);
    let mut model = Model {
        input,
        attrs,
        fields,
        align,
        order: Vec::new(),
        live: Vec::new(),
    };
    dtype_values(&mut model);
    check_params(&model, errs);
    check_names(&model, errs);
    for f in &model.fields {
        check_field(&model, f, errs);
    }
    model.live = check_phases(&model, errs);
    model.order = order(&model, errs);
    Some(model)
}

/// The phase range of every field, checked: phases declared once and not on
/// a one-of arena, every `live` naming declared phases in order.
/// A phase's name in the views type it gets: `mlp_up` -> `MlpUp`.
pub fn phase_camel(phase: &Ident) -> String {
    syn::ext::IdentExt::unraw(phase)
        .to_string()
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// The names the views of phase `p` take: the method `p`, the method
/// `try_p` and the type `X{Camel}Views`.
pub fn phase_names(p: &Ident) -> [(String, &'static str); 3] {
    let name = syn::ext::IdentExt::unraw(p).to_string();
    [
        (format!("fn {name}"), "method"),
        (format!("fn try_{name}"), "method"),
        (format!("type {}", phase_camel(p)), "views type"),
    ]
}

fn check_phases(m: &Model, errs: &mut Errors) -> Vec<Option<(usize, usize)>> {
    let phases = m.phases();
    for (i, p) in phases.iter().enumerate() {
        if phases[..i].contains(p) {
            errs.at(p.span(), format!("phase `{p}` is declared twice"));
            continue;
        }
        // Two phases whose generated names meet (`mlp_1` and `mlp1` give one
        // views type, `decode` and `try_decode` one method): one error, at
        // the later phase, naming the other.
        let mine = phase_names(p);
        let other = phases[..i].iter().filter(|q| *q != p).find_map(|q| {
            let theirs = phase_names(q);
            mine.iter()
                .find(|(n, _)| theirs.iter().any(|(t, _)| t == n))
                .map(|(n, what)| (q, n.clone(), *what))
        });
        if let Some((q, n, what)) = other {
            let shown = match n.split_once(' ') {
                Some(("type", camel)) => format!("{}{camel}Views", m.input.ident),
                Some((_, f)) => f.to_owned(),
                None => n,
            };
            errs.at(
                p.span(),
                format!(
                    "phase `{p}` and phase `{q}` would both generate the {what} `{shown}`: rename one of them"
                ),
            );
        }
    }
    if let (Some((span, _)), Some(_)) = (&m.attrs.phases, m.attrs.one_of) {
        errs.at(
            *span,
            "a `one_of` arena's alternatives already share one region: declare `phases` on the arena that holds it",
        );
    }
    let names: Vec<String> = phases.iter().map(ToString::to_string).collect();
    let index = |p: &Ident, errs: &mut Errors| -> Option<usize> {
        let found = phases.iter().position(|q| q == p);
        if found.is_none() {
            let hint = did_you_mean(&p.to_string(), names.iter().map(String::as_str))
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_else(|| format!("; the phases are {}", names.join(", ")));
            errs.at(p.span(), format!("unknown phase `{p}`{hint}"));
        }
        found
    };
    m.fields
        .iter()
        .map(|f| {
            let live = f.attrs.live.get()?;
            let key = f.attrs.live.span.unwrap_or_else(|| live.first.span());
            if phases.is_empty() {
                errs.at(
                    key,
                    "`live` needs the struct's phases: declare them with `#[arena(phases(...))]`",
                );
                return None;
            }
            if f.attrs.value.get().is_some() {
                errs.at(
                    key,
                    format!("`live` applies to buffers; `{}` is a `value` field, computed and not carved", f.name()),
                );
                return None;
            }
            if let Some(dots) = live.exclusive {
                errs.at(dots, "a live range is inclusive: write `first..=last`");
                return None;
            }
            let first = index(&live.first, errs);
            let last = match &live.last {
                Some(l) => index(l, errs),
                None => first,
            };
            let (first, last) = (first?, last?);
            if first > last {
                let l = live.last.as_ref().unwrap_or(&live.first);
                errs.at(
                    live.first.span(),
                    format!(
                        "`live = {}..={l}` is empty: `{}` comes after `{l}` in `phases(...)`",
                        live.first, live.first
                    ),
                );
                return None;
            }
            Some((first, last))
        })
        .collect()
}

/// A field lever no struct attribute declares is an on/off lever, off when
/// unset (the design card's `lever = "METRALE_FP8_ROWWISE"` alone). One that
/// is a near miss of another lever of the struct is an error instead: a
/// misspelt environment variable silently never turns on.
fn implicit_levers(attrs: &mut StructAttrs, fields: &[Field], errs: &mut Errors) {
    let mut known: Vec<Ident> = attrs.levers.iter().map(|l| l.name.clone()).collect();
    for f in fields {
        let Some(lever) = f.attrs.lever.get() else {
            continue;
        };
        if known.contains(lever) {
            continue;
        }
        let name = lever.to_string();
        let near = known.iter().find(|k| {
            let d = edit_distance(&k.to_string(), &name);
            d > 0 && d <= 2
        });
        if let Some(near) = near {
            errs.at(
                lever.span(),
                format!(
                    "lever `{name}` is a near miss of lever `{near}` of this struct; did you mean `{near}`? A misspelt lever never turns on: to keep both, declare `#[arena(lever({name}))]` on the struct"
                ),
            );
            continue;
        }
        known.push(lever.clone());
        attrs.levers.push(Lever {
            name: lever.clone(),
            default: None,
            parse: None,
            flag: None,
        });
    }
}

/// The `dtype = PATH` that read a value, not a type: an element type chosen
/// at run time. On a `DynBytes` field every path is one (a constant such as
/// `crate::ACT`); elsewhere a single name that the struct declares (a
/// parameter, a let, a lever, a field), so that its checks name it.
fn dtype_values(m: &mut Model) {
    let names: Vec<String> = declared_names(m).into_iter().map(|(n, _, _)| n).collect();
    for f in &mut m.fields {
        let Some(DType::Path(p)) = &f.attrs.dtype.value else {
            continue;
        };
        let declared = p
            .get_ident()
            .is_some_and(|id| names.contains(&id.to_string()));
        if !declared && !is_dyn_bytes(f.ty) {
            continue;
        }
        if let Ok(formula) = Formula::from_tokens(quote::quote!(#p), syn::spanned::Spanned::span(p))
        {
            f.attrs.dtype.value = Some(DType::Runtime(formula));
        }
    }
}

/// Whether a field's type is spelled `DynBytes` (any path ending in it).
pub fn is_dyn_bytes(ty: &syn::Type) -> bool {
    let syn::Type::Path(p) = ty else {
        return false;
    };
    p.qself.is_none()
        && p.path
            .segments
            .last()
            .is_some_and(|seg| seg.ident == "DynBytes" && seg.arguments.is_none())
}

fn check_params(m: &Model, errs: &mut Errors) {
    let mut seen_default = false;
    for p in m.params() {
        if p.default.is_some() {
            seen_default = true;
        } else if seen_default {
            errs.at(
                p.name.span(),
                format!(
                    "parameter `{}` has no default but follows one that has: parameters with defaults come last",
                    p.name
                ),
            );
        }
    }
}

/// Every name a formula can see, and what declares it.
fn declared_names(m: &Model) -> Vec<(String, Span, &'static str)> {
    let mut out = Vec::new();
    for p in m.params() {
        out.push((p.name.to_string(), p.name.span(), "a parameter"));
        if let Some(s) = &p.short {
            out.push((s.to_string(), s.span(), "a parameter's short name"));
        }
    }
    for l in m.levers() {
        out.push((l.name.to_string(), l.name.span(), "a lever"));
    }
    for l in m.lets() {
        out.push((l.name.to_string(), l.name.span(), "a let"));
    }
    for f in &m.fields {
        out.push((f.ident.to_string(), f.ident.span(), "a field"));
    }
    out
}

fn check_names(m: &Model, errs: &mut Errors) {
    let mut seen: HashMap<String, &'static str> = HashMap::new();
    for (name, span, what) in declared_names(m) {
        if name == "inner" && what != "a field" {
            errs.at(
                span,
                "`inner` is reserved: in a nested field's `size` it names the nested arena's bytes",
            );
        }
        if let Some(prev) = seen.get(&name) {
            errs.at(
                span,
                format!("`{name}` is declared twice: it is already {prev}"),
            );
        } else {
            seen.insert(name, what);
        }
    }
}

fn key_span<T>(slot: &crate::attr::Slot<T>) -> Option<Span> {
    slot.span
}

fn check_field(m: &Model, f: &Field, errs: &mut Errors) {
    let a = &f.attrs;
    let name = &f.ident;
    let roles = [
        ("size", key_span(&a.size)),
        ("shape", key_span(&a.shape)),
        ("nested", key_span(&a.nested)),
        ("value", key_span(&a.value)),
    ];
    let given: Vec<_> = roles
        .iter()
        .filter_map(|(k, s)| s.map(|s| (*k, s)))
        .collect();
    match given.as_slice() {
        [] if a.incomplete => {}
        [] => errs.at(
            name.span(),
            format!(
                "field `{name}` has no size: give `size = ...`, `shape = [...]` with `dtype`, `nested(...)` or `value = ...`"
            ),
        ),
        [_] => {}
        [("size", _), ("nested", _)] => {}
        [(k1, _), (k2, s2), ..] => errs.at(
            *s2,
            format!("`{k1}` and `{k2}` cannot both be given for field `{name}`: a field has one size"),
        ),
    }
    if let (Some(s), None, false) = (key_span(&a.shape), a.dtype.get(), a.incomplete) {
        errs.at(
            s,
            format!("`shape` needs a `dtype` to give the element size of field `{name}`"),
        );
    }
    if a.nested.get().is_some() && !is_region(f.ty) {
        errs.at(
            syn::spanned::Spanned::span(f.ty),
            format!("a `nested(...)` field has type `arena::Region<T>`, where `T` derives `Arena`; `{}` is not", f.name()),
        );
    }
    if a.nested.get().is_some()
        && let Some(s) = key_span(&a.dtype)
    {
        errs.at(
            s,
            "a nested region takes its element types from its own arena: remove `dtype`",
        );
    }
    let mut misspelt = false;
    if let Some(DType::Path(p)) = a.dtype.get()
        && let Some(i) = p.get_ident()
        && i.to_string()
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        // A near miss of a name of the struct: a dtype chosen at run time,
        // misspelt, would otherwise read as an unknown type.
        let names = declared_names(m);
        if let Some(near) = did_you_mean(&i.to_string(), names.iter().map(|(n, _, _)| n.as_str())) {
            misspelt = true;
            let what = names
                .iter()
                .find(|(n, _, _)| n == near)
                .map_or("", |(_, _, w)| *w);
            errs.at(
                i.span(),
                format!("`dtype = {i}`: no such type or name; did you mean `{near}`, {what}?"),
            );
        }
    }
    let buffer = a.value.get().is_none() && a.nested.get().is_none();
    match (a.dtype.get().and_then(DType::runtime), is_dyn_bytes(f.ty)) {
        (Some(d), false) if buffer => errs.at(
            syn::spanned::Spanned::span(f.ty),
            format!(
                "field `{}` has a dtype chosen at run time (`dtype = {}`): give it type `arena::DynBytes` (spelled so: the derive reads the type's name), which holds its bytes and its dtype",
                f.name(),
                d.text
            ),
        ),
        (None, true) if buffer && !misspelt && !a.incomplete => errs.at(
            syn::spanned::Spanned::span(f.ty),
            format!(
                "`arena::DynBytes` is the type of a buffer whose dtype is chosen at run time: give field `{}` `dtype = EXPR`, an expression of type `arena::DType` (such as a parameter), or type `usize` for a static dtype",
                f.name()
            ),
        ),
        _ => {}
    }
    if a.value.get().is_some() {
        let buffer_only = [
            ("dtype", key_span(&a.dtype)),
            ("lever", key_span(&a.lever)),
            ("when", key_span(&a.when)),
            ("unless", key_span(&a.unless)),
            ("not_in_total", key_span(&a.not_in_total)),
            ("zeroed", key_span(&a.zeroed)),
            ("trim", key_span(&a.trim)),
            ("align", key_span(&a.align)),
        ];
        // (`live` on a value field is reported with the phases.)
        for (k, s) in buffer_only {
            if let Some(s) = s {
                errs.at(
                    s,
                    format!("`{k}` applies to buffers; `{name}` is a `value` field, computed and not carved"),
                );
            }
        }
        if m.one_of() {
            errs.at(
                name.span(),
                "a `one_of` arena holds alternative layouts only: move value fields to the arena that holds it",
            );
        }
    }
    if let Some(lever) = a.lever.get() {
        // An undeclared lever is declared implicitly, or was reported as a
        // near miss of another.
        if m.levers()
            .iter()
            .any(|l| l.name == *lever && l.parse.is_some())
        {
            errs.at(
                lever.span(),
                format!(
                    "lever `{lever}` has a parser, so it is not on/off: use its value in a formula instead of `lever = {lever}`"
                ),
            );
        }
    }
    if let Some(DType::Path(p)) = a.dtype.get() {
        // Primitive types that are not plain data: some byte values are not
        // valid values of them, so a view over arbitrary bytes is unsound.
        if let Some(i) = p.get_ident().filter(|i| *i == "bool" || *i == "char") {
            errs.at(
                syn::spanned::Spanned::span(p),
                format!(
                    "`dtype = {i}`: `{i}` is not a plain-data type (not every byte pattern is a valid `{i}`, so a view of it over arbitrary bytes would be unsound); use `{}` and compare with 0",
                    if *i == "bool" { "u8" } else { "u32" }
                ),
            );
        }
        if p.get_ident().is_some_and(|i| {
            did_you_mean(
                &i.to_string(),
                [
                    "bf16", "f16", "f32", "f64", "f8e4m3", "f8e5m2", "f4e2m1x2", "e8m0", "i8",
                    "u8", "i16", "u16", "i32", "u32", "i64", "u64",
                ],
            )
            .is_some()
                && i.to_string()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        }) {
            let i = p.get_ident().map(ToString::to_string).unwrap_or_default();
            let guess = did_you_mean(
                &i,
                [
                    "bf16", "f16", "f32", "f64", "f8e4m3", "f8e5m2", "f4e2m1x2", "e8m0", "i8",
                    "u8", "i16", "u16", "i32", "u32", "i64", "u64",
                ],
            )
            .unwrap_or("u8");
            errs.at(
                syn::spanned::Spanned::span(p),
                format!("unknown dtype `{i}`; did you mean `{guess}`?"),
            );
        }
    }
}

/// The let and field names a formula reads.
fn uses(e: &Expr, out: &mut Vec<(String, Span)>) {
    match &e.kind {
        Kind::Name(n) => out.push((n.clone(), e.loc.span)),
        Kind::Call(p, args) if p.len() == 1 && p[0] == "trimmed" => {
            if let Some(Kind::Name(n)) = args.first().map(|a| &a.unparen().kind) {
                out.push((format!("trimmed:{n}"), args[0].loc.span));
            }
        }
        _ => {}
    }
    for c in e.children() {
        uses(c, out);
    }
}

fn field_formulas<'f>(m: &'f Model, f: &'f Field) -> Vec<&'f Formula> {
    let a = &f.attrs;
    let mut out: Vec<&Formula> = Vec::new();
    out.extend(a.size.get());
    out.extend(a.shape.get().into_iter().flatten());
    out.extend(a.nested.get().into_iter().flatten());
    out.extend(a.value.get());
    out.extend(a.when.get());
    out.extend(a.unless.get());
    out.extend(a.dtype.get().and_then(DType::runtime));
    if a.value.get().is_none() {
        out.extend(m.attrs.when.as_ref());
    }
    out
}

/// A node on the depth-first stack: its dependencies and the next one to visit.
type Frame = (Node, Vec<(Node, Span)>, usize);

fn order(m: &Model, errs: &mut Errors) -> Vec<Node> {
    let mut index: BTreeMap<String, Node> = BTreeMap::new();
    for (i, l) in m.lets().iter().enumerate() {
        index.entry(l.name.to_string()).or_insert(Node::Let(i));
    }
    for (i, f) in m.fields.iter().enumerate() {
        index.entry(f.ident.to_string()).or_insert(Node::Field(i));
    }
    let trim_groups: HashMap<String, Vec<usize>> =
        m.fields
            .iter()
            .enumerate()
            .fold(HashMap::new(), |mut acc, (i, f)| {
                if let Some(t) = f.attrs.trim.get() {
                    acc.entry(t.to_string()).or_default().push(i);
                }
                acc
            });
    let deps_of = |node: Node| -> Vec<(Node, Span)> {
        let mut names = Vec::new();
        match node {
            Node::Let(i) => uses(&m.lets()[i].formula.expr, &mut names),
            Node::Field(i) => {
                let f = &m.fields[i];
                for fm in field_formulas(m, f) {
                    let before = names.len();
                    uses(&fm.expr, &mut names);
                    // In a nested field's `size`, `inner` is its own arena's
                    // bytes, not a field that happens to be named `inner`.
                    let is_nested_size = f.attrs.nested.get().is_some()
                        && f.attrs.size.get().is_some_and(|sz| std::ptr::eq(sz, fm));
                    if is_nested_size {
                        let mut k = before;
                        while k < names.len() {
                            if names[k].0 == "inner" {
                                names.remove(k);
                            } else {
                                k += 1;
                            }
                        }
                    }
                }
                if let Some(t) = f.attrs.trim.get() {
                    names.push((t.to_string(), t.span()));
                }
            }
        }
        let mut out = Vec::new();
        for (n, span) in names {
            if let Some(g) = n.strip_prefix("trimmed:") {
                for &fi in trim_groups.get(g).into_iter().flatten() {
                    out.push((Node::Field(fi), span));
                }
            } else if let Some(&d) = index.get(&n) {
                // A nested field's `inner` is its own arena, not a cycle.
                out.push((d, span));
            }
        }
        out
    };
    let nodes: Vec<Node> = (0..m.lets().len())
        .map(Node::Let)
        .chain((0..m.fields.len()).map(Node::Field))
        .collect();
    let name_of = |n: Node| match n {
        Node::Let(i) => m.lets()[i].name.to_string(),
        Node::Field(i) => m.fields[i].name(),
    };
    // 0 = new, 1 = on the stack, 2 = done
    let mut state: HashMap<Node, u8> = HashMap::new();
    let mut out = Vec::new();
    let mut reported = false;
    for &start in &nodes {
        if state.get(&start).copied().unwrap_or(0) != 0 {
            continue;
        }
        let mut stack: Vec<Frame> = vec![(start, deps_of(start), 0)];
        state.insert(start, 1);
        while let Some((node, deps, next)) = stack.last_mut() {
            if *next < deps.len() {
                let (d, span) = deps[*next];
                *next += 1;
                match state.get(&d).copied().unwrap_or(0) {
                    0 => {
                        state.insert(d, 1);
                        let dd = deps_of(d);
                        stack.push((d, dd, 0));
                    }
                    1 if !reported => {
                        reported = true;
                        let pos = stack.iter().position(|(n, _, _)| *n == d).unwrap_or(0);
                        let mut path: Vec<String> = stack[pos..]
                            .iter()
                            .map(|(n, _, _)| format!("`{}`", name_of(*n)))
                            .collect();
                        path.push(format!("`{}`", name_of(d)));
                        let msg = if path.len() == 2 {
                            format!("`{}` refers to itself", name_of(d))
                        } else {
                            format!("cycle in formulas: {}", path.join(" -> "))
                        };
                        errs.at(span, msg);
                    }
                    _ => {}
                }
            } else {
                let n = *node;
                state.insert(n, 2);
                out.push(n);
                stack.pop();
            }
        }
    }
    out
}

/// Whether a type is spelled `Region<T>` (any path ending in `Region` with one type argument).
pub fn is_region(ty: &syn::Type) -> bool {
    let syn::Type::Path(p) = ty else {
        return false;
    };
    p.path.segments.last().is_some_and(|seg| {
        seg.ident == "Region"
            && matches!(&seg.arguments, syn::PathArguments::AngleBracketed(a) if a.args.len() == 1)
    })
}
