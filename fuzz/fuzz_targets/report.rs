//! Fuzzes the report's text outputs with arbitrary names, dtypes, shapes,
//! conditions and formulas: the table within 120 columns and one line a row,
//! the wide table one line a row, the CSV read back to one record a row of
//! nine fields, the JSON valid, the SVG and memory map made without panic.
#![no_main]

use arena::report::{Report, Row, TABLE_WIDTH};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/integration/csv.rs"]
mod csv;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut parts = text.split('\u{1}');
    let phases: Vec<&str> = match parts.next() {
        Some(p) if !p.is_empty() => p.split('|').collect(),
        _ => Vec::new(),
    };
    let mut rows = Vec::new();
    let fields: Vec<&str> = parts.collect();
    for (k, f) in fields.chunks(5).enumerate().take(64) {
        let get = |i: usize| f.get(i).copied().unwrap_or("");
        let n = phases.len().max(1);
        rows.push(Row {
            name: get(0),
            bytes: k * 4096 + get(1).len(),
            offset: if k % 5 == 4 { None } else { Some(k * 4096) },
            dtype: get(1).to_owned(),
            shape: get(2).to_owned(),
            formula: get(3),
            lever: (k % 3 == 0).then(|| get(4)),
            condition: get(4).to_owned(),
            in_total: k % 2 == 0,
            live: if k % 5 == 4 {
                None
            } else {
                let (a, b) = (k % n, (k + get(0).len()) % n);
                Some((a.min(b), a.max(b)))
            },
            align: 256,
        });
    }
    let report = Report {
        arena: "Fuzzed",
        phases: &phases,
        when: fields.first().copied(),
        slab_bytes: rows.len() * 4096,
        total_bytes: rows.len() * 4096,
        unplanned_bytes: rows.len() * 4096,
        lower_bound_bytes: rows.len() * 1024,
        rows,
        nested: Vec::new(),
        gpu: None,
        footer: Vec::new(),
        extra: serde_json::Map::new(),
    };
    let n = report.rows.len();
    let table = report.table();
    for l in table.lines() {
        assert!(l.chars().count() <= TABLE_WIDTH, "{} columns: {l:?}", l.chars().count());
    }
    let body = |t: &str| t.split("\n\n").next().map_or(0, |b| b.lines().count());
    assert_eq!(body(&table), n + 1, "one line a row:\n{table}");
    let wide = report.wide_table();
    assert_eq!(body(&wide), n + 1, "one line a row:\n{wide}");
    let csv = report.csv();
    let recs = csv::records(&csv);
    assert_eq!(recs.len(), n + 1, "{csv:?}");
    assert!(recs.iter().all(|r| r.len() == 9), "{csv:?}");
    for (r, rec) in report.rows.iter().zip(&recs[1..]) {
        assert_eq!(rec[0], r.name);
        assert_eq!(rec[8], r.formula);
    }
    let json = report.json().to_string();
    let _: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let _ = report.svg();
    let _ = report.map();
});
