//! A user's crate whose arena has formulas written over several lines, with
//! backticks and pipes in them: `cargo test --doc` of that crate passes (the
//! rustdoc the derive generates holds no doctest of its own).

use std::path::Path;
use std::process::Command;

const LIB: &str = r#"//! A user's arena.

/// Scratch whose formulas span lines.
#[derive(arena::Arena, Debug)]
#[arena(params(max_batch_tokens: usize as M, wide: bool))]
pub struct Scratch {
    /// Written over several lines, indented as rustfmt would.
    #[arena(size = "M
        + 4
        + M * 2")]
    pub multi: usize,
    /// The token form over several lines, with a condition and a pipe.
    #[arena(
        size = if wide || M > 4 {
            8 * M
        } else {
            16
        },
        dtype = f32,
        when = wide
            || M > 1
    )]
    pub tokens: usize,
}

/// Sizes it.
///
/// ```
/// let s = doc_user::Scratch::try_from_config_with(&arena::Levers::new(), 3, true).unwrap();
/// assert_eq!(s.multi, 3 + 4 + 6);
/// ```
pub fn documented() {}
"#;

#[test]
fn cargo_test_doc_passes_on_a_crate_with_multi_line_formulas() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("doc_user");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"doc_user\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\narena = {{ path = {:?} }}\n\n[workspace]\n",
        root.display().to_string()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/lib.rs"), LIB).unwrap();
    // The workspace's versions, so nothing is fetched and little rebuilt.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["test", "--doc", "--offline", "-q"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "cargo test --doc failed:\n{text}");
    // The crate's own doctest ran, and nothing else did.
    assert!(text.contains("1 passed"), "{text}");
}
