//! Tokens of the formula language, from attribute tokens or from a string.

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};

use super::{FError, Loc};

#[derive(Debug, Clone, PartialEq)]
pub enum Tk {
    Int(u128),
    Ident(String),
    Str(String),
    /// An operator or separator: `+ - * / % < > <= >= == != && || ! . , ::`.
    Op(&'static str),
    Open(char),
    Close(char),
    /// Anything the language does not have, kept for the error message.
    Other(String),
}

#[derive(Debug, Clone)]
pub struct Token {
    pub tk: Tk,
    pub loc: Loc,
}

const OPS2: [&str; 7] = ["&&", "||", "==", "!=", "<=", ">=", "::"];
const OPS1: [&str; 10] = ["+", "-", "*", "/", "%", "<", ">", "!", ".", ","];

fn op1(c: char) -> Option<&'static str> {
    OPS1.iter().copied().find(|o| o.starts_with(c))
}

fn op2(a: char, b: char) -> Option<&'static str> {
    OPS2.iter().copied().find(|o| {
        let mut ch = o.chars();
        ch.next() == Some(a) && ch.next() == Some(b)
    })
}

fn open_close(d: Delimiter) -> Option<(char, char)> {
    match d {
        Delimiter::Parenthesis => Some(('(', ')')),
        Delimiter::Brace => Some(('{', '}')),
        Delimiter::Bracket => Some(('[', ']')),
        Delimiter::None => None,
    }
}

/// Parses an integer literal's text: decimal with `_`, optional `usize` suffix.
fn int_text(text: &str) -> Result<u128, String> {
    let digits = text.strip_suffix("usize").unwrap_or(text);
    if digits.is_empty() || !digits.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(format!("unsupported literal `{text}`"));
    }
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    if !clean.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!(
            "unsupported literal `{text}`: sizes are decimal `usize` integers"
        ));
    }
    clean
        .parse::<u128>()
        .map_err(|_| format!("integer literal `{text}` is too large"))
}

/// Flattens attribute tokens into formula tokens, keeping every span.
pub fn from_tokens(stream: TokenStream, out: &mut Vec<Token>, errs: &mut Vec<FError>) {
    let mut iter = stream.into_iter().peekable();
    while let Some(tt) = iter.next() {
        match tt {
            TokenTree::Ident(i) => out.push(Token {
                tk: Tk::Ident(i.to_string()),
                loc: Loc::span(i.span()),
            }),
            TokenTree::Literal(l) => {
                let loc = Loc::span(l.span());
                let tk = match syn::Lit::new(l.clone()) {
                    syn::Lit::Str(s) => Tk::Str(s.value()),
                    syn::Lit::Int(_) => match int_text(&l.to_string()) {
                        Ok(v) => Tk::Int(v),
                        Err(msg) => {
                            errs.push(FError::new(loc, msg));
                            Tk::Int(0)
                        }
                    },
                    _ => Tk::Other(l.to_string()),
                };
                out.push(Token { tk, loc });
            }
            TokenTree::Punct(p) => {
                let loc = Loc::span(p.span());
                let c = p.as_char();
                if p.spacing() == Spacing::Joint
                    && let Some(TokenTree::Punct(q)) = iter.peek()
                    && let Some(op) = op2(c, q.as_char())
                {
                    iter.next();
                    out.push(Token {
                        tk: Tk::Op(op),
                        loc,
                    });
                    continue;
                }
                let tk = op1(c).map_or(Tk::Other(c.to_string()), Tk::Op);
                out.push(Token { tk, loc });
            }
            TokenTree::Group(g) => match open_close(g.delimiter()) {
                Some((o, c)) => {
                    out.push(Token {
                        tk: Tk::Open(o),
                        loc: Loc::span(g.span_open()),
                    });
                    from_tokens(g.stream(), out, errs);
                    out.push(Token {
                        tk: Tk::Close(c),
                        loc: Loc::span(g.span_close()),
                    });
                }
                None => from_tokens(g.stream(), out, errs),
            },
        }
    }
}

/// Lexes a formula written as a string literal; locations are byte ranges.
pub fn from_str(text: &str, span: Span, out: &mut Vec<Token>, errs: &mut Vec<FError>) {
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    let end_of = |i: usize| bytes.get(i).map_or(text.len(), |&(b, _)| b);
    let mut i = 0;
    while i < bytes.len() {
        let (start, c) = bytes[i];
        let loc = |j: usize| Loc::range(span, start, end_of(j));
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let mut j = i;
            while j < bytes.len() && (bytes[j].1.is_ascii_alphanumeric() || bytes[j].1 == '_') {
                j += 1;
            }
            let lit = &text[start..end_of(j)];
            let tk = match int_text(lit) {
                Ok(v) => Tk::Int(v),
                Err(msg) => {
                    errs.push(FError::new(loc(j), msg));
                    Tk::Int(0)
                }
            };
            out.push(Token { tk, loc: loc(j) });
            i = j;
        } else if unicode_ident::is_xid_start(c) || c == '_' {
            // Rust's identifiers: XID_Start (or `_`), then XID_Continue,
            // as the token form of the same formula accepts.
            let mut j = i;
            while j < bytes.len() && unicode_ident::is_xid_continue(bytes[j].1) {
                j += 1;
            }
            out.push(Token {
                tk: Tk::Ident(text[start..end_of(j)].to_owned()),
                loc: loc(j),
            });
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j].1 != '"' {
                j += 1;
            }
            if j == bytes.len() {
                errs.push(FError::new(loc(j), "unterminated string literal".into()));
                return;
            }
            out.push(Token {
                tk: Tk::Str(text[end_of(i + 1)..end_of(j)].to_owned()),
                loc: loc(j + 1),
            });
            i = j + 1;
        } else if matches!(c, '(' | '{' | '[') {
            out.push(Token {
                tk: Tk::Open(c),
                loc: loc(i + 1),
            });
            i += 1;
        } else if matches!(c, ')' | '}' | ']') {
            out.push(Token {
                tk: Tk::Close(c),
                loc: loc(i + 1),
            });
            i += 1;
        } else if let Some(op) = bytes.get(i + 1).and_then(|&(_, d)| op2(c, d)) {
            out.push(Token {
                tk: Tk::Op(op),
                loc: loc(i + 2),
            });
            i += 2;
        } else {
            let tk = op1(c).map_or(Tk::Other(c.to_string()), Tk::Op);
            out.push(Token {
                tk,
                loc: loc(i + 1),
            });
            i += 1;
        }
    }
}
