//! The formula AST and its parser (precedence climbing over [`Token`]s).

use super::lex::{Tk, Token};
use super::{FError, Loc};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

impl BinOp {
    pub fn text(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    fn from_op(op: &str) -> Option<BinOp> {
        Some(match op {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            "%" => BinOp::Rem,
            "<" => BinOp::Lt,
            ">" => BinOp::Gt,
            "<=" => BinOp::Le,
            ">=" => BinOp::Ge,
            "==" => BinOp::Eq,
            "!=" => BinOp::Ne,
            "&&" => BinOp::And,
            "||" => BinOp::Or,
            _ => return None,
        })
    }

    /// Binding power: higher binds tighter.
    pub fn power(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne => 3,
            BinOp::Add | BinOp::Sub => 4,
            BinOp::Mul | BinOp::Div | BinOp::Rem => 5,
        }
    }

    pub fn is_comparison(self) -> bool {
        self.power() == 3
    }
}

#[derive(Debug, Clone)]
pub enum Kind {
    Int(u128),
    Bool(bool),
    Str(String),
    /// A single identifier: a param, let, lever, field or `inner`.
    Name(String),
    /// A path of two or more segments, or one with a leading `::`: plain Rust.
    Path(Vec<String>),
    Field(Box<Expr>, String),
    Method(Box<Expr>, String, Vec<Expr>),
    /// `f(args)`: a built-in or a plain Rust function (the path's segments).
    Call(Vec<String>, Vec<Expr>),
    Not(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Paren(Box<Expr>),
}

/// A node and where it was written: a name's own token, an operator's token.
#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: Kind,
    pub loc: Loc,
}

impl Expr {
    /// The direct subexpressions, in source order.
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            Kind::Int(_) | Kind::Bool(_) | Kind::Str(_) | Kind::Name(_) | Kind::Path(_) => {
                Vec::new()
            }
            Kind::Field(b, _) | Kind::Not(b) | Kind::Paren(b) => vec![b],
            Kind::Method(b, _, args) => std::iter::once(&**b).chain(args).collect(),
            Kind::Call(_, args) => args.iter().collect(),
            Kind::Bin(_, l, r) => vec![l, r],
            Kind::If(c, t, f) => vec![c, t, f],
        }
    }

    /// The expression without surrounding parentheses.
    pub fn unparen(&self) -> &Expr {
        match &self.kind {
            Kind::Paren(e) => e.unparen(),
            _ => self,
        }
    }
}

struct Parser<'t> {
    toks: &'t [Token],
    pos: usize,
    end: Loc,
    /// How deep the parser has recursed (parentheses, operands, `!`,
    /// `if`s): past [`MAX_NESTING`] the formula is refused before the
    /// recursion can exhaust the stack.
    nesting: usize,
}

/// The most levels the parser recurses through (each parenthesis, `!`,
/// `else if` and operand of a higher precedence is one); a formula nested
/// deeper is an error, never a stack overflow.
pub const MAX_NESTING: usize = 4_096;

/// The most binary operators a formula may have: a sum of 16,384 terms
/// compiles in seconds; rustc's time and memory grow with the operators
/// (50,000 took a minute and 3.7 GB), so a longer formula is refused.
pub const MAX_OPERATORS: usize = 16_384;

