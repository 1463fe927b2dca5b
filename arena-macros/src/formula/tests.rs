//! Unit and property tests of the formula parser: no input panics it, and
//! every valid formula parses to a tree that evaluates like a reference.

use std::str::FromStr;

use proc_macro2::{Span, TokenStream};
use proptest::prelude::*;

use super::parse::{MAX_OPERATORS, print};
use super::{BinOp, Expr, Formula, Kind};

/// A reference formula, built by the test and printed with minimal parentheses.
#[derive(Debug, Clone)]
enum R {
    Lit(u64),
    Var(usize),
    Bin(BinOp, Box<R>, Box<R>),
    Call(&'static str, Vec<R>),
    If(Box<C>, Box<R>, Box<R>),
}

#[derive(Debug, Clone)]
enum C {
    Cmp(BinOp, R, R),
    And(Box<C>, Box<C>),
    Or(Box<C>, Box<C>),
    Not(Box<C>),
}

const VARS: [(&str, u64); 4] = [("M", 8192), ("h", 2048), ("K", 5120), ("zero", 0)];

fn power(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::Add | BinOp::Sub => 4,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 5,
        _ => 3,
    }
}

fn print_r(r: &R, min: u8, right: bool) -> String {
    match r {
        R::Lit(v) => v.to_string(),
        R::Var(i) => VARS[*i].0.to_owned(),
        R::Bin(op, a, b) => {
            let p = power(*op);
            let s = format!(
                "{} {} {}",
                print_r(a, p, false),
                op.text(),
                print_r(b, p, true)
            );
            if p < min || (p == min && right) {
                format!("({s})")
            } else {
                s
            }
        }
        R::Call(f, args) => format!(
            "{f}({})",
            args.iter()
                .map(|a| print_r(a, 0, false))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        R::If(c, a, b) => {
            let s = format!(
                "if {} {{ {} }} else {{ {} }}",
                print_c(c, 0),
                print_r(a, 0, false),
                print_r(b, 0, false)
            );
            if min > 0 { format!("({s})") } else { s }
        }
    }
}

fn print_c(c: &C, min: u8) -> String {
    let (p, s) = match c {
        C::Cmp(op, a, b) => (
            3,
            format!(
                "{} {} {}",
                print_r(a, 4, false),
                op.text(),
                print_r(b, 4, true)
            ),
        ),
        C::And(a, b) => (2, format!("{} && {}", print_c(a, 2), print_c(b, 3))),
        C::Or(a, b) => (1, format!("{} || {}", print_c(a, 1), print_c(b, 2))),
        C::Not(a) => (6, format!("!{}", print_c(a, 7))),
    };
    if p < min { format!("({s})") } else { s }
}

type V = Option<u64>;

fn eval_r(r: &R) -> V {
    match r {
        R::Lit(v) => Some(*v),
        R::Var(i) => Some(VARS[*i].1),
        R::Bin(op, a, b) => arith(*op, eval_r(a)?, eval_r(b)?),
        R::Call(f, args) => {
            let v: Vec<u64> = args.iter().map(eval_r).collect::<Option<_>>()?;
            builtin(f, &v)
        }
        R::If(c, a, b) => {
            if eval_c(c)? {
                eval_r(a)
            } else {
                eval_r(b)
            }
        }
    }
}

fn eval_c(c: &C) -> Option<bool> {
    match c {
        C::Cmp(op, a, b) => Some(compare(*op, eval_r(a)?, eval_r(b)?)),
        C::And(a, b) => Some(eval_c(a)? && eval_c(b)?),
        C::Or(a, b) => Some(eval_c(a)? || eval_c(b)?),
        C::Not(a) => Some(!eval_c(a)?),
    }
}

fn arith(op: BinOp, a: u64, b: u64) -> V {
    match op {
        BinOp::Add => a.checked_add(b),
        BinOp::Sub => a.checked_sub(b),
        BinOp::Mul => a.checked_mul(b),
        BinOp::Div => a.checked_div(b),
        BinOp::Rem => a.checked_rem(b),
        _ => None,
    }
}

fn compare(op: BinOp, a: u64, b: u64) -> bool {
    match op {
        BinOp::Lt => a < b,
        BinOp::Gt => a > b,
        BinOp::Le => a <= b,
        BinOp::Ge => a >= b,
        BinOp::Eq => a == b,
        _ => a != b,
    }
}

fn builtin(f: &str, v: &[u64]) -> V {
    match f {
        "ceil16" => v[0].checked_next_multiple_of(16),
        "next_pow2" => v[0].checked_next_power_of_two(),
        "div_ceil" => (v[1] != 0).then(|| v[0].div_ceil(v[1])),
        "round_up" => (v[1] != 0)
            .then(|| v[0].checked_next_multiple_of(v[1]))
            .flatten(),
        "max" => v.iter().copied().max(),
        "min" => v.iter().copied().min(),
        "clamp" => (v[1] <= v[2]).then(|| v[0].clamp(v[1], v[2])),
        _ => None,
    }
}

/// The parser's tree, evaluated with the same checked semantics.
fn eval_ast(e: &Expr) -> Option<Val> {
    eval_at(e, None)
}

/// [`eval_ast`] with `M` at `m` where given.
fn eval_at(e: &Expr, m: Option<u64>) -> Option<Val> {
    let eval_ast = |e: &Expr| eval_at(e, m);
    Some(match &e.kind {
        Kind::Name(n) if n == "M" && m.is_some() => Val::N(m?),
        Kind::Int(v) => Val::N(u64::try_from(*v).ok()?),
        Kind::Bool(b) => Val::B(*b),
        Kind::Name(n) => Val::N(VARS.iter().find(|(k, _)| k == n)?.1),
        Kind::Paren(x) => eval_ast(x)?,
        Kind::Not(x) => Val::B(!eval_ast(x)?.b()?),
        Kind::If(c, a, b) => {
            if eval_ast(c)?.b()? {
                eval_ast(a)?
            } else {
                eval_ast(b)?
            }
        }
        Kind::Call(p, args) => {
            let v: Vec<u64> = args
                .iter()
                .map(|a| eval_at(a, m)?.n())
                .collect::<Option<_>>()?;
            Val::N(builtin(&p[0], &v)?)
        }
        // Short-circuit, as the generated `&&` and `||` do.
        Kind::Bin(BinOp::And, a, b) => Val::B(eval_ast(a)?.b()? && eval_ast(b)?.b()?),
        Kind::Bin(BinOp::Or, a, b) => Val::B(eval_ast(a)?.b()? || eval_ast(b)?.b()?),
        Kind::Bin(op, a, b) if op.is_comparison() => {
            Val::B(compare(*op, eval_ast(a)?.n()?, eval_ast(b)?.n()?))
        }
        Kind::Bin(op, a, b) => Val::N(arith(*op, eval_ast(a)?.n()?, eval_ast(b)?.n()?)?),
        _ => return None,
    })
}

#[derive(Debug, PartialEq)]
enum Val {
    N(u64),
    B(bool),
}

impl Val {
    fn n(self) -> Option<u64> {
        match self {
            Val::N(v) => Some(v),
            Val::B(_) => None,
        }
    }
    fn b(self) -> Option<bool> {
        match self {
            Val::B(v) => Some(v),
            Val::N(_) => None,
        }
    }
}

fn arb_r() -> impl Strategy<Value = R> {
    let leaf = prop_oneof![
        (0u64..300).prop_map(R::Lit),
        prop_oneof![Just(u64::MAX), Just(1u64 << 40), Just(16u64)].prop_map(R::Lit),
        (0usize..VARS.len()).prop_map(R::Var),
    ];
    leaf.prop_recursive(5, 40, 4, |inner| {
        let ops = prop_oneof![
            Just(BinOp::Add),
            Just(BinOp::Sub),
            Just(BinOp::Mul),
            Just(BinOp::Div),
            Just(BinOp::Rem)
        ];
        let cmps = prop_oneof![
            Just(BinOp::Lt),
            Just(BinOp::Gt),
            Just(BinOp::Le),
            Just(BinOp::Ge),
            Just(BinOp::Eq),
            Just(BinOp::Ne)
        ];
        let cond = (cmps, inner.clone(), inner.clone()).prop_map(|(op, a, b)| C::Cmp(op, a, b));
        let cond = cond.prop_recursive(2, 6, 2, |c| {
            prop_oneof![
                (c.clone(), c.clone()).prop_map(|(a, b)| C::And(Box::new(a), Box::new(b))),
                (c.clone(), c.clone()).prop_map(|(a, b)| C::Or(Box::new(a), Box::new(b))),
                c.prop_map(|a| C::Not(Box::new(a))),
            ]
        });
        prop_oneof![
            (ops, inner.clone(), inner.clone()).prop_map(|(op, a, b)| R::Bin(
                op,
                Box::new(a),
                Box::new(b)
            )),
            inner.clone().prop_map(|a| R::Call("ceil16", vec![a])),
            inner.clone().prop_map(|a| R::Call("next_pow2", vec![a])),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| R::Call("div_ceil", vec![a, b])),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| R::Call("round_up", vec![a, b])),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| R::Call("max", v)),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| R::Call("min", v)),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c)| R::Call("clamp", vec![a, b, c])),
            (cond, inner.clone(), inner).prop_map(|(c, a, b)| R::If(
                Box::new(c),
                Box::new(a),
                Box::new(b)
            )),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn valid_formulas_evaluate_like_the_reference(r in arb_r()) {
        let text = print_r(&r, 0, false);
        let want = eval_r(&r);
        let from_str = Formula::from_str(&text, Span::call_site()).unwrap();
        prop_assert_eq!(eval_ast(&from_str.expr).and_then(Val::n), want, "string form: {}", text);
        let tokens = TokenStream::from_str(&text).unwrap();
        let from_tokens = Formula::from_tokens(tokens, Span::call_site()).unwrap();
        prop_assert_eq!(eval_ast(&from_tokens.expr).and_then(Val::n), want, "token form: {}", text);
        // Printing the parsed tree gives a formula that parses to the same value.
        let again = Formula::from_str(&print(&from_str.expr), Span::call_site()).unwrap();
        prop_assert_eq!(eval_ast(&again.expr).and_then(Val::n), want);
    }

    #[test]
    fn the_factor_divides_every_value(r in arb_r()) {
        let text = print_r(&r, 0, false);
        let f = super::factor(&Formula::from_str(&text, Span::call_site()).unwrap().expr);
        if let Some(v) = eval_r(&r) {
            let v = u128::from(v);
            prop_assert!(if f == 0 { v == 0 } else { v % f == 0 }, "{} = {} has factor {}", text, v, f);
        }
    }

    /// Where the derive reads a formula as growing with `M`, it does: at
    /// any two values of `M` where it is defined, the larger gives no less.
    #[test]
    fn a_formula_read_as_growing_grows(r in arb_r(), a in 0u64..400, d in 1u64..400, big in 0u64..20_000) {
        let text = print_r(&r, 0, false);
        let f = Formula::from_str(&text, Span::call_site()).unwrap();
        let verdict = crate::monotone::of_formula(&f.expr, &["M"]);
        // Small values (where a literal minus `M` is defined), and large.
        for (a, b) in [(a, a + d), (big, big + d), (a, big + a)] {
        let (lo, hi) = (eval_at(&f.expr, Some(a)), eval_at(&f.expr, Some(b)));
        if let (Some(Val::N(lo)), Some(Val::N(hi))) = (lo, hi) {
            match verdict {
                crate::monotone::Mono::Up => prop_assert!(lo <= hi, "{}: {} at M={}, {} at M={}", text, lo, a, hi, b),
                crate::monotone::Mono::Const => prop_assert_eq!(lo, hi, "{}", text),
                crate::monotone::Mono::Unknown(..) => {}
            }
        }
        }
    }

    #[test]
    fn no_string_panics_the_parser(s in "\\PC{0,40}") {
        let _ = Formula::from_str(&s, Span::call_site());
    }

    #[test]
    fn no_formula_like_string_panics_the_parser(s in "[ a-zA-Z0-9_+*/%<>=!&|(){}\\[\\],.:\"-]{0,60}") {
        let _ = Formula::from_str(&s, Span::call_site());
        if let Ok(tokens) = TokenStream::from_str(&s) {
            let _ = Formula::from_tokens(tokens, Span::call_site());
        }
    }

    #[test]
    fn no_token_soup_panics_the_parser(parts in prop::collection::vec(prop_oneof![
        Just("if"), Just("else"), Just("{"), Just("}"), Just("("), Just(")"), Just("["), Just("]"),
        Just("+"), Just("-"), Just("*"), Just("/"), Just("%"), Just("<"), Just("<="), Just("=="),
        Just("!"), Just("&&"), Just("||"), Just(","), Just("."), Just("::"), Just("M"), Just("0"),
        Just("18446744073709551616"), Just("\"s\""), Just("max"), Just("as"), Just("true"), Just("config"),
    ], 0..24)) {
        let s = parts.join(" ");
        let _ = Formula::from_str(&s, Span::call_site());
        if let Ok(tokens) = TokenStream::from_str(&s) {
            let _ = Formula::from_tokens(tokens, Span::call_site());
        }
    }
}

