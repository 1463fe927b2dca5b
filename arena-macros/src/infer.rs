//! The types of lets the macro cannot see: a let over plain Rust code
//! (`let fp8 = config.fp8_generation_mla`, `let k = top_k(config)`) takes the
//! type of its uses. Used as a condition it is a `bool`, in arithmetic or a
//! comparison a number; used both ways is one error naming both uses. A let
//! used neither way (only passed on to Rust code) stays a number, as before.

use std::collections::HashMap;

use crate::attr::Errors;
use crate::formula::lower::BUILTINS;
use crate::formula::{BinOp, Expr, Formula, Kind};
use crate::model::{Model, Role};

/// What a formula's value is, as far as its syntax tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Syn {
    Num,
    Cond,
    /// Plain Rust code: a config field, a method, a call, a path.
    Rust,
    Other,
}

/// How a use reads a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Cond,
    Num,
    Any,
    /// `dtype = NAME`: an element type chosen at run time.
    DType,
}

/// The type a let takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LetType {
    /// Its own formula decides.
    Own,
    /// A condition, from its uses.
    Cond,
    /// A number, from its uses (or none).
    Num,
    /// Used both ways (reported): left as plain Rust, so no use errs again.
    Conflict,
    /// An `arena::DType`, from a use as `dtype = NAME`.
    DType,
}

