//! `arena::report` on a user's own arenas: the table within 120 columns,
//! the JSON and CSV, and the memory map rendered as a picture (resvg) with
//! each buffer's rectangle where its offset and phases say.

use arena::report::{Report, SVG_HEIGHT, SVG_WIDTH};
use arena::{Arena, Levers, Region, SizeError};

use crate::csv;
use crate::heads::Heads;

/// A user-style arena: phases, a nested region, a lever, a long formula.
#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize, h: usize), phases(embed, attn, mlp, head), align = 64)]
#[arena(lever(DEMO_FP8))]
pub struct Forward {
    /// The residual stream.
    #[arena(shape = [m, h], dtype = bf16)]
    pub x: usize,
    #[arena(shape = [m, 3 * h], dtype = bf16, live = attn)]
    pub qkv: usize,
    #[arena(nested(m), live = attn)]
    pub heads: Region<Heads>,
    #[arena(size = max(ceil16(m) * (4 * h) * 2, 65536 * 4 + h * h * 2 + m * m), dtype = bf16, live = mlp)]
    pub up: usize,
    #[arena(size = ceil16(m) * h / 128 * 4, dtype = f32, lever = DEMO_FP8, live = mlp)]
    pub scales: usize,
    #[arena(shape = [m], dtype = u32, live = head)]
    pub ids: usize,
    #[arena(value = m * h)]
    pub tokens_times_h: usize,
}

fn forward(m: usize) -> Forward {
    Forward::try_from_config_with(&Levers::new().with("DEMO_FP8", "1"), m, 256).unwrap()
}

#[test]
fn a_user_arena_reports_table_json_and_csv() {
    let f = forward(100);
    let r = Report::of(&f).unwrap();
    let table = r.table();
    assert!(table.lines().all(|l| l.chars().count() <= 120), "{table}");
    assert!(table.contains('…'), "the long formula is cut:\n{table}");
    assert!(!r.wide_table().contains('…'));
    assert!(
        table.contains("heads") && table.contains("(sub-layout)"),
        "{table}"
    );
    assert!(
        table.contains("attn..=mlp") || table.contains("mlp"),
        "{table}"
    );
    let layout = f.layout().unwrap();
    let j = r.json();
    assert_eq!(j["arena"], "Forward");
    assert_eq!(j["slab_bytes"], layout.slab_bytes);
    assert_eq!(j["total_bytes"], f.total_bytes());
    assert_eq!(j["lower_bound_bytes"], f.lower_bound_bytes().unwrap());
    assert_eq!(
        j["phases"],
        serde_json::json!(["embed", "attn", "mlp", "head"])
    );
    let bufs = j["buffers"].as_array().unwrap();
    assert_eq!(bufs.len(), Forward::BUFFERS.len());
    for b in bufs {
        for key in [
            "name",
            "bytes",
            "offset",
            "dtype",
            "shape",
            "formula",
            "lever",
            "condition",
            "in_total",
            "live",
        ] {
            assert!(b.get(key).is_some(), "{key} in {b}");
        }
        let name = b["name"].as_str().unwrap();
        if name != "tokens_times_h" {
            assert_eq!(b["offset"], layout.offset_of(name).unwrap());
        }
    }
    assert_eq!(bufs[1]["live"], serde_json::json!(["attn", "attn"]));
    assert_eq!(bufs[0]["live"], serde_json::json!(["embed", "head"]));
    assert_eq!(bufs[4]["lever"], "DEMO_FP8");
    assert_eq!(
        bufs[6]["offset"],
        serde_json::Value::Null,
        "a value is not carved"
    );
    // The nested region's buffers at their absolute offsets.
    let nested = j["nested"].as_array().unwrap();
    assert_eq!(nested.len(), 2);
    assert_eq!(nested[1]["path"], "heads.idx");
    assert_eq!(nested[1]["offset"], layout.offset_of("heads.idx").unwrap());
    let csv = r.csv();
    assert_eq!(csv.lines().count(), 1 + Forward::BUFFERS.len());
    assert!(csv.starts_with("name,bytes,offset,dtype,shape,lever,in_total,live,formula\n"));
    // On a GPU: its share.
    let on = r.on_gpu(arena::report::gpu::find("h100").unwrap());
    assert!(on.table().contains("on H100 SXM"), "{}", on.table());
    assert!(on.json()["gpu"]["arena_fraction"].as_f64().unwrap() > 0.0);
}

/// The picture rendered, and sampled at each rectangle's centre.
fn render(svg: &str) -> resvg::tiny_skia::Pixmap {
    let tree =
        resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).expect("the SVG parses");
    let mut pixmap = resvg::tiny_skia::Pixmap::new(SVG_WIDTH as u32, SVG_HEIGHT as u32).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
}

