//! The C boundary's argument handling, called from Rust as C would call it:
//! NULL pointers, NULL with a zero length, impossible lengths, wrong tag
//! lengths, unknown names and unaligned buffers each give their status (or
//! NULL and 0 through OpenSSH's `umac.h`), never a crash, and a refused call consumes nothing.
//! Small inputs only, so that `make test-miri` runs this file under Miri,
//! which checks every pointer the boundary turns into a reference.
#![allow(unsafe_code)] // calls through the C API

use core::ffi::{c_char, c_int};
use core::ptr;

use fastmac_c::by_name::{
    MacHandle, fastmac_mac_finalize, fastmac_mac_free, fastmac_mac_new, fastmac_mac_tag_len, fastmac_mac_update,
    fastmac_mac_verify,
};
use fastmac_c::fastmac_status::{self, *};
#[cfg(feature = "openssh")]
use fastmac_c::openssh::{umac_delete, umac_final, umac_new, umac_update, umac128_update};
use fastmac_c::ssh::{
    SshMacHandle, fastmac_ssh_mac_compute, fastmac_ssh_mac_free, fastmac_ssh_mac_lookup, fastmac_ssh_mac_new,
    fastmac_ssh_mac_verify,
};
use fastmac_c::umac::{fastmac_umac64_free, fastmac_umac64_mac, fastmac_umac64_new, fastmac_umac64_prefetch};

const KEY: &[u8; 16] = b"abcdefghijklmnop";
const NONCE: &[u8; 8] = b"bcdefghi";
/// RFC 4418 appendix: UMAC-64 of "abc" under KEY and NONCE.
const ABC_TAG: [u8; 8] = [0xd4, 0xd7, 0xb9, 0xf6, 0xbd, 0x4f, 0xbf, 0xcf];
/// A length no Rust slice may have.
const TOO_LONG: usize = isize::MAX as usize + 1;

fn name(text: &str) -> Vec<c_char> {
    text.bytes().map(|b| b as c_char).chain([0]).collect()
}

/// A keyed "umac-64" handle.
fn umac64() -> *mut MacHandle {
    let mut mac = ptr::null_mut();
    // SAFETY: a NUL-terminated name, a 16-byte key and a writable slot.
    assert_eq!(unsafe { fastmac_mac_new(name("umac-64").as_ptr(), KEY.as_ptr(), 16, &mut mac) }, FASTMAC_OK);
    assert!(!mac.is_null());
    mac
}

#[test]
fn construction_refuses_null_and_unknown_arguments_and_leaves_no_handle() {
    let (umac, unknown) = (name("umac-64"), name("umac-63"));
    let cases: [(&str, *const c_char, *const u8, usize, fastmac_status); 5] = [
        ("NULL name", ptr::null(), KEY.as_ptr(), 16, FASTMAC_ERR_NULL_POINTER),
        ("NULL key", umac.as_ptr(), ptr::null(), 16, FASTMAC_ERR_NULL_POINTER),
        ("NULL key of length 0", umac.as_ptr(), ptr::null(), 0, FASTMAC_ERR_KEY_LENGTH),
        ("unknown name", unknown.as_ptr(), KEY.as_ptr(), 16, FASTMAC_ERR_UNKNOWN_ALGORITHM),
        ("impossible key length", umac.as_ptr(), KEY.as_ptr(), TOO_LONG, FASTMAC_ERR_LENGTH_OVERFLOW),
    ];
    for (what, alg, key, key_len, expected) in cases {
        let mut mac = ptr::NonNull::<MacHandle>::dangling().as_ptr(); // must be overwritten with NULL
        // SAFETY: every non-NULL pointer is valid for the length given, except
        // TOO_LONG, which the boundary refuses before reading.
        let status = unsafe { fastmac_mac_new(alg, key, key_len, &mut mac) };
        assert_eq!(status, expected, "{what}");
        assert!(mac.is_null(), "{what}: no handle on an error");
    }
    // SAFETY: valid name and key; the slot itself is NULL.
    assert_eq!(unsafe { fastmac_mac_new(umac.as_ptr(), KEY.as_ptr(), 16, ptr::null_mut()) }, FASTMAC_ERR_NULL_POINTER);
}

