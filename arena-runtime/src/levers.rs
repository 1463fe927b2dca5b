//! Environment levers: read once per construction into a [`Levers`] snapshot,
//! which a caller (or a test) can also build by hand.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fmt::Display;

use crate::error::SizeError;

/// A snapshot of lever values: environment variable name to raw value.
///
/// A name that is absent is *unset*. Build one by hand to size an arena
/// without touching the process environment:
///
/// ```
/// use arena_runtime::Levers;
/// let levers = Levers::new().with("METRALE_FP8_ROWWISE", "1");
/// assert_eq!(levers.get("METRALE_FP8_ROWWISE").unwrap(), "1");
/// assert!(levers.get("METRALE_GLM_ARENA_TRIM").is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Levers {
    values: BTreeMap<String, OsString>,
}

impl Levers {
    /// An empty snapshot: every lever unset.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads the named variables from the process environment, once.
    pub fn from_env<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut levers = Self::new();
        for name in names {
            if let Some(value) = std::env::var_os(name) {
                levers.values.insert(name.to_owned(), value);
            }
        }
        levers
    }

    /// Sets a lever's raw value.
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<OsString>) -> &mut Self {
        self.values.insert(name.into(), value.into());
        self
    }

    /// Sets a lever's raw value, builder style.
    pub fn with(mut self, name: impl Into<String>, value: impl Into<OsString>) -> Self {
        self.set(name, value);
        self
    }

    /// Removes a lever, making it unset.
    pub fn unset(&mut self, name: &str) -> &mut Self {
        self.values.remove(name);
        self
    }

    /// The raw value of a lever, `None` when unset.
    #[inline]
    pub fn get(&self, name: &str) -> Option<&OsStr> {
        // Most constructions set no lever: skip the tree walk then.
        if self.values.is_empty() {
            return None;
        }
        self.values.get(name).map(OsString::as_os_str)
    }

    /// Every lever that is set, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &OsStr)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_os_str()))
    }

    /// Merges `other` into `self`; values in `other` win.
    pub fn overlay(&mut self, other: &Levers) -> &mut Self {
        for (k, v) in &other.values {
            self.values.insert(k.clone(), v.clone());
        }
        self
    }
}

/// How a lever is declared, for reports and for checking user input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeverInfo {
    /// The environment variable.
    pub name: &'static str,
    /// `Some(default)` for an on/off lever, `None` for a lever with a parser.
    pub default: Option<bool>,
}

fn text_of<'a>(name: &'static str, raw: &'a OsStr, expected: &str) -> Result<&'a str, SizeError> {
    raw.to_str().ok_or_else(|| SizeError::Lever {
        lever: name,
        value: raw.to_string_lossy().into_owned(),
        expected: format!("{expected} (the value is not UTF-8)"),
    })
}

/// An on/off lever: exactly `1` is on, exactly `0` is off, unset is `default`;
/// anything else (`true`, ` 1`, `2`, empty, not UTF-8) is an error naming the lever.
#[inline]
pub fn bool_lever(levers: &Levers, name: &'static str, default: bool) -> Result<bool, SizeError> {
    match levers.get(name) {
        None => Ok(default),
        Some(raw) => match raw.as_encoded_bytes() {
            b"1" => Ok(true),
            b"0" => Ok(false),
            _ => Err(bad_bool_lever(name, raw)),
        },
    }
}

/// An on/off lever with the usual spellings (`lever(NAME, flag)`): `1`,
/// `true`, `yes`, `on` are on, `0`, `false`, `no`, `off` are off, in any
/// case and with surrounding spaces; unset or empty is `default`; anything
/// else is an error naming the lever and the spellings.
pub fn flag_lever(levers: &Levers, name: &'static str, default: bool) -> Result<bool, SizeError> {
    const EXPECTED: &str = "one of 1, true, yes, on (on) or 0, false, no, off (off), in any case";
    let Some(raw) = levers.get(name) else {
        return Ok(default);
    };
    let text = text_of(name, raw, EXPECTED)?;
    match text.trim().to_ascii_lowercase().as_str() {
        "" => Ok(default),
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(SizeError::Lever {
            lever: name,
            value: text.to_owned(),
            expected: EXPECTED.to_owned(),
        }),
    }
}

