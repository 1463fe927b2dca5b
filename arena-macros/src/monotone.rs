//! Whether an arena's bytes can only grow as one parameter grows, read from
//! its formulas: what `arena::fit` needs to find the largest value that fits
//! a budget by bisection instead of a scan.
//!
//! Every value a formula computes is a `usize`, never negative, so sums,
//! products, `max`, `min`, `clamp`, `ceil16`, and rounding up or dividing a
//! growing value by something that does not depend on the parameter all grow
//! with a growing operand. A condition that reads the parameter, a
//! subtraction of it, a division or remainder by it, and plain Rust code over
//! it are not known to: the verdict names the first such formula.

use std::collections::HashMap;

use crate::attr::DType;
use crate::formula::{BinOp, Expr, Formula, Kind};
use crate::model::{self, Model, Node, Role};

/// How a value depends on the parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mono {
    /// It does not depend on it.
    Const,
    /// It can only grow as the parameter grows.
    Up,
    /// Not known: the item and the formula text that makes it so.
    Unknown(String, String),
}

impl Mono {
    /// Both `self` and `other` at once, as a sum or `max` of them is.
    fn join(self, other: Mono) -> Mono {
        match (self, other) {
            (u @ Mono::Unknown(..), _) | (_, u @ Mono::Unknown(..)) => u,
            (Mono::Const, Mono::Const) => Mono::Const,
            _ => Mono::Up,
        }
    }

    /// `self` where only a value that does not depend on the parameter may
    /// stand (a condition, a divisor): `Unknown` at `here` otherwise.
    fn fixed(self, here: &Here) -> Mono {
        match self {
            Mono::Up => here.unknown(),
            m => m,
        }
    }
}

/// The item and formula being read, named when a construct is not known to grow.
struct Here<'h> {
    item: &'h str,
    text: &'h str,
}

impl Here<'_> {
    fn unknown(&self) -> Mono {
        Mono::Unknown(self.item.to_owned(), self.text.to_owned())
    }
}

/// What the parameter does to the arena's buffers: either they all grow
/// (each nested region's growth checked at run time, `nested`, as the
/// nested arena's own verdict for the parameter its argument fills), or the
/// first item and formula that is not known to.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Grows {
        /// (field index, argument index, argument text) of each nested
        /// region whose argument grows with the parameter.
        nested: Vec<(usize, usize, String)>,
    },
    Unknown {
        item: String,
        formula: String,
    },
}

/// The verdict for the parameter spelt `names` (its name and its short
/// name), over every buffer of `m`.
pub fn verdict(m: &Model, names: &[String]) -> Verdict {
    let mut env: HashMap<String, Mono> = HashMap::new();
    let mut nested = Vec::new();
    // A name that a let or field declares is that let or field (as in the
    // generated sizing, where they are computed in `order`).
    let mut statuses: Vec<Option<Mono>> = vec![None; m.fields.len()];
    for node in &m.order {
        match *node {
            Node::Let(i) => {
                let l = &m.lets()[i];
                let name = l.name.to_string();
                let here = Here {
                    item: &name,
                    text: &l.formula.text,
                };
                let s = eval(&l.formula.expr, names, &env, &here);
                env.insert(name, s);
            }
            Node::Field(i) => {
                let f = &m.fields[i];
                let s = field(m, i, names, &mut env, &mut nested);
                env.insert(f.name(), s.clone());
                if let Some(t) = f.attrs.trim.get() {
                    let key = format!("trimmed:{t}");
                    let group = env.remove(&key).unwrap_or(Mono::Const).join(s.clone());
                    env.insert(key, group);
                }
                statuses[i] = Some(s);
            }
        }
    }
    for (i, f) in m.fields.iter().enumerate() {
        if matches!(model::role(f), Some(Role::Value(_)) | None) {
            continue;
        }
        if let Some(Mono::Unknown(item, formula)) = &statuses[i] {
            return Verdict::Unknown {
                item: item.clone(),
                formula: formula.clone(),
            };
        }
    }
    Verdict::Grows { nested }
}

