//! Property tests of the metrale arena on random realistic configs and serve
//! limits: the same bytes as the hand-written sizing; every buffer aligned, in
//! bounds and disjoint; the host views as long as their sizes. And the edges:
//! huge values give a `SizeError` naming the buffer, malformed levers an error
//! naming the lever, never a panic or a wrapped size.

use std::mem::size_of_val;

use arena::{Arena, HostSlab, Layout, Levers, SizeError};
use arena_testkit::handwritten::{self, HandLevers};
use arena_testkit::metrale_buffers;
use arena_testkit::strategies::{arb_config, arb_limits};
use layouts::{BufferSizes, ModelConfig, Target};
use proptest::prelude::*;

/// Every carved field aligned, inside its region and disjoint from the others
/// (alternatives of a one-of region share offset 0 by design); recursively.
fn check_layout(l: &Layout, region: usize) -> Result<(), TestCaseError> {
    prop_assert!(
        l.slab_bytes <= region,
        "{}: slab {} > region {}",
        l.arena,
        l.slab_bytes,
        region
    );
    let mut placed: Vec<_> = l.placements.iter().filter(|p| p.bytes > 0).collect();
    for p in &placed {
        prop_assert_eq!(p.offset % p.align, 0, "{}.{} misaligned", l.arena, p.name);
        prop_assert!(
            p.end() <= l.slab_bytes,
            "{}.{} out of bounds",
            l.arena,
            p.name
        );
        if let Some(n) = &p.nested {
            check_layout(n, p.bytes)?;
        }
    }
    if l.one_of {
        prop_assert!(placed.iter().all(|p| p.offset == 0));
    } else {
        placed.sort_by_key(|p| p.offset);
        for w in placed.windows(2) {
            prop_assert!(
                w[0].end() <= w[1].offset,
                "{}.{} overlaps {}",
                l.arena,
                w[0].name,
                w[1].name
            );
        }
    }
    Ok(())
}

macro_rules! view_bytes_match {
    ($v:expr, $s:expr, [$($f:ident),* $(,)?]) => {
        $( prop_assert_eq!(size_of_val(&*$v.$f), $s.$f, "{}", stringify!($f)); )*
    };
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_configs(c in arb_config(), (m, s, b, n) in arb_limits()) {
        let sizes = BufferSizes::try_from_config_with(&Levers::new(), &c, m, s, b, n, &Target::DEFAULT).unwrap();
        let hand = handwritten::sizes(&c, m, s, b, n, &Target::DEFAULT, HandLevers::default());
        let got: Vec<usize> = sizes.sizes().into_iter().map(|(_, v)| v).collect();
        prop_assert_eq!(&got, &hand.to_vec());
        let layout = sizes.layout().unwrap();
        check_layout(&layout, layout.slab_bytes)?;
        prop_assert!(layout.slab_bytes >= sizes.total_bytes());
        // The slab is zero-filled lazily by the allocator: only views are checked here.
        let expected = sizes.clone();
        let mut slab = HostSlab::new(sizes).unwrap();
        let v = slab.views();
        metrale_buffers!(view_bytes_match!(v, expected,));
        prop_assert_eq!(size_of_val(&*v.gdn_fla_scratch.w) * 5 >= size_of_val(&*v.gdn_fla_scratch.gc), true);
    }
}

const HUGE: [usize; 5] = [
    usize::MAX,
    usize::MAX / 2,
    usize::MAX / 3 + 1,
    1 << 33,
    1 << 62,
];

/// Every field that is a size, set to a huge value one at a time.
fn huge_variants() -> Vec<(&'static str, ModelConfig)> {
    let base = ModelConfig::qwen3_next_80b_nvfp4();
    let mut out = Vec::new();
    for v in HUGE {
        macro_rules! set {
            ($($f:ident),*) => {$(
                let mut c = base.clone();
                c.$f = v;
                out.push((stringify!($f), c));
            )*};
        }
        set!(
            hidden_size,
            intermediate_size,
            vocab_size,
            num_attention_heads,
            num_key_value_heads,
            head_dim,
            linear_num_key_heads,
            linear_key_head_dim,
            linear_num_value_heads,
            linear_value_head_dim,
            num_experts,
            zero_expert_num,
            num_experts_per_tok,
            moe_intermediate_size,
            shared_expert_intermediate_size,
            mamba_num_heads,
            mamba_head_dim,
            ssm_state_size,
            n_groups,
            moe_latent_size,
            kv_lora_rank,
            q_lora_rank,
            qk_rope_head_dim,
            o_lora_rank,
            o_groups,
            hc_mult,
            hc_lowrank,
            index_n_heads,
            index_head_dim,
            index_topk,
            index_compress_ratio,
            adapter_max_rank
        );
    }
    out
}

