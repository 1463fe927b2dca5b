//! `arena-plan` end to end: a small problem planned and written, a plan
//! above `--capacity`, and each kind of bad input.

use std::process::Command;

/// A fresh directory for one run, removed when it is dropped.
fn dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("arena-plan-test-{name}-"))
        .tempdir()
        .unwrap()
}

/// Runs `arena-plan` on `input`; its exit code, stdout, stderr and output.
fn run(name: &str, input: &str, extra: &[&str]) -> (i32, String, String, Option<String>) {
    let d = dir(name);
    let (inp, out) = (d.path().join("in.csv"), d.path().join("out.csv"));
    std::fs::write(&inp, input).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_arena-plan"))
        .arg("--input")
        .arg(&inp)
        .arg("--output")
        .arg(&out)
        .args(extra)
        .output()
        .unwrap();
    let written = std::fs::read_to_string(&out).ok();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        written,
    )
}

/// Five buffers over four times that greedy by size alone fragments (170);
/// the planner packs them at the busiest time's 160.
const SMALL: &str = "id,lower,upper,size\n0,0,3,50\n1,0,2,40\n2,3,4,60\n3,1,2,70\n4,2,4,80\n";

#[test]
fn one_buffer_is_counted_as_one() {
    let (code, stdout, stderr, _) = run("one", "id,lower,upper,size\n7,0,1,10\n", &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains(": 1 buffer, height 10,"), "{stdout}");
}

#[test]
fn plans_a_small_problem_end_to_end() {
    let (code, stdout, stderr, out) = run("small", SMALL, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("5 buffers, height 160, lower bound 160"),
        "{stdout}"
    );
    let out = out.unwrap();
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("id,lower,upper,size,offset"));
    let rows: Vec<(u64, u64, usize, usize)> = lines
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (
                c[1].parse().unwrap(),
                c[2].parse().unwrap(),
                c[3].parse().unwrap(),
                c[4].parse().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows.len(), 5);
    for (i, a) in rows.iter().enumerate() {
        assert!(a.3 + a.2 <= 160);
        for b in &rows[..i] {
            let live_together = a.0 < b.1 && b.0 < a.1;
            if live_together {
                assert!(
                    a.3 + a.2 <= b.3 || b.3 + b.2 <= a.3,
                    "{a:?} and {b:?} overlap"
                );
            }
        }
    }
    // Without the search (the greedy passes only), and aligned.
    let (code, stdout, _, _) = run("greedy", SMALL, &["--budget", "0"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("5 buffers, height 160"), "{stdout}");
    let (code, _, _, out) = run("aligned", SMALL, &["--align", "64"]);
    assert_eq!(code, 0);
    for l in out.unwrap().lines().skip(1) {
        let off: usize = l.rsplit(',').next().unwrap().parse().unwrap();
        assert_eq!(off % 64, 0, "{l}");
    }
}

#[test]
fn a_byte_order_mark_before_the_header_is_skipped() {
    let (code, stdout, stderr, _) = run("bom", &format!("\u{feff}{SMALL}"), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("5 buffers, height 160"), "{stdout}");
}

#[test]
fn a_plan_above_the_capacity_is_exit_1() {
    let (code, _, stderr, _) = run("cap", SMALL, &["--capacity", "150"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("height 160 is 10 bytes above the capacity 150"),
        "{stderr}"
    );
    let (code, _, _, _) = run("cap-ok", SMALL, &["--capacity", "160"]);
    assert_eq!(code, 0);
}

#[test]
fn bad_input_is_exit_2_naming_the_line_and_column() {
    let cases = [
        (
            "missing",
            "id,lower,size\n0,0,4\n",
            "line 1, column `upper`: the header has no `upper` column",
        ),
        (
            "nan",
            "id,lower,upper,size\n0,0,4,12\n1,0,x4,8\n",
            "line 3, column `upper`: `x4` is not a whole number",
        ),
        (
            "negative",
            "id,lower,upper,size\n0,0,4,-12\n",
            "line 2, column `size`: `-12` is not a whole number",
        ),
        (
            "short",
            "id,lower,upper,size\n0,0,4\n",
            "line 2, column `size`: missing",
        ),
        (
            "backwards",
            "id,lower,upper,size\n0,5,5,8\n",
            "line 2, column `upper`: 5 is not after lower 5",
        ),
        (
            "duplicate",
            "id,lower,upper,size\n7,0,4,8\n7,1,2,8\n",
            "line 3, column `id`: `7` is given twice (first on line 2)",
        ),
        ("empty", "", "line 1: the file is empty"),
        (
            "overflow",
            "id,lower,upper,size\na,0,2,18446744073709551000\nb,1,3,1000\nc,5,6,10\n",
            "column `size`: buffer `",
        ),
        (
            "header-only",
            "id,lower,upper,size\n",
            "line 1: no buffers after the header",
        ),
    ];
    for (name, input, want) in cases {
        let (code, _, stderr, _) = run(name, input, &[]);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(stderr.contains(want), "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: one line: {stderr}");
    }
    // The buffer that overflows is one of the two live together, named by
    // its id and line; never an empty name.
    let (_, _, stderr, _) = run(
        "overflow-names",
        "id,lower,upper,size\na,0,2,18446744073709551000\nb,1,3,1000\n",
        &[],
    );
    assert!(
        stderr.contains("line 2, column `size`: buffer `a`")
            || stderr.contains("line 3, column `size`: buffer `b`"),
        "{stderr}"
    );
    assert!(!stderr.contains("``"), "{stderr}");
    let (code, _, stderr, _) = run("align", SMALL, &["--align", "3"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--align 3 is not a power of two"),
        "{stderr}"
    );
}

#[test]
fn vector_clocks_are_planned_and_written_back_as_read() {
    // OmniMalloc's form: worker 0's `a`, then a message to worker 1 whose
    // `b` follows it (they share bytes), worker 1's `c` before the message
    // (it meets `a`).
    let input = "id,lower,upper,size\na,0:0,5:0,100\nb,5:6,5:9,100\nc,0:0,0:4,50\n";
    let (code, stdout, stderr, out) = run("clocks", input, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("3 buffers, height 150, lower bound 150"),
        "{stdout}"
    );
    let out = out.unwrap();
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows[0], "id,lower,upper,size,offset");
    assert!(rows[1].starts_with("a,0:0,5:0,100,"), "{out}");
    assert!(rows[2].starts_with("b,5:6,5:9,100,"), "{out}");
    let offset = |row: &str| -> usize { row.rsplit(',').next().unwrap().parse().unwrap() };
    let (a, c) = (offset(rows[1]), offset(rows[3]));
    assert!(a + 100 <= c || c + 50 <= a, "{out}");
    // A plan above the capacity is still exit 1; clocks of two widths, 2.
    let (code, _, _, _) = run("clocks-cap", input, &["--capacity", "149"]);
    assert_eq!(code, 1);
    let (code, _, stderr, _) = run(
        "clocks-bad",
        "id,lower,upper,size\na,0:0,1:0,8\nb,0,1,8\n",
        &[],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("line 3, column `lower`"), "{stderr}");
}