#[test]
fn precedence_and_associativity() {
    let v = |s: &str| eval_ast(&Formula::from_str(s, Span::call_site()).unwrap().expr);
    assert_eq!(v("2 + 3 * 4"), Some(Val::N(14)));
    assert_eq!(v("20 - 5 - 3"), Some(Val::N(12)));
    assert_eq!(v("64 / 4 / 2"), Some(Val::N(8)));
    assert_eq!(v("(2 + 3) * 4"), Some(Val::N(20)));
    assert_eq!(v("1 < 2 && 3 > 2 || false"), Some(Val::B(true)));
    assert_eq!(v("!(1 < 2) || 2 == 2"), Some(Val::B(true)));
    assert_eq!(
        v("if M > 8000 { 1 } else if M > 10 { 2 } else { 3 }"),
        Some(Val::N(1))
    );
}

#[test]
fn errors_point_into_string_formulas() {
    let e = Formula::from_str("max(M, ) * 2", Span::call_site()).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("expected a value, found `)`"), "{msg}");
    assert!(msg.contains("in formula: max(M, ) * 2"), "{msg}");
    let lines: Vec<&str> = msg.lines().collect();
    let formula_line = lines.iter().find(|l| l.contains("in formula:")).unwrap();
    let caret_line = lines.iter().find(|l| l.trim() == "^").unwrap();
    assert_eq!(caret_line.find('^'), formula_line.find(')'), "{msg}");
}

