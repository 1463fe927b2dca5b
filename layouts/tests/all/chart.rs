//! The sweep chart (`Sweep::chart`): the planned footprint of an
//! arena with declared lifetimes over the stacked unplanned bytes.

use std::path::PathBuf;

use arena::Levers;
use layouts::report::{self, Limits, Sweep};
use layouts::{ModelConfig, Target};

fn sweep() -> Sweep {
    let config = ModelConfig::qwen3_next_80b_nvfp4();
    let points = [1024, 4096]
        .into_iter()
        .map(|m| {
            let limits = Limits {
                max_batch_tokens: m,
                ..Limits::default()
            };
            let r =
                report::build(&config, limits, Target::DEFAULT, &Levers::new(), "test").unwrap();
            (m, r.generic)
        })
        .collect();
    Sweep {
        param: "max_batch_tokens".into(),
        points,
    }
}

fn draw(sweep: &Sweep, tag: &str) -> String {
    let dir = std::env::temp_dir().join(format!("arena-chart-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join("chart.svg");
    sweep.chart(&path, "test").unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    svg
}

#[test]
fn an_arena_without_phases_draws_no_planned_line() {
    let s = sweep();
    for (_, r) in &s.points {
        assert_eq!(
            r.slab_bytes, r.unplanned_bytes,
            "the metrale arena has no phases"
        );
    }
    let svg = draw(&s, "unplanned");
    assert!(!svg.contains("planned slab"));
    assert!(!svg.contains("lower bound"));
}

#[test]
fn a_plan_that_shares_bytes_is_drawn_over_the_stack() {
    let mut s = sweep();
    // The report of a phased arena whose plan shares bytes: its slab below
    // the unplanned footprint, the busiest phase below that.
    for (_, r) in &mut s.points {
        r.unplanned_bytes = r.slab_bytes;
        r.slab_bytes = r.unplanned_bytes / 2;
        r.lower_bound_bytes = r.unplanned_bytes / 3;
    }
    let svg = draw(&s, "planned");
    assert!(svg.contains("planned slab"), "legend of the planned line");
    assert!(svg.contains("lower bound"), "legend of the lower bound");
    // Four polylines more than the unplanned chart: the two lines and their
    // legend marks.
    let plain = draw(&sweep(), "plain");
    assert_eq!(
        svg.matches("<polyline").count(),
        plain.matches("<polyline").count() + 4
    );
}
