//! The text the generated code carries: formulas, shapes and conditions as
//! the user wrote them, for rustdoc, metadata and reports.

use crate::attr::Field;
use crate::formula::{self, Formula};
use crate::model::{self, Model, Role};

/// A dimension that needs parentheses as a factor of the shape's product.
pub(super) fn is_compound(d: &Formula) -> bool {
    matches!(d.expr.kind, formula::Kind::Bin(..) | formula::Kind::If(..))
}

pub(super) fn shape_text(f: &Field) -> String {
    let dims = f.attrs.shape.get().map_or(&[][..], |v| v.as_slice());
    let mut parts: Vec<String> = dims
        .iter()
        .map(|d| {
            if is_compound(d) {
                format!("({})", d.text)
            } else {
                d.text.clone()
            }
        })
        .collect();
    let elem = match f.attrs.dtype.get() {
        Some(crate::attr::DType::Runtime(d)) if is_compound(d) => format!("({}).bytes()", d.text),
        Some(crate::attr::DType::Runtime(d)) => format!("{}.bytes()", d.text),
        Some(d) => match d.elem_bytes() {
            Some(e) => e.to_string(),
            None => format!("size_of::<{}>()", d.name()),
        },
        None => "1".to_owned(),
    };
    if elem != "1" {
        parts.insert(0, elem);
    }
    parts.join(" * ")
}

/// The formula text shown in docs, metadata and reports.
pub(super) fn formula_text(f: &Field) -> String {
    match model::role(f) {
        Some(Role::Size(s)) => s.text.clone(),
        Some(Role::Shape(_)) => shape_text(f),
        Some(Role::Nested { size: Some(s), .. }) => s.text.clone(),
        Some(Role::Nested { size: None, .. }) => "inner".to_owned(),
        Some(Role::Value(v)) => v.text.clone(),
        None => String::new(),
    }
}

fn escape_md(s: &str) -> String {
    s.replace('|', "\\|")
}

/// `text` as one inline code span of rustdoc's Markdown: whitespace runs
/// (newlines of a formula written over several lines included) folded to
/// one space, so no line of it can start an indented code block that
/// rustdoc would run as a doctest, and fenced by more backticks than any
/// run inside it.
pub(super) fn code(text: &str) -> String {
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut longest = 0;
    let mut run = 0;
    for c in folded.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    if longest == 0 {
        format!("{fence}{folded}{fence}")
    } else {
        format!("{fence} {folded} {fence}")
    }
}

pub(super) fn doc_table(m: &Model) -> String {
    let mut s = String::new();
    if let Some(w) = &m.attrs.when {
        s.push_str(&format!(
            "Every buffer is 0 unless {} (the arena's `when`).\n\n",
            code(&w.text)
        ));
    }
    let phases = m.phases();
    if phases.is_empty() {
        s.push_str("| field | bytes | condition |\n|---|---|---|\n");
    } else {
        s.push_str("| field | bytes | live | condition |\n|---|---|---|---|\n");
    }
    for (i, f) in m.fields.iter().enumerate() {
        let info_cond = condition_text(f);
        let live = match (phases.is_empty(), model::role(f)) {
            (true, _) => String::new(),
            (false, Some(Role::Value(_))) => "| - ".to_owned(),
            (false, _) => match m.live.get(i).copied().flatten() {
                Some((a, b)) if a == b => format!("| `{}` ", phases[a]),
                Some((a, b)) => format!("| `{}..={}` ", phases[a], phases[b]),
                None => "| every phase ".to_owned(),
            },
        };
        s.push_str(&format!(
            "| `{}` | {} {live}| {} |\n",
            f.name(),
            escape_md(&code(&formula_text(f))),
            escape_md(&info_cond)
        ));
    }
    s
}

fn condition_text(f: &Field) -> String {
    let mut parts = Vec::new();
    if let Some(l) = f.attrs.lever.get() {
        parts.push(format!("lever `{l}`"));
    }
    if let Some(w) = f.attrs.when.get() {
        parts.push(format!("when {}", code(&w.text)));
    }
    if let Some(u) = f.attrs.unless.get() {
        parts.push(format!("unless {}", code(&u.text)));
    }
    if let Some(t) = f.attrs.trim.get() {
        parts.push(format!("trimmed by `{t}`"));
    }
    if f.attrs.not_in_total.get().is_some() {
        parts.push("not in total".into());
    }
    if f.attrs.zeroed.get().is_some() {
        parts.push("zeroed".into());
    }
    if let Some(a) = f.attrs.align.get() {
        parts.push(format!("aligned to {a}"));
    }
    parts.join("; ")
}

pub(super) fn field_doc(f: &Field) -> String {
    let mut d = f.doc.join("\n");
    if !d.is_empty() {
        d.push_str("\n\n");
    }
    d.push_str(&format!("Bytes: {}", code(&formula_text(f))));
    let c = condition_text(f);
    if !c.is_empty() {
        d.push_str(&format!(" ({c})"));
    }
    d
}