#[test]
fn huge_values_are_errors_naming_the_buffer() {
    let all_on = Levers::new()
        .with("METRALE_GGUF_NATIVE_Q2", "1")
        .with("METRALE_GGUF_NATIVE_Q2_MMQ", "1")
        .with("METRALE_FP8_ROWWISE", "1");
    let mut errors = 0;
    for (field, c) in huge_variants() {
        for m in [1, 8192, usize::MAX / 2] {
            match BufferSizes::try_from_config_with(
                &all_on,
                &c,
                m,
                32_768,
                16,
                64,
                &Target::DEFAULT,
            ) {
                Ok(s) => {
                    // No wrap: every size is at least what its unchecked twin would be if it fit.
                    assert!(s.total_bytes() < usize::MAX, "{field}");
                }
                Err(e @ SizeError::Formula { .. }) => {
                    let msg = e.to_string();
                    assert!(
                        msg.starts_with("`BufferSizes.") || msg.contains("Scratch."),
                        "{field}: {msg}"
                    );
                    assert!(msg.contains("formula `"), "{field}: {msg}");
                    errors += 1;
                }
                Err(e) => {
                    assert!(
                        matches!(
                            e,
                            SizeError::SlabOverflow { .. } | SizeError::RegionTooSmall { .. }
                        ),
                        "{field}: {e}"
                    );
                    errors += 1;
                }
            }
        }
    }
    assert!(errors > 100, "huge values must mostly fail: {errors}");
    let e = BufferSizes::try_from_config_with(
        &Levers::new(),
        &ModelConfig::qwen3_next_80b_nvfp4(),
        usize::MAX,
        1,
        1,
        1,
        &Target::DEFAULT,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "`BufferSizes.m_pad`: formula `ceil16(M)` overflows usize"
    );
}

#[test]
fn malformed_levers_name_the_lever() {
    let c = ModelConfig::qwen3_next_80b_nvfp4();
    for lever in [
        "METRALE_GGUF_NATIVE_Q2",
        "METRALE_GGUF_NATIVE_Q2_MMQ",
        "METRALE_FP8_ROWWISE",
        "METRALE_GLM_ARENA_TRIM",
    ] {
        for bad in ["yes", " 1", "2", "true", "", "0 ", "on"] {
            let l = Levers::new().with(lever, bad);
            let e = BufferSizes::try_from_config_with(&l, &c, 8, 4096, 16, 32, &Target::DEFAULT)
                .unwrap_err();
            assert!(
                matches!(&e, SizeError::Lever { lever: l, value, .. } if *l == lever && value == bad),
                "{e}"
            );
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            let l = Levers::new().with(lever, std::ffi::OsString::from_vec(vec![0x80, 0x31]));
            let e = BufferSizes::try_from_config_with(&l, &c, 8, 4096, 16, 32, &Target::DEFAULT)
                .unwrap_err();
            assert!(
                e.to_string().contains(lever) && e.to_string().contains("not UTF-8"),
                "{e}"
            );
        }
    }
    // Unset takes the declared default: the GLM trim is on, the others off.
    let s =
        BufferSizes::try_from_config_with(&Levers::new(), &c, 8, 4096, 16, 32, &Target::DEFAULT)
            .unwrap();
    assert_eq!(
        (s.q2_dequant_scratch, s.q2_act_q8, s.ssm_rowwise_w_bf16),
        (0, 0, 0)
    );
    assert_eq!(
        BufferSizes::LEVERS
            .iter()
            .find(|l| l.name == "METRALE_GLM_ARENA_TRIM")
            .unwrap()
            .default,
        Some(true)
    );
}