/// The type of each let.
pub fn let_types(m: &Model, errs: &mut Errors) -> Vec<LetType> {
    let lets = m.lets();
    let index: HashMap<String, usize> = lets
        .iter()
        .enumerate()
        .map(|(i, l)| (l.name.to_string(), i))
        .collect();
    let params: HashMap<String, Syn> = m
        .params()
        .iter()
        .flat_map(|p| {
            let t = match &p.ty {
                syn::Type::Path(tp) if tp.path.is_ident("usize") => Syn::Num,
                syn::Type::Path(tp) if tp.path.is_ident("bool") => Syn::Cond,
                _ => Syn::Other,
            };
            std::iter::once((p.name.to_string(), t))
                .chain(p.short.iter().map(move |s| (s.to_string(), t)))
        })
        .collect();
    let levers: HashMap<String, Syn> = m
        .levers()
        .iter()
        .map(|l| {
            let t = if l.parse.is_some() {
                Syn::Other
            } else {
                Syn::Cond
            };
            (l.name.to_string(), t)
        })
        .collect();
    // The syntactic type of each let, following lets it names.
    let mut syn_of: Vec<Option<Syn>> = vec![None; lets.len()];
    fn syn_ty(
        e: &Expr,
        index: &HashMap<String, usize>,
        params: &HashMap<String, Syn>,
        levers: &HashMap<String, Syn>,
        lets: &[crate::attr::Let],
        memo: &mut Vec<Option<Syn>>,
        depth: usize,
    ) -> Syn {
        let rec = |e: &Expr, memo: &mut Vec<Option<Syn>>| {
            syn_ty(e, index, params, levers, lets, memo, depth + 1)
        };
        if depth > 64 {
            return Syn::Other;
        }
        match &e.kind {
            Kind::Int(_) => Syn::Num,
            Kind::Bool(_) | Kind::Not(_) => Syn::Cond,
            Kind::Str(_) => Syn::Other,
            Kind::Bin(op, _, _) => match op {
                BinOp::And | BinOp::Or => Syn::Cond,
                op if op.is_comparison() => Syn::Cond,
                _ => Syn::Num,
            },
            Kind::Call(p, _) if p.len() == 1 && BUILTINS.contains(&p[0].as_str()) => Syn::Num,
            Kind::Call(..) | Kind::Method(..) | Kind::Field(..) | Kind::Path(_) => Syn::Rust,
            Kind::Paren(inner) => rec(inner, memo),
            Kind::If(_, t, f) => match (rec(t, memo), rec(f, memo)) {
                (Syn::Num, _) | (_, Syn::Num) => Syn::Num,
                (Syn::Cond, _) | (_, Syn::Cond) => Syn::Cond,
                (a, _) => a,
            },
            Kind::Name(n) => {
                if let Some(t) = params.get(n).or_else(|| levers.get(n)) {
                    return *t;
                }
                match index.get(n) {
                    Some(&i) => {
                        if let Some(t) = memo[i] {
                            return t;
                        }
                        // A cycle (reported elsewhere) reads as `Other`.
                        memo[i] = Some(Syn::Other);
                        let t = rec(&lets[i].formula.expr, memo);
                        memo[i] = Some(t);
                        t
                    }
                    None => Syn::Num, // a field: bytes
                }
            }
        }
    }
    for i in 0..lets.len() {
        if syn_of[i].is_none() {
            syn_of[i] = Some(Syn::Other);
            let t = syn_ty(
                &lets[i].formula.expr,
                &index,
                &params,
                &levers,
                lets,
                &mut syn_of,
                0,
            );
            syn_of[i] = Some(t);
        }
    }
    // Lets of plain Rust take their type from their uses; so does a let of
    // any other value that is used as a dtype (`let act = dtype`).
    let rust_let = |n: &str| {
        index
            .get(n)
            .copied()
            .filter(|&i| matches!(syn_of[i], Some(Syn::Rust | Syn::Other)))
    };
    // Every use of a Rust-valued let: (let, how, where).
    let mut uses: Vec<(usize, Ctx, String)> = Vec::new();
    let walk_formula = |f: &Formula, ctx: Ctx, place: &str, uses: &mut Vec<_>| {
        walk(&f.expr, ctx, place, &rust_let, uses);
    };
    for f in &m.fields {
        let name = &f.ident;
        let a = &f.attrs;
        match crate::model::role(f) {
            Some(Role::Size(s)) => {
                walk_formula(s, Ctx::Num, &format!("`size` of `{name}`"), &mut uses)
            }
            Some(Role::Shape(dims)) => {
                for d in dims {
                    walk_formula(d, Ctx::Num, &format!("`shape` of `{name}`"), &mut uses);
                }
            }
            Some(Role::Nested { args, size }) => {
                for a in args {
                    walk_formula(a, Ctx::Any, &format!("`nested` of `{name}`"), &mut uses);
                }
                if let Some(s) = size {
                    walk_formula(s, Ctx::Num, &format!("`size` of `{name}`"), &mut uses);
                }
            }
            Some(Role::Value(v)) => {
                walk_formula(v, Ctx::Any, &format!("`value` of `{name}`"), &mut uses)
            }
            None => {}
        }
        if let Some(w) = a.when.get() {
            walk_formula(w, Ctx::Cond, &format!("`when` of `{name}`"), &mut uses);
        }
        if let Some(u) = a.unless.get() {
            walk_formula(u, Ctx::Cond, &format!("`unless` of `{name}`"), &mut uses);
        }
        if let Some(d) = a.dtype.get().and_then(crate::attr::DType::runtime) {
            walk_formula(d, Ctx::DType, &format!("`dtype` of `{name}`"), &mut uses);
        }
        if let Some(t) = a.trim.get()
            && let Some(i) = rust_let(&t.to_string())
        {
            uses.push((i, Ctx::Cond, format!("`trim` of `{name}`")));
        }
    }
    if let Some(w) = &m.attrs.when {
        walk_formula(w, Ctx::Cond, "the struct's `when`", &mut uses);
    }
    for l in lets {
        walk_formula(
            &l.formula,
            Ctx::Any,
            &format!("`let {}`", l.name),
            &mut uses,
        );
    }
    // A let that only renames another (`let b = fp8`) passes its uses on.
    for _ in 0..lets.len() {
        let mut added = false;
        for (b, l) in lets.iter().enumerate() {
            let Kind::Name(x) = &l.formula.expr.unparen().kind else {
                continue;
            };
            let Some(xi) = rust_let(x).filter(|&xi| xi != b) else {
                continue;
            };
            let passed: Vec<_> = uses
                .iter()
                .filter(|(j, c, _)| *j == b && *c != Ctx::Any)
                .map(|(_, c, p)| (xi, *c, p.clone()))
                .collect();
            for u in passed {
                if !uses.contains(&u) {
                    uses.push(u);
                    added = true;
                }
            }
        }
        if !added {
            break;
        }
    }
    let mut out = vec![LetType::Own; lets.len()];
    for (i, l) in lets.iter().enumerate() {
        let find = |ctx: Ctx| uses.iter().find(|(j, c, _)| *j == i && *c == ctx);
        let dtype = find(Ctx::DType);
        if syn_of[i] == Some(Syn::Other) {
            if dtype.is_some() {
                out[i] = LetType::DType;
            }
            continue;
        }
        if syn_of[i] != Some(Syn::Rust) {
            continue;
        }
        let (cond, num) = (find(Ctx::Cond), find(Ctx::Num));
        let both = |a: &str, b: &str| {
            format!(
                "`let {}` is plain Rust code used both as {a} and as {b}; a let has one type: declare one let for each use",
                l.name
            )
        };
        out[i] = match (dtype, cond, num) {
            (Some((_, _, d)), Some((_, _, o)), _) | (Some((_, _, d)), None, Some((_, _, o))) => {
                let what = if cond.is_some() {
                    "a condition"
                } else {
                    "a number"
                };
                errs.at(
                    l.name.span(),
                    both(&format!("a dtype (in {d})"), &format!("{what} (in {o})")),
                );
                LetType::Conflict
            }
            (Some(_), None, None) => LetType::DType,
            (None, Some((_, _, c)), Some((_, _, n))) => {
                errs.at(
                    l.name.span(),
                    both(
                        &format!("a condition (in {c})"),
                        &format!("a number (in {n})"),
                    ),
                );
                LetType::Conflict
            }
            (None, Some(_), None) => LetType::Cond,
            _ => LetType::Num,
        };
    }
    out
}

