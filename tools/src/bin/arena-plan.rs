//! `arena-plan`: plans any static allocation problem in MiniMalloc's CSV form
//! with the arena planner (greedy, then the search), and writes the offsets.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use arena::plan::{Plan, PlanError, Problem, plan_with_budget, plan_within};
use clap::Parser;

/// The search budget (nodes, work counted: `plan_with_budget`). What it
/// buys (heights against the bound, time on MiniMalloc's problems, traces,
/// tilings and buffers that all meet) is in BENCHMARKS.md, "Current
/// figures": the figures live there only.
const DEFAULT_BUDGET: u64 = 150_000;

/// Plans a static allocation problem: buffers live over [lower, upper) that
/// share bytes only when never live at once.
#[derive(Parser)]
#[command(
    name = "arena-plan",
    version,
    after_help = "Input: a CSV with columns id,lower,upper,size (MiniMalloc's form).\nOutput: the same rows with an offset column.\n\nExample:\n  arena-plan --input A.1048576.csv --output A.solution.csv --capacity 1048576"
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
    let problem = match Problem::parse(&text) {
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
    let items = problem.items(cli.align);
    let planned = match cli.capacity {
        Some(cap) => plan_within(&items, 0, cli.budget, cap),
        None => plan_with_budget(&items, 0, cli.budget),
    };
    let Plan {
        offsets, height, ..
    } = match planned {
        Ok(p) => p,
        Err(PlanError::Overflow { item }) => {
            // The planner names the item by index: the CSV's line and id.
            let b = &problem.buffers[item];
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
    let bound = problem.lower_bound();
    if let Err(e) = std::fs::write(&cli.output, problem.solution_csv(&offsets)) {
        eprintln!("arena-plan: {}: {e}", cli.output.display());
        return ExitCode::from(2);
    }
    println!(
        "{input}: {} buffers, height {height}, lower bound {bound} ({:.4}x), {:.3} s",
        problem.buffers.len(),
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
