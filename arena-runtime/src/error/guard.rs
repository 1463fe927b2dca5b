//! Guard bands' error.

/// Buffers whose guard gap was overwritten.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct GuardError {
    /// The derived struct.
    pub arena: &'static str,
    /// Every buffer after which a guard byte changed, in slab order.
    pub overrun: Vec<&'static str>,
}

impl std::fmt::Display for GuardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: guard overwritten after ", self.arena)?;
        for (i, name) in self.overrun.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{name}`")?;
        }
        Ok(())
    }
}

impl std::error::Error for GuardError {}