#[test]
fn a_handle_tags_from_unaligned_buffers_and_refused_calls_consume_nothing() {
    let mac = umac64();
    let mut tag_len = 0;
    // SAFETY: a live handle and a writable length.
    assert_eq!(unsafe { fastmac_mac_tag_len(mac, &mut tag_len) }, FASTMAC_OK);
    assert_eq!(tag_len, 8);
    // The message at an odd address, in two pieces.
    let buffer = *b"xabc";
    // SAFETY: pointers into `buffer` with the lengths left in it.
    unsafe {
        assert_eq!(fastmac_mac_update(mac, buffer[1..].as_ptr(), 1), FASTMAC_OK);
        assert_eq!(fastmac_mac_update(mac, ptr::null(), 0), FASTMAC_OK, "NULL with length 0 is an empty input");
        assert_eq!(fastmac_mac_update(mac, ptr::null(), 2), FASTMAC_ERR_NULL_POINTER);
        assert_eq!(fastmac_mac_update(mac, buffer[2..].as_ptr(), 2), FASTMAC_OK);
    }
    let mut tag = [0u8; 9];
    // SAFETY: `tag` is writable for the lengths given; NULL is refused first.
    unsafe {
        assert_eq!(fastmac_mac_finalize(mac, NONCE.as_ptr(), 8, ptr::null_mut(), 8), FASTMAC_ERR_NULL_POINTER);
        assert_eq!(fastmac_mac_finalize(mac, NONCE.as_ptr(), 8, tag.as_mut_ptr(), 7), FASTMAC_ERR_TAG_LENGTH);
        assert_eq!(fastmac_mac_finalize(mac, NONCE.as_ptr(), 0, tag.as_mut_ptr(), 8), FASTMAC_ERR_NONCE_LENGTH);
        assert_eq!(
            fastmac_mac_finalize(mac, NONCE.as_ptr(), 8, tag.as_mut_ptr(), TOO_LONG),
            FASTMAC_ERR_LENGTH_OVERFLOW
        );
        // Unaligned output; the refused calls above consumed nothing.
        assert_eq!(fastmac_mac_finalize(mac, NONCE.as_ptr(), 8, tag[1..].as_mut_ptr(), 8), FASTMAC_OK);
    }
    assert_eq!(tag[1..], ABC_TAG);
    let mut forged = ABC_TAG;
    forged[7] ^= 1;
    // SAFETY: live handle, buffers valid for their lengths.
    unsafe {
        assert_eq!(fastmac_mac_update(mac, b"abc".as_ptr(), 3), FASTMAC_OK);
        assert_eq!(fastmac_mac_verify(mac, NONCE.as_ptr(), 8, ptr::null(), 8), FASTMAC_ERR_NULL_POINTER);
        assert_eq!(fastmac_mac_verify(mac, NONCE.as_ptr(), 8, forged.as_ptr(), 8), FASTMAC_ERR_INVALID_TAG);
        assert_eq!(fastmac_mac_update(mac, b"abc".as_ptr(), 3), FASTMAC_OK);
        assert_eq!(fastmac_mac_verify(mac, NONCE.as_ptr(), 8, ABC_TAG.as_ptr(), 8), FASTMAC_OK);
        fastmac_mac_free(mac);
    }
}

/// Asking for a handle's lines ahead of a message of any length leaves its
/// tags as they were; a NULL handle is refused.
#[test]
fn prefetch_refuses_null_and_changes_no_tag() {
    let mut mac = ptr::null_mut();
    let mut tag = [0u8; 8];
    // SAFETY: a NULL handle is refused before any use; a 16-byte key, a
    // writable slot, and buffers valid for their lengths.
    unsafe {
        assert_eq!(fastmac_umac64_prefetch(ptr::null(), 3), FASTMAC_ERR_NULL_POINTER);
        assert_eq!(fastmac_umac64_new(KEY.as_ptr(), 16, &mut mac), FASTMAC_OK);
        for len in [0, 3, 1500, usize::MAX] {
            assert_eq!(fastmac_umac64_prefetch(mac, len), FASTMAC_OK, "{len} bytes");
        }
        assert_eq!(fastmac_umac64_mac(mac, NONCE.as_ptr(), 8, b"abc".as_ptr(), 3, tag.as_mut_ptr(), 8), FASTMAC_OK);
        fastmac_umac64_free(mac);
    }
    assert_eq!(tag, ABC_TAG);
}

#[test]
fn null_handles_are_refused_and_freeing_null_is_a_no_op() {
    let mut out = 0usize;
    let mut tag = [0u8; 8];
    // SAFETY: NULL handles are refused before any use; the other buffers are valid.
    unsafe {
        assert_eq!(fastmac_mac_tag_len(ptr::null(), &mut out), FASTMAC_ERR_NULL_POINTER);
        assert_eq!(fastmac_mac_update(ptr::null_mut(), b"a".as_ptr(), 1), FASTMAC_ERR_NULL_POINTER);
        assert_eq!(
            fastmac_mac_finalize(ptr::null_mut(), NONCE.as_ptr(), 8, tag.as_mut_ptr(), 8),
            FASTMAC_ERR_NULL_POINTER
        );
        assert_eq!(fastmac_mac_verify(ptr::null_mut(), NONCE.as_ptr(), 8, tag.as_ptr(), 8), FASTMAC_ERR_NULL_POINTER);
        fastmac_mac_free(ptr::null_mut());
        fastmac_ssh_mac_free(ptr::null_mut());
        let mac = umac64();
        assert_eq!(fastmac_mac_tag_len(mac, ptr::null_mut()), FASTMAC_ERR_NULL_POINTER);
        fastmac_mac_free(mac);
    }
}

