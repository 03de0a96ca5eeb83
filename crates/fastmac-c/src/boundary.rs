//! The panic boundary: every exported function runs its body here, so a
//! panic (a bug) never unwinds into C, which is undefined behaviour. With
//! the `std` feature it becomes `FASTMAC_ERR_PANIC` (or the OpenSSH API's
//! failure value); the lean library (no `std`, `panic = "abort"`) stops the
//! process at the panic instead (src/runtime.rs), so there the body is
//! simply run.
// The OpenSSH drop-in alone (without the feature `api`) has no status to return.
#![cfg_attr(not(feature = "api"), allow(dead_code))]

#[cfg(any(feature = "std", test))]
use std::panic::{AssertUnwindSafe, catch_unwind};

#[cfg(any(feature = "std", test))]
use crate::status::fastmac_status::FASTMAC_ERR_PANIC;
use crate::status::fastmac_status::{self, FASTMAC_OK};

/// A body's `Result` as a status.
fn status(result: Result<(), fastmac_status>) -> fastmac_status {
    result.err().unwrap_or(FASTMAC_OK)
}

/// Runs `body`; its `Err` status, or `FASTMAC_ERR_PANIC` if it panics, is the
/// result.
///
/// `AssertUnwindSafe` is sound here because after a panic the caller is told
/// (by `FASTMAC_ERR_PANIC`'s documentation) to rely on nothing the call
/// touched, only to free the handle; freeing is safe in any state.
#[cfg(any(feature = "std", test))]
pub(crate) fn guard(body: impl FnOnce() -> Result<(), fastmac_status>) -> fastmac_status {
    catch_unwind(AssertUnwindSafe(body)).map_or(FASTMAC_ERR_PANIC, status)
}

/// Runs `body`; its `Err` status is the result (a panic aborts).
#[cfg(not(any(feature = "std", test)))]
pub(crate) fn guard(body: impl FnOnce() -> Result<(), fastmac_status>) -> fastmac_status {
    status(body())
}

/// Runs `body`, returning `on_panic` if it panics: for functions whose C
/// signature has no status (the OpenSSH API, `*_free`).
#[cfg(any(feature = "std", test))]
pub(crate) fn guard_or<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(on_panic)
}

/// Runs `body` (a panic aborts; `on_panic` is for the `std` build).
#[cfg(not(any(feature = "std", test)))]
pub(crate) fn guard_or<T>(_on_panic: T, body: impl FnOnce() -> T) -> T {
    body()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::fastmac_status::FASTMAC_ERR_KEY_LENGTH;

    #[test]
    fn a_panic_becomes_a_status() {
        // Keep the expected panic's message out of the test output.
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let status = guard(|| panic!("simulated bug"));
        let value = guard_or(-1, || -> i32 { panic!("simulated bug") });
        std::panic::set_hook(hook);
        assert_eq!(status, FASTMAC_ERR_PANIC);
        assert_eq!(value, -1);
    }

    #[test]
    fn results_pass_through() {
        assert_eq!(guard(|| Ok(())), FASTMAC_OK);
        assert_eq!(guard(|| Err(FASTMAC_ERR_KEY_LENGTH)), FASTMAC_ERR_KEY_LENGTH);
        assert_eq!(guard_or(0, || 1), 1);
    }
}
