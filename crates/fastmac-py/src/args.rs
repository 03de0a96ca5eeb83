//! Integer arguments checked into typed errors: a Python int outside the
//! range raises `fastmac.OutOfRangeError` naming the range (never a bare
//! OverflowError), anything that is not an int raises `TypeError`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyInt;

use crate::errors::OutOfRangeError;

/// `value` as a u64 in `min ..= max`; `what` names it in the message.
pub fn int_in_range(value: &Bound<'_, PyAny>, what: &str, min: u64, max: u64) -> PyResult<u64> {
    let int = value.cast::<PyInt>().map_err(|_| {
        let type_name = value.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".to_owned());
        PyTypeError::new_err(format!("{what} must be an int, not {type_name}"))
    })?;
    match int.extract::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(OutOfRangeError::new_err(format!("{what} must be {min} to {max}"))),
    }
}

/// Like [`int_in_range`], for a count that indexes memory.
pub fn usize_in_range(value: &Bound<'_, PyAny>, what: &str, min: usize, max: usize) -> PyResult<usize> {
    // usize fits in u64 on every target this builds for.
    int_in_range(value, what, min as u64, max as u64).map(|v| v as usize)
}
