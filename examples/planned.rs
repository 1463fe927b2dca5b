//! Declared lifetimes: the scratch of a transformer forward pass by phase,
//! planned so that buffers never live together share bytes.
//!
//! `cargo run --example planned [max_batch_tokens] [--svg plan.svg]` prints
//! the unplanned, planned and lower-bound bytes of a Llama-3.1-8B-like shape
//! and a map of which buffer occupies which bytes in each phase (with
//! `--svg`, also drawn as a picture through `arena::report`), then runs the
//! small model through the planned and the unplanned slab and compares the
//! logits.

#[path = "tiny/mod.rs"]
mod tiny;

use arena::{Arena, HostSlab, Levers};
use tiny::{Forward, Tiny, Weights, forward};

fn mib(b: usize) -> String {
    format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64)
}

/// One line per phase: every live buffer's byte range, drawn on 64 columns.
fn map(a: &Forward) -> String {
    let layout = a.layout().unwrap();
    let slab = layout.slab_bytes.max(1);
    let mut out = String::new();
    for (p, phase) in Forward::PHASES.iter().enumerate() {
        out.push_str(&format!("{phase}:\n"));
        for (info, place) in Forward::BUFFERS.iter().zip(&layout.placements) {
            let (first, last) = info.phases(Forward::PHASES.len());
            if p < first || p > last || place.bytes == 0 {
                continue;
            }
            let col = |b: usize| (b as u128 * 64 / slab as u128) as usize;
            let (s, e) = (
                col(place.offset),
                col(place.end()).max(col(place.offset) + 1),
            );
            let bar: String = (0..64)
                .map(|c| if c >= s && c < e { '#' } else { '.' })
                .collect();
            out.push_str(&format!(
                "  {:<10} |{bar}| {:>10} .. {:>10}\n",
                info.name,
                mib(place.offset),
                mib(place.end())
            ));
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let svg = args.iter().position(|a| a == "--svg").map(|i| {
        args.get(i + 1)
            .cloned()
            .unwrap_or_else(|| "plan.svg".into())
    });
    let m: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(4096);
    let big = Forward::try_from_config_with(&Levers::new(), &Tiny::LLAMA_8B, m).unwrap();
    let (unplanned, planned, lower) = (
        big.unplanned_bytes().unwrap(),
        big.slab_bytes().unwrap(),
        big.lower_bound_bytes().unwrap(),
    );
    println!(
        "Llama-3.1-8B-like shape, {m} tokens, phases {:?}",
        Forward::PHASES
    );
    println!("  unplanned    {:>14} B  {}", unplanned, mib(unplanned));
    println!(
        "  planned      {:>14} B  {}  ({:.1} % of unplanned)",
        planned,
        mib(planned),
        100.0 * planned as f64 / unplanned as f64
    );
    println!(
        "  lower bound  {:>14} B  {}  (planned / lower bound {:.4})",
        lower,
        mib(lower),
        planned as f64 / lower as f64
    );
    println!("\nwhich buffer holds which bytes, by phase (the slab is 64 columns wide):");
    print!("{}", map(&big));
    if let Some(path) = svg {
        let report = arena::report::Report::of(&big).unwrap();
        std::fs::write(&path, report.svg()).unwrap();
        println!("\nthe memory map, drawn: {path}");
    }

    let c = Tiny::SMALL;
    let w = Weights::new(&c, 7);
    let small = Forward::try_from_config_with(&Levers::new(), &c, 12).unwrap();
    let a = forward(&mut HostSlab::new(small.clone()).unwrap(), &c, &w, 12);
    let b = forward(&mut HostSlab::unplanned(small).unwrap(), &c, &w, 12);
    let same = a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits());
    println!(
        "\nsmall model, 12 tokens: planned and unplanned logits bit-identical: {same} (first logit {})",
        a[0]
    );
}
