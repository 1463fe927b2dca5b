//! Fuzzes the formula parser and checker with arbitrary strings, in both the
//! string form and the token form. Run: see RELIABILITY.md.
#![no_main]

use libfuzzer_sys::fuzz_target;
use proc_macro2::{Ident, Span};

#[allow(dead_code)]
#[path = "../../arena-macros/src/formula/mod.rs"]
mod formula;

use formula::lower::{Binding, Env, Lowerer, Ty};

struct FuzzEnv(Vec<(&'static str, Binding)>);

impl Env for FuzzEnv {
    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, b)| b)
    }
    fn names(&self) -> Vec<String> {
        self.0.iter().map(|(n, _)| (*n).to_owned()).collect()
    }
    fn trim_members(&self, name: &str) -> Option<Vec<Ident>> {
        (name == "cond").then(|| vec![Ident::new("a", Span::call_site())])
    }
}

fn env() -> FuzzEnv {
    let b = |n: &'static str, ty| {
        (n, Binding { ty, local: Ident::new(n, Span::call_site()), what: n.to_owned() })
    };
    FuzzEnv(vec![b("M", Ty::Int), b("h", Ty::Int), b("cond", Ty::Bool), b("config", Ty::Opaque)])
}

fn check(f: &formula::Formula) {
    let _ = formula::factor(&f.expr);
    let env = env();
    let mut l = Lowerer::new(&env);
    let _ = l.int(&f.expr);
    let _ = l.bool(&f.expr);
    for e in std::mem::take(&mut l.errors) {
        let _ = f.error(e);
    }
}

/// Both forms of `s`, checked and lowered.
fn both(s: &str) {
    if let Ok(f) = formula::Formula::from_str(s, Span::call_site()) {
        check(&f);
    }
    if let Ok(tokens) = s.parse::<proc_macro2::TokenStream>() {
        if let Ok(f) = formula::Formula::from_tokens(tokens, Span::call_site()) {
            check(&f);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    // On a stack as large as the derive's (`DERIVE_STACK`).
    stacker::grow(128 << 20, || {
        both(s);
        // Long and deep: the input as a part repeated, joined by an
        // operator, or nested in parentheses, up to past the limits.
        if let Some((head, part)) = s.split_once('#') {
            let n = head.bytes().map(usize::from).sum::<usize>() * 97 % 20_000 + 1;
            let joined = vec![part; n].join(if n % 2 == 0 { " + " } else { " && " });
            both(&joined);
            let nested = format!("{}{part}{}", "(".repeat(n % 6_000), ")".repeat(n % 6_000));
            both(&nested);
            let inside = format!("{}{part}{}", "M * (".repeat(n % 400), ")".repeat(n % 400));
            both(&inside);
        }
    });
});