#[test]
fn ssh_names_lengths_and_sequence_numbers() {
    let hmac = name("hmac-sha2-256");
    let (mut key_len, mut tag_len, mut etm): (usize, usize, c_int) = (0, 0, -1);
    // SAFETY: a NUL-terminated name and writable outputs; NULLs are refused.
    unsafe {
        assert_eq!(fastmac_ssh_mac_lookup(hmac.as_ptr(), &mut key_len, &mut tag_len, &mut etm), FASTMAC_OK);
        assert_eq!((key_len, tag_len, etm), (32, 32, 0));
        assert_eq!(
            fastmac_ssh_mac_lookup(hmac.as_ptr(), ptr::null_mut(), &mut tag_len, &mut etm),
            FASTMAC_ERR_NULL_POINTER
        );
        assert_eq!(
            fastmac_ssh_mac_lookup(name("umac-32@openssh.com").as_ptr(), &mut key_len, &mut tag_len, &mut etm),
            FASTMAC_ERR_UNKNOWN_ALGORITHM
        );
    }
    let key = [0x0bu8; 32];
    let mut mac: *mut SshMacHandle = ptr::null_mut();
    // SAFETY: as above; the key is valid for each length given.
    unsafe {
        assert_eq!(fastmac_ssh_mac_new(hmac.as_ptr(), key.as_ptr(), 31, &mut mac), FASTMAC_ERR_KEY_LENGTH);
        assert!(mac.is_null());
        assert_eq!(fastmac_ssh_mac_new(hmac.as_ptr(), key.as_ptr(), 32, &mut mac), FASTMAC_OK);
    }
    let mut tag = [0u8; 32];
    // SAFETY: a live handle; buffers valid for their lengths.
    unsafe {
        assert_eq!(fastmac_ssh_mac_compute(mac, 3, ptr::null(), 0, tag.as_mut_ptr(), 32), FASTMAC_OK);
        assert_eq!(fastmac_ssh_mac_verify(mac, 3, ptr::null(), 0, tag.as_ptr(), 32), FASTMAC_OK);
        assert_eq!(fastmac_ssh_mac_verify(mac, 4, ptr::null(), 0, tag.as_ptr(), 32), FASTMAC_ERR_INVALID_TAG);
        assert_eq!(fastmac_ssh_mac_verify(mac, 3, ptr::null(), 0, tag.as_ptr(), 31), FASTMAC_ERR_TAG_LENGTH);
        assert_eq!(fastmac_ssh_mac_compute(mac, 3, ptr::null(), 5, tag.as_mut_ptr(), 32), FASTMAC_ERR_NULL_POINTER);
        fastmac_ssh_mac_free(mac);
    }
}

// OpenSSH's names exist only with the `openssh` feature (make test-rust and
// test-miri turn it on).
#[cfg(feature = "openssh")]
#[test]
fn openssh_umac_h_signals_bad_arguments_with_null_and_zero() {
    let mut tag = [0u8; 8];
    // SAFETY: umac.h's contract: a 16-byte key, a live context, an 8-byte
    // nonce and tag; the NULLs and the negative length are refused.
    unsafe {
        assert!(umac_new(ptr::null()).is_null());
        let ctx = umac_new(KEY.as_ptr());
        assert!(!ctx.is_null());
        assert_eq!(umac_update(ctx, b"abc".as_ptr(), -1 as core::ffi::c_long), 0);
        assert_eq!(umac_update(ctx, ptr::null(), 3), 0);
        assert_eq!(umac128_update(ctx, b"abc".as_ptr(), 3), 0, "a UMAC-64 context is not a UMAC-128 one");
        assert_eq!(umac_update(ctx, b"abc".as_ptr(), 3), 1);
        assert_eq!(umac_final(ctx, tag.as_mut_ptr(), ptr::null()), 0);
        assert_eq!(umac_final(ctx, tag.as_mut_ptr(), NONCE.as_ptr()), 1);
        assert_eq!(tag, ABC_TAG);
        assert_eq!(umac_delete(ctx), 1);
        assert_eq!(umac_delete(ptr::null_mut()), 1);
    }
}
