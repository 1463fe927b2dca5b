//! The report of declared lifetimes: the metrale arena says it has none; a
//! phased arena gets one line per phase.

use arena::{Arena, Levers};
use layouts::report::phase_table;

#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), phases(attn, mlp, head))]
pub struct Phased {
    #[arena(shape = [m, 64], dtype = f32)]
    pub x: usize,
    #[arena(shape = [m, 192], dtype = f32, live = attn)]
    pub qkv: usize,
    #[arena(shape = [m, 256], dtype = f32, live = mlp)]
    pub up: usize,
    #[arena(shape = [m, 1000], dtype = f32, live = head)]
    pub logits: usize,
}

#[test]
fn one_line_per_phase() {
    let a = Phased::try_from_config_with(&Levers::new(), 16).unwrap();
    let t = phase_table(&a).unwrap();
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines.len(), 4, "{t}");
    assert!(
        lines[1].starts_with("attn") && lines[1].contains(" 2 "),
        "{t}"
    );
    let head_bytes = (16 * 64 + 16 * 1000) * 4;
    assert!(lines[3].contains(&head_bytes.to_string()), "{t}");
    assert!(a.slab_bytes().unwrap() < a.unplanned_bytes().unwrap());
}

#[test]
fn the_metrale_report_says_it_has_no_phases() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arena-report"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("phases             none declared"), "{text}");
    let json = std::process::Command::new(env!("CARGO_BIN_EXE_arena-report"))
        .args(["--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["phases"], serde_json::json!([]));
    assert_eq!(v["unplanned_bytes"], v["slab_bytes"]);
}
