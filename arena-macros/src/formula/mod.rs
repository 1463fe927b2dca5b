//! The formula language: lexing, parsing, and (in `lower`) type checking and
//! lowering to calls of the runtime's checked arithmetic.
//!
//! A formula is written either as attribute tokens (errors point at the exact
//! token) or as a string literal (errors quote the formula and mark the bad
//! part with carets).

pub mod lex;
pub mod lower;
pub mod parse;
#[cfg(test)]
mod tests;

use proc_macro2::{Span, TokenStream, TokenTree};

pub use parse::{BinOp, Expr, Kind};

/// Where a piece of a formula was written: a token's span, plus the byte range
/// inside the string literal for string formulas.
#[derive(Debug, Clone, Copy)]
pub struct Loc {
    pub span: Span,
    pub range: Option<(usize, usize)>,
}

impl Loc {
    pub fn span(span: Span) -> Self {
        Loc { span, range: None }
    }

    pub fn range(span: Span, start: usize, end: usize) -> Self {
        Loc {
            span,
            range: Some((start, end)),
        }
    }
}

/// An error inside one formula, before it is placed in the user's source.
#[derive(Debug, Clone)]
pub struct FError {
    pub loc: Loc,
    pub msg: String,
}

impl FError {
    pub fn new(loc: Loc, msg: String) -> Self {
        FError { loc, msg }
    }
}

/// How the formula was written.
#[derive(Debug, Clone)]
pub enum Source {
    Tokens,
    Str { text: String },
}

/// A parsed formula with its text for docs, metadata and messages.
#[derive(Debug, Clone)]
pub struct Formula {
    pub expr: Expr,
    pub text: String,
    pub source: Source,
}

impl Formula {
    /// Parses attribute tokens (a single string literal is a string formula).
    /// `empty_span` is used when there are no tokens at all.
    pub fn from_tokens(tokens: TokenStream, empty_span: Span) -> Result<Formula, syn::Error> {
        let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
        if let [TokenTree::Literal(lit)] = trees.as_slice()
            && let syn::Lit::Str(s) = syn::Lit::new(lit.clone())
        {
            return Formula::from_str(&s.value(), s.span());
        }
        let mut toks = Vec::new();
        let mut errs = Vec::new();
        lex::from_tokens(tokens, &mut toks, &mut errs);
        let end = Loc::span(trees.last().map_or(empty_span, TokenTree::span));
        let source = Source::Tokens;
        if let Some(e) = errs.into_iter().next() {
            return Err(render(&source, e));
        }
        let expr = parse::parse(&toks, end).map_err(|e| render(&source, e))?;
        check_depth(&expr).map_err(|e| render(&source, e))?;
        Ok(Formula {
            text: parse::print(&expr),
            expr,
            source,
        })
    }

    /// Parses a formula written as a string literal at `span`.
    pub fn from_str(text: &str, span: Span) -> Result<Formula, syn::Error> {
        let source = Source::Str {
            text: text.to_owned(),
        };
        let mut toks = Vec::new();
        let mut errs = Vec::new();
        lex::from_str(text, span, &mut toks, &mut errs);
        if let Some(e) = errs.into_iter().next() {
            return Err(render(&source, e));
        }
        let end = Loc::range(span, text.len(), text.len() + 1);
        let expr = parse::parse(&toks, end).map_err(|e| render(&source, e))?;
        check_depth(&expr).map_err(|e| render(&source, e))?;
        Ok(Formula {
            expr,
            text: text.trim().to_owned(),
            source,
        })
    }

    /// Turns an error inside this formula into a compile error.
    pub fn error(&self, e: FError) -> syn::Error {
        render(&self.source, e)
    }
}

/// The most levels of nested operations a formula may have, as its
/// generated code nests them: parentheses add none (parentheses around
/// parentheses are written once), and a chain of one operator's precedence
/// (`a + b - c + ...`, `x && y && ...`, of any length) is one level. rustc itself overflows its stack on expressions nested a few
/// thousand deep; this keeps the generated code far from that.
pub const MAX_DEPTH: usize = 256;

