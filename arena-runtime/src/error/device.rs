//! The device's error (feature `cuda`).

use cudarc::driver::DriverError;

use super::{CarveError, SizeError};

/// Why a device arena could not be made or checked.
#[derive(Debug)]
#[non_exhaustive]
pub enum DeviceError {
    /// No CUDA driver library (`libcuda`) on this machine.
    NoDriver,
    /// The driver answered with an error (no device, out of memory, ...).
    Driver(DriverError),
    /// The arena could not be laid out.
    Size(SizeError),
    /// The slab could not be carved.
    Carve(CarveError),
    /// The allocation's start could not be aligned for the arena (a driver
    /// that moved it between two allocations).
    Alignment {
        /// The arena's region alignment.
        needed: usize,
    },
}

impl std::fmt::Display for DeviceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeviceError::NoDriver => f.write_str(
                "no CUDA driver: libcuda could not be loaded, so there is no GPU to allocate an arena on",
            ),
            DeviceError::Driver(e) => write!(f, "CUDA driver error: {e:?}"),
            DeviceError::Size(e) => e.fmt(f),
            DeviceError::Carve(e) => e.fmt(f),
            DeviceError::Alignment { needed } => write!(
                f,
                "the device allocation could not be aligned to {needed} bytes"
            ),
        }
    }
}

/// `source()`: the driver's error, or the size or carve error wrapped (whose
/// message is the wrapper's own).
impl std::error::Error for DeviceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DeviceError::Driver(e) => Some(e),
            DeviceError::Size(e) => Some(e),
            DeviceError::Carve(e) => Some(e),
            DeviceError::NoDriver | DeviceError::Alignment { .. } => None,
        }
    }
}

impl From<DriverError> for DeviceError {
    fn from(e: DriverError) -> Self {
        DeviceError::Driver(e)
    }
}
impl From<SizeError> for DeviceError {
    fn from(e: SizeError) -> Self {
        DeviceError::Size(e)
    }
}
impl From<CarveError> for DeviceError {
    fn from(e: CarveError) -> Self {
        DeviceError::Carve(e)
    }
}
