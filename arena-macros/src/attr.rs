//! Parsing of `#[arena(...)]` into typed views of the struct and its fields.
//! Every value keeps its span; every error is collected, none stops the parse
//! of the other attributes.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::parse::discouraged::Speculative;
use syn::{Attribute, Ident, LitBool, LitInt, LitStr, Token};

use crate::formula::{Formula, did_you_mean};

/// Collects errors; combined into one `compile_error!` set at the end.
#[derive(Default)]
pub struct Errors(Vec<syn::Error>);

impl Errors {
    pub fn push(&mut self, e: syn::Error) {
        self.0.push(e);
    }
    pub fn at(&mut self, span: Span, msg: impl std::fmt::Display) {
        self.0.push(syn::Error::new(span, msg));
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn into_compile_errors(self) -> TokenStream {
        self.0.into_iter().map(|e| e.to_compile_error()).collect()
    }
}

/// A constructor parameter: `name: Type [as Short] [= default]`.
pub struct Param {
    pub name: Ident,
    pub ty: syn::Type,
    pub short: Option<Ident>,
    /// The default value's tokens, passed through as written.
    pub default: Option<TokenStream>,
}

/// `let NAME = formula`.
pub struct Let {
    pub name: Ident,
    pub formula: Formula,
}

/// `live = phase` or `live = first..=last`.
pub struct Live {
    pub first: Ident,
    pub last: Option<Ident>,
    /// `..` (exclusive) was written instead of `..=`: reported.
    pub exclusive: Option<Span>,
}

/// `lever(NAME [, flag] [, default = bool] [, parse = path])`.
pub struct Lever {
    pub name: Ident,
    pub default: Option<LitBool>,
    pub parse: Option<syn::Path>,
    /// `flag`: an on/off lever read with the usual spellings
    /// (`true`/`yes`/`on`/`1`, `false`/`no`/`off`/`0`, any case).
    pub flag: Option<Ident>,
}

#[derive(Default)]
pub struct StructAttrs {
    pub params: Option<(Span, Vec<Param>)>,
    pub lets: Vec<Let>,
    pub levers: Vec<Lever>,
    pub align: Option<(usize, Span)>,
    pub one_of: Option<Span>,
    pub when: Option<Formula>,
    /// `phases(a, b, c)`: the ordered phases of a forward pass.
    pub phases: Option<(Span, Vec<Ident>)>,
    /// `crate = "path"`: where the generated code finds the `arena` crate
    /// (renamed, or re-exported by another crate).
    pub krate: Option<syn::Path>,
    /// `plan_budget = N`: search nodes after greedy for a phased arena.
    pub plan_budget: Option<(u64, Span)>,
    /// An item failed to parse: names it would have declared are unknown, so
    /// the formulas are not checked against them (no follow-on errors).
    pub incomplete: bool,
}

/// The element type of a buffer.
pub enum DType {
    /// One of the built-in names, with the Rust type it maps to.
    Builtin(Ident, TokenStream),
    /// A user type (`bytemuck::Pod`).
    Path(syn::Path),
    /// An element type chosen at run time: an expression of type
    /// `arena::DType` over the parameters and lets (`act`, `cfg.dtype`,
    /// `cfg.act_dtype()`, `DType::BF16`); the field has type `DynBytes`.
    Runtime(Formula),
}

impl DType {
    /// The element type in generated code. A path is placed at itself
    /// wherever it is used ([`DType::place`]): every error about it (an
    /// unknown name, a type that is not `bytemuck::Pod`) is then the same
    /// error at the `dtype` token, reported once.
    pub fn rust(&self) -> TokenStream {
        match self {
            DType::Builtin(_, t) => t.clone(),
            DType::Path(p) => self.place(quote::quote!(#p)),
            DType::Runtime(_) => quote::quote!(u8),
        }
    }

    /// `tokens` placed at a path's `dtype` token, with the derive's own
    /// hygiene (so nothing reads as user-written code); as they are for a
    /// built-in name.
    pub fn place(&self, tokens: TokenStream) -> TokenStream {
        match self {
            DType::Builtin(..) | DType::Runtime(_) => tokens,
            DType::Path(p) => {
                let at = Span::call_site().located_at(syn::spanned::Spanned::span(p));
                respan(tokens, at)
            }
        }
    }
    pub fn name(&self) -> String {
        match self {
            DType::Builtin(i, _) => i.to_string(),
            DType::Path(p) => quote::quote!(#p).to_string().replace(' ', ""),
            DType::Runtime(f) => f.text.clone(),
        }
    }

    /// The expression of a dtype chosen at run time.
    pub fn runtime(&self) -> Option<&Formula> {
        match self {
            DType::Runtime(f) => Some(f),
            _ => None,
        }
    }

    /// The element size of a built-in dtype, known to the macro; `None` for
    /// a path (its size is `size_of` at compile time).
    pub fn elem_bytes(&self) -> Option<usize> {
        let DType::Builtin(i, _) = self else {
            return None;
        };
        Some(match i.to_string().as_str() {
            "bf16" | "f16" | "i16" | "u16" => 2,
            "f32" | "i32" | "u32" => 4,
            "f64" | "i64" | "u64" => 8,
            _ => 1,
        })
    }
}

/// `tokens` with every span (groups' included) set to `at`.
fn respan(tokens: TokenStream, at: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut t| {
            if let TokenTree::Group(g) = &t {
                let mut inner = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), at));
                inner.set_span(at);
                t = TokenTree::Group(inner);
            } else {
                t.set_span(at);
            }
            t
        })
        .collect()
}

