//! `arena-report --fit PARAM`: the largest value of one serve limit whose
//! metrale arena fits a byte budget (`arena::fit`), alone or, with
//! `--sweep OTHER=...`, for each value of another limit (the frontier).

use arena::Levers;
use arena::fit::{self, Fit, FitError, Method, Options};
use serde_json::{Value, json};

use crate::report::{Limits, SWEEPABLE};
use crate::{BufferSizes, ModelConfig, Target};

/// Bytes as a person writes them: `6GiB`, `512 MiB`, `1.5GB`, `4096` (a
/// plain number is bytes). Binary units (KiB, MiB, GiB, TiB) and decimal
/// ones (KB, MB, GB, TB), in any case; a fraction is rounded down to whole
/// bytes.
pub fn parse_bytes(text: &str) -> Result<usize, String> {
    let bad = |why: &str| format!("{text:?}: {why}; expected bytes such as 6GiB, 512MiB or 4096");
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .unwrap_or(t.len());
    let (number, unit) = (t[..split].replace('_', ""), t[split..].trim());
    let unit_bytes: u128 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        "tib" => 1 << 40,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        "tb" => 1_000_000_000_000,
        _ => return Err(bad(&format!("unknown unit {unit:?}"))),
    };
    let (whole, frac) = number.split_once('.').unwrap_or((&number, ""));
    if whole.is_empty() && frac.is_empty() {
        return Err(bad("no number"));
    }
    if frac.len() > 18 || frac.contains('.') {
        return Err(bad("not a number"));
    }
    let digits = |s: &str| -> Result<u128, String> {
        if s.is_empty() {
            Ok(0)
        } else {
            s.parse::<u128>().map_err(|_| bad("not a number"))
        }
    };
    let scale = 10u128.pow(frac.len() as u32);
    let part = digits(frac)? * unit_bytes / scale;
    let bytes = digits(whole)?
        .checked_mul(unit_bytes)
        .and_then(|w| w.checked_add(part))
        .ok_or_else(|| bad("too large"))?;
    usize::try_from(bytes).map_err(|_| bad("more bytes than this machine's usize holds"))
}

/// Bytes in GiB, MiB or KiB with three decimals, so that a fit and the next
/// value's bytes read apart: `5.998 GiB`.
pub fn human(bytes: usize) -> String {
    let (unit, name) = match bytes {
        b if b >= 1 << 30 => (1u64 << 30, "GiB"),
        b if b >= 1 << 20 => (1 << 20, "MiB"),
        b if b >= 1 << 10 => (1 << 10, "KiB"),
        _ => return format!("{bytes} B"),
    };
    format!("{:.3} {name}", bytes as f64 / unit as f64)
}

/// What was fitted, for the renderers.
#[derive(Debug)]
pub struct FitReport {
    /// The limit that varies.
    pub param: String,
    /// Its range, `1..=max`.
    pub max: usize,
    /// The byte budget.
    pub budget: usize,
    /// Where the budget came from, in words (`--budget`, or a GPU less a reserve).
    pub budget_from: String,
    /// The other limits, fixed.
    pub limits: Limits,
    /// The config's source and model type.
    pub source: String,
    pub model_type: String,
    /// One fit, or the frontier over another limit.
    pub outcome: Outcome,
}

/// One fit, or one per value of another limit.
#[derive(Debug)]
pub enum Outcome {
    One(Fit),
    Frontier {
        other: String,
        points: Vec<fit::Point>,
    },
}

/// The other limits, for a line of the report: every limit but `param` (and `but`).
fn other_limits(limits: &Limits, param: &str, but: Option<&str>) -> Vec<(&'static str, usize)> {
    SWEEPABLE
        .iter()
        .filter(|&&p| p != param && Some(p) != but)
        .map(|&p| (p, value_of(limits, p)))
        .collect()
}

fn value_of(l: &Limits, p: &str) -> usize {
    match p {
        "max_batch_tokens" => l.max_batch_tokens,
        "max_seq_len" => l.max_seq_len,
        "kv_block_size" => l.kv_block_size,
        _ => l.max_batch_size,
    }
}