fn rgb(hex: &str) -> (u8, u8, u8) {
    let v = u32::from_str_radix(&hex[1..], 16).unwrap();
    ((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

#[test]
fn the_memory_map_renders_each_buffer_where_its_offset_and_phases_say() {
    let f = forward(100);
    let r = Report::of(&f).unwrap();
    let map = r.map();
    assert_eq!(map.columns, ["embed", "attn", "mlp", "head"]);
    let pixmap = render(&r.svg());
    let mut checked = 0;
    for b in &map.boxes {
        let (top, bottom) = (map.y(b.offset + b.bytes), map.y(b.offset));
        if bottom - top < 4.0 {
            continue; // too thin to sample
        }
        for c in 0..map.columns.len() {
            let (x, w) = map.column(c);
            let px = pixmap
                .pixel((x + w / 2.0) as u32, ((top + bottom) / 2.0) as u32)
                .unwrap();
            let live = b.first <= c && c <= b.last;
            let is_box = (px.red(), px.green(), px.blue()) == rgb(b.color);
            if live {
                assert!(is_box, "{} in column {c}: {px:?}", b.name);
                checked += 1;
            }
        }
    }
    assert!(checked >= 6, "{checked} rectangles sampled");
    // qkv (attn) and up (mlp) share bytes: the same rows, other columns.
    let qkv = map.boxes.iter().find(|b| b.name == "qkv").unwrap();
    let up = map.boxes.iter().find(|b| b.name == "up").unwrap();
    assert_eq!((qkv.first, qkv.last), (1, 1));
    assert_eq!((up.first, up.last), (2, 2));
    assert!(up.offset < qkv.offset + qkv.bytes && qkv.offset < up.offset + up.bytes);
}

#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize))]
pub struct Flat {
    #[arena(size = n)]
    pub a: usize,
    #[arena(size = 2 * n, dtype = u16)]
    pub b: usize,
}

#[test]
fn an_arena_without_phases_is_one_column_and_an_empty_one_says_so() {
    let r = Report::of(&Flat::try_from_config_with(&Levers::new(), 1000).unwrap()).unwrap();
    let map = r.map();
    assert_eq!(map.columns, ["Flat"]);
    let pixmap = render(&r.svg());
    for b in &map.boxes {
        let (x, w) = map.column(0);
        let (top, bottom) = (map.y(b.offset + b.bytes), map.y(b.offset));
        let px = pixmap
            .pixel((x + w / 2.0) as u32, ((top + bottom) / 2.0) as u32)
            .unwrap();
        assert_eq!(
            (px.red(), px.green(), px.blue()),
            rgb(b.color),
            "{}",
            b.name
        );
    }
    let empty = Report::of(&Flat::try_from_config_with(&Levers::new(), 0).unwrap()).unwrap();
    let svg = empty.svg();
    assert!(svg.contains("empty slab"), "{svg}");
    render(&svg);
}

#[derive(Arena, Debug, Clone)]
#[arena(params(n: usize), phases(a, b))]
pub struct Overflowing {
    #[arena(size = n, live = a)]
    pub x: usize,
    #[arena(size = n, live = a)]
    pub y: usize,
}

#[test]
fn a_report_of_an_arena_that_does_not_lay_out_is_the_size_error() {
    let big = Overflowing {
        x: usize::MAX - 10,
        y: 100,
    };
    let e = Report::of(&big).unwrap_err();
    assert!(matches!(e, SizeError::SlabOverflow { .. }), "{e}");
}

#[test]
fn a_sweep_over_any_parameter_of_a_user_arena() {
    let sweep = arena::report::Sweep::over("m", [64, 256, 1024], |m| {
        Forward::try_from_config_with(&Levers::new(), m, 256)
    })
    .unwrap();
    assert_eq!(sweep.points.len(), 3);
    let table = sweep.table();
    assert_eq!(table.lines().count(), 4, "{table}");
    assert!(table.lines().next().unwrap().contains("largest buffers"));
    let j = sweep.json();
    assert_eq!(j["param"], "m");
    assert_eq!(j["points"][2]["value"], 1024);
    assert_eq!(
        j["points"][2]["slab_bytes"],
        Forward::try_from_config_with(&Levers::new(), 1024, 256)
            .unwrap()
            .slab_bytes()
            .unwrap()
    );
    assert_eq!(sweep.csv().lines().count(), 4);
    let series = sweep.series();
    assert_eq!(series.last().unwrap().0, "other");
    let path = std::env::temp_dir().join(format!("arena-sweep-{}.svg", std::process::id()));
    sweep.chart(&path, "Forward by m").unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    render(&svg);
    std::fs::remove_file(&path).ok();
    // A sizing error stops the sweep with it.
    let e = arena::report::Sweep::over("m", [64, usize::MAX], |m| {
        Forward::try_from_config_with(&Levers::new(), m, 256)
    })
    .unwrap_err();
    // Named with the value it failed at, the sizing's error its source.
    assert_eq!(e.value, usize::MAX);
    assert!(
        e.to_string().starts_with(&format!("m={}: ", usize::MAX)),
        "{e}"
    );
    assert!(e.to_string().contains("Forward"), "{e}");
    let source = std::error::Error::source(&e).expect("the sizing's error");
    assert_eq!(source.to_string(), e.source.to_string());
}

pub mod kernels {
    pub mod attention {
        /// A user element type with a long path.
        #[derive(Clone, Copy, Debug, arena::bytemuck::Pod, arena::bytemuck::Zeroable)]
        #[bytemuck(crate = "arena::bytemuck")]
        #[repr(C)]
        pub struct PackedHeadPair {
            pub k: u16,
            pub v: u16,
        }
    }
}

/// Long names, a long dtype path, and formulas over several lines with
/// tabs and carriage returns: what the table's width and the CSV's quoting
/// must survive.
#[derive(Arena, Debug, Clone)]
#[arena(params(m: usize), phases(prefill_attention_and_rotary, decode_sampling_head))]
pub struct Wide {
    #[arena(shape = [m, 64], dtype = crate::report::kernels::attention::PackedHeadPair, live = prefill_attention_and_rotary)]
    pub a_forty_four_character_field_name_xxxxxxxxx: usize,
    #[arena(size = "m\r\n\t* 4
        + 8", dtype = u8, live = decode_sampling_head)]
    pub multi_line: usize,
    #[arena(size = m
        * 2, when = m
        > 1)]
    pub token_form: usize,
}

/// A front-end's footer lines (`with_total`, `with_line`, `with_json`):
/// aligned with the totals, one line each and within 120 columns whatever
/// their name and text, whole in the wide table; JSON keys added.
#[test]
fn a_front_end_adds_lines_and_keys_within_the_rules() {
    let w = Wide::try_from_config_with(&Levers::new(), 10).unwrap();
    let long = "a name far longer than the totals' column of eighteen";
    let text = "line one\nline two\twith a tab and ".to_owned() + &"x".repeat(200);
    let r = Report::of(&w)
        .unwrap()
        .with_total("trimmed", 4096)
        .with_line("read by", "the generic path")
        .with_line(long, text.as_str())
        .with_json("source", serde_json::json!("cfg.json"));
    let table = r.table();
    let tail: Vec<&str> = table.lines().rev().take(3).collect();
    assert_eq!(
        tail[2], "trimmed                        4096  4.0 KiB",
        "{table}"
    );
    assert_eq!(tail[1], "read by            the generic path", "{table}");
    assert!(
        tail[0].starts_with(long) && tail[0].ends_with('…'),
        "{table}"
    );
    for l in table.lines() {
        assert!(
            l.chars().count() <= 120,
            "{} columns: {l}",
            l.chars().count()
        );
    }
    assert!(!table.contains(['\r', '\t']));
    let wide = r.wide_table();
    assert!(
        wide.lines().any(|l| l.ends_with(&"x".repeat(200))),
        "{wide}"
    );
    assert_eq!(r.json()["source"], "cfg.json");
    assert_eq!(r.json()["arena"], "Wide");
}

#[test]
fn the_table_stays_within_120_columns_and_one_line_a_row() {
    let w = Wide::try_from_config_with(&Levers::new(), 10).unwrap();
    let r = Report::of(&w).unwrap();
    let table = r.table();
    for l in table.lines() {
        assert!(
            l.chars().count() <= 120,
            "{} columns:\n{table}",
            l.chars().count()
        );
    }
    // Header, three rows, the blank line and the totals: no row split.
    assert_eq!(
        table.lines().take_while(|l| !l.is_empty()).count(),
        4,
        "{table}"
    );
    assert!(!table.contains(['\r', '\t']));
    // The wide table keeps every cell whole, one line a row.
    let wide = r.wide_table();
    assert!(wide.contains("a_forty_four_character_field_name_xxxxxxxxx"));
    assert!(wide.contains("crate::report::kernels::attention::PackedHeadPair"));
    assert!(!wide.contains('…'));
    assert!(wide.contains("m * 4 + 8"), "whitespace folded:\n{wide}");
    assert!(wide.contains("when m > 1"), "{wide}");
    assert_eq!(wide.lines().take_while(|l| !l.is_empty()).count(), 4);
    // The CSV quotes a field that holds a line break; every record parses
    // back to nine fields.
    let csv = r.csv();
    assert!(csv.contains("\"m\r\n\t* 4"), "{csv:?}");
    let records = csv::records(&csv);
    assert_eq!(records.len(), 4, "{csv:?}");
    assert!(records.iter().all(|r| r.len() == 9), "{records:?}");
    assert_eq!(records[2][8], "m\r\n\t* 4\n        + 8");
}
