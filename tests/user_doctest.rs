//! A user's crate whose arena has formulas written over several lines, with
//! backticks and pipes in them: `cargo test --doc` of that crate passes (the
//! rustdoc the derive generates holds no doctest of its own). The same crate
//! holds the formulas that used to crash rustc inside the derive (a sum of
//! 10,000 terms, 2,000 nested parentheses), at the limits: 16,385 terms,
//! 4,000 nested parentheses, in string and token form, and 256 levels of
//! nesting; they compile, and its doctest checks their values.

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
/// let l = doc_user::Long::try_from_config_with(&arena::Levers::new(), 3).unwrap();
/// assert_eq!((l.sum_str, l.sum_tokens), (3 * 16_385, 3 * 16_385));
/// assert_eq!((l.parens_str, l.parens_tokens), (4, 4));
/// assert_eq!((l.chained, l.deep_product, l.deep_ifs), (8, 1, 7));
/// ```
pub fn documented() {}
"#;

/// The long and deep formulas, written out.
fn long_arena() -> String {
    // The longest sum and the deepest parentheses allowed.
    let sum = vec!["M"; 16_385].join(" + ");
    let parens = format!("{}M + 1{}", "(".repeat(4_000), ")".repeat(4_000));
    let chained = vec!["M > 1"; 5_000].join(" && ");
    // 256 levels: the most a formula may nest.
    let product = format!("{}1{}", "1 * (".repeat(255), ")".repeat(255));
    let ifs = format!(
        "{}7{}",
        "if M > 0 { ".repeat(254),
        " } else { 0 }".repeat(254)
    );
    format!(
        "/// Long and deep formulas.\n#[derive(arena::Arena, Debug)]\n#[arena(params(max_batch_tokens: usize as M))]\npub struct Long {{\n\
         /// a\n#[arena(size = \"{sum}\")]\npub sum_str: usize,\n\
         /// b\n#[arena(size = {sum})]\npub sum_tokens: usize,\n\
         /// c\n#[arena(size = \"{parens}\")]\npub parens_str: usize,\n\
         /// d\n#[arena(size = {parens})]\npub parens_tokens: usize,\n\
         /// e\n#[arena(size = 8, when = {chained})]\npub chained: usize,\n\
         /// f\n#[arena(size = {product})]\npub deep_product: usize,\n\
         /// g\n#[arena(size = {ifs})]\npub deep_ifs: usize,\n}}\n"
    )
}

#[test]
fn cargo_test_doc_passes_on_a_crate_with_multi_line_long_and_deep_formulas() {
    let (ok, text) = user_crate(
        "doc_user",
        "arena = { path = ROOT }",
        &format!("{LIB}\n{}", long_arena()),
        &["test", "--doc", "--offline", "-q"],
    );
    assert!(ok, "cargo test --doc failed:\n{text}");
    // The crate's own doctest ran, and nothing else did.
    assert!(text.contains("1 passed"), "{text}");
}

/// A user's crate `name` with the dependency line `dependency` (`ROOT` for
/// this package's folder) and `lib` as its `src/lib.rs`, and cargo run in it
/// with `args`: whether it succeeded, and what it printed.
fn user_crate(name: &str, dependency: &str, lib: &str, args: &[&str]) -> (bool, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let dependency = dependency.replace("ROOT", &format!("{:?}", root.display().to_string()));
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\n{dependency}\n\n[workspace]\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    // The workspace's versions, so nothing is fetched and little rebuilt.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(args)
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", shared_target())
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// One target folder for the user crates of this file: what they share
/// (arena and its dependencies) is built once.
fn shared_target() -> std::path::PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("user-target")
}

const RENAMED: &str = r#"//! The arena crate under another name, and re-exported by an engine crate.

pub mod engine {
    /// The arena crate as an engine crate hands it to its users.
    pub use my_arena as arena_api;
}

use my_arena::{Arena, DType, DynBytes, HostSlab, Levers, Region};

#[derive(Arena, Debug)]
#[arena(crate = "my_arena", params(n: usize), one_of)]
pub struct Alt {
    #[arena(shape = [n], dtype = f32)]
    pub a: usize,
    #[arena(shape = [2 * n], dtype = u8)]
    pub b: usize,
}

/// Phases, a nested one-of region, a dtype chosen at run time, a lever.
#[derive(Arena, Debug)]
#[arena(crate = "my_arena", params(act: DType, n: usize), phases(x, y))]
#[arena(lever(DEMO_RENAMED, flag))]
pub struct Renamed {
    #[arena(shape = [n], dtype = act, live = x)]
    pub d: DynBytes,
    #[arena(nested(n), live = y)]
    pub alt: Region<Alt>,
    #[arena(size = "4 * n", when = !DEMO_RENAMED, live = x..=y)]
    pub s: usize,
}

/// Through the engine crate's re-export.
#[derive(engine::arena_api::Arena, Debug)]
#[arena(crate = "crate::engine::arena_api", params(n: usize))]
pub struct ThroughReexport {
    #[arena(shape = [n], dtype = bf16)]
    pub h: usize,
}

#[test]
fn renamed_and_reexported() {
    let levers = Levers::new();
    let r = Renamed::try_from_config_with(&levers, DType::BF16, 8).unwrap();
    assert_eq!(r.s, 32);
    let mut slab = HostSlab::new(r).unwrap();
    let mut phases = slab.views();
    assert_eq!(phases.x().d.len(), 8);
    assert_eq!(phases.y().alt.a().len(), 8);
    let t = ThroughReexport::try_from_config_with(&levers, 3).unwrap();
    assert_eq!(t.h, 6);
    let f = my_arena::fit::largest("n", 1..=1000, 1 << 10, |n| {
        ThroughReexport::try_from_config_with(&levers, n)
    })
    .unwrap();
    assert_eq!(f.value, 512);
}
"#;

/// A crate that depends on `arena` under another name (`my_arena`) and
/// re-exports it from a module, as an engine crate would: with
/// `#[arena(crate = "...")]` the derive names the crate through that path.
#[test]
fn a_renamed_or_re_exported_arena_crate_derives_through_crate_path() {
    let (ok, text) = user_crate(
        "renamed_user",
        "my_arena = { package = \"arena\", path = ROOT }",
        RENAMED,
        &["test", "--lib", "--offline", "-q"],
    );
    assert!(ok, "cargo test failed:\n{text}");
    assert!(text.contains("1 passed"), "{text}");
}