fn method(m: Method) -> &'static str {
    match m {
        Method::Bisection => "bisection",
        Method::Bounds => "bounds",
        _ => "scan",
    }
}

/// Sizes the metrale arena of `config` at `limits` with `param` fitted
/// into `budget` over `1..=max`; with `sweep`, at each value of that other
/// limit. A wrong name or nothing that fits is one line of error.
#[allow(clippy::too_many_arguments)]
pub fn run(
    config: &ModelConfig,
    limits: Limits,
    target: Target,
    levers: &Levers,
    param: &str,
    max: usize,
    budget: usize,
    sweep: Option<(String, Vec<usize>)>,
) -> Result<Outcome, String> {
    if !SWEEPABLE.contains(&param) {
        return Err(format!(
            "--fit {param}: not a serve limit; one of {}",
            SWEEPABLE.join(", ")
        ));
    }
    if max == 0 {
        return Err("--fit-max 0: the range 1..=0 is empty".to_owned());
    }
    let size = |l: Limits| {
        BufferSizes::try_from_config_with(
            levers,
            config,
            l.max_batch_tokens,
            l.max_seq_len,
            l.kv_block_size,
            l.max_batch_size,
            &target,
        )
    };
    let with = |l: Limits, p: &str, v: usize| l.with(p, v).expect("a serve limit");
    let explain = |e: FitError| match e {
        FitError::NotMonotone { .. } => format!(
            "--fit {param}: {e}; the arena's bytes are not known to grow with it: give a smaller --fit-max"
        ),
        e => e.to_string(),
    };
    match sweep {
        None => fit::largest(param, 1..=max, budget, |v| size(with(limits, param, v)))
            .map(Outcome::One)
            .map_err(explain),
        Some((other, values)) => {
            if other == param {
                return Err(format!(
                    "--sweep {other}: the same limit as --fit; sweep another one"
                ));
            }
            let points = fit::frontier(
                &other,
                values,
                param,
                1..=max,
                budget,
                &Options::new(),
                |o, v| size(with(with(limits, &other, o), param, v)),
            )
            .map_err(explain)?;
            Ok(Outcome::Frontier { other, points })
        }
    }
}