struct TestEnv(Vec<(String, super::lower::Binding)>);

impl super::lower::Env for TestEnv {
    fn lookup(&self, name: &str) -> Option<&super::lower::Binding> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, b)| b)
    }
    fn names(&self) -> Vec<String> {
        self.0.iter().map(|(n, _)| n.clone()).collect()
    }
    fn trim_members(&self, name: &str) -> Option<Vec<proc_macro2::Ident>> {
        (name == "cond").then(|| vec![proc_macro2::Ident::new("a", Span::call_site())])
    }
}

fn test_env() -> TestEnv {
    use super::lower::{Binding, Ty};
    let b = |n: &str, ty| {
        (
            n.to_owned(),
            Binding {
                ty,
                local: proc_macro2::Ident::new(n, Span::call_site()),
                what: format!("`{n}`"),
            },
        )
    };
    TestEnv(vec![
        b("M", Ty::Int),
        b("h", Ty::Int),
        b("cond", Ty::Bool),
        b("config", Ty::Opaque),
        b("ext", Ty::Ext),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Checking and lowering never panic, whatever parses.
    #[test]
    fn lowering_never_panics(parts in prop::collection::vec(prop_oneof![
        Just("if"), Just("else"), Just("{"), Just("}"), Just("("), Just(")"),
        Just("+"), Just("-"), Just("*"), Just("/"), Just("%"), Just("<"), Just("=="), Just("!="),
        Just("!"), Just("&&"), Just("||"), Just(","), Just("."), Just("::"), Just("M"), Just("h"),
        Just("0"), Just("7"), Just("\"s\""), Just("max"), Just("min"), Just("ceil16"), Just("clamp"),
        Just("trimmed"), Just("cond"), Just("config"), Just("ext"), Just("f"), Just("true"), Just("x"),
    ], 1..20)) {
        let s = parts.join(" ");
        if let Ok(f) = Formula::from_str(&s, Span::call_site()) {
            let env = test_env();
            let mut l = super::lower::Lowerer::new(&env);
            let _ = l.int(&f.expr);
            let _ = l.bool(&f.expr);
            let _ = l.value(&f.expr);
            for e in std::mem::take(&mut l.errors) {
                let _ = f.error(e);
            }
        }
    }
}

/// Found by the fuzzer: a raw identifier in token form panicked `Ident::new`.
#[test]
fn raw_identifiers_do_not_panic() {
    for text in [
        "r#tJJ::yJ",
        "r#match + 1",
        "r#x.r#y",
        "f(r#type)",
        "_ + 1",
        "_::_(_)",
    ] {
        let tokens = TokenStream::from_str(text).unwrap();
        let f = Formula::from_tokens(tokens, Span::call_site()).unwrap();
        let env = test_env();
        let mut l = super::lower::Lowerer::new(&env);
        let _ = l.int(&f.expr);
    }
}

mod factor {
    use crate::formula::{Formula, factor};
    use proc_macro2::Span;

    fn of(text: &str) -> u128 {
        factor(&Formula::from_str(text, Span::call_site()).unwrap().expr)
    }

    #[test]
    fn constants_that_divide_every_value() {
        assert_eq!(of("4 * M * k"), 4);
        assert_eq!(of("M * k * 4"), 4);
        assert_eq!(of("2 * (3 * M)"), 6);
        assert_eq!(of("max(8 * a, 12 * b)"), 4);
        assert_eq!(of("8 * a + 12"), 4);
        assert_eq!(of("16 * a - 8 * b"), 8);
        assert_eq!(of("if c { 6 * a } else { 4 }"), 2);
        assert_eq!(of("round_up(x, 64)"), 64);
        assert_eq!(of("ceil16(x) * 2"), 32);
        assert_eq!(of("clamp(4 * x, 8, 12)"), 4);
        assert_eq!(of("0"), 0);
        assert_eq!(of("0 * x"), 0);
    }

    #[test]
    fn nothing_known_is_one() {
        for text in [
            "M",
            "M * k",
            "div_ceil(8 * x, 3)",
            "8 * x / 2",
            "8 * x % 5",
            "round_up(8 * x, m)",
            "config.hidden_size * 4 / 3",
            "f(8)",
        ] {
            assert_eq!(of(text), 1, "{text}");
        }
    }
}

/// Runs `f` on a large stack, as the derive does (`DERIVE_STACK`).
fn on_derive_stack<T>(f: impl FnOnce() -> T) -> T {
    stacker::grow(128 << 20, f)
}

/// The deepest nesting of token groups in `code`, without recursion.
fn group_depth(code: &TokenStream) -> usize {
    let mut most = 0;
    let mut stack = vec![(code.clone(), 0usize)];
    while let Some((ts, d)) = stack.pop() {
        most = most.max(d);
        for tt in ts {
            if let proc_macro2::TokenTree::Group(g) = tt {
                stack.push((g.stream(), d + 1));
            }
        }
    }
    most
}

#[test]
fn a_sum_of_ten_thousand_terms_lowers_to_shallow_statements() {
    on_derive_stack(|| {
        let text = vec!["M"; 10_000].join(" + ");
        let f = Formula::from_str(&text, Span::call_site()).unwrap();
        let env = test_env();
        let mut l = super::lower::Lowerer::new(&env);
        let code = l.int(&f.expr).unwrap().code;
        assert!(l.errors.is_empty());
        let printed = code.to_string();
        // 9,999 operators in statements of 64: 156 of them, then the rest.
        assert_eq!(printed.matches("let __arena_chain").count(), 9_999 / 64);
        assert_eq!(printed.matches('+').count(), 9_999);
        assert!(group_depth(&code) <= 3, "{}", group_depth(&code));
        // The token form, and a chain of `&&`.
        let tokens = TokenStream::from_str(&text).unwrap();
        assert!(Formula::from_tokens(tokens, Span::call_site()).is_ok());
        let cond = vec!["M > 1"; 5_000].join(" && ");
        let f = Formula::from_str(&cond, Span::call_site()).unwrap();
        let code = l.bool(&f.expr).unwrap().code.to_string();
        assert_eq!(code.matches("&&").count(), 4_999);
    });
}

#[test]
fn two_thousand_nested_parentheses_lower_to_one_pair() {
    on_derive_stack(|| {
        let text = format!("{}M + 1{}", "(".repeat(2_000), ")".repeat(2_000));
        for f in [
            Formula::from_str(&text, Span::call_site()).unwrap(),
            Formula::from_tokens(TokenStream::from_str(&text).unwrap(), Span::call_site()).unwrap(),
        ] {
            let env = test_env();
            let mut l = super::lower::Lowerer::new(&env);
            let code = l.int(&f.expr).unwrap().code;
            assert_eq!(group_depth(&code), 2, "{code}");
        }
    });
}

#[test]
fn formulas_nested_too_deeply_are_one_error() {
    on_derive_stack(|| {
        // Nested operations past the generated code's limit.
        let deep = format!("{}M{}", "M * (".repeat(300), ")".repeat(300));
        let e = Formula::from_str(&deep, Span::call_site()).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.starts_with("formula nested too deeply: 301 levels, at most 256"),
            "{msg}"
        );
        let e = Formula::from_tokens(TokenStream::from_str(&deep).unwrap(), Span::call_site())
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "formula nested too deeply: 301 levels, at most 256"
        );
        // 256 levels compile.
        let ok = format!("{}M{}", "M * (".repeat(255), ")".repeat(255));
        assert!(Formula::from_str(&ok, Span::call_site()).is_ok());
        // Past the parser's limit, whatever nests: parentheses, `!`, `else if`.
        let parens = format!("{}M{}", "(".repeat(5_000), ")".repeat(5_000));
        let e = Formula::from_str(&parens, Span::call_site()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("formula nested too deeply: 5000 levels, at most 4096"),
            "{e}"
        );
        let nots = format!("{}cond", "!".repeat(100_000));
        let e = Formula::from_str(&nots, Span::call_site()).unwrap_err();
        assert!(
            e.to_string().starts_with("formula nested too deeply"),
            "{e}"
        );
        let elifs = format!("{}{{ 1 }}", "if cond { 1 } else ".repeat(50_000));
        let e = Formula::from_str(&elifs, Span::call_site()).unwrap_err();
        assert!(
            e.to_string().starts_with("formula nested too deeply"),
            "{e}"
        );
    });
}

