//! Type checking of formulas and their lowering to Rust that calls the
//! runtime's checked arithmetic. One walk does both, so the type a check
//! accepts is exactly the type the generated code has.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{quote, quote_spanned};

use super::parse::print;
use super::{BinOp, Expr, FError, Kind, Loc, did_you_mean};

/// The type of a formula value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// A size: `usize`.
    Int,
    /// A condition: `bool`.
    Bool,
    /// A string literal.
    Str,
    /// A value of plain Rust code whose type the macro cannot see
    /// (`config.hidden_size`, `f(x)`): it takes the type its use needs.
    Ext,
    /// A parameter or lever that is not a number or a condition (`config`).
    Opaque,
}

/// A name a formula can use.
#[derive(Debug, Clone)]
pub struct Binding {
    pub ty: Ty,
    /// The local variable the generated code binds it to.
    pub local: Ident,
    /// What it is, for messages: "parameter `config` of type `&ModelConfig`".
    pub what: String,
}

/// The names in scope of one formula.
pub trait Env {
    fn lookup(&self, name: &str) -> Option<&Binding>;
    fn names(&self) -> Vec<String>;
    /// For `trimmed(g)`: the untrimmed locals of the fields with `trim = g`.
    fn trim_members(&self, name: &str) -> Option<Vec<Ident>>;
}

/// A lowered formula.
pub struct Lowered {
    pub ty: Ty,
    pub code: TokenStream,
    /// Whether the code has a checked step that can leave `'__arena_formula`.
    pub fallible: bool,
}

const BUILTINS: [&str; 7] = [
    "ceil16", "div_ceil", "round_up", "max", "min", "clamp", "trimmed",
];

pub struct Lowerer<'a> {
    env: &'a dyn Env,
    pub errors: Vec<FError>,
}

/// One checked step: its value, or a jump out of the formula's block
/// (`'__arena_formula`, opened by the caller) with the fault.
pub fn step(call: TokenStream) -> TokenStream {
    quote! {
        match #call {
            ::core::result::Result::Ok(__arena_v) => __arena_v,
            ::core::result::Result::Err(__arena_f) => break '__arena_formula ::core::result::Result::Err(__arena_f),
        }
    }
}

fn rt(span: Span) -> TokenStream {
    quote_spanned!(span=> ::arena::__private)
}

fn ty_name(ty: Ty) -> &'static str {
    match ty {
        Ty::Int => "a number",
        Ty::Bool => "a condition",
        Ty::Str => "a string",
        Ty::Ext => "a Rust value",
        Ty::Opaque => "a value that is neither a number nor a condition",
    }
}

fn is_lit_zero(e: &Expr) -> bool {
    matches!(e.unparen().kind, Kind::Int(0))
}

impl<'a> Lowerer<'a> {
    pub fn new(env: &'a dyn Env) -> Self {
        Lowerer {
            env,
            errors: Vec::new(),
        }
    }

    fn fail<T>(&mut self, loc: Loc, msg: String) -> Option<T> {
        self.errors.push(FError::new(loc, msg));
        None
    }

    /// Lowers `e` as a size (`usize`).
    pub fn int(&mut self, e: &Expr) -> Option<Lowered> {
        let l = self.lower(e)?;
        self.as_int(l, e)
    }

    /// Lowers `e` as a condition (`bool`).
    pub fn bool(&mut self, e: &Expr) -> Option<Lowered> {
        let l = self.lower(e)?;
        self.as_bool(l, e)
    }

    /// Lowers `e` as a number or a condition, whichever it is; a plain Rust
    /// value counts as a number.
    pub fn value(&mut self, e: &Expr) -> Option<Lowered> {
        let l = self.lower(e)?;
        match l.ty {
            Ty::Bool => Some(l),
            _ => self.as_int(l, e),
        }
    }

