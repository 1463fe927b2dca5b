//! The report as a table: aligned columns within [`TABLE_WIDTH`], the
//! totals, a front-end's lines; and the phase table.

use std::fmt::Write as _;

use arena_runtime::{Arena, SizeError};

use super::text::{ellipsize, fold, human, percent};
use super::{Footer, Report};

/// The widest line of [`Report::table`].
pub const TABLE_WIDTH: usize = 120;

impl Report<'_> {
    /// Aligned columns, then the totals; no line wider than
    /// [`TABLE_WIDTH`] characters whatever the names, dtype paths and
    /// formulas: the longest text cells end in `…` (shapes, conditions and
    /// formulas first, then names, dtypes and phase ranges). Whitespace runs
    /// in a cell (a formula written over several lines) are one space.
    pub fn table(&self) -> String {
        self.table_within(Some(TABLE_WIDTH))
    }

    /// The table with every cell whole (whitespace runs still one space,
    /// so a row is one line).
    pub fn wide_table(&self) -> String {
        self.table_within(None)
    }

    fn table_within(&self, max: Option<usize>) -> String {
        let phased = !self.phases.is_empty();
        let mut header = vec!["buffer", "dtype", "shape", "bytes", "size", "offset"];
        if phased {
            header.push("live");
        }
        header.extend(["condition", "formula"]);
        let right: Vec<bool> = header
            .iter()
            .map(|h| matches!(*h, "bytes" | "size" | "offset"))
            .collect();
        let mut cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                let mut c = vec![
                    r.name.to_owned(),
                    r.dtype.clone(),
                    r.shape.clone(),
                    r.bytes.to_string(),
                    human(r.bytes),
                    r.offset.map_or("-".into(), |o| o.to_string()),
                ];
                if phased {
                    c.push(self.live_text(r.live));
                }
                c.push(if r.condition.is_empty() {
                    "-".into()
                } else {
                    r.condition.clone()
                });
                c.push(r.formula.to_owned());
                c.iter().map(|cell| fold(cell)).collect()
            })
            .collect();
        let n = header.len();
        let mut width: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
        for row in &cells {
            for (w, c) in width.iter_mut().zip(row) {
                *w = (*w).max(c.chars().count());
            }
        }
        if let Some(max) = max {
            // The shape, condition and formula columns give way, longest
            // first; then every text column (names, dtype paths, phase
            // ranges), so that no line passes `max`. The numbers stay whole.
            let first = [2, n - 2, n - 1];
            let all: Vec<usize> = (0..n).filter(|&i| !right[i]).collect();
            let total = |w: &[usize]| w.iter().sum::<usize>() + 2 * (n - 1);
            for cut in [&first[..], &all[..]] {
                while total(&width) > max {
                    let Some(&widest) = cut
                        .iter()
                        .filter(|&&i| width[i] > header[i].len().max(4))
                        .max_by_key(|&&i| width[i])
                    else {
                        break;
                    };
                    width[widest] -= 1;
                }
            }
            let cut = all;
            for row in &mut cells {
                for &i in &cut {
                    row[i] = ellipsize(&row[i], width[i]);
                }
            }
        }
        let mut out = String::new();
        let line = |cols: &[String], out: &mut String| {
            let mut s = String::new();
            for (i, c) in cols.iter().enumerate() {
                let pad = width[i].saturating_sub(c.chars().count());
                if right[i] {
                    s.push_str(&" ".repeat(pad));
                    s.push_str(c);
                } else {
                    s.push_str(c);
                    s.push_str(&" ".repeat(pad));
                }
                if i + 1 < cols.len() {
                    s.push_str("  ");
                }
            }
            out.push_str(s.trim_end());
            out.push('\n');
        };
        line(
            &header.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
            &mut out,
        );
        for row in &cells {
            line(row, &mut out);
        }
        out.push('\n');
        if let Some(w) = self.when {
            let _ = writeln!(out, "every buffer is 0 unless {}", ellipsize(&fold(w), 90));
        }
        let total = |name: &str, bytes: usize| format!("{name:<18} {bytes:>16}  {}", human(bytes));
        let _ = writeln!(out, "{}", total("total_bytes", self.total_bytes));
        let _ = writeln!(out, "{}", total("slab_bytes", self.slab_bytes));
        if phased {
            let _ = writeln!(out, "{}", total("unplanned_bytes", self.unplanned_bytes));
            let _ = writeln!(
                out,
                "{}",
                total("lower_bound_bytes", self.lower_bound_bytes)
            );
        }
        // A front-end's lines: one line each whatever their text, and
        // within `max` like the rest (a long name or text ends in `…`).
        for line in &self.footer {
            let line = match line {
                Footer::Total { name, bytes } => total(&fold(name), *bytes),
                Footer::Line { name, text } => format!("{:<18} {}", fold(name), fold(text)),
            };
            let line = match max {
                Some(max) => ellipsize(&line, max),
                None => line,
            };
            let _ = writeln!(out, "{line}");
        }
        if let (Some(g), Some(f)) = (self.gpu, self.gpu_fraction()) {
            let _ = writeln!(
                out,
                "on {}: {} of {} ({})",
                g.display,
                human(self.slab_bytes),
                human(g.memory_bytes),
                percent(f)
            );
        }
        out
    }
}

/// For an arena with declared phases: one line per phase with its live
/// buffers and the bytes they hold, against the planned slab.
pub fn phase_table<A: Arena>(arena: &A) -> Result<String, SizeError> {
    let layout = arena.layout()?;
    let slab = layout.slab_bytes.max(1);
    let mut out = format!(
        "{:<12} {:>7}  {:>16}  {:>10}  {:>6}\n",
        "phase", "buffers", "live bytes", "live", "of slab"
    );
    for (p, phase) in A::PHASES.iter().enumerate() {
        let live: Vec<usize> = A::BUFFERS
            .iter()
            .filter(|b| b.is_carved())
            .zip(&layout.placements)
            .filter(|(b, _)| {
                let (first, last) = b.phases(A::PHASES.len());
                first <= p && p <= last
            })
            .map(|(_, pl)| pl.bytes)
            .collect();
        let bytes: usize = live.iter().sum();
        let _ = writeln!(
            out,
            "{phase:<12} {:>7}  {bytes:>16}  {:>10}  {:>5.1}%",
            live.len(),
            human(bytes),
            100.0 * bytes as f64 / slab as f64
        );
    }
    Ok(out)
}
