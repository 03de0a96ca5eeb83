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
//!
//! OpenSSH MACs each packet with one `umac_update` and one `umac_final`:
//! the UMAC object's streaming state, which hashes a packet given in one
//! piece with the one-shot path's NH calls (`fastmac::umac::Umac::update`).
#![allow(unsafe_code)] // the C boundary

use alloc::boxed::Box;
use core::ffi::{c_int, c_long, c_uchar};

use fastmac::umac::{AnyUmac, KEY_LEN, TagLen, UmacTagLen};

use crate::boundary::guard_or;
use crate::ffi;

/// OpenSSH's nonce: the 8-byte big-endian packet sequence number.
const NONCE_LEN: usize = 8;

/// `struct umac_ctx`: a keyed UMAC-64 (from `umac_new`) or UMAC-128 (from
/// `umac128_new`) and its message so far. Opaque to C.
pub struct UmacCtx(AnyUmac);

/// OpenSSH's success value.
const OK: c_int = 1;
/// What these functions return where OpenSSH's would misbehave.
const FAILED: c_int = 0;

/// # Safety
/// `key`: NULL or 16 readable bytes.
unsafe fn new<const N: usize>(key: *const c_uchar) -> *mut UmacCtx {
    guard_or(core::ptr::null_mut(), || {
        // SAFETY: OpenSSH's contract: key points to a 16-byte key.
        let Ok(key) = (unsafe { ffi::input(key, KEY_LEN) }) else {
            return core::ptr::null_mut();
        };
        let Ok(key) = <&[u8; KEY_LEN]>::try_from(key) else {
            return core::ptr::null_mut();
        };
        match AnyUmac::new(key, N) {
            Ok(mac) => Box::into_raw(Box::new(UmacCtx(mac))),
            Err(_) => core::ptr::null_mut(),
        }
    })
}

/// # Safety
/// `ctx`: NULL or a live context; `input`: `len` readable bytes.
#[inline(always)] // into each exported function, where the width is a type
unsafe fn update<const N: usize>(ctx: *mut UmacCtx, input: *const c_uchar, len: c_long) -> c_int
where
    TagLen<N>: UmacTagLen,
{
    guard_or(FAILED, || {
        let Ok(len) = usize::try_from(len) else { return FAILED };
        // SAFETY: OpenSSH's contract on ctx and input.
        let (Ok(ctx), Ok(input)) = (unsafe { ffi::handle(ctx) }, unsafe { ffi::input(input, len) }) else {
            return FAILED;
        };
        let Some(mac) = ctx.0.as_fixed_mut::<N>() else { return FAILED };
        mac.update(input);
        OK
    })
}