    fn as_int(&mut self, l: Lowered, e: &Expr) -> Option<Lowered> {
        match l.ty {
            Ty::Int => Some(l),
            Ty::Ext => {
                let rt = rt(e.loc.span);
                let code = l.code;
                Some(Lowered {
                    ty: Ty::Int,
                    code: step(quote!(#rt::to_size(#code))),
                    fallible: true,
                })
            }
            Ty::Opaque => self.fail(
                e.loc,
                format!(
                    "expected a number, found {}; use one of its fields, such as `{}.hidden_size`",
                    self.describe_opaque(e),
                    print(e)
                ),
            ),
            other => self.fail(
                e.loc,
                format!(
                    "expected a number, found {}: `{}`",
                    ty_name(other),
                    print(e)
                ),
            ),
        }
    }

    fn as_bool(&mut self, l: Lowered, e: &Expr) -> Option<Lowered> {
        match l.ty {
            Ty::Bool | Ty::Ext => Some(Lowered { ty: Ty::Bool, ..l }),
            Ty::Opaque => self.fail(
                e.loc,
                format!("expected a condition, found {}", self.describe_opaque(e)),
            ),
            other => self.fail(
                e.loc,
                format!(
                    "expected a condition, found {}: `{}`; compare it, e.g. `{} > 0`",
                    ty_name(other),
                    print(e),
                    print(e)
                ),
            ),
        }
    }

    fn describe_opaque(&self, e: &Expr) -> String {
        if let Kind::Name(n) = &e.unparen().kind {
            if let Some(b) = self.env.lookup(n) {
                return b.what.clone();
            }
        }
        format!("`{}`", print(e))
    }

    /// Lowers `e` in whatever type it has.
    pub fn any(&mut self, e: &Expr) -> Option<Lowered> {
        self.lower(e)
    }

    fn lower(&mut self, e: &Expr) -> Option<Lowered> {
        let span = e.loc.span;
        match &e.kind {
            Kind::Int(v) => {
                if *v > u128::from(u64::MAX) {
                    return self.fail(
                        e.loc,
                        format!("integer literal `{v}` does not fit in usize"),
                    );
                }
                let mut lit = Literal::usize_suffixed(*v as usize);
                lit.set_span(span);
                Some(Lowered {
                    ty: Ty::Int,
                    code: quote!(#lit),
                    fallible: false,
                })
            }
            Kind::Bool(b) => Some(Lowered {
                ty: Ty::Bool,
                code: if *b {
                    quote_spanned!(span=> true)
                } else {
                    quote_spanned!(span=> false)
                },
                fallible: false,
            }),
            Kind::Str(s) => {
                let mut lit = Literal::string(s);
                lit.set_span(span);
                Some(Lowered {
                    ty: Ty::Str,
                    code: quote!(#lit),
                    fallible: false,
                })
            }
            Kind::Name(n) => match self.env.lookup(n) {
                Some(b) => {
                    let local = ident(&b.local.to_string(), span);
                    Some(Lowered {
                        ty: b.ty,
                        code: quote!(#local),
                        fallible: false,
                    })
                }
                None => {
                    let names = self.env.names();
                    let hint = match did_you_mean(n, names.iter().map(String::as_str)) {
                        Some(s) => format!("; did you mean `{s}`?"),
                        None => "; a formula names params, lets, levers and fields; \
                                 reach a Rust constant by its path (`crate::NAME`)"
                            .to_owned(),
                    };
                    self.fail(e.loc, format!("unknown name `{n}` in formula{hint}"))
                }
            },
            Kind::Path(segs) => Some(Lowered {
                ty: Ty::Ext,
                code: path_tokens(segs, span),
                fallible: false,
            }),
            Kind::Field(base, name) => {
                let b = self.lower(base)?;
                self.member(base, b.ty, e.loc)?;
                let base_code = b.code;
                let field = ident(name, span);
                Some(Lowered {
                    ty: Ty::Ext,
                    code: quote!(#base_code.#field),
                    fallible: b.fallible,
                })
            }
            Kind::Method(base, name, args) => {
                let b = self.lower(base)?;
                self.member(base, b.ty, e.loc)?;
                let (args, fallible) = self.rust_args(args)?;
                let base_code = b.code;
                let method = ident(name, span);
                Some(Lowered {
                    ty: Ty::Ext,
                    code: quote!(#base_code.#method(#(#args),*)),
                    fallible: fallible || b.fallible,
                })
            }
            Kind::Call(segs, args) if segs.len() == 1 && BUILTINS.contains(&segs[0].as_str()) => {
                self.builtin(&segs[0], args, e.loc)
            }
            Kind::Call(segs, args) => {
                let (args, fallible) = self.rust_args(args)?;
                let path = path_tokens(segs, span);
                Some(Lowered {
                    ty: Ty::Ext,
                    code: quote!(#path(#(#args),*)),
                    fallible,
                })
            }
            Kind::Not(inner) => {
                let l = self.bool(inner)?;
                let code = l.code;
                Some(Lowered {
                    ty: Ty::Bool,
                    code: quote_spanned!(span=> (!#code)),
                    fallible: l.fallible,
                })
            }
            Kind::Paren(inner) => self.lower(inner),
            Kind::If(c, t, f) => {
                let c = self.bool(c);
                let t_raw = self.lower(t);
                let f_raw = self.lower(f);
                let (c, t_raw, f_raw) = (c?, t_raw?, f_raw?);
                let (t_l, f_l) = self.unify(t_raw, t, f_raw, f)?;
                let (cc, tc, fc) = (c.code, t_l.code, f_l.code);
                Some(Lowered {
                    ty: t_l.ty,
                    code: quote_spanned!(span=> (if #cc { #tc } else { #fc })),
                    fallible: c.fallible || t_l.fallible || f_l.fallible,
                })
            }
            Kind::Bin(op, l, r) => self.binary(*op, l, r, e.loc),
        }
    }

    fn member(&mut self, base: &Expr, ty: Ty, loc: Loc) -> Option<()> {
        match ty {
            Ty::Opaque | Ty::Ext => Some(()),
            other => self.fail(
                loc,
                format!(
                    "`{}` is {}; fields and methods are read from parameters such as `config`",
                    print(base),
                    ty_name(other)
                ),
            ),
        }
    }

    fn unify(
        &mut self,
        a: Lowered,
        ae: &Expr,
        b: Lowered,
        be: &Expr,
    ) -> Option<(Lowered, Lowered)> {
        use Ty::*;
        match (a.ty, b.ty) {
            (Int, Int) | (Bool, Bool) | (Ext, Ext) => Some((a, b)),
            (Int, Ext) => Some((a, self.as_int(b, be)?)),
            (Ext, Int) => Some((self.as_int(a, ae)?, b)),
            (Bool, Ext) => Some((a, self.as_bool(b, be)?)),
            (Ext, Bool) => Some((self.as_bool(a, ae)?, b)),
            (x, y) => self.fail(
                be.loc,
                format!(
                    "the branches of this `if` differ: {} (`{}`) and {} (`{}`)",
                    ty_name(x),
                    print(ae),
                    ty_name(y),
                    print(be)
                ),
            ),
        }
    }

    /// Lowers every argument with `one`; `None` if any failed (all are checked).
    fn each(
        &mut self,
        args: &[Expr],
        one: fn(&mut Self, &Expr) -> Option<Lowered>,
    ) -> Option<(Vec<TokenStream>, bool)> {
        let mut out = Vec::new();
        let mut fallible = false;
        let mut ok = true;
        for a in args {
            match one(self, a) {
                Some(l) => {
                    fallible |= l.fallible;
                    out.push(l.code);
                }
                None => ok = false,
            }
        }
        ok.then_some((out, fallible))
    }

    fn rust_args(&mut self, args: &[Expr]) -> Option<(Vec<TokenStream>, bool)> {
        self.each(args, Self::lower)
    }

    fn ints(&mut self, args: &[Expr]) -> Option<(Vec<TokenStream>, bool)> {
        self.each(args, Self::int)
    }

    fn builtin(&mut self, name: &str, args: &[Expr], loc: Loc) -> Option<Lowered> {
        let span = loc.span;
        let rt = rt(span);
        let arity_ok = match name {
            "ceil16" | "trimmed" => args.len() == 1,
            "div_ceil" | "round_up" => args.len() == 2,
            "clamp" => args.len() == 3,
            _ => args.len() >= 2,
        };
        if !arity_ok {
            let want = match name {
                "ceil16" => "one argument: `ceil16(x)`",
                "trimmed" => "one argument: `trimmed(condition)`",
                "div_ceil" => "two arguments: `div_ceil(a, b)`",
                "round_up" => "two arguments: `round_up(x, multiple)`",
                "clamp" => "three arguments: `clamp(x, lo, hi)`",
                _ => "two or more arguments",
            };
            return self.fail(
                loc,
                format!("`{name}` takes {want}, found {} argument(s)", args.len()),
            );
        }
        if name == "trimmed" {
            return self.trimmed(&args[0], loc);
        }
        if matches!(name, "div_ceil" | "round_up") && is_lit_zero(&args[1]) {
            return self.fail(args[1].loc, format!("`{name}` by a literal zero"));
        }
        let (codes, fallible) = self.ints(args)?;
        let code = match name {
            "ceil16" => {
                let a = &codes[0];
                step(quote!(#rt::ceil16(#a)))
            }
            "div_ceil" | "round_up" => {
                let f = Ident::new(name, span);
                let (a, b) = (&codes[0], &codes[1]);
                step(quote!(#rt::#f(#a, #b)))
            }
            "clamp" => {
                let (x, lo, hi) = (&codes[0], &codes[1], &codes[2]);
                step(quote!(#rt::clamp(#x, #lo, #hi)))
            }
            _ => {
                let f = Ident::new(name, span);
                let mut it = codes.into_iter();
                let first = it.next().unwrap_or_default();
                let folded = it.fold(first, |acc, c| quote!(#rt::#f(#acc, #c)));
                return Some(Lowered {
                    ty: Ty::Int,
                    code: folded,
                    fallible,
                });
            }
        };
        Some(Lowered {
            ty: Ty::Int,
            code,
            fallible: true,
        })
    }

    fn trimmed(&mut self, arg: &Expr, loc: Loc) -> Option<Lowered> {
        let Kind::Name(n) = &arg.unparen().kind else {
            return self.fail(
                arg.loc,
                "`trimmed` takes the name of a trim condition, as in `trimmed(glm_trim)`".into(),
            );
        };
        let Some(members) = self.env.trim_members(n) else {
            return self.fail(
                arg.loc,
                format!("`trimmed({n})`: no field has `trim = {n}`"),
            );
        };
        let cond = self.bool(arg)?;
        let rt = rt(loc.span);
        let c = cond.code;
        let sum = members
            .iter()
            .fold(quote!(0usize), |acc, m| step(quote!(#rt::add(#acc, #m))));
        Some(Lowered {
            ty: Ty::Int,
            code: quote!((if #c { #sum } else { 0usize })),
            fallible: true,
        })
    }

    fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr, loc: Loc) -> Option<Lowered> {
        let span = loc.span;
        let rt = rt(span);
        if matches!(op, BinOp::Div | BinOp::Rem) && is_lit_zero(r) {
            return self.fail(
                r.loc,
                format!("division by a literal zero in `{}`", print_bin(op, l, r)),
            );
        }
        match op {
            BinOp::And | BinOp::Or => {
                let a = self.bool(l);
                let b = self.bool(r);
                let (a, b) = (a?, b?);
                let (ac, bc) = (a.code, b.code);
                let code = if op == BinOp::And {
                    quote_spanned!(span=> (#ac && #bc))
                } else {
                    quote_spanned!(span=> (#ac || #bc))
                };
                Some(Lowered {
                    ty: Ty::Bool,
                    code,
                    fallible: a.fallible || b.fallible,
                })
            }
            BinOp::Eq | BinOp::Ne => {
                let a = self.lower(l);
                let b = self.lower(r);
                let (a, b) = (a?, b?);
                self.equality(op, a, l, b, r, span)
            }
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => {
                let a = self.int(l);
                let b = self.int(r);
                let (a, b) = (a?, b?);
                let (ac, bc) = (a.code, b.code);
                let code = match op {
                    BinOp::Lt => quote_spanned!(span=> (#ac < #bc)),
                    BinOp::Gt => quote_spanned!(span=> (#ac > #bc)),
                    BinOp::Le => quote_spanned!(span=> (#ac <= #bc)),
                    _ => quote_spanned!(span=> (#ac >= #bc)),
                };
                Some(Lowered {
                    ty: Ty::Bool,
                    code,
                    fallible: a.fallible || b.fallible,
                })
            }
            _ => {
                let a = self.int(l);
                let b = self.int(r);
                let (a, b) = (a?, b?);
                let (ac, bc) = (a.code, b.code);
                let f = match op {
                    BinOp::Add => "add",
                    BinOp::Sub => "sub",
                    BinOp::Mul => "mul",
                    BinOp::Div => "div",
                    _ => "rem",
                };
                let f = Ident::new(f, span);
                Some(Lowered {
                    ty: Ty::Int,
                    code: step(quote!(#rt::#f(#ac, #bc))),
                    fallible: true,
                })
            }
        }
    }

    fn equality(
        &mut self,
        op: BinOp,
        a: Lowered,
        l: &Expr,
        b: Lowered,
        r: &Expr,
        span: Span,
    ) -> Option<Lowered> {
        use Ty::*;
        let rt = rt(span);
        let mut fallible = a.fallible || b.fallible;
        let eq = match (a.ty, b.ty) {
            (Str, Ext) | (Ext, Str) => {
                let (s, x) = if a.ty == Str {
                    (a.code, b.code)
                } else {
                    (b.code, a.code)
                };
                quote!(#rt::str_eq(&#x, #s))
            }
            (Str, Str) | (Bool, Bool) | (Bool, Ext) | (Ext, Bool) | (Ext, Ext) => {
                let (ac, bc) = (a.code, b.code);
                quote_spanned!(span=> (#ac == #bc))
            }
            (Int, Int) | (Int, Ext) | (Ext, Int) => {
                let a = self.as_int(a, l)?;
                let b = self.as_int(b, r)?;
                fallible = a.fallible || b.fallible;
                let (ac, bc) = (a.code, b.code);
                quote_spanned!(span=> (#ac == #bc))
            }
            (x, y) => {
                return self.fail(
                    Loc { span, range: None }.with_range_of(l, r),
                    format!(
                        "cannot compare {} (`{}`) with {} (`{}`)",
                        ty_name(x),
                        print(l),
                        ty_name(y),
                        print(r)
                    ),
                );
            }
        };
        let code = if op == BinOp::Ne {
            quote_spanned!(span=> (!#eq))
        } else {
            eq
        };
        Some(Lowered {
            ty: Ty::Bool,
            code,
            fallible,
        })
    }
}

impl Loc {
    /// This location, or for string formulas the range from `l`'s start to `r`'s end.
    fn with_range_of(self, l: &Expr, r: &Expr) -> Loc {
        match (l.loc.range, r.loc.range) {
            (Some((s, _)), Some((_, e))) => Loc {
                span: self.span,
                range: Some((s, e)),
            },
            _ => self,
        }
    }
}

fn print_bin(op: BinOp, l: &Expr, r: &Expr) -> String {
    format!("{} {} {}", print(l), op.text(), print(r))
}

fn path_tokens(segs: &[String], span: Span) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, s) in segs.iter().enumerate() {
        if s.is_empty() {
            out.extend(quote_spanned!(span=> ::));
            continue;
        }
        if i > 0 && !segs[i - 1].is_empty() {
            out.extend(quote_spanned!(span=> ::));
        }
        let id = ident(s, span);
        out.extend(quote!(#id));
    }
    out
}

/// An identifier from formula text: `r#name` (a raw identifier written in the
/// attribute) stays raw; everything else the lexers produce is a plain ident.
pub fn ident(text: &str, span: Span) -> Ident {
    match text.strip_prefix("r#") {
        Some(raw) if !matches!(raw, "self" | "Self" | "super" | "crate" | "_" | "") => {
            Ident::new_raw(raw, span)
        }
        Some(raw) if !raw.is_empty() => Ident::new(raw, span),
        _ => Ident::new(text, span),
    }
}
