//! Fuzzes identifiers in formulas (#41): names built from any Unicode the
//! input picks (letters of every script, digits, marks, joiners, symbols)
//! inside formulas of the language's operators and built-ins. A string
//! formula and its token twin must agree: where Rust's lexer takes the text
//! as tokens, both forms parse or both fail, to the same tree. Nothing
//! panics. Run: see RELIABILITY.md.
#![no_main]

use libfuzzer_sys::fuzz_target;
use proc_macro2::Span;

#[allow(dead_code)]
#[path = "../../arena-macros/src/formula/mod.rs"]
mod formula;

/// Characters an identifier may be made of, and some it may not: ASCII,
/// Latin, Greek, Cyrillic, CJK, combining marks, a zero-width joiner, digits
/// of other scripts, emoji, punctuation.
const CHARS: &[char] = &[
    'a', 'Z', '_', '0', '9', 'ö', 'ß', 'é', 'δ', 'Ω', 'ж', 'Я', '中', '文', 'ー', '\u{301}',
    '\u{200d}', '٣', '७', '😀', '·', '¬', '€', 'ǅ', 'ﬁ', 'ℌ', ' ', '-', '$',
];

const OPS: &[&str] = &[" + ", " - ", " * ", " / ", " % ", " < ", " == ", " && "];
const CALLS: &[&str] = &["max", "min", "ceil16", "next_pow2", "round_up", "div_ceil", "clamp"];

fn formula_text(data: &[u8]) -> String {
    let mut out = String::new();
    let mut bytes = data.iter().copied();
    let mut terms = 0;
    while let Some(b) = bytes.next() {
        match b % 8 {
            // An identifier of 1 to 6 characters.
            0..=3 => {
                let len = 1 + usize::from(b / 8) % 6;
                for _ in 0..len {
                    let c = bytes.next().unwrap_or(0);
                    out.push(CHARS[usize::from(c) % CHARS.len()]);
                }
            }
            4 => out.push_str(&(usize::from(b) * 37).to_string()),
            5 => {
                let f = CALLS[usize::from(b / 8) % CALLS.len()];
                out.push_str(f);
                out.push('(');
                out.push_str(&formula_text(&bytes.by_ref().take(6).collect::<Vec<_>>()));
                out.push(')');
            }
            _ => out.push_str(OPS[usize::from(b / 8) % OPS.len()]),
        }
        terms += 1;
        if terms > 40 {
            break;
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let text = formula_text(data);
    let from_str = formula::Formula::from_str(&text, Span::call_site());
    let Ok(tokens) = text.parse::<proc_macro2::TokenStream>() else {
        return;
    };
    // A token stream of one literal is a string formula in the token form.
    if tokens.clone().into_iter().count() == 1
        && matches!(tokens.clone().into_iter().next(), Some(proc_macro2::TokenTree::Literal(_)))
    {
        return;
    }
    let from_tokens = formula::Formula::from_tokens(tokens, Span::call_site());
    match (&from_str, &from_tokens) {
        (Ok(a), Ok(b)) => assert_eq!(
            formula::parse::print(&a.expr),
            formula::parse::print(&b.expr),
            "{text:?}"
        ),
        (Err(_), Err(_)) => {}
        // Rust's lexer took the text; a string formula must take the same
        // identifiers (an error is then about something both forms refuse).
        (Err(e), Ok(_)) => panic!("{text:?}: the token form parses, the string form: {e}"),
        (Ok(_), Err(e)) => panic!("{text:?}: the string form parses, the token form: {e}"),
    }
});