/// The error for an on/off lever with any other value; off the hot path.
#[cold]
#[inline(never)]
fn bad_bool_lever(name: &'static str, raw: &OsStr) -> SizeError {
    const EXPECTED: &str = "`1` (on) or `0` (off)";
    match text_of(name, raw, EXPECTED) {
        Ok(text) => SizeError::Lever {
            lever: name,
            value: text.to_owned(),
            expected: EXPECTED.to_owned(),
        },
        Err(e) => e,
    }
}

/// A lever with a parser: unset is `None`, a value the parser accepts is
/// `Some`, anything else is an error naming the lever and the parser's reason.
#[inline]
pub fn parsed_lever<T, E: Display>(
    levers: &Levers,
    name: &'static str,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<Option<T>, SizeError> {
    match levers.get(name) {
        None => Ok(None),
        Some(raw) => parse_set_lever(name, raw, parse).map(Some),
    }
}

fn parse_set_lever<T, E: Display>(
    name: &'static str,
    raw: &OsStr,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T, SizeError> {
    let text = text_of(name, raw, "a value its parser accepts")?;
    parse(text).map_err(|e| SizeError::Lever {
        lever: name,
        value: text.to_owned(),
        expected: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_off_and_default() {
        let l = Levers::new().with("A", "1").with("B", "0");
        assert_eq!(bool_lever(&l, "A", false), Ok(true));
        assert_eq!(bool_lever(&l, "B", true), Ok(false));
        assert_eq!(bool_lever(&l, "C", true), Ok(true));
        assert_eq!(bool_lever(&l, "C", false), Ok(false));
    }

    #[test]
    fn flags_take_the_usual_spellings_in_any_case() {
        for (on, text) in [
            (true, "1"),
            (true, "TRUE"),
            (true, " yes "),
            (true, "On"),
            (false, "0"),
            (false, "False"),
            (false, "NO"),
            (false, "off"),
        ] {
            let l = Levers::new().with("F", text);
            assert_eq!(flag_lever(&l, "F", !on), Ok(on), "{text:?}");
        }
        assert_eq!(flag_lever(&Levers::new(), "F", true), Ok(true));
        assert_eq!(
            flag_lever(&Levers::new().with("F", ""), "F", true),
            Ok(true)
        );
        let e = flag_lever(&Levers::new().with("F", "maybe"), "F", false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "lever `F` has value \"maybe\"; expected one of 1, true, yes, on (on) or 0, false, no, off (off), in any case"
        );
    }

    #[test]
    fn malformed_values_name_the_lever() {
        for bad in ["yes", " 1", "2", "true", "", "01", "1 "] {
            let l = Levers::new().with("METRALE_X", bad);
            let err = bool_lever(&l, "METRALE_X", false).unwrap_err();
            let msg = err.to_string();
            assert!(msg.contains("METRALE_X"), "{msg}");
            assert!(msg.contains(&format!("{bad:?}")), "{msg}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_is_an_error() {
        use std::os::unix::ffi::OsStringExt;
        let l = Levers::new().with("METRALE_X", OsString::from_vec(vec![0xff, 0x31]));
        let msg = bool_lever(&l, "METRALE_X", false).unwrap_err().to_string();
        assert!(
            msg.contains("METRALE_X") && msg.contains("not UTF-8"),
            "{msg}"
        );
        let msg = parsed_lever(&l, "METRALE_X", |s| s.parse::<u8>())
            .unwrap_err()
            .to_string();
        assert!(msg.contains("not UTF-8"), "{msg}");
    }

    #[test]
    fn parsed() {
        let l = Levers::new().with("N", "7").with("BAD", "x");
        assert_eq!(parsed_lever(&l, "N", |s| s.parse::<u8>()), Ok(Some(7)));
        assert_eq!(parsed_lever(&l, "UNSET", |s| s.parse::<u8>()), Ok(None));
        let msg = parsed_lever(&l, "BAD", |s| s.parse::<u8>())
            .unwrap_err()
            .to_string();
        assert!(msg.contains("BAD") && msg.contains("\"x\""), "{msg}");
    }

    #[test]
    fn overlay_wins() {
        let mut a = Levers::new().with("A", "0").with("B", "1");
        a.overlay(&Levers::new().with("A", "1"));
        assert_eq!(a.get("A").unwrap(), "1");
        assert_eq!(a.get("B").unwrap(), "1");
        a.unset("B");
        assert!(a.get("B").is_none());
    }
}
