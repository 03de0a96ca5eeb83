//! OpenSSH's `umac.h`, implemented by fastmac: a drop-in for OpenSSH's
//! `umac.c`/`umac128.c` (the 2006 reference code), declared in the
//! hand-written `include/fastmac/umac.h`.
//!
//! Semantics kept from OpenSSH (umac.c, `$OpenBSD: umac.c,v 1.23`):
//! `umac_new` expands a 16-byte key into a heap context; `umac_update`
//! streams; `umac_final` writes the 8-byte (`umac128_final`: 16-byte) tag of
//! the streamed message under an 8-byte nonce and resets the context for the
//! next message; `umac_delete` wipes and frees (NULL is accepted). All
//! return 1 on success. One opaque `struct umac_ctx` serves both widths, as
//! in OpenSSH ("we reuse umac_ctx, since it's opaque").
//!
//! Where OpenSSH's code has undefined behaviour (NULL pointers, a negative
//! length, a context of the other width) these return 0 (`umac_new`: NULL)
//! and leave the context as it was.
#![allow(unsafe_code)] // the C boundary

use alloc::boxed::Box;
use core::ffi::{c_int, c_long, c_uchar};

use fastmac::umac::{AnyUmac, KEY_LEN};

use crate::boundary::guard_or;
use crate::ffi;

/// OpenSSH's nonce: the 8-byte big-endian packet sequence number.
const NONCE_LEN: usize = 8;

/// OpenSSH's two widths: `umac_*` tags are 8 bytes, `umac128_*` tags 16.
const UMAC64_TAG_LEN: usize = 8;
const UMAC128_TAG_LEN: usize = 16;

/// `struct umac_ctx`: a keyed UMAC-64 (from `umac_new`) or UMAC-128 (from
/// `umac128_new`). Opaque to C.
pub struct UmacCtx(AnyUmac);

/// OpenSSH's success value.
const OK: c_int = 1;
/// What these functions return where OpenSSH's would misbehave.
const FAILED: c_int = 0;

/// # Safety
/// `key`: NULL or 16 readable bytes.
unsafe fn new(key: *const c_uchar, tag_len: usize) -> *mut UmacCtx {
    guard_or(core::ptr::null_mut(), || {
        // SAFETY: OpenSSH's contract: key points to a 16-byte key.
        let Ok(key) = (unsafe { ffi::input(key, KEY_LEN) }) else {
            return core::ptr::null_mut();
        };
        let Ok(key) = <&[u8; KEY_LEN]>::try_from(key) else {
            return core::ptr::null_mut();
        };
        match AnyUmac::new(key, tag_len) {
            Ok(mac) => Box::into_raw(Box::new(UmacCtx(mac))),
            Err(_) => core::ptr::null_mut(),
        }
    })
}

/// # Safety
/// `ctx`: NULL or a live context; `input`: `len` readable bytes.
/// `tag_len`: the width the caller's function belongs to.
unsafe fn update(ctx: *mut UmacCtx, tag_len: usize, input: *const c_uchar, len: c_long) -> c_int {
    guard_or(FAILED, || {
        let Ok(len) = usize::try_from(len) else { return FAILED };
        // SAFETY: OpenSSH's contract on ctx and input.
        let (Ok(ctx), Ok(input)) = (unsafe { ffi::handle(ctx) }, unsafe { ffi::input(input, len) }) else {
            return FAILED;
        };
        if ctx.0.tag_len() != tag_len {
            return FAILED;
        }
        ctx.0.update(input);
        OK
    })
}

/// # Safety
/// `ctx`: NULL or a live context; `tag`: `tag_len` writable bytes; `nonce`:
/// 8 readable bytes.
unsafe fn finalize(ctx: *mut UmacCtx, tag_len: usize, tag: *mut c_uchar, nonce: *const c_uchar) -> c_int {
    guard_or(FAILED, || {
        // SAFETY: OpenSSH's contract on ctx, tag and nonce.
        let (Ok(ctx), Ok(tag), Ok(nonce)) =
            (unsafe { (ffi::handle(ctx), ffi::output(tag, tag_len), ffi::input(nonce, NONCE_LEN)) })
        else {
            return FAILED;
        };
        if ctx.0.tag_len() != tag_len {
            return FAILED;
        }
        let written = ctx.0.finalize_reset(nonce).map(|t| tag.copy_from_slice(t.as_slice()));
        // An 8-byte nonce is always in RFC 4418's 1..=16 range.
        if written.is_ok() { OK } else { FAILED }
    })
}

