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
    /// How the generated code names the runtime helper `name` (`n`, `int`,
    /// `max`, ...): by its path, unless the caller imported it.
    fn helper(&self, name: &str, span: Span) -> TokenStream {
        let id = Ident::new(name, span);
        quote_spanned!(span=> ::arena::__private::formula::#id)
    }
}

/// A lowered formula: Rust code that reads as the formula.
pub struct Lowered {
    pub ty: Ty,
    pub code: TokenStream,
    /// The code is a `Checked` number (its arithmetic carries a fault); else
    /// a plain `usize`, `bool` or Rust value.
    pub checked: bool,
    /// The code uses `?` on a fault, so it runs inside a closure returning
    /// `Result<_, Fault>`.
    pub tries: bool,
}

impl Lowered {
    fn plain(ty: Ty, code: TokenStream) -> Self {
        Lowered {
            ty,
            code,
            checked: false,
            tries: false,
        }
    }
}

/// The built-in functions of the formula language.
pub const BUILTINS: [&str; 8] = [
    "ceil16",
    "next_pow2",
    "div_ceil",
    "round_up",
    "max",
    "min",
    "clamp",
    "trimmed",
];

/// The runtime helpers generated formulas name, for the caller's imports.
pub const HELPERS: [&str; 11] = [
    "n",
    "int",
    "wide",
    "ceil16",
    "next_pow2",
    "div_ceil",
    "round_up",
    "max",
    "min",
    "clamp",
    "str_eq",
];

pub struct Lowerer<'a> {
    env: &'a dyn Env,
    pub errors: Vec<FError>,
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

/// An integer literal: unsuffixed where it fits every integer type a
/// checked operator takes, `usize`-suffixed beyond.
fn int_literal(v: u128, span: Span) -> TokenStream {
    let mut lit = if v <= i32::MAX as u128 {
        Literal::u64_unsuffixed(v as u64)
    } else {
        Literal::usize_suffixed(v as usize)
    };
    lit.set_span(span);
    quote!(#lit)
}

/// Operators a statement of a long chain holds ([`Lowerer::chain`]).
const CHAIN_PIECE: usize = 64;

/// One operator of a chain, its right operand and where it was written.
type Link<'e> = (BinOp, &'e Expr, Loc);

/// `e` as a chain longer than [`CHAIN_PIECE`] of operators of one precedence
/// (not comparisons), found without recursion: its first operand and each
/// operator with its right operand, left to right.
fn chain(e: &Expr) -> Option<(&Expr, Vec<Link<'_>>)> {
    let Kind::Bin(top, ..) = e.kind else {
        return None;
    };
    if top.is_comparison() {
        return None;
    }
    let mut links = Vec::new();
    let mut cur = e;
    while let Kind::Bin(op, l, r) = &cur.kind {
        if op.power() != top.power() {
            break;
        }
        links.push((*op, &**r, cur.loc));
        cur = l;
    }
    if links.len() <= CHAIN_PIECE {
        return None;
    }
    links.reverse();
    Some((cur, links))
}