/// The deepest nesting of brackets in `toks`: what a formula refused for
/// its nesting reports.
fn bracket_depth(toks: &[Token]) -> usize {
    let (mut depth, mut most) = (0usize, 0usize);
    for t in toks {
        match t.tk {
            Tk::Open(_) => {
                depth += 1;
                most = most.max(depth);
            }
            Tk::Close(_) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    most
}

type PResult<T> = Result<T, FError>;

fn describe(tk: &Tk) -> String {
    match tk {
        Tk::Int(v) => format!("`{v}`"),
        Tk::Ident(s) => format!("`{s}`"),
        Tk::Str(s) => format!("{s:?}"),
        Tk::Op(o) => format!("`{o}`"),
        Tk::Open(c) | Tk::Close(c) => format!("`{c}`"),
        Tk::Other(s) => format!("`{s}`"),
    }
}

impl<'t> Parser<'t> {
    /// One level deeper; an error past [`MAX_NESTING`].
    fn enter(&mut self) -> PResult<()> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            let n = bracket_depth(self.toks).max(self.nesting);
            return Err(FError::new(
                self.here(),
                format!("formula nested too deeply: {n} levels, at most {MAX_NESTING}"),
            ));
        }
        Ok(())
    }

    fn peek(&self) -> Option<&'t Token> {
        self.toks.get(self.pos)
    }

    fn next(&mut self) -> Option<&'t Token> {
        let t = self.toks.get(self.pos);
        self.pos += 1;
        t
    }

    fn here(&self) -> Loc {
        self.peek().map_or(self.end, |t| t.loc)
    }

    fn eat(&mut self, tk: &Tk) -> bool {
        if self.peek().is_some_and(|t| &t.tk == tk) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// "expected WHAT, found ..." at `found`, or at the end of the formula.
    fn unexpected(&self, found: Option<&Token>, what: &str) -> FError {
        match found {
            Some(t) => FError::new(t.loc, format!("expected {what}, found {}", describe(&t.tk))),
            None => FError::new(
                self.end,
                format!("expected {what}, found the end of the formula"),
            ),
        }
    }

    fn expect(&mut self, tk: &Tk, what: &str) -> PResult<Loc> {
        match self.peek() {
            Some(t) if &t.tk == tk => {
                self.pos += 1;
                Ok(t.loc)
            }
            other => Err(self.unexpected(other, what)),
        }
    }

    fn expr(&mut self, min_power: u8) -> PResult<Expr> {
        self.enter()?;
        let e = self.expr_within(min_power);
        self.nesting -= 1;
        e
    }

    fn expr_within(&mut self, min_power: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        while let Some(Token {
            tk: Tk::Op(op),
            loc,
        }) = self.peek()
        {
            let Some(bin) = BinOp::from_op(op) else {
                break;
            };
            if bin.power() < min_power {
                break;
            }
            self.pos += 1;
            let rhs = self.expr(bin.power() + 1)?;
            if bin.is_comparison()
                && let Some(Token {
                    tk: Tk::Op(next), ..
                }) = self.peek()
                && BinOp::from_op(next).is_some_and(BinOp::is_comparison)
            {
                return Err(FError::new(
                    self.here(),
                    "comparisons cannot be chained; use `&&` between two comparisons".into(),
                ));
            }
            lhs = Expr {
                kind: Kind::Bin(bin, Box::new(lhs), Box::new(rhs)),
                loc: *loc,
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        match self.peek() {
            Some(Token {
                tk: Tk::Op("!"),
                loc,
            }) => {
                self.pos += 1;
                self.enter()?;
                let inner = self.unary();
                self.nesting -= 1;
                Ok(Expr {
                    kind: Kind::Not(Box::new(inner?)),
                    loc: *loc,
                })
            }
            Some(Token {
                tk: Tk::Op("-"),
                loc,
            }) => Err(FError::new(
                *loc,
                "unsupported syntax: unary `-`; sizes are unsigned".into(),
            )),
            _ => self.postfix(),
        }
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        while self.eat(&Tk::Op(".")) {
            let (name, loc) = self.ident("a field or method name after `.`")?;
            if self.peek().is_some_and(|t| t.tk == Tk::Open('(')) {
                let args = self.args()?;
                e = Expr {
                    kind: Kind::Method(Box::new(e), name, args),
                    loc,
                };
            } else {
                e = Expr {
                    kind: Kind::Field(Box::new(e), name),
                    loc,
                };
            }
        }
        Ok(e)
    }

    fn ident(&mut self, what: &str) -> PResult<(String, Loc)> {
        match self.next() {
            Some(Token {
                tk: Tk::Ident(s),
                loc,
            }) => Ok((s.clone(), *loc)),
            other => Err(self.unexpected(other, what)),
        }
    }

    fn args(&mut self) -> PResult<Vec<Expr>> {
        self.expect(&Tk::Open('('), "`(`")?;
        let mut args = Vec::new();
        if self.eat(&Tk::Close(')')) {
            return Ok(args);
        }
        loop {
            args.push(self.expr(0)?);
            if self.eat(&Tk::Close(')')) {
                return Ok(args);
            }
            self.expect(&Tk::Op(","), "`,` or `)`")?;
        }
    }

    fn block(&mut self) -> PResult<Expr> {
        self.expect(&Tk::Open('{'), "`{`")?;
        let e = self.expr(0)?;
        self.expect(&Tk::Close('}'), "`}`")?;
        Ok(e)
    }

    fn if_else(&mut self, loc: Loc) -> PResult<Expr> {
        let cond = self.expr(0)?;
        let then = self.block()?;
        let else_loc = self.here();
        if !self.eat(&Tk::Ident("else".into())) {
            return Err(FError::new(
                else_loc,
                "an `if` in a formula needs an `else` branch: a size always has a value".into(),
            ));
        }
        let els = match self.peek() {
            Some(Token {
                tk: Tk::Ident(kw),
                loc,
            }) if kw == "if" => {
                self.pos += 1;
                self.enter()?;
                let e = self.if_else(*loc);
                self.nesting -= 1;
                e?
            }
            _ => self.block()?,
        };
        Ok(Expr {
            kind: Kind::If(Box::new(cond), Box::new(then), Box::new(els)),
            loc,
        })
    }

    fn primary(&mut self) -> PResult<Expr> {
        let Some(t) = self.next() else {
            return Err(FError::new(
                self.end,
                "expected a value, found the end of the formula".into(),
            ));
        };
        let loc = t.loc;
        let kind = match &t.tk {
            Tk::Int(v) => Kind::Int(*v),
            Tk::Str(s) => Kind::Str(s.clone()),
            Tk::Open('(') => {
                let e = self.expr(0)?;
                self.expect(&Tk::Close(')'), "`)`")?;
                Kind::Paren(Box::new(e))
            }
            Tk::Ident(kw) if kw == "true" => Kind::Bool(true),
            Tk::Ident(kw) if kw == "false" => Kind::Bool(false),
            Tk::Ident(kw) if kw == "if" => return self.if_else(loc),
            Tk::Ident(kw) if is_unsupported_keyword(kw) => {
                return Err(FError::new(
                    loc,
                    format!("unsupported syntax: `{kw}` in a formula"),
                ));
            }
            Tk::Ident(first) => {
                let mut segs = vec![first.clone()];
                while self.eat(&Tk::Op("::")) {
                    segs.push(self.ident("a path segment after `::`")?.0);
                }
                return self.path_tail(segs, loc, false);
            }
            Tk::Op("::") => {
                let mut segs = vec![String::new()];
                loop {
                    segs.push(self.ident("a path segment after `::`")?.0);
                    if !self.eat(&Tk::Op("::")) {
                        break;
                    }
                }
                return self.path_tail(segs, loc, true);
            }
            other @ (Tk::Close(_) | Tk::Op(_)) => {
                return Err(FError::new(
                    loc,
                    format!("expected a value, found {}", describe(other)),
                ));
            }
            other => {
                return Err(FError::new(
                    loc,
                    format!("unsupported syntax: {} in a formula", describe(other)),
                ));
            }
        };
        Ok(Expr { kind, loc })
    }

    fn path_tail(&mut self, segs: Vec<String>, loc: Loc, absolute: bool) -> PResult<Expr> {
        if self.peek().is_some_and(|t| t.tk == Tk::Open('(')) {
            let args = self.args()?;
            return Ok(Expr {
                kind: Kind::Call(segs, args),
                loc,
            });
        }
        let kind = if segs.len() == 1 && !absolute {
            Kind::Name(segs.into_iter().next().unwrap_or_default())
        } else {
            Kind::Path(segs)
        };
        Ok(Expr { kind, loc })
    }
}

fn is_unsupported_keyword(kw: &str) -> bool {
    matches!(
        kw,
        "as" | "match"
            | "let"
            | "loop"
            | "while"
            | "for"
            | "return"
            | "fn"
            | "else"
            | "in"
            | "mut"
            | "ref"
            | "move"
            | "unsafe"
            | "async"
            | "await"
    )
}

/// Parses a whole formula. `end` locates "the end of the formula" in messages.
pub fn parse(toks: &[Token], end: Loc) -> Result<Expr, FError> {
    if toks.is_empty() {
        return Err(FError::new(end, "empty formula".into()));
    }
    let ops: Vec<&Token> = toks
        .iter()
        .filter(|t| matches!(t.tk, Tk::Op(op) if BinOp::from_op(op).is_some()))
        .collect();
    if ops.len() > MAX_OPERATORS {
        return Err(FError::new(
            ops[MAX_OPERATORS].loc,
            format!(
                "formula too long: {} operators, at most {MAX_OPERATORS}; split it into `let`s",
                ops.len()
            ),
        ));
    }
    let mut p = Parser {
        toks,
        pos: 0,
        end,
        nesting: 0,
    };
    let e = p.expr(0)?;
    if let Some(
        t @ Token {
            tk: Tk::Ident(kw), ..
        },
    ) = p.peek()
        && is_unsupported_keyword(kw)
    {
        return Err(FError::new(
            t.loc,
            format!("unsupported syntax: `{kw}` in a formula; sizes are `usize` already"),
        ));
    }
    if let Some(t) = p.peek() {
        return Err(FError::new(
            t.loc,
            format!(
                "unexpected {} after the end of the formula",
                describe(&t.tk)
            ),
        ));
    }
    Ok(e)
}

/// Writes a formula back as text, in one canonical spacing.
pub fn print(e: &Expr) -> String {
    let mut s = String::new();
    print_into(e, &mut s);
    s
}

fn print_into(e: &Expr, s: &mut String) {
    match &e.kind {
        Kind::Int(v) => s.push_str(&v.to_string()),
        Kind::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
        Kind::Str(v) => s.push_str(&format!("{v:?}")),
        Kind::Name(n) => s.push_str(n),
        Kind::Path(p) => s.push_str(&p.join("::")),
        Kind::Field(b, n) => {
            print_into(b, s);
            s.push('.');
            s.push_str(n);
        }
        Kind::Method(b, n, args) => {
            print_into(b, s);
            s.push('.');
            s.push_str(n);
            print_args(args, s);
        }
        Kind::Call(p, args) => {
            s.push_str(&p.join("::"));
            print_args(args, s);
        }
        Kind::Not(inner) => {
            s.push('!');
            print_into(inner, s);
        }
        Kind::Bin(op, l, r) => {
            print_into(l, s);
            s.push(' ');
            s.push_str(op.text());
            s.push(' ');
            print_into(r, s);
        }
        Kind::If(c, t, f) => {
            s.push_str("if ");
            print_into(c, s);
            s.push_str(" { ");
            print_into(t, s);
            s.push_str(" } else ");
            if matches!(f.kind, Kind::If(..)) {
                print_into(f, s);
            } else {
                s.push_str("{ ");
                print_into(f, s);
                s.push_str(" }");
            }
        }
        Kind::Paren(inner) => {
            s.push('(');
            print_into(inner, s);
            s.push(')');
        }
    }
}

fn print_args(args: &[Expr], s: &mut String) {
    s.push('(');
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        print_into(a, s);
    }
    s.push(')');
}