impl FitReport {
    /// The fit as a person reads it.
    pub fn table(&self) -> String {
        let p = &self.param;
        let mut out = format!(
            "largest {p} whose metrale arena fits {} ({} B), {}\n",
            human(self.budget),
            self.budget,
            self.budget_from
        );
        let others = |but: Option<&str>| {
            other_limits(&self.limits, p, but)
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &self.outcome {
            Outcome::One(f) => {
                out += &format!("  {:<24}{}\n", p, f.value);
                out += &format!(
                    "  {:<24}{:>16} B  {}\n",
                    format!("slab_bytes at {}", f.value),
                    f.bytes,
                    human(f.bytes)
                );
                match f.next_bytes {
                    Some(n) => {
                        out += &format!(
                            "  {:<24}{:>16} B  {}\n",
                            format!("slab_bytes at {}", f.value + 1),
                            n,
                            human(n)
                        )
                    }
                    None if f.value == self.max => {
                        out += &format!("  {:<24}the top of the range (--fit-max)\n", "next")
                    }
                    None => out += &format!("  {:<24}overflows usize\n", "next"),
                }
                out += &format!("  {:<24}{}\n", "other limits", others(None));
                out += &format!(
                    "  {:<24}{}, {} sizing{} over 1..={}\n",
                    "found by",
                    method(f.method),
                    f.sizings,
                    if f.sizings == 1 { "" } else { "s" },
                    self.max
                );
            }
            Outcome::Frontier { other, points } => {
                out += &format!(
                    "  {:>16}  {:>16}  {:>16}  {:>16}\n",
                    other, p, "slab_bytes", "next_slab_bytes"
                );
                for pt in points {
                    match pt.fit {
                        Some(f) => {
                            let next = f.next_bytes.map_or("-".to_owned(), |n| n.to_string());
                            out += &format!(
                                "  {:>16}  {:>16}  {:>16}  {:>16}\n",
                                pt.value, f.value, f.bytes, next
                            );
                        }
                        None => {
                            out += &format!(
                                "  {:>16}  {:>16}  {:>16}  {:>16}\n",
                                pt.value, "none fits", "-", "-"
                            )
                        }
                    }
                }
                out += &format!("  other limits: {}\n", others(Some(other)));
            }
        }
        out += &format!("  config: {} ({})\n", self.source, self.model_type);
        out
    }

    /// The fit as JSON.
    pub fn json(&self) -> Value {
        let fit_json = |f: &Fit| {
            json!({
                "value": f.value,
                "slab_bytes": f.bytes,
                "next_slab_bytes": f.next_bytes,
                "sizings": f.sizings,
                "method": method(f.method),
            })
        };
        let swept = match &self.outcome {
            Outcome::Frontier { other, .. } => Some(other.as_str()),
            Outcome::One(_) => None,
        };
        let limits: serde_json::Map<String, Value> = other_limits(&self.limits, &self.param, swept)
            .into_iter()
            .map(|(k, v)| (k.to_owned(), json!(v)))
            .collect();
        let mut v = json!({
            "arena": "BufferSizes",
            "model_type": self.model_type,
            "source": self.source,
            "fit": self.param,
            "range": [1, self.max],
            "budget_bytes": self.budget,
            "budget_from": self.budget_from,
            "limits": limits,
        });
        let obj = v.as_object_mut().expect("an object");
        match &self.outcome {
            Outcome::One(f) => {
                if let Value::Object(m) = fit_json(f) {
                    obj.extend(m);
                }
            }
            Outcome::Frontier { other, points } => {
                obj.insert("sweep".into(), json!(other));
                let rows: Vec<Value> = points
                    .iter()
                    .map(|pt| {
                        let mut row = json!({ other.as_str(): pt.value });
                        let m = row.as_object_mut().expect("an object");
                        match &pt.fit {
                            Some(f) => {
                                if let Value::Object(f) = fit_json(f) {
                                    m.extend(f);
                                }
                            }
                            None => {
                                m.insert("value".into(), Value::Null);
                            }
                        }
                        row
                    })
                    .collect();
                obj.insert("frontier".into(), Value::Array(rows));
            }
        }
        v
    }

    /// The fit as CSV: a header and a row (a row per point of a frontier).
    pub fn csv(&self) -> String {
        let cell = |o: Option<usize>| o.map_or(String::new(), |v| v.to_string());
        let row = |f: Option<&Fit>| {
            format!(
                "{},{},{},{},{},{}",
                cell(f.map(|f| f.value)),
                cell(f.map(|f| f.bytes)),
                cell(f.and_then(|f| f.next_bytes)),
                self.budget,
                cell(f.map(|f| f.sizings)),
                f.map_or("", |f| method(f.method)),
            )
        };
        let tail = "slab_bytes,next_slab_bytes,budget_bytes,sizings,method";
        match &self.outcome {
            Outcome::One(f) => format!("{},{tail}\n{}\n", self.param, row(Some(f))),
            Outcome::Frontier { other, points } => {
                let mut out = format!("{other},{},{tail}\n", self.param);
                for pt in points {
                    out += &format!("{},{}\n", pt.value, row(pt.fit.as_ref()));
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_bytes;

    #[test]
    fn bytes_as_people_write_them() {
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("6GiB"), Ok(6 << 30));
        assert_eq!(parse_bytes("6gib"), Ok(6 << 30));
        assert_eq!(parse_bytes("512 MiB"), Ok(512 << 20));
        assert_eq!(parse_bytes("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_bytes("80GB"), Ok(80_000_000_000));
        assert_eq!(parse_bytes("1_000KB"), Ok(1_000_000));
        assert_eq!(parse_bytes("0.3B"), Ok(0));
        assert_eq!(parse_bytes("12B"), Ok(12));
        for bad in [
            "",
            "GiB",
            "6 GiBs",
            "1.2.3GiB",
            "-5",
            "6e9",
            "99999999999999999999TiB",
        ] {
            assert!(parse_bytes(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_bytes("6 GiBs").unwrap_err(),
            "\"6 GiBs\": unknown unit \"GiBs\"; expected bytes such as 6GiB, 512MiB or 4096"
        );
    }
}
