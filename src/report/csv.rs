//! The report as CSV.

use std::fmt::Write as _;

use super::Report;
use super::text::csv_field;

impl Report<'_> {
    /// A header, then one line per field:
    /// `name,bytes,offset,dtype,shape,lever,in_total,live,formula`.
    pub fn csv(&self) -> String {
        let mut out = String::from("name,bytes,offset,dtype,shape,lever,in_total,live,formula\n");
        for r in &self.rows {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{}",
                csv_field(r.name),
                r.bytes,
                r.offset.map_or(String::new(), |o| o.to_string()),
                csv_field(&r.dtype),
                csv_field(&r.shape),
                csv_field(r.lever.unwrap_or("")),
                r.in_total,
                csv_field(&self.live_text(r.live)),
                csv_field(r.formula),
            );
        }
        out
    }
}