/// # Safety
/// `ctx`: NULL or a live context; `tag`: `N` writable bytes; `nonce`: 8
/// readable bytes.
#[inline(always)] // into each exported function, where the width is a type
unsafe fn finalize<const N: usize>(ctx: *mut UmacCtx, tag: *mut c_uchar, nonce: *const c_uchar) -> c_int
where
    TagLen<N>: UmacTagLen,
{
    guard_or(FAILED, || {
        // SAFETY: OpenSSH's contract on ctx, tag and nonce.
        let (Ok(ctx), Ok(tag), Ok(nonce)) =
            (unsafe { (ffi::handle(ctx), ffi::output(tag, N), ffi::input(nonce, NONCE_LEN)) })
        else {
            return FAILED;
        };
        let Some(mac) = ctx.0.as_fixed_mut::<N>() else { return FAILED };
        // An 8-byte nonce is always in RFC 4418's 1..=16 range.
        let Ok(computed) = mac.finalize_reset(nonce) else { return FAILED };
        tag.copy_from_slice(&computed);
        OK
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
    unsafe { new::<8>(key) }
}

/// `int umac_update(struct umac_ctx *ctx, const u_char *input, long len)`.
///
/// # Safety
/// `ctx` must be NULL or from `umac_new`; `input` valid for `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn umac_update(ctx: *mut UmacCtx, input: *const c_uchar, len: c_long) -> c_int {
    // SAFETY: the caller's guarantees.
    unsafe { update::<8>(ctx, input, len) }
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
    unsafe { finalize::<8>(ctx, tag, nonce) }
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
    unsafe { new::<16>(key) }
}

/// `int umac128_update(struct umac_ctx *ctx, const u_char *input, long len)`.
///
/// # Safety
/// `ctx` must be NULL or from `umac128_new`; `input` valid for `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn umac128_update(ctx: *mut UmacCtx, input: *const c_uchar, len: c_long) -> c_int {
    // SAFETY: the caller's guarantees.
    unsafe { update::<16>(ctx, input, len) }
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
    unsafe { finalize::<16>(ctx, tag, nonce) }
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

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8; KEY_LEN] = b"abcdefghijklmnop";
    /// One L1-HASH chunk (RFC 4418 section 5.2.1).
    const CHUNK: usize = 1024;

    /// One width's exported functions.
    struct Api {
        tag_len: usize,
        new: unsafe extern "C" fn(*const c_uchar) -> *mut UmacCtx,
        update: unsafe extern "C" fn(*mut UmacCtx, *const c_uchar, c_long) -> c_int,
        finalize: unsafe extern "C" fn(*mut UmacCtx, *mut c_uchar, *const c_uchar) -> c_int,
    }

    const WIDTHS: [Api; 2] = [
        Api { tag_len: 8, new: umac_new, update: umac_update, finalize: umac_final },
        Api { tag_len: 16, new: umac128_new, update: umac128_update, finalize: umac128_final },
    ];

    /// Through the C functions: `msg` in the given pieces, then the final call.
    fn drop_in_tag(api: &Api, ctx: *mut UmacCtx, pieces: &[&[u8]], nonce: &[u8; NONCE_LEN]) -> [u8; 16] {
        let mut tag = [0u8; 16];
        for piece in pieces {
            // SAFETY: a live context, a valid slice.
            assert_eq!(unsafe { (api.update)(ctx, piece.as_ptr(), piece.len() as c_long) }, OK);
        }
        // SAFETY: a live context, 16 writable and 8 readable bytes.
        assert_eq!(unsafe { (api.finalize)(ctx, tag.as_mut_ptr(), nonce.as_ptr()) }, OK);
        tag
    }

    /// Messages of up to one chunk and longer, in one piece or grown past a
    /// chunk by a later update, get the one-shot tag, in both widths,
    /// message after message on one context.
    #[test]
    fn held_and_streamed_messages_get_the_one_shot_tag() {
        let msg: Vec<u8> = (0..5000u32).map(|i| (i * 131 + 7) as u8).collect();
        let splits: &[(usize, &[usize])] = &[
            (0, &[]),
            (32, &[]),
            (1023, &[1000]),
            (CHUNK, &[1000]),
            (CHUNK + 1, &[CHUNK]),
            (CHUNK + 1, &[1000]),
            (2500, &[10, 1020, 2000]),
            (5000, &[]),
            (40, &[8]),
        ];
        for api in &WIDTHS {
            // SAFETY: a 16-byte key.
            let ctx = unsafe { (api.new)(KEY.as_ptr()) };
            let mut reference = fastmac::umac::AnyUmac::new(KEY, api.tag_len).unwrap();
            for (seq, &(len, cuts)) in splits.iter().enumerate() {
                let nonce = (seq as u64).to_be_bytes();
                let mut pieces = Vec::new();
                let mut start = 0;
                for &cut in cuts.iter().chain([len].iter()) {
                    pieces.push(&msg[start..cut]);
                    start = cut;
                }
                let got = drop_in_tag(api, ctx, &pieces, &nonce);
                let want = reference.mac(&nonce, &msg[..len]).unwrap();
                let tag_len = api.tag_len;
                assert_eq!(&got[..tag_len], want.as_slice(), "{tag_len}-byte tag, {len} B in pieces {cuts:?}");
            }
            // SAFETY: a live context, not used afterwards.
            assert_eq!(unsafe { delete(ctx) }, OK);
        }
    }

    /// A context of one width is refused by the other width's functions,
    /// and left as it was.
    #[test]
    fn the_other_widths_functions_refuse_a_context() {
        let [narrow, wide] = &WIDTHS;
        for (own, other) in [(narrow, wide), (wide, narrow)] {
            // SAFETY: a 16-byte key.
            let ctx = unsafe { (own.new)(KEY.as_ptr()) };
            let mut tag = [0u8; 16];
            let nonce = [0u8; NONCE_LEN];
            // SAFETY: a live context; valid buffers.
            unsafe {
                assert_eq!((other.update)(ctx, b"abc".as_ptr(), 3), FAILED);
                assert_eq!((other.finalize)(ctx, tag.as_mut_ptr(), nonce.as_ptr()), FAILED);
            }
            let got = drop_in_tag(own, ctx, &[b"abc"], &nonce);
            let want = fastmac::umac::AnyUmac::new(KEY, own.tag_len).unwrap().mac(&nonce, b"abc").unwrap();
            assert_eq!(&got[..own.tag_len], want.as_slice());
            // SAFETY: a live context, not used afterwards.
            assert_eq!(unsafe { delete(ctx) }, OK);
        }
    }
}
