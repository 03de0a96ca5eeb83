//! The panic boundary: every exported function runs its body here, so a
//! panic (a bug) becomes `FASTMAC_ERR_PANIC` (or the OpenSSH API's failure
//! value) instead of unwinding into C, which is undefined behaviour.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::status::fastmac_status::{self, FASTMAC_ERR_PANIC, FASTMAC_OK};

/// Runs `body`; its `Err` status, or `FASTMAC_ERR_PANIC` if it panics, is the
/// result.
///
/// `AssertUnwindSafe` is sound here because after a panic the caller is told
/// (by `FASTMAC_ERR_PANIC`'s documentation) to rely on nothing the call
/// touched, only to free the handle; freeing is safe in any state.
pub(crate) fn guard(body: impl FnOnce() -> Result<(), fastmac_status>) -> fastmac_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => FASTMAC_OK,
        Ok(Err(status)) => status,
        Err(_) => FASTMAC_ERR_PANIC,
    }
}

/// Runs `body`, returning `on_panic` if it panics: for functions whose C
/// signature has no status (the OpenSSH API, `*_free`).
pub(crate) fn guard_or<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(on_panic)
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