/// `code` in parentheses when it is an `if`, so it can be an operand.
fn operand(e: &Expr, code: TokenStream) -> TokenStream {
    if matches!(e.kind, Kind::If(..)) {
        quote!((#code))
    } else {
        code
    }
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

    fn helper(&self, name: &str, span: Span) -> TokenStream {
        self.env.helper(name, span)
    }

    /// Lowers `e` as a size (`usize`, plain or checked).
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

    /// Lowers `e` in whatever type it has; a checked number is made a plain
    /// `usize` (`int(...)?`), as a Rust function's argument must be.
    pub fn any(&mut self, e: &Expr) -> Option<Lowered> {
        let l = self.lower(e)?;
        Some(self.unchecked(l))
    }

    /// Lowers `e` as a number that a checked operator takes on its right:
    /// a plain Rust value is not converted (the operator converts it).
    pub fn operand(&mut self, e: &Expr) -> Option<Lowered> {
        let l = self.lower(e)?;
        match l.ty {
            Ty::Int | Ty::Ext => Some(l),
            _ => self.type_error(&l, e, "a number"),
        }
    }

    fn type_error<T>(&mut self, l: &Lowered, e: &Expr, want: &str) -> Option<T> {
        match l.ty {
            Ty::Opaque if want == "a number" => self.fail(
                e.loc,
                format!(
                    "expected a number, found {}; use one of its fields, such as `{}.hidden_size`",
                    self.describe_opaque(e),
                    print(e)
                ),
            ),
            Ty::Opaque => self.fail(
                e.loc,
                format!("expected {want}, found {}", self.describe_opaque(e)),
            ),
            Ty::Int if want == "a condition" => self.fail(
                e.loc,
                format!(
                    "expected a condition, found a number: `{}`; compare it, e.g. `{} > 0`",
                    print(e),
                    print(e)
                ),
            ),
            other => self.fail(
                e.loc,
                format!("expected {want}, found {}: `{}`", ty_name(other), print(e)),
            ),
        }
    }

    /// A number: a plain Rust value is converted (`n(config.hidden_size)`).
    fn as_int(&mut self, l: Lowered, e: &Expr) -> Option<Lowered> {
        match l.ty {
            Ty::Int => Some(l),
            Ty::Ext => Some(self.lift(l, e.loc.span)),
            _ => self.type_error(&l, e, "a number"),
        }
    }

    /// A checked number: `n(x)` around a plain one.
    fn lift(&self, l: Lowered, span: Span) -> Lowered {
        if l.checked {
            return l;
        }
        let n = self.helper("n", span);
        let code = l.code;
        Lowered {
            ty: Ty::Int,
            // The call at the operand, so that rustc's "not a number" lands
            // on the formula.
            code: quote_spanned!(span=> #n(#code)),
            checked: true,
            tries: l.tries,
        }
    }

    /// A plain value: a checked number becomes `int(x)?`.
    fn unchecked(&self, l: Lowered) -> Lowered {
        if !l.checked {
            return l;
        }
        let int = self.helper("int", Span::call_site());
        let code = l.code;
        Lowered {
            ty: Ty::Int,
            code: quote!(#int(#code)?),
            checked: false,
            tries: true,
        }
    }

    /// A plain `usize` for a comparison: a Rust value is converted too.
    fn plain_int(&mut self, l: Lowered, e: &Expr) -> Option<Lowered> {
        match l.ty {
            Ty::Int => Some(self.unchecked(l)),
            Ty::Ext => {
                let int = self.helper("int", e.loc.span);
                let code = l.code;
                Some(Lowered {
                    ty: Ty::Int,
                    code: quote!(#int(#code)?),
                    checked: false,
                    tries: true,
                })
            }
            _ => self.type_error(&l, e, "a number"),
        }
    }

    fn as_bool(&mut self, l: Lowered, e: &Expr) -> Option<Lowered> {
        match l.ty {
            Ty::Bool | Ty::Ext => Some(Lowered { ty: Ty::Bool, ..l }),
            _ => self.type_error(&l, e, "a condition"),
        }
    }

    fn describe_opaque(&self, e: &Expr) -> String {
        if let Kind::Name(n) = &e.unparen().kind
            && let Some(b) = self.env.lookup(n)
        {
            return b.what.clone();
        }
        format!("`{}`", print(e))
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
                Some(Lowered::plain(Ty::Int, int_literal(*v, span)))
            }
            Kind::Bool(b) => Some(Lowered::plain(
                Ty::Bool,
                if *b {
                    quote_spanned!(span=> true)
                } else {
                    quote_spanned!(span=> false)
                },
            )),
            Kind::Str(s) => {
                let mut lit = Literal::string(s);
                lit.set_span(span);
                Some(Lowered::plain(Ty::Str, quote!(#lit)))
            }
            Kind::Name(n) => match self.env.lookup(n) {
                Some(b) => {
                    // Where the formula names it, resolved as the binding
                    // is (a generated local keeps its hygiene).
                    let local = ident(&b.local.to_string(), span.resolved_at(b.local.span()));
                    Some(Lowered::plain(b.ty, quote!(#local)))
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
            Kind::Path(segs) => Some(Lowered::plain(Ty::Ext, path_tokens(segs, span))),
            Kind::Field(base, name) => {
                let b = self.lower(base)?;
                self.member(base, b.ty, e.loc)?;
                let base_code = b.code;
                let field = ident(name, span);
                Some(Lowered {
                    tries: b.tries,
                    ..Lowered::plain(Ty::Ext, quote!(#base_code.#field))
                })
            }
            Kind::Method(base, name, args) => {
                let b = self.lower(base)?;
                self.member(base, b.ty, e.loc)?;
                let (args, tries) = self.rust_args(args)?;
                let base_code = b.code;
                let method = ident(name, span);
                Some(Lowered {
                    tries: tries || b.tries,
                    ..Lowered::plain(
                        Ty::Ext,
                        quote_spanned!(span=> #base_code.#method(#(#args),*)),
                    )
                })
            }
            Kind::Call(segs, args) if segs.len() == 1 && BUILTINS.contains(&segs[0].as_str()) => {
                self.builtin(&segs[0], args, e.loc)
            }
            Kind::Call(segs, args) => {
                let (args, tries) = self.rust_args(args)?;
                let path = path_tokens(segs, span);
                Some(Lowered {
                    tries,
                    ..Lowered::plain(Ty::Ext, quote_spanned!(span=> #path(#(#args),*)))
                })
            }
            Kind::Not(inner) => {
                let l = self.bool(inner)?;
                let code = operand(inner, l.code);
                Some(Lowered {
                    tries: l.tries,
                    ..Lowered::plain(Ty::Bool, quote_spanned!(span=> !#code))
                })
            }
            // Parentheses around parentheses are written once.
            Kind::Paren(inner) if matches!(inner.kind, Kind::Paren(_)) => self.lower(inner),
            Kind::Paren(inner) => {
                let l = self.lower(inner)?;
                let code = l.code;
                Some(Lowered {
                    code: quote!((#code)),
                    ..l
                })
            }
            Kind::If(c, t, f) => {
                let c = self.bool(c);
                let t_raw = self.lower(t);
                let f_raw = self.lower(f);
                let (c, t_raw, f_raw) = (c?, t_raw?, f_raw?);
                let (t_l, f_l) = self.unify(t_raw, t, f_raw, f)?;
                let (cc, tc, fc) = (c.code, t_l.code, f_l.code);
                // `else if` stays `else if`.
                let else_part = if matches!(f.kind, Kind::If(..))
                    && fc
                        .clone()
                        .into_iter()
                        .next()
                        .is_some_and(|t| t.to_string() == "if")
                {
                    quote!(#fc)
                } else {
                    quote!({ #fc })
                };
                Some(Lowered {
                    ty: t_l.ty,
                    code: quote_spanned!(span=> if #cc { #tc } else #else_part),
                    checked: t_l.checked,
                    tries: c.tries || t_l.tries || f_l.tries,
                })
            }
            Kind::Bin(op, l, r) => match chain(e) {
                Some((first, links)) => self.chain(first, &links),
                None => self.binary(*op, l, r, e.loc),
            },
        }
    }

    /// A long chain of one operator's precedence (`a + b - c + ...`), in
    /// statements of [`CHAIN_PIECE`] operators each, so that the generated
    /// expression stays shallow for rustc at any length: `{ let c = a + b
    /// ...; let c = c + ...; c }`, left to right as written, so each
    /// operation and its check are the formula's own.
    fn chain(&mut self, first: &Expr, links: &[Link<'_>]) -> Option<Lowered> {
        let acc_name = Ident::new("__arena_chain", Span::mixed_site());
        let mut acc = self.lower(first);
        let mut stmts = Vec::new();
        for (k, &(op, r, loc)) in links.iter().enumerate() {
            if k > 0
                && k % CHAIN_PIECE == 0
                && let Some(a) = acc.as_mut()
            {
                let code = std::mem::replace(&mut a.code, quote!(#acc_name));
                stmts.push(quote!(let #acc_name = #code;));
            }
            if matches!(op, BinOp::Div | BinOp::Rem) && is_lit_zero(r) {
                return self.fail(
                    r.loc,
                    format!(
                        "division by a literal zero in `… {} {}`",
                        op.text(),
                        print(r)
                    ),
                );
            }
            let b = self.lower(r);
            acc = match (acc, b) {
                (Some(a), Some(b)) => self.combine(op, a, first, b, r, loc),
                _ => None,
            };
        }
        let acc = acc?;
        let code = acc.code;
        Some(Lowered {
            code: quote!({ #(#stmts)* #code }),
            ..acc
        })
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

    /// The two branches of an `if` in one type: numbers are both checked
    /// when one is, a Rust value takes the other branch's type.
    fn unify(
        &mut self,
        a: Lowered,
        ae: &Expr,
        b: Lowered,
        be: &Expr,
    ) -> Option<(Lowered, Lowered)> {
        use Ty::*;
        match (a.ty, b.ty) {
            (Int, Int) if a.checked == b.checked => Some((a, b)),
            (Int, Int) | (Int, Ext) | (Ext, Int) => {
                Some((self.lift(a, ae.loc.span), self.lift(b, be.loc.span)))
            }
            (Bool, Bool) | (Ext, Ext) | (Opaque, Opaque) => Some((a, b)),
            // Values of Rust types the macro cannot see (a dtype, a
            // config): rustc checks the branches agree.
            (Opaque, Ext) => Some((a, Lowered { ty: Opaque, ..b })),
            (Ext, Opaque) => Some((Lowered { ty: Opaque, ..a }, b)),
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

    /// Every argument lowered by `one`; `None` if any failed (all are checked).
    fn each(
        &mut self,
        args: &[Expr],
        one: fn(&mut Self, &Expr) -> Option<Lowered>,
    ) -> Option<(Vec<TokenStream>, bool)> {
        let mut out = Vec::new();
        let mut tries = false;
        let mut ok = true;
        for a in args {
            match one(self, a) {
                Some(l) => {
                    tries |= l.tries;
                    out.push(l.code);
                }
                None => ok = false,
            }
        }
        ok.then_some((out, tries))
    }

    /// Arguments of plain Rust code, each as written (a checked number as
    /// `int(...)?`).
    fn rust_args(&mut self, args: &[Expr]) -> Option<(Vec<TokenStream>, bool)> {
        self.each(args, Self::any)
    }

    /// Arguments of a built-in: numbers, plain or checked, as written.
    fn int_args(&mut self, args: &[Expr]) -> Option<(Vec<TokenStream>, bool)> {
        self.each(args, Self::operand)
    }

    fn builtin(&mut self, name: &str, args: &[Expr], loc: Loc) -> Option<Lowered> {
        let span = loc.span;
        let arity_ok = match name {
            "ceil16" | "next_pow2" | "trimmed" => args.len() == 1,
            "div_ceil" | "round_up" => args.len() == 2,
            "clamp" => args.len() == 3,
            _ => args.len() >= 2,
        };
        if !arity_ok {
            let want = match name {
                "ceil16" => "one argument: `ceil16(x)`",
                "next_pow2" => "one argument: `next_pow2(x)`",
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
        let (codes, tries) = self.int_args(args)?;
        let f = self.helper(name, span);
        let code = match name {
            "max" | "min" => {
                let mut it = codes.into_iter();
                let first = it.next().unwrap_or_default();
                it.fold(first, |acc, c| quote!(#f(#acc, #c)))
            }
            _ => quote!(#f(#(#codes),*)),
        };
        Some(Lowered {
            ty: Ty::Int,
            code,
            checked: true,
            tries,
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
        let nf = self.helper("n", loc.span);
        let c = cond.code;
        let mut it = members.iter();
        let first = it.next().map_or(quote!(#nf(0)), |m| quote!(#nf(#m)));
        let sum = it.fold(first, |acc, m| quote!(#acc + #m));
        Some(Lowered {
            ty: Ty::Int,
            code: quote!(if #c { #sum } else { #nf(0) }),
            checked: true,
            tries: cond.tries,
        })
    }

    fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr, loc: Loc) -> Option<Lowered> {
        if matches!(op, BinOp::Div | BinOp::Rem) && is_lit_zero(r) {
            return self.fail(
                r.loc,
                format!("division by a literal zero in `{}`", print_bin(op, l, r)),
            );
        }
        let a = self.lower(l);
        let b = self.lower(r);
        let (a, b) = (a?, b?);
        self.combine(op, a, l, b, r, loc)
    }

    /// `a op b`, each lowered from `l` and `r`.
    fn combine(
        &mut self,
        op: BinOp,
        a: Lowered,
        l: &Expr,
        b: Lowered,
        r: &Expr,
        loc: Loc,
    ) -> Option<Lowered> {
        let span = loc.span;
        let tries = a.tries || b.tries;
        let opt: TokenStream = match op {
            BinOp::Add => quote_spanned!(span=> +),
            BinOp::Sub => quote_spanned!(span=> -),
            BinOp::Mul => quote_spanned!(span=> *),
            BinOp::Div => quote_spanned!(span=> /),
            BinOp::Rem => quote_spanned!(span=> %),
            BinOp::Lt => quote_spanned!(span=> <),
            BinOp::Gt => quote_spanned!(span=> >),
            BinOp::Le => quote_spanned!(span=> <=),
            BinOp::Ge => quote_spanned!(span=> >=),
            BinOp::Eq => quote_spanned!(span=> ==),
            BinOp::Ne => quote_spanned!(span=> !=),
            BinOp::And => quote_spanned!(span=> &&),
            BinOp::Or => quote_spanned!(span=> ||),
        };
        match op {
            BinOp::And | BinOp::Or => {
                let a = self.as_bool(a, l);
                let b = self.as_bool(b, r);
                let (a, b) = (a?, b?);
                let (ac, bc) = (operand(l, a.code), operand(r, b.code));
                Some(Lowered {
                    tries,
                    ..Lowered::plain(Ty::Bool, quote!(#ac #opt #bc))
                })
            }
            BinOp::Eq | BinOp::Ne => self.equality(op, a, l, b, r, span),
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge
                if literal_against_field(&a, l, &b, r) =>
            {
                // `config.num_experts > 0`: the literal takes the field's type.
                let (ac, bc) = (a.code, b.code);
                Some(Lowered::plain(Ty::Bool, quote!(#ac #opt #bc)))
            }
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => {
                let a = self.plain_int(a, l);
                let b = self.plain_int(b, r);
                let (a, b) = (a?, b?);
                let (ac, bc) = (operand(l, a.code), operand(r, b.code));
                Some(Lowered {
                    tries: a.tries || b.tries,
                    ..Lowered::plain(Ty::Bool, quote!(#ac #opt #bc))
                })
            }
            _ => {
                for (x, e) in [(&a, l), (&b, r)] {
                    if !matches!(x.ty, Ty::Int | Ty::Ext) {
                        let _: Option<()> = self.type_error(x, e, "a number");
                        return None;
                    }
                }
                // The left operand carries the check: lifted with `n(...)`
                // unless it is checked already, or a plain `usize` before a
                // checked right operand (`2 * ceil16(M)`).
                let left = if a.checked || (a.ty == Ty::Int && b.checked) {
                    a
                } else {
                    self.lift(a, l.loc.span)
                };
                let (ac, bc) = (operand(l, left.code), operand(r, b.code));
                Some(Lowered {
                    ty: Ty::Int,
                    code: quote!(#ac #opt #bc),
                    checked: true,
                    tries,
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
        let tries = a.tries || b.tries;
        let eq = match (a.ty, b.ty) {
            (Str, Ext) | (Ext, Str) => {
                let (s, x) = if a.ty == Str {
                    (a.code, b.code)
                } else {
                    (b.code, a.code)
                };
                let f = self.helper("str_eq", span);
                quote!(#f(&#x, #s))
            }
            // A parameter of another type (`act: DType`) compares with a
            // Rust value or another such parameter as Rust compares them.
            (Str, Str)
            | (Bool, Bool)
            | (Bool, Ext)
            | (Ext, Bool)
            | (Ext, Ext)
            | (Opaque, Ext)
            | (Ext, Opaque)
            | (Opaque, Opaque) => {
                let (ac, bc) = (operand(l, a.code), operand(r, b.code));
                quote_spanned!(span=> #ac == #bc)
            }
            (Int, Ext) | (Ext, Int) if literal_against_field(&a, l, &b, r) => {
                let (ac, bc) = (a.code, b.code);
                quote_spanned!(span=> #ac == #bc)
            }
            (Int, Int) | (Int, Ext) | (Ext, Int) => {
                let a = self.plain_int(a, l)?;
                let b = self.plain_int(b, r)?;
                let tries = a.tries || b.tries;
                let (ac, bc) = (operand(l, a.code), operand(r, b.code));
                let code = if op == BinOp::Ne {
                    quote_spanned!(span=> #ac != #bc)
                } else {
                    quote_spanned!(span=> #ac == #bc)
                };
                return Some(Lowered {
                    tries,
                    ..Lowered::plain(Bool, code)
                });
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
            quote_spanned!(span=> !(#eq))
        } else {
            eq
        };
        Some(Lowered {
            tries,
            ..Lowered::plain(Bool, code)
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

/// A config field compared with an integer literal, which Rust types as
/// the field's own integer type: no conversion is needed.
fn literal_against_field(a: &Lowered, l: &Expr, b: &Lowered, r: &Expr) -> bool {
    let field =
        |x: &Lowered, e: &Expr| x.ty == Ty::Ext && !x.tries && matches!(e.kind, Kind::Field(..));
    let lit = |e: &Expr| matches!(e.kind, Kind::Int(v) if v <= i32::MAX as u128);
    (field(a, l) && lit(r)) || (lit(l) && field(b, r))
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
