//! The planner's plans, byte for byte: a fixed corpus (MiniMalloc's eleven
//! files, and problems generated here at fixed seeds: random, co-live,
//! trace-like, one span) planned at budget 0 and at the default budget, a
//! digest of every plan's offsets and height checked against the one
//! recorded. A change that moves code must keep every digest; one that
//! improves plans changes them on purpose, and says which:
//! `ARENA_BLESS=1 cargo test -p layouts --test all plan_digest -- --nocapture`
//! prints the new table.

use arena::plan::{Item, Plan, Problem, plan_with_budget};

/// The default budget of `arena-plan`.
const BUDGET: u64 = 150_000;

/// FNV-1a over the plan's height and offsets.
fn digest(offsets: &[usize], height: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for v in std::iter::once(height).chain(offsets.iter().copied()) {
        for b in (v as u64).to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// xorshift64*, so the generated problems are the same on every machine.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

fn item(bytes: usize, align: usize, first: usize, last: usize) -> Item {
    Item {
        bytes,
        align,
        first,
        last,
    }
}

/// Random ranges and sizes, some empty, some aligned.
fn random(seed: u64, n: usize, span: usize) -> Vec<Item> {
    let mut r = Rng(seed | 1);
    (0..n)
        .map(|_| {
            let first = r.below(span);
            let last = first + r.below(span / 4 + 1);
            let bytes = if r.below(20) == 0 {
                0
            } else {
                1 + r.below(1 << 16)
            };
            item(bytes, 1 << r.below(9), first, last)
        })
        .collect()
}

/// Every buffer meets every other.
fn co_live(seed: u64, n: usize) -> Vec<Item> {
    let mut r = Rng(seed | 1);
    (0..n)
        .map(|_| {
            item(
                1 + r.below(1 << 16),
                256,
                1_000 - r.below(900),
                1_000 + r.below(900),
            )
        })
        .collect()
}

/// Weights live throughout, activations mostly short, some long.
fn trace(seed: u64, times: usize) -> Vec<Item> {
    let mut r = Rng(seed | 1);
    let mut items: Vec<Item> = (0..100)
        .map(|_| item((1 + r.below(64)) << 16, 256, 0, times - 2))
        .collect();
    for t in 0..times {
        if r.below(2) == 0 {
            let life = if r.below(10) == 0 {
                50 + r.below(500)
            } else {
                1 + r.below(8)
            };
            let size = (1 << r.below(5)) * (1 + r.below(256)) * 1024;
            items.push(item(size, 256, t, (t + life).min(times) - 1));
        }
    }
    items
}

/// Every buffer over one span of time.
fn one_span(seed: u64, n: usize) -> Vec<Item> {
    let mut r = Rng(seed | 1);
    (0..n)
        .map(|_| item(1 + r.below(1 << 16), 256, 0, 0))
        .collect()
}

/// Every problem of the corpus, by name.
fn corpus() -> Vec<(String, Vec<Item>)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/minimalloc");
    let mut out = Vec::new();
    for f in "ABCDEFGHIJK".chars() {
        let text = std::fs::read_to_string(format!("{dir}/{f}.1048576.csv")).unwrap();
        let problem = Problem::parse(&text).unwrap();
        out.push((format!("minimalloc {f}"), problem.items(1)));
    }
    for seed in 1..=4 {
        out.push((
            format!("random {seed}"),
            random(seed, 150 * seed as usize, 400),
        ));
    }
    out.push(("random 2500".into(), random(9, 2_500, 3_000)));
    out.push(("co-live 3000".into(), co_live(5, 3_000)));
    out.push(("trace 4000".into(), trace(7, 4_000)));
    out.push(("one span 3000".into(), one_span(3, 3_000)));
    out
}

/// The digests recorded: (problem, budget 0, default budget).
const RECORDED: &[(&str, u64, u64)] = &[
    ("minimalloc A", 0x56a9994f67de92ff, 0xe6db69ed5179bafc),
    ("minimalloc B", 0xbea94fc727d363c6, 0xd29d34a4533cb321),
    ("minimalloc C", 0xf6b2e46534432356, 0x48911a02e91404a7),
    ("minimalloc D", 0x4984ef9021cd8d8d, 0x74828bd0896990ac),
    ("minimalloc E", 0x4f161e34c52784ea, 0x655a013785f5b52d),
    ("minimalloc F", 0x0ffd0df48efa3516, 0xd32745135c865294),
    ("minimalloc G", 0x79cf43519f325052, 0x42d5c6f1d2a53168),
    ("minimalloc H", 0xb5c910eae7520c99, 0xcbee494da47651c0),
    ("minimalloc I", 0x656eee48b901cc8f, 0x2a2e53d1f04dbd20),
    ("minimalloc J", 0xa573af0fd75ae954, 0x3f5f2a4e5cdec258),
    ("minimalloc K", 0x459d11ff816d3c4f, 0x86ac22302b2197c3),
    ("random 1", 0xd5b0af557dc0fd91, 0xf3006ed3f7c83921),
    ("random 2", 0xe745815121eccae8, 0x16563fc61bb45979),
    ("random 3", 0xb715adf0fee91ced, 0x4428a82925017b12),
    ("random 4", 0x9ebd57e40951ed29, 0x70acc3ed55515627),
    ("random 2500", 0xfee016e764cbba92, 0x77d0587147e509a0),
    ("co-live 3000", 0x6e4015c1c922a538, 0x6e4015c1c922a538),
    ("trace 4000", 0xa92b07d1687c4665, 0xa49dc9fc5140281a),
    ("one span 3000", 0xcf676f914328f3b3, 0xcf676f914328f3b3),
];

#[test]
fn every_plan_of_the_corpus_is_the_one_recorded() {
    let bless = std::env::var_os("ARENA_BLESS").is_some();
    let mut table = Vec::new();
    for (name, items) in corpus() {
        let Plan {
            offsets: off0,
            height: h0,
            ..
        } = plan_with_budget(&items, 0, 0).unwrap();
        let Plan {
            offsets: off,
            height: h,
            ..
        } = plan_with_budget(&items, 0, BUDGET).unwrap();
        table.push((name, digest(&off0, h0), digest(&off, h)));
    }
    if bless {
        println!("const RECORDED: &[(&str, u64, u64)] = &[");
        for (name, a, b) in &table {
            println!("    ({name:?}, {a:#018x}, {b:#018x}),");
        }
        println!("];");
        return;
    }
    assert_eq!(
        table.len(),
        RECORDED.len(),
        "the corpus and the table differ"
    );
    for ((name, a, b), (want_name, want_a, want_b)) in table.iter().zip(RECORDED) {
        assert_eq!(name, want_name);
        assert_eq!((*a, *b), (*want_a, *want_b), "{name}: the plan changed");
    }
}