/// # Safety
/// `ctx`: NULL or a live context, not used afterwards.
unsafe fn delete(ctx: *mut UmacCtx) -> c_int {
    // SAFETY: OpenSSH's contract. Dropping zeroizes the key material (as
    // OpenSSH's freezero).
    guard_or(FAILED, || unsafe {
        ffi::free(ctx);
        OK
    })
}

/// `struct umac_ctx *umac_new(const u_char key[])`: a UMAC-64 context for a
/// 16-byte key; NULL if `key` is NULL.
///
/// # Safety
/// `key` must be NULL or point to 16 readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn umac_new(key: *const c_uchar) -> *mut UmacCtx {
    // SAFETY: the caller's guarantee.
    unsafe { new(key, UMAC64_TAG_LEN) }
}

/// `int umac_update(struct umac_ctx *ctx, const u_char *input, long len)`.
///
/// # Safety
/// `ctx` must be NULL or from `umac_new`; `input` valid for `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn umac_update(ctx: *mut UmacCtx, input: *const c_uchar, len: c_long) -> c_int {
    // SAFETY: the caller's guarantees.
    unsafe { update(ctx, UMAC64_TAG_LEN, input, len) }
}

/// `int umac_final(struct umac_ctx *ctx, u_char tag[], const u_char nonce[8])`:
/// writes the 8-byte tag and resets the context for the next message.
///
/// # Safety
/// `ctx` must be NULL or from `umac_new`; `tag` 8 writable bytes; `nonce` 8
/// readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn umac_final(ctx: *mut UmacCtx, tag: *mut c_uchar, nonce: *const c_uchar) -> c_int {
    // SAFETY: the caller's guarantees.
    unsafe { finalize(ctx, UMAC64_TAG_LEN, tag, nonce) }
}

/// `int umac_delete(struct umac_ctx *ctx)`: wipes and frees; NULL is accepted.
///
/// # Safety
/// `ctx` must be NULL or a live context, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn umac_delete(ctx: *mut UmacCtx) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { delete(ctx) }
}

/// `struct umac_ctx *umac128_new(const u_char key[])`: a UMAC-128 context.
///
/// # Safety
/// `key` must be NULL or point to 16 readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn umac128_new(key: *const c_uchar) -> *mut UmacCtx {
    // SAFETY: the caller's guarantee.
    unsafe { new(key, UMAC128_TAG_LEN) }
}

/// `int umac128_update(struct umac_ctx *ctx, const u_char *input, long len)`.
///
/// # Safety
/// `ctx` must be NULL or from `umac128_new`; `input` valid for `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn umac128_update(ctx: *mut UmacCtx, input: *const c_uchar, len: c_long) -> c_int {
    // SAFETY: the caller's guarantees.
    unsafe { update(ctx, UMAC128_TAG_LEN, input, len) }
}

/// `int umac128_final(struct umac_ctx *ctx, u_char tag[], const u_char nonce[8])`:
/// writes the 16-byte tag and resets the context.
///
/// # Safety
/// `ctx` must be NULL or from `umac128_new`; `tag` 16 writable bytes;
/// `nonce` 8 readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn umac128_final(ctx: *mut UmacCtx, tag: *mut c_uchar, nonce: *const c_uchar) -> c_int {
    // SAFETY: the caller's guarantees.
    unsafe { finalize(ctx, UMAC128_TAG_LEN, tag, nonce) }
}

/// `int umac128_delete(struct umac_ctx *ctx)`: wipes and frees; NULL is accepted.
///
/// # Safety
/// `ctx` must be NULL or a live context, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn umac128_delete(ctx: *mut UmacCtx) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { delete(ctx) }
}
