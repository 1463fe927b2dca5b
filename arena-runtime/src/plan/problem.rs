//! A static allocation problem in MiniMalloc's CSV form (`id,lower,upper,size`,
//! a buffer live over the half-open time range `[lower, upper)`), planned
//! with [`super::plan_with_budget`], and its solution in the same form with
//! an `offset` column. What `arena-plan` reads and writes.

use crate::error::ProblemError;

/// One buffer of a problem, as its file gives it: its times whole numbers
/// (`T = u64`, MiniMalloc's) or vector clocks ([`ClockBuffer`]).
///
/// [`ClockBuffer`]: super::ClockBuffer
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buffer<T = u64> {
    /// The `id` column, kept as written.
    pub id: String,
    /// First time it is live.
    pub lower: T,
    /// First time it is no longer live (after `lower`).
    pub upper: T,
    /// Bytes.
    pub size: usize,
    /// Its line in the file (1-based; 0 for a buffer made in code).
    pub line: usize,
}

/// A problem: its buffers in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The buffers.
    pub buffers: Vec<Buffer>,
}

const COLUMNS: [&str; 4] = ["id", "lower", "upper", "size"];

impl Problem {
    /// Reads a problem: a header naming `id`, `lower`, `upper` and `size` (in
    /// any order, other columns ignored), then one buffer a line. A UTF-8
    /// byte order mark before the header (spreadsheet exports write one) is
    /// skipped. Times are whole numbers; a file of vector clocks
    /// (`lower` and `upper` as components joined by `:`, OmniMalloc's form)
    /// is a [`ClockProblem`](super::ClockProblem).
    pub fn parse(text: &str) -> Result<Problem, ProblemError> {
        let time = |v: &str| {
            v.parse::<u64>().map_err(|_| {
                if v.contains(':') {
                    format!(
                        "`{v}` is a vector clock: a file of those is read by `ClockProblem::parse`"
                    )
                } else {
                    format!("`{v}` is not a whole number")
                }
            })
        };
        let after = |lower: &u64, upper: &u64| {
            (upper <= lower).then(|| {
                format!("{upper} is not after lower {lower}: a buffer is live over [lower, upper)")
            })
        };
        Ok(Problem {
            buffers: rows(text, time, after)?,
        })
    }

    /// The planner's items: each buffer live from phase `lower` to phase
    /// `upper - 1`, aligned to `align`.
    pub fn items(&self, align: usize) -> Vec<super::base::Item> {
        self.buffers
            .iter()
            .map(|b| super::base::Item {
                bytes: b.size,
                align,
                first: b.lower as usize,
                last: b.upper as usize - 1,
            })
            .collect()
    }

    /// [`Problem::items`] with time compressed to the distinct boundaries.
    fn compressed_items(&self) -> Vec<super::base::Item> {
        let mut items = self.items(1);
        let times = super::time::phases(&items);
        for it in &mut items {
            it.first = times.index(it.first as u128);
            it.last = times.index(it.last as u128 + 1) - 1;
        }
        items
    }

    /// The largest sum of sizes live at one time: no plan is lower.
    pub fn lower_bound(&self) -> usize {
        let items = self.compressed_items();
        let phases = items.iter().map(|i| i.last + 1).max().unwrap_or(0);
        // Past `usize::MAX` only if the sizes alone are: no plan fits then.
        super::time::lower_bound(&items, phases, 1).unwrap_or(usize::MAX)
    }

    /// The solution file: the header with `offset` added, then each buffer
    /// with its offset, in file order.
    pub fn solution_csv(&self, offsets: &[usize]) -> String {
        let mut out = String::from("id,lower,upper,size,offset\n");
        for (b, o) in self.buffers.iter().zip(offsets) {
            out.push_str(&format!(
                "{},{},{},{},{o}\n",
                b.id, b.lower, b.upper, b.size
            ));
        }
        out
    }
}

/// The buffers of a problem file (at least one), each checked in the order
/// of its cells: `id`, `lower` and `upper` (read by `time`), `size`, then
/// the two times together (`after` says what is wrong, if anything), then
/// the id against those before it. Every error names the line and column.
pub(super) fn rows<T>(
    text: &str,
    time: impl Fn(&str) -> Result<T, String>,
    after: impl Fn(&T, &T) -> Option<String>,
) -> Result<Vec<Buffer<T>>, ProblemError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let err = |line, column, message: String| ProblemError {
        line,
        column,
        message,
    };
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((hline, header)) = lines.next() else {
        return Err(err(
            1,
            None,
            "the file is empty: expected a header `id,lower,upper,size`".into(),
        ));
    };
    let names: Vec<&str> = header.split(',').map(str::trim).collect();
    let mut index = [0usize; 4];
    for (k, want) in COLUMNS.iter().enumerate() {
        index[k] = names.iter().position(|n| n == want).ok_or_else(|| {
            err(
                hline,
                Some(want),
                format!("the header has no `{want}` column (it has `{header}`)"),
            )
        })?;
    }
    let mut rows = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for (line, row) in lines {
        let cells: Vec<&str> = row.split(',').map(str::trim).collect();
        let cell = |k: usize| -> Result<&str, ProblemError> {
            cells.get(index[k]).copied().ok_or_else(|| {
                err(
                    line,
                    Some(COLUMNS[k]),
                    format!("missing (the row has {} cells)", cells.len()),
                )
            })
        };
        let time =
            |k: usize| cell(k).and_then(|v| time(v).map_err(|m| err(line, Some(COLUMNS[k]), m)));
        let id = cell(0)?.to_owned();
        let (lower, upper) = (time(1)?, time(2)?);
        let size = cell(3)?;
        let size = size.parse::<u64>().map_err(|_| {
            err(
                line,
                Some("size"),
                format!("`{size}` is not a whole number"),
            )
        })?;
        let size = usize::try_from(size)
            .map_err(|_| err(line, Some("size"), "too large for this machine".into()))?;
        if let Some(m) = after(&lower, &upper) {
            return Err(err(line, Some("upper"), m));
        }
        if let Some(first) = seen.insert(id.clone(), line) {
            return Err(err(
                line,
                Some("id"),
                format!("`{id}` is given twice (first on line {first})"),
            ));
        }
        rows.push(Buffer {
            id,
            lower,
            upper,
            size,
            line,
        });
    }
    if rows.is_empty() {
        return Err(err(hline, None, "no buffers after the header".into()));
    }
    Ok(rows)
}