/// The status of field `i`'s bytes (its value for a value field).
fn field(
    m: &Model,
    i: usize,
    names: &[String],
    env: &mut HashMap<String, Mono>,
    nested: &mut Vec<(usize, usize, String)>,
) -> Mono {
    let f = &m.fields[i];
    let item = f.name();
    let a = &f.attrs;
    let of = |fm: &Formula, env: &HashMap<String, Mono>| {
        eval(
            &fm.expr,
            names,
            env,
            &Here {
                item: &item,
                text: &fm.text,
            },
        )
    };
    // Conditions: whether the buffer is there may not depend on the parameter.
    let mut gate = Mono::Const;
    let struct_when = m.attrs.when.as_ref().filter(|_| a.value.get().is_none());
    for c in a
        .when
        .get()
        .into_iter()
        .chain(a.unless.get())
        .chain(struct_when)
    {
        gate = gate.join(of(c, env).fixed(&Here {
            item: &item,
            text: &c.text,
        }));
    }
    if let Some(t) = a.trim.get() {
        let here = Here {
            item: &item,
            text: &format!("trim = {t}"),
        };
        let s = env.get(&t.to_string()).cloned().unwrap_or(Mono::Const);
        gate = gate.join(s.fixed(&here));
    }
    if let Some(d) = a.dtype.get().and_then(DType::runtime) {
        gate = gate.join(of(d, env).fixed(&Here {
            item: &item,
            text: &d.text,
        }));
    }
    if let Mono::Unknown(..) = gate {
        return gate;
    }
    let bytes = match model::role(f) {
        Some(Role::Size(s)) | Some(Role::Value(s)) => of(s, env),
        Some(Role::Shape(dims)) => dims
            .iter()
            .map(|d| of(d, env))
            .fold(Mono::Const, Mono::join),
        Some(Role::Nested { args, size }) => {
            let mut region = Mono::Const;
            for (k, arg) in args.iter().enumerate() {
                match of(arg, env) {
                    Mono::Const => {}
                    Mono::Up => {
                        nested.push((i, k, arg.text.clone()));
                        region = Mono::Up;
                    }
                    u => return u,
                }
            }
            match size {
                Some(s) => {
                    // `inner` is the nested arena's bytes inside its size formula.
                    let shadowed = env.insert("inner".into(), region);
                    let out = of(s, env);
                    match shadowed {
                        Some(b) => env.insert("inner".into(), b),
                        None => env.remove("inner"),
                    };
                    out
                }
                None => region,
            }
        }
        None => Mono::Const,
    };
    gate.join(bytes)
}