fn walk(
    e: &Expr,
    ctx: Ctx,
    place: &str,
    rust_let: &dyn Fn(&str) -> Option<usize>,
    uses: &mut Vec<(usize, Ctx, String)>,
) {
    let mut go = |e: &Expr, ctx: Ctx| walk(e, ctx, place, rust_let, uses);
    match &e.kind {
        Kind::Name(n) => {
            if let Some(i) = rust_let(n) {
                uses.push((i, ctx, place.to_owned()));
            }
        }
        Kind::Paren(inner) => go(inner, ctx),
        Kind::Not(inner) => go(inner, Ctx::Cond),
        Kind::Bin(op, l, r) => {
            let c = match op {
                BinOp::And | BinOp::Or => Ctx::Cond,
                BinOp::Eq | BinOp::Ne => Ctx::Any,
                _ => Ctx::Num,
            };
            go(l, c);
            go(r, c);
        }
        Kind::If(c, t, f) => {
            go(c, Ctx::Cond);
            go(t, ctx);
            go(f, ctx);
        }
        Kind::Call(p, args) if p.len() == 1 && p[0] == "trimmed" => {
            for a in args {
                go(a, Ctx::Cond);
            }
        }
        Kind::Call(p, args) if p.len() == 1 && BUILTINS.contains(&p[0].as_str()) => {
            for a in args {
                go(a, Ctx::Num);
            }
        }
        Kind::Call(_, args) => {
            for a in args {
                go(a, Ctx::Any);
            }
        }
        Kind::Method(b, _, args) => {
            go(b, Ctx::Any);
            for a in args {
                go(a, Ctx::Any);
            }
        }
        Kind::Field(b, _) => go(b, Ctx::Any),
        Kind::Int(_) | Kind::Bool(_) | Kind::Str(_) | Kind::Path(_) => {}
    }
}
