//! `arena-plan`: plans any static allocation problem in MiniMalloc's CSV form
//! with the arena planner (greedy, then the search), and writes the offsets.
//! Times may be vector clocks (OmniMalloc's `3:0:17`): `ClockProblem`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use arena::plan::{ClockProblem, Plan, PlanError, plan_with_budget, plan_within};
use clap::Parser;

/// The search budget (nodes, work counted: `plan_with_budget`). What it
/// buys (heights against the bound, time on MiniMalloc's problems, traces,
/// tilings and buffers that all meet) is in BENCHMARKS.md, "Current
/// figures": the figures live there only.
const DEFAULT_BUDGET: u64 = 150_000;

/// Plans a static allocation problem: buffers live over [lower, upper) that
/// share bytes only when never live at once (with vector clocks: only when
/// one ends before the other starts in every component).
#[derive(Parser)]
#[command(
    name = "arena-plan",
    version,
    after_help = "Input: a CSV with columns id,lower,upper,size (MiniMalloc's form); lower and upper\nmay be vector clocks, components joined by `:` (OmniMalloc's form).\nOutput: the same rows with an offset column.\n\nExample:\n  arena-plan --input A.1048576.csv --output A.solution.csv --capacity 1048576"
)]
struct Cli {
    /// The problem: `id,lower,upper,size`, one buffer a line.
    #[arg(long, value_name = "IN.csv")]
    input: PathBuf,
    /// Where the solution goes: the rows with an `offset` column.
    #[arg(long, value_name = "OUT.csv")]
    output: PathBuf,
    /// Search nodes after greedy (0: greedy only). Deterministic: the same
    /// input and budget give the same offsets on every machine.
    #[arg(long, default_value_t = DEFAULT_BUDGET)]
    budget: u64,
    /// Every offset a multiple of this (a power of two).
    #[arg(long, default_value_t = 1)]
    align: usize,
    /// The height to fit in: the search aims at it and stops once a plan
    /// fits; a plan above it is an error (exit 1).
    #[arg(long)]
    capacity: Option<usize>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let input = cli.input.display();
    let text = match std::fs::read_to_string(&cli.input) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("arena-plan: {input}: {e}");
            return ExitCode::from(2);
        }
    };
    let clocked = match ClockProblem::parse(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("arena-plan: {input}: {e}");
            return ExitCode::from(2);
        }
    };
    if !cli.align.is_power_of_two() {
        eprintln!("arena-plan: --align {} is not a power of two", cli.align);
        return ExitCode::from(2);
    }
    let start = Instant::now();
    // One component a clock: MiniMalloc's intervals, planned whole (and
    // within the capacity); vector clocks by their chains.
    let intervals = clocked.to_intervals();
    let planned = match (&intervals, cli.capacity) {
        (Some(p), Some(cap)) => plan_within(&p.items(cli.align), 0, cli.budget, cap),
        (Some(p), None) => plan_with_budget(&p.items(cli.align), 0, cli.budget),
        (None, _) => clocked.plan(cli.align, cli.budget),
    };
    let Plan {
        offsets, height, ..
    } = match planned {
        Ok(p) => p,
        Err(PlanError::Overflow { item }) => {
            // The planner names the item by index: the CSV's line and id.
            let b = &clocked.buffers()[item];
            eprintln!(
                "arena-plan: {input}: line {}, column `size`: buffer `{}` does not fit: its end would pass usize::MAX ({}) with the buffers live with it",
                b.line,
                b.id,
                usize::MAX
            );
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("arena-plan: {input}: {e}");
            return ExitCode::from(2);
        }
    };
    let elapsed = start.elapsed();
    let (bound, solution) = match &intervals {
        Some(p) => (p.lower_bound(), p.solution_csv(&offsets)),
        None => (clocked.lower_bound(), clocked.solution_csv(&offsets)),
    };
    if let Err(e) = std::fs::write(&cli.output, solution) {
        eprintln!("arena-plan: {}: {e}", cli.output.display());
        return ExitCode::from(2);
    }
    let count = clocked.buffers().len();
    println!(
        "{input}: {count} {}, height {height}, lower bound {bound} ({:.4}x), {:.3} s",
        if count == 1 { "buffer" } else { "buffers" },
        height as f64 / bound.max(1) as f64,
        elapsed.as_secs_f64()
    );
    if let Some(cap) = cli.capacity
        && height > cap
    {
        eprintln!(
            "arena-plan: {input}: height {height} is {} bytes above the capacity {cap}",
            height - cap
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