/// The status of `e`, where `names` spell the parameter and `env` holds
/// the lets and fields computed so far.
fn eval(e: &Expr, names: &[String], env: &HashMap<String, Mono>, here: &Here) -> Mono {
    let all_fixed = |args: &[&Expr]| {
        args.iter()
            .map(|a| eval(a, names, env, here).fixed(here))
            .fold(Mono::Const, Mono::join)
    };
    match &e.kind {
        Kind::Int(_) | Kind::Bool(_) | Kind::Str(_) | Kind::Path(_) => Mono::Const,
        Kind::Name(n) => match env.get(n) {
            Some(s) => s.clone(),
            None if names.iter().any(|p| p == n) => Mono::Up,
            // A lever, another parameter or a Rust name: fixed.
            None => Mono::Const,
        },
        Kind::Paren(x) => eval(x, names, env, here),
        // Plain Rust over the parameter (`M.pow(2)`, `cfg.dim`) is not known.
        Kind::Field(..) | Kind::Method(..) | Kind::Not(_) => all_fixed(&e.children()),
        Kind::Call(path, args) if path.len() == 1 => {
            let arg = |k: usize| eval(&args[k], names, env, here);
            match (path[0].as_str(), args.len()) {
                ("max" | "min" | "clamp", _) => args
                    .iter()
                    .map(|a| eval(a, names, env, here))
                    .fold(Mono::Const, Mono::join),
                ("ceil16" | "next_pow2", 1) => arg(0),
                ("div_ceil" | "round_up", 2) => arg(0).join(arg(1).fixed(here)),
                // The untrimmed bytes of a trim group: its members'.
                ("trimmed", 1) => match &args[0].unparen().kind {
                    Kind::Name(n) => env
                        .get(&format!("trimmed:{n}"))
                        .cloned()
                        .unwrap_or_else(|| here.unknown()),
                    _ => here.unknown(),
                },
                _ => all_fixed(&e.children()),
            }
        }
        Kind::Call(..) => all_fixed(&e.children()),
        Kind::Bin(op, a, b) => {
            let (l, r) = (eval(a, names, env, here), eval(b, names, env, here));
            match op {
                BinOp::Add | BinOp::Mul => l.join(r),
                BinOp::Sub | BinOp::Div => l.join(r.fixed(here)),
                _ => l.fixed(here).join(r.fixed(here)),
            }
        }
        Kind::If(c, t, f) => {
            let c = eval(c, names, env, here).fixed(here);
            c.join(eval(t, names, env, here))
                .join(eval(f, names, env, here))
        }
    }
}

/// The status of one formula alone, `names` spelling the parameter: what
/// the unit tests read per formula shape.
#[cfg(test)]
pub fn of_formula(e: &Expr, names: &[&str]) -> Mono {
    let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
    eval(
        e,
        &names,
        &HashMap::new(),
        &Here {
            item: "x",
            text: "formula",
        },
    )
}

#[cfg(test)]
mod tests {
    use proc_macro2::Span;

    use super::{Mono, of_formula};
    use crate::formula::Formula;

    fn verdict(text: &str) -> Mono {
        let f = Formula::from_str(text, Span::call_site()).unwrap();
        of_formula(&f.expr, &["M", "max_batch_tokens"])
    }

    #[test]
    fn each_formula_shape_has_its_verdict() {
        let up = [
            "M",
            "max_batch_tokens",
            "4 * M * k",
            "M + 3",
            "(M + 1) * (h + M)",
            "max(M, 3)",
            "min(M, 3)",
            "clamp(M, 1, 100)",
            "clamp(8, M, 2 * M)",
            "ceil16(M)",
            "round_up(M, 64)",
            "div_ceil(M, 3)",
            "M / 128",
            "ceil16(M) * K / 128 * 4",
            "M - 3",
            "if fp8 { M } else { 2 * M }",
            "if E > 0 { 4 * M * E } else { 256 }",
            "M * cfg.hidden_size",
            "M * n_experts(cfg)",
        ];
        for text in up {
            assert_eq!(verdict(text), Mono::Up, "{text}");
        }
        let fixed = [
            "k",
            "4096",
            "cfg.hidden_size / 2",
            "if a > b { 3 } else { 4 }",
            "f(k)",
            "k - 3",
        ];
        for text in fixed {
            assert_eq!(verdict(text), Mono::Const, "{text}");
        }
        let unknown = [
            "100 - M",
            "k - M",
            "1000 / M",
            "M % 7",
            "k % M",
            "if M > 3 { 1 } else { 2 }",
            "if M % 2 == 0 { M } else { 0 }",
            "round_up(x, M)",
            "div_ceil(x, M)",
            "foo(M)",
            "M.pow(2)",
            "cfg.layers(M)",
            "usize::from(M > 3)",
        ];
        for text in unknown {
            assert!(
                matches!(verdict(text), Mono::Unknown(ref item, _) if item == "x"),
                "{text}: {:?}",
                verdict(text)
            );
        }
    }
}
