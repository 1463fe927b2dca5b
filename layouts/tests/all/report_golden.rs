//! `arena-report`'s output, byte for byte, against outputs captured before
//! its generic half moved to `arena::report` (`tests/golden/`). Regenerate
//! only for an intended change: `ARENA_BLESS=1 cargo test -p layouts --test all report_golden`.

use std::process::Command;

fn check(golden: &str, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_arena-report"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = format!("{}/tests/golden/{golden}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("ARENA_BLESS").is_some() {
        std::fs::write(&path, &out.stdout).unwrap();
        return;
    }
    let want = std::fs::read(&path).unwrap();
    assert!(
        out.stdout == want,
        "{args:?} differs from {golden}:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn every_format_is_unchanged() {
    check("table.txt", &[]);
    check("wide.txt", &["--wide"]);
    check("json.txt", &["--format", "json"]);
    check("csv.txt", &["--format", "csv"]);
    check("gpu.txt", &["--gpu", "h100"]);
    check("gpujson.txt", &["--gpu", "h100", "--format", "json"]);
    check("gpulist.txt", &["--gpu", "list"]);
    check("sweep.txt", &["--sweep", "max_batch_tokens=256,1024,4096"]);
    check(
        "sweepjson.txt",
        &["--sweep", "max_batch_tokens=256,1024", "--format", "json"],
    );
    check(
        "sweepcsv.txt",
        &["--format", "csv", "--sweep", "max_batch_tokens=256,1024"],
    );
}

#[test]
fn every_format_of_a_fit() {
    let one = ["--fit", "max_batch_tokens", "--budget", "6GiB"];
    check("fit.txt", &one);
    check("fitjson.txt", &[&one[..], &["--format", "json"]].concat());
    check("fitcsv.txt", &[&one[..], &["--format", "csv"]].concat());
    let gpu = [
        "--fit",
        "max_batch_tokens",
        "--gpu",
        "h100",
        "--reserve",
        "70GiB",
    ];
    check("fitgpu.txt", &gpu);
    let frontier = [
        "--config",
        "configs/hf/deepseek-ai__DeepSeek-V4-Flash.json",
        "--fit",
        "max_seq_len",
        "--budget",
        "3GiB",
        "--sweep",
        "max_batch_tokens=256,2048,4096,8192",
    ];
    check("fitsweep.txt", &frontier);
    check(
        "fitsweepjson.txt",
        &[&frontier[..], &["--format", "json"]].concat(),
    );
    check(
        "fitsweepcsv.txt",
        &[&frontier[..], &["--format", "csv"]].concat(),
    );
}