/// A key that may be given once; a second one is reported as a duplicate.
pub struct Slot<T> {
    pub value: Option<T>,
    pub span: Option<Span>,
    /// Given as a stand-alone attribute (`#[size = ...]`).
    stand_alone: bool,
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot {
            value: None,
            span: None,
            stand_alone: false,
        }
    }
}

impl<T> Slot<T> {
    fn set(&mut self, key: &Ident, value: T, errs: &mut Errors) {
        if self.span.is_some() {
            let msg = if self.stand_alone {
                format!("duplicate key `{key}`: it is given as `#[{key} = ...]` already")
            } else {
                format!("duplicate key `{key}`")
            };
            errs.at(key.span(), msg);
            return;
        }
        self.span = Some(key.span());
        self.value = Some(value);
    }

    fn set_stand_alone(&mut self, key: &Ident, value: T, errs: &mut Errors) {
        let first = self.span.is_none();
        self.set(key, value, errs);
        self.stand_alone |= first;
    }
    pub fn get(&self) -> Option<&T> {
        self.value.as_ref()
    }
}

#[derive(Default)]
pub struct FieldAttrs {
    pub size: Slot<Formula>,
    pub shape: Slot<Vec<Formula>>,
    pub dtype: Slot<DType>,
    pub lever: Slot<Ident>,
    pub when: Slot<Formula>,
    pub unless: Slot<Formula>,
    pub not_in_total: Slot<()>,
    pub zeroed: Slot<()>,
    pub nested: Slot<Vec<Formula>>,
    pub trim: Slot<Ident>,
    pub value: Slot<Formula>,
    pub live: Slot<Live>,
    /// `align = N`: the buffer's start is a multiple of `N` (a power of two).
    pub align: Slot<usize>,
    /// An item failed to parse or had an unknown key: the field's intent is
    /// unknown, so rules about missing keys are not checked.
    pub incomplete: bool,
}

pub struct Field<'a> {
    pub ident: Ident,
    pub ty: &'a syn::Type,
    pub vis: &'a syn::Visibility,
    pub doc: Vec<String>,
    pub attrs: FieldAttrs,
}

impl Field<'_> {
    /// The field's name as its metadata, messages and the generated locals
    /// built from it spell it: `type` for `r#type`.
    pub fn name(&self) -> String {
        syn::ext::IdentExt::unraw(&self.ident).to_string()
    }
}