/// How deep `e` nests ([`MAX_DEPTH`]), found without recursion; an error at
/// the deepest node past the limit.
pub fn check_depth(e: &Expr) -> Result<(), FError> {
    let mut stack = vec![(e, 1usize)];
    let (mut most, mut at) = (0usize, e.loc);
    while let Some((e, level)) = stack.pop() {
        if level > most {
            (most, at) = (level, e.loc);
        }
        match &e.kind {
            Kind::Paren(inner) => stack.push((inner, level)),
            Kind::Bin(op, l, r) => {
                let chain = !op.is_comparison()
                    && matches!(l.kind, Kind::Bin(lop, ..) if lop.power() == op.power());
                stack.push((l, if chain { level } else { level + 1 }));
                stack.push((r, level + 1));
            }
            _ => stack.extend(e.children().into_iter().map(|c| (c, level + 1))),
        }
    }
    if most > MAX_DEPTH {
        return Err(FError::new(
            at,
            format!("formula nested too deeply: {most} levels, at most {MAX_DEPTH}"),
        ));
    }
    Ok(())
}

/// A compile error: at the token for token formulas; at the literal, with the
/// formula quoted and the bad part underlined, for string formulas.
pub fn render(source: &Source, e: FError) -> syn::Error {
    match (source, e.loc.range) {
        (Source::Str { text }, Some((start, end))) => {
            let start = floor_char(text, start.min(text.len()));
            let end = floor_char(text, end.min(text.len())).max(start);
            let marks = text[start..end].chars().count().max(1);
            // One line, char for char (a newline or tab is a space), and
            // no more than `QUOTE` characters either side of the fault:
            // only that window is read, so many errors in a long formula
            // cost no more than one each.
            let one_line = |s: &str| -> String {
                s.chars()
                    .map(|c| if c.is_whitespace() { ' ' } else { c })
                    .collect()
            };
            let from = floor_char(text, start.saturating_sub(4 * QUOTE));
            let lead_text: Vec<char> = text[from..start].chars().collect();
            let lead_from = lead_text.len().saturating_sub(QUOTE);
            let before: String = lead_text[lead_from..].iter().collect();
            let to = floor_char(text, end.saturating_add(4 * QUOTE).min(text.len()));
            let after: String = text[start..to].chars().take(marks + QUOTE).collect();
            let cut_before = lead_from > 0 || from > 0;
            let cut_after = start + after.len() < text.len();
            let msg = format!(
                "{}\n  in formula: {}{}{}{}\n              {}{}",
                e.msg,
                if cut_before { "…" } else { "" },
                one_line(&before),
                one_line(&after),
                if cut_after { "…" } else { "" },
                " ".repeat(before.chars().count() + usize::from(cut_before)),
                "^".repeat(marks.min(2 * QUOTE))
            );
            syn::Error::new(e.loc.span, msg)
        }
        _ => syn::Error::new(e.loc.span, e.msg),
    }
}

/// How many characters of a string formula an error quotes either side of
/// the fault.
const QUOTE: usize = 80;

/// `i`, or the char boundary before it.
fn floor_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The closest of `candidates` to `name`, when one is close enough to be a typo.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(&name.to_lowercase(), &c.to_lowercase());
        let limit = (name.chars().count().max(c.chars().count()) / 3).max(1);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Edit distance in characters, a swap of two neighbours counting one edit
/// (optimal string alignment): `haed` is one edit from `head`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Rows i-2, i-1 and i of the table.
    let mut before: Vec<usize> = Vec::new();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            let mut d = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            if i > 0 && j > 0 && *ca == b[j - 1] && a[i - 1] == *cb {
                d = d.min(before[j - 1] + 1);
            }
            cur.push(d);
        }
        before = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

/// A constant that divides every value of the formula (0 when the formula is
/// always 0, 1 when nothing better is known): `4 * M * k` gives 4,
/// `max(8 * a, 12 * b)` gives 4, `round_up(x, 64)` gives 64. The generated code
/// skips the whole-elements check of a buffer whose factor its element size
/// divides.
pub fn factor(e: &Expr) -> u128 {
    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let all = |args: &[Expr]| args.iter().map(factor).fold(0, gcd);
    match &e.kind {
        Kind::Int(v) => *v,
        Kind::Paren(inner) => factor(inner),
        Kind::Bin(BinOp::Mul, a, b) => factor(a).checked_mul(factor(b)).unwrap_or(1),
        Kind::Bin(BinOp::Add | BinOp::Sub, a, b) => gcd(factor(a), factor(b)),
        Kind::If(_, a, b) => gcd(factor(a), factor(b)),
        Kind::Call(path, args) if path.len() == 1 => match (path[0].as_str(), args.as_slice()) {
            ("max" | "min" | "clamp", args) => all(args),
            ("ceil16", [_]) => 16,
            // A multiple of the multiple, whatever `x` was.
            ("round_up", [_, multiple]) => factor(multiple),
            _ => 1,
        },
        _ => 1,
    }
}