#[test]
fn formulas_too_long_are_one_error() {
    on_derive_stack(|| {
        let ok = vec!["M"; MAX_OPERATORS + 1].join(" + ");
        assert!(Formula::from_str(&ok, Span::call_site()).is_ok());
        let long = vec!["M"; 100_001].join(" * ");
        let e = Formula::from_str(&long, Span::call_site()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("formula too long: 100000 operators, at most 16384"),
            "{e}"
        );
    });
}

#[test]
fn errors_quote_a_window_of_long_and_multi_line_formulas_on_one_line() {
    for text in [
        format!("{}M )", "M +\n\t".repeat(1_000)),
        "M +\n    h\r\n  + )".to_owned(),
    ] {
        let msg = Formula::from_str(&text, Span::call_site())
            .unwrap_err()
            .to_string();
        let lines: Vec<&str> = msg.lines().collect();
        assert_eq!(lines.len(), 3, "{msg}");
        let quote = lines[1];
        assert!(quote.chars().count() <= 200, "{msg}");
        let at = lines[2].chars().position(|c| c == '^').unwrap();
        assert_eq!(quote.chars().nth(at), Some(')'), "{msg}");
    }
}

/// Found by the fuzzer: thousands of errors in one long formula each read
/// the whole formula to quote it (quadratic, 38 s). The quote reads a
/// window: each error costs the same whatever the formula's length.
#[test]
fn many_errors_in_a_long_formula_render_in_linear_time() {
    on_derive_stack(|| {
        let text = vec!["ce * h"; 5_000].join(" + ");
        let f = Formula::from_str(&text, Span::call_site()).unwrap();
        let env = test_env();
        let mut l = super::lower::Lowerer::new(&env);
        assert!(l.int(&f.expr).is_none());
        let errors = std::mem::take(&mut l.errors);
        assert_eq!(errors.len(), 5_000);
        let start = std::time::Instant::now();
        let rendered: Vec<String> = errors.into_iter().map(|e| f.error(e).to_string()).collect();
        let took = start.elapsed();
        assert!(took < std::time::Duration::from_secs(2), "{took:?}");
        assert!(
            rendered.iter().all(|m| m.len() < 600),
            "{}",
            rendered[2_500]
        );
        assert!(
            rendered[2_500].contains("unknown name `ce`"),
            "{}",
            rendered[2_500]
        );
    });
}