const STRUCT_KEYS: [&str; 9] = [
    "crate",
    "params",
    "let",
    "lever",
    "align",
    "one_of",
    "when",
    "phases",
    "plan_budget",
];
const FIELD_KEYS: [&str; 13] = [
    "align",
    "live",
    "size",
    "shape",
    "dtype",
    "lever",
    "when",
    "unless",
    "not_in_total",
    "zeroed",
    "nested",
    "trim",
    "value",
];

fn unknown_key(key: &Ident, known: &[&str], level: &str, errs: &mut Errors) {
    let name = key.to_string();
    let hint = match did_you_mean(&name, known.iter().copied()) {
        Some(k) => format!("; did you mean `{k}`?"),
        None => format!(
            "; expected one of {}",
            known
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    errs.at(key.span(), format!("unknown {level} key `{name}`{hint}"));
}

/// The tokens of one formula: everything up to the next top-level `,`.
fn formula_tokens(input: ParseStream) -> syn::Result<TokenStream> {
    input.step(|cursor| {
        let mut rest = *cursor;
        let mut out = TokenStream::new();
        while let Some((tt, next)) = rest.token_tree() {
            if matches!(&tt, TokenTree::Punct(p) if p.as_char() == ',') {
                break;
            }
            out.extend([tt]);
            rest = next;
        }
        Ok((out, rest))
    })
}

/// A parameter's default: any Rust expression, up to the comma that ends it.
/// An expression syn parses without its `full` feature (paths, calls,
/// references, struct literals, generic arguments with commas) is taken whole,
/// and must be followed by `,` or the end; one it cannot parse (`[a, b]`, a
/// closure, an `if`) is taken up to the next comma outside brackets, and rustc
/// checks it where the generated code uses it.
fn default_tokens(input: ParseStream, eq: Span) -> syn::Result<TokenStream> {
    let fork = input.fork();
    if let Ok(e) = fork.parse::<syn::Expr>() {
        if !(fork.is_empty() || fork.peek(Token![,])) {
            return Err(
                fork.error("expected `,` or the end of `params(...)` after the default value")
            );
        }
        input.advance_to(&fork);
        return Ok(e.into_token_stream());
    }
    let tokens = formula_tokens(input)?;
    if tokens.is_empty() {
        return Err(syn::Error::new(
            eq,
            "expected a default value after `=`, e.g. `target: &Target = &Target::DEFAULT`",
        ));
    }
    Ok(tokens)
}

fn formula(input: ParseStream, key: &Ident) -> syn::Result<Formula> {
    let tokens = formula_tokens(input)?;
    Formula::from_tokens(tokens, key.span())
}

/// Comma-separated formulas: `nested(a, b)` arguments, `shape = [a, b]` dimensions.
fn formula_list(content: ParseStream, key: &Ident) -> syn::Result<Vec<Formula>> {
    let mut out = Vec::new();
    while !content.is_empty() {
        out.push(formula(content, key)?);
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    Ok(out)
}

fn eq_formula(input: ParseStream, key: &Ident) -> syn::Result<Formula> {
    input.parse::<Token![=]>()?;
    formula(input, key)
}

/// Runs `item` on each comma-separated item of one `#[arena(...)]`.
fn each_item(
    attr: &Attribute,
    errs: &mut Errors,
    mut item: impl FnMut(ParseStream, &mut Errors) -> syn::Result<()>,
) -> bool {
    let res = attr.parse_args_with(|input: ParseStream| {
        while !input.is_empty() {
            item(input, errs)?;
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        Ok(())
    });
    match res {
        Ok(()) => true,
        Err(e) => {
            errs.push(e);
            false
        }
    }
}

fn is_arena(attr: &Attribute) -> bool {
    attr.path().is_ident("arena")
}

pub fn parse_struct_attrs(attrs: &[Attribute], errs: &mut Errors) -> StructAttrs {
    let mut out = StructAttrs::default();
    for attr in attrs.iter().filter(|a| is_arena(a)) {
        out.incomplete |= !each_item(attr, errs, |input, errs| {
            if input.peek(Token![let]) {
                input.parse::<Token![let]>()?;
                let name = input.call(Ident::parse_any)?;
                input.parse::<Token![=]>()?;
                let formula = formula(input, &name)?;
                out.lets.push(Let { name, formula });
                return Ok(());
            }
            let key = input.call(Ident::parse_any)?;
            match key.to_string().as_str() {
                // params(name: Type [as Short] [= default], ...)
                "params" => {
                    let content;
                    syn::parenthesized!(content in input);
                    let mut params = Vec::new();
                    while !content.is_empty() {
                        let name: Ident = content.call(Ident::parse_any)?;
                        content.parse::<Token![:]>()?;
                        let ty: syn::Type = content.parse()?;
                        let short = if content.peek(Token![as]) {
                            content.parse::<Token![as]>()?;
                            Some(content.call(Ident::parse_any)?)
                        } else {
                            None
                        };
                        let default = if content.peek(Token![=]) {
                            let eq = content.parse::<Token![=]>()?;
                            Some(default_tokens(&content, eq.span)?)
                        } else {
                            None
                        };
                        params.push(Param {
                            name,
                            ty,
                            short,
                            default,
                        });
                        if content.is_empty() {
                            break;
                        }
                        content.parse::<Token![,]>()?;
                    }
                    if out.params.is_some() {
                        errs.at(key.span(), "duplicate key `params`");
                    } else {
                        out.params = Some((key.span(), params));
                    }
                }
                // lever(NAME [, default = true|false] [, parse = path])
                "lever" => {
                    let content;
                    syn::parenthesized!(content in input);
                    let name: Ident = content.call(Ident::parse_any)?;
                    let mut lever = Lever {
                        name,
                        default: None,
                        parse: None,
                        flag: None,
                    };
                    while !content.is_empty() {
                        content.parse::<Token![,]>()?;
                        if content.is_empty() {
                            break;
                        }
                        let opt: Ident = content.call(Ident::parse_any)?;
                        if !content.peek(Token![=]) {
                            if opt != "flag" {
                                unknown_key(&opt, &["default", "parse", "flag"], "lever", errs);
                            } else if lever.flag.is_some() {
                                errs.at(opt.span(), "duplicate key `flag`");
                            } else {
                                lever.flag = Some(opt);
                            }
                            continue;
                        }
                        content.parse::<Token![=]>()?;
                        match opt.to_string().as_str() {
                            "default" if lever.default.is_none() => {
                                match content.parse::<LitBool>() {
                                    Ok(b) => lever.default = Some(b),
                                    Err(e) => {
                                        errs.at(
                                            e.span(),
                                            "a lever's `default` is `true` or `false`",
                                        );
                                        let _ = formula_tokens(&content)?;
                                    }
                                }
                            }
                            "parse" if lever.parse.is_none() => {
                                lever.parse = Some(content.parse()?)
                            }
                            "default" | "parse" => {
                                errs.at(opt.span(), format!("duplicate key `{opt}`"))
                            }
                            _ => {
                                unknown_key(&opt, &["default", "parse", "flag"], "lever", errs);
                                let _ = formula_tokens(&content)?;
                            }
                        }
                    }
                    if let (Some(f), Some(_)) = (&lever.flag, &lever.parse) {
                        errs.at(
                            f.span(),
                            "a lever is either a `flag` (on/off) or has a `parse`, not both",
                        );
                    }
                    if let (Some(d), Some(_)) = (&lever.default, &lever.parse) {
                        errs.at(
                            d.span(),
                            "a lever with `parse` has no `default`: unset, it is `None`",
                        );
                    }
                    out.levers.push(lever);
                }
                // align = 256
                "align" => {
                    let lit = int_value(input, "align", "align = 256")?;
                    match lit.base10_parse::<usize>() {
                        Ok(v) if v.is_power_of_two() => {
                            if out.align.is_some() {
                                errs.at(key.span(), "duplicate key `align`");
                            }
                            out.align = Some((v, lit.span()));
                        }
                        _ => errs.at(lit.span(), format!("`align = {lit}` is not a power of two")),
                    }
                }
                // one_of: the fields are alternative layouts of one region
                "one_of" => {
                    if out.one_of.is_some() {
                        errs.at(key.span(), "duplicate key `one_of`");
                    }
                    out.one_of = Some(key.span());
                }
                // crate = "path": the arena crate, renamed or re-exported
                "crate" => {
                    input.parse::<Token![=]>()?;
                    let lit: LitStr = input.parse()?;
                    match lit.parse::<syn::Path>() {
                        Ok(_) if out.krate.is_some() => {
                            errs.at(key.span(), "duplicate key `crate`")
                        }
                        Ok(p) => out.krate = Some(p),
                        Err(_) => errs.at(
                            lit.span(),
                            format!(
                                "`crate = {:?}` is not a path: name the arena crate as your code does, as in `crate = \"my_arena\"` or `crate = \"engine::arena\"`",
                                lit.value()
                            ),
                        ),
                    }
                }
                // plan_budget = N: the planner's search budget (nodes)
                "plan_budget" => {
                    let lit = int_value(input, "plan_budget", "plan_budget = 100_000")?;
                    match lit.base10_parse::<u64>() {
                        Ok(v) => {
                            if out.plan_budget.is_some() {
                                errs.at(key.span(), "duplicate key `plan_budget`");
                            }
                            out.plan_budget = Some((v, lit.span()));
                        }
                        Err(_) => errs.at(
                            lit.span(),
                            format!("`plan_budget = {lit}` does not fit in a u64"),
                        ),
                    }
                }
                // phases(embed, attn, mlp, head): ordered phases
                "phases" => {
                    let content;
                    syn::parenthesized!(content in input);
                    let list =
                        syn::punctuated::Punctuated::<Ident, Token![,]>::parse_terminated_with(
                            &content,
                            Ident::parse_any,
                        )?;
                    if out.phases.is_some() {
                        errs.at(key.span(), "duplicate key `phases`");
                    } else if list.is_empty() {
                        errs.at(
                            key.span(),
                            "`phases(...)` needs at least one phase, e.g. `phases(attn, mlp)`",
                        );
                    } else {
                        out.phases = Some((key.span(), list.into_iter().collect()));
                    }
                }
                // when = formula: every field is 0 unless it holds
                "when" => {
                    let f = eq_formula(input, &key)?;
                    if out.when.is_some() {
                        errs.at(key.span(), "duplicate key `when`");
                    }
                    out.when = Some(f);
                }
                _ => {
                    unknown_key(&key, &STRUCT_KEYS, "struct-level", errs);
                    skip_value(input)?;
                }
            }
            Ok(())
        });
    }
    out
}

/// The integer literal after `key =`, or an error showing `example`.
fn int_value(input: ParseStream, key: &str, example: &str) -> syn::Result<LitInt> {
    input.parse::<Token![=]>()?;
    input.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("`{key}` takes an integer literal, such as `{example}`"),
        )
    })
}

/// Skips the value of an unknown key so the other keys are still parsed.
fn skip_value(input: ParseStream) -> syn::Result<()> {
    formula_tokens(input).map(drop)
}

/// `dtype = ...`: a built-in name, a path to a user type, or an expression
/// of type `arena::DType` (a dtype chosen at run time). A single name that
/// is a parameter or a let, and a path ending in `DType::VARIANT`, are
/// expressions too; the model decides the first ([`DType::Path`] until then).
fn dtype(input: ParseStream, key: &Ident) -> syn::Result<DType> {
    let fork = input.fork();
    let path = match fork.parse::<syn::Path>() {
        Ok(p) if fork.is_empty() || fork.peek(Token![,]) => {
            input.advance_to(&fork);
            p
        }
        _ => {
            return formula(input, key).map(DType::Runtime).map_err(|e| {
                syn::Error::new(
                    e.span(),
                    format!("`dtype` takes an element type (bf16, f16, f32, f64, f8e4m3, f8e5m2, f4e2m1x2, e8m0, i8, u8, i16, u16, i32, u32, i64, u64, or a path to a `bytemuck::Pod` type) or an expression of type `arena::DType`: {e}"),
                )
            });
        }
    };
    let n = path.segments.len();
    if n >= 2 && path.segments[n - 2].ident == "DType" {
        let tokens = quote::quote!(#path);
        return Formula::from_tokens(tokens, key.span()).map(DType::Runtime);
    }
    if let Some(id) = path.get_ident() {
        let name = id.to_string();
        let rust = match name.as_str() {
            "bf16" => Some(quote::quote_spanned!(id.span()=> ::arena::bf16)),
            "f16" => Some(quote::quote_spanned!(id.span()=> ::arena::f16)),
            "f8e4m3" => Some(quote::quote_spanned!(id.span()=> ::arena::F8E4M3)),
            "f8e5m2" => Some(quote::quote_spanned!(id.span()=> ::arena::F8E5M2)),
            "f4e2m1x2" => Some(quote::quote_spanned!(id.span()=> ::arena::F4E2M1x2)),
            "e8m0" => Some(quote::quote_spanned!(id.span()=> ::arena::E8M0)),
            "f32" | "f64" | "i8" | "u8" | "i16" | "u16" | "i32" | "u32" | "i64" | "u64" => {
                Some(quote::quote!(#id))
            }
            _ => None,
        };
        if let Some(rust) = rust {
            return Ok(DType::Builtin(id.clone(), rust));
        }
    }
    Ok(DType::Path(path))
}

/// A lever's name: an identifier, or a string holding one (the design
/// card's `lever = "METRALE_FP8_ROWWISE"`).
fn lever_name(input: ParseStream) -> syn::Result<Ident> {
    if input.peek(syn::LitStr) {
        let lit: syn::LitStr = input.parse()?;
        return lit.parse_with(Ident::parse_any).map_err(|_| {
            syn::Error::new(
                lit.span(),
                format!(
                    "lever {:?} is not a name: an environment variable name is letters, digits and `_`",
                    lit.value()
                ),
            )
        });
    }
    input.call(Ident::parse_any)
}

/// The design card's stand-alone field attributes `#[size = ...]` and
/// `#[lever = ...]`, the closest valid Rust to its
/// `#[size = "...", lever = "..."]`; they mean what the same keys inside
/// `#[arena(...)]` mean.
fn parse_card_attr(attr: &Attribute, out: &mut FieldAttrs, errs: &mut Errors) -> bool {
    let syn::Meta::NameValue(nv) = &attr.meta else {
        let key = attr
            .path()
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        errs.at(
            syn::spanned::Spanned::span(&attr.meta),
            format!("expected `#[{key} = ...]`, as in `#[size = \"ceil16(M) * K\"]` or `#[lever = \"NAME\"]`"),
        );
        return false;
    };
    let Some(key) = nv.path.get_ident() else {
        return false;
    };
    let value = nv.value.to_token_stream();
    let res = match key.to_string().as_str() {
        "size" => {
            Formula::from_tokens(value, key.span()).map(|f| out.size.set_stand_alone(key, f, errs))
        }
        _ => syn::parse::Parser::parse2(lever_name, value)
            .map(|name| out.lever.set_stand_alone(key, name, errs)),
    };
    match res {
        Ok(()) => true,
        Err(e) => {
            errs.push(e);
            false
        }
    }
}

fn is_card_attr(attr: &Attribute) -> bool {
    attr.path().is_ident("size") || attr.path().is_ident("lever")
}

pub fn parse_field_attrs(attrs: &[Attribute], errs: &mut Errors) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    let mut incomplete = false;
    for attr in attrs.iter().filter(|a| is_card_attr(a)) {
        incomplete |= !parse_card_attr(attr, &mut out, errs);
    }
    for attr in attrs.iter().filter(|a| is_arena(a)) {
        incomplete |= !each_item(attr, errs, |input, errs| {
            let key = input.call(Ident::parse_any)?;
            match key.to_string().as_str() {
                // size = formula (bytes)
                "size" => {
                    let f = eq_formula(input, &key)?;
                    out.size.set(&key, f, errs);
                }
                // shape = [formula, ...]
                "shape" => {
                    input.parse::<Token![=]>()?;
                    let content;
                    syn::bracketed!(content in input);
                    let dims = formula_list(&content, &key)?;
                    if dims.is_empty() {
                        errs.at(key.span(), "`shape` needs at least one dimension");
                    }
                    out.shape.set(&key, dims, errs);
                }
                // dtype = bf16 | path::To::Pod | EXPR (an arena::DType)
                "dtype" => {
                    input.parse::<Token![=]>()?;
                    let d = dtype(input, &key)?;
                    out.dtype.set(&key, d, errs);
                }
                // lever = NAME | lever = "NAME"
                "lever" => {
                    input.parse::<Token![=]>()?;
                    let name = lever_name(input)?;
                    out.lever.set(&key, name, errs);
                }
                // when = bool formula / unless = bool formula
                "when" => {
                    let f = eq_formula(input, &key)?;
                    out.when.set(&key, f, errs);
                }
                "unless" => {
                    let f = eq_formula(input, &key)?;
                    out.unless.set(&key, f, errs);
                }
                // not_in_total / zeroed (flags)
                "not_in_total" => out.not_in_total.set(&key, (), errs),
                "zeroed" => out.zeroed.set(&key, (), errs),
                // align = N: this buffer's start alignment (a power of two)
                "align" => {
                    let lit = int_value(input, "align", "align = 1024")?;
                    match lit.base10_parse::<usize>() {
                        Ok(v) if v.is_power_of_two() => out.align.set(&key, v, errs),
                        _ => errs.at(
                            lit.span(),
                            format!(
                                "`align = {lit}` is not a power of two (1, 2, 4, ..., 1024, ...)"
                            ),
                        ),
                    }
                }
                // nested(args...): a sub-arena, field type `Region<T>`
                "nested" => {
                    let content;
                    syn::parenthesized!(content in input);
                    let args = formula_list(&content, &key)?;
                    out.nested.set(&key, args, errs);
                }
                // trim = NAME (a bool let or lever)
                "trim" => {
                    input.parse::<Token![=]>()?;
                    let name = input.call(Ident::parse_any)?;
                    out.trim.set(&key, name, errs);
                }
                // live = phase | live = first..=last
                "live" => {
                    input.parse::<Token![=]>()?;
                    let first = input.call(Ident::parse_any)?;
                    let (last, exclusive) = if input.peek(Token![..=]) {
                        input.parse::<Token![..=]>()?;
                        (Some(input.call(Ident::parse_any)?), None)
                    } else if input.peek(Token![..]) {
                        let dots = input.parse::<Token![..]>()?;
                        let last = input.call(Ident::parse_any)?;
                        (Some(last), Some(syn::spanned::Spanned::span(&dots)))
                    } else {
                        (None, None)
                    };
                    out.live.set(
                        &key,
                        Live {
                            first,
                            last,
                            exclusive,
                        },
                        errs,
                    );
                }
                // value = formula: computed, not carved
                "value" => {
                    let f = eq_formula(input, &key)?;
                    out.value.set(&key, f, errs);
                }
                _ => {
                    unknown_key(&key, &FIELD_KEYS, "field", errs);
                    skip_value(input)?;
                    out.incomplete = true;
                }
            }
            Ok(())
        });
    }
    out.incomplete |= incomplete;
    out
}

/// The doc comment lines of an item.
pub fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value().trim().to_owned()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}
