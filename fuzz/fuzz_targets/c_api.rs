//! libfastmac's C API (crates/fastmac-c), called from Rust exactly as C
//! calls it, with fuzzer-chosen lengths, NULL pointers (with zero and
//! non-zero lengths), lengths above PTRDIFF_MAX, algorithm names, tag
//! lengths, streaming splits and corrupted tags. Each call's status must be
//! one the arguments justify (FASTMAC_OK only when none does, and never
//! FASTMAC_ERR_PANIC), agree with the Rust library (crates/fastmac)
//! computing the same thing, and a failed call must consume nothing.
#![no_main]
#![allow(unsafe_code)] // calling the C boundary is the point of this target

use core::ffi::{CStr, c_char, c_int, c_long};
use std::ffi::CString;

use fastmac::Algorithm;
use fastmac::algorithm::AlgorithmInfo;
use fastmac::ssh::{SshAlgorithm, SshMac};
use fastmac::umac::{Umac64, Umac128};
use fastmac_c::by_name::*;
use fastmac_c::fastmac_status::{self, *};
use fastmac_c::openssh::*;
use fastmac_c::ssh::*;
use fastmac_c::status::fastmac_strerror;
use fastmac_c::umac::*;
use libfuzzer_sys::fuzz_target;

/// The fuzzer's bytes, read front to back; zeros once exhausted.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        let Some((&b, rest)) = self.0.split_first() else { return 0 };
        self.0 = rest;
        b
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let take = n.min(self.0.len());
        let (head, rest) = self.0.split_at(take);
        self.0 = rest;
        let mut v = head.to_vec();
        v.resize(n, 0);
        v
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// A buffer argument of at most `max` bytes: usually real bytes, or a
    /// NULL pointer with a zero or non-zero length, or a valid pointer with
    /// a length above PTRDIFF_MAX (which must be refused before any read).
    fn arg(&mut self, max: usize) -> Arg {
        let mode = self.byte();
        let len = usize::from(self.byte()) % (max + 1);
        match mode % 16 {
            0 => Arg::Null(len),
            1 => Arg::Huge(if mode & 0x10 == 0 { isize::MAX as usize + 1 } else { usize::MAX }),
            _ => Arg::Bytes(self.bytes(len)),
        }
    }
}

/// One pointer-and-length argument.
#[derive(Debug, Clone)]
enum Arg {
    Null(usize),
    Huge(usize),
    Bytes(Vec<u8>),
}

/// A byte that is never read: the pointer passed with a huge length.
static NEVER_READ: [u8; 1] = [0];

impl Arg {
    fn ptr(&self) -> *const u8 {
        match self {
            Arg::Null(_) => core::ptr::null(),
            Arg::Huge(_) => NEVER_READ.as_ptr(),
            Arg::Bytes(v) => v.as_ptr(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Arg::Null(n) | Arg::Huge(n) => *n,
            Arg::Bytes(v) => v.len(),
        }
    }

    /// The bytes the library sees when the pointer checks pass.
    fn slice(&self) -> Option<&[u8]> {
        match self {
            Arg::Null(0) => Some(&[]),
            Arg::Bytes(v) => Some(v),
            _ => None,
        }
    }

    /// The pointer check's verdict (crates/fastmac-c/src/ffi.rs).
    fn ffi_error(&self) -> Option<fastmac_status> {
        match self {
            Arg::Null(n) if *n > 0 => Some(FASTMAC_ERR_NULL_POINTER),
            Arg::Huge(_) => Some(FASTMAC_ERR_LENGTH_OVERFLOW),
            _ => None,
        }
    }
}

/// An output buffer: like [`Arg`], writable.
struct Out(Arg);

impl Out {
    fn ptr(&mut self) -> *mut u8 {
        match &mut self.0 {
            Arg::Bytes(v) => v.as_mut_ptr(),
            // Never written: NULL, or refused for its length first.
            other => other.ptr().cast_mut(),
        }
    }
}

/// The errors that apply to one call. A call must return FASTMAC_OK if
/// none applies, else one of them.
#[derive(Default)]
struct Allowed(Vec<fastmac_status>);

impl Allowed {
    fn add(&mut self, status: Option<fastmac_status>) {
        self.0.extend(status);
    }

    fn add_if(&mut self, cond: bool, status: fastmac_status) {
        if cond {
            self.0.push(status);
        }
    }

    fn check(&self, got: fastmac_status, call: &str) {
        assert_ne!(got, FASTMAC_ERR_PANIC, "{call}: panic caught at the boundary");
        if self.0.is_empty() {
            assert_eq!(got, FASTMAC_OK, "{call}: no error applies");
        } else {
            assert!(self.0.contains(&got), "{call}: got {got:?}, allowed {:?}", self.0);
        }
    }
}

/// The length rules of an algorithm (its AlgorithmInfo and the docs):
/// written out, so the Rust library is checked too, not only the C layer.
fn nonce_error(info: &AlgorithmInfo, nonce: usize) -> bool {
    !(info.min_nonce_len..=info.max_nonce_len).contains(&nonce)
}

fn key_error(info: &AlgorithmInfo, key: usize) -> bool {
    // HMAC takes a key of any length (RFC 2104 section 3).
    !info.name.starts_with("hmac") && key != info.key_len
}

/// The library's result of tagging `msg` one-shot, and its status.
fn reference_tag(alg: Algorithm, key: &[u8], nonce: &[u8], msg: &[u8], tag_len: usize) -> (fastmac_status, Vec<u8>) {
    let mut tag = vec![0; tag_len];
    let result = alg.new_mac(key).and_then(|mut mac| {
        mac.update(msg);
        mac.finalize_reset_into(nonce, &mut tag)
    });
    (result.into(), tag)
}

fn reference_verify(alg: Algorithm, key: &[u8], nonce: &[u8], msg: &[u8], tag: &[u8]) -> fastmac_status {
    alg.new_mac(key)
        .and_then(|mut mac| {
            mac.update(msg);
            mac.verify_reset(nonce, tag)
        })
        .into()
}

/// A tag to verify: the right one, corrupted in one bit, cut or extended,
/// or all fuzzer bytes, or a bad pointer.
fn tag_to_verify(input: &mut Input, right: &[u8]) -> Arg {
    let how = input.byte();
    let mut tag = right.to_vec();
    match how % 8 {
        0 | 1 => {}
        2 | 3 if !tag.is_empty() => {
            let bit = usize::from(input.byte());
            let len = tag.len();
            tag[bit / 8 % len] ^= 1 << (bit % 8);
        }
        4 => tag.truncate(usize::from(input.byte()) % (tag.len() + 1)),
        5 => tag.push(input.byte()),
        6 => return input.arg(80),
        _ => tag = input.bytes(right.len()),
    }
    Arg::Bytes(tag)
}

/// A name as C passes it: NUL-terminated, or NULL. Usually a listed name
/// with letters' case flipped (`from_name` ignores ASCII case), else
/// fuzzer bytes up to the first NUL.
fn name(input: &mut Input, names: &[&str]) -> Option<CString> {
    let pick = input.byte();
    if pick == 0xff {
        return None;
    }
    if pick < 0xc0 {
        let flips = input.byte();
        let mut name = names[usize::from(pick) % names.len()].as_bytes().to_vec();
        for (i, c) in name.iter_mut().enumerate().take(8) {
            if flips >> i & 1 == 1 && c.is_ascii_alphabetic() {
                *c ^= 0x20;
            }
        }
        return Some(CString::new(name).unwrap());
    }
    let raw = input.bytes(usize::from(pick & 0x3f));
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
    Some(CString::new(&raw[..end]).unwrap())
}

fn name_ptr(name: &Option<CString>) -> *const c_char {
    name.as_ref().map_or(core::ptr::null(), |n| n.as_ptr())
}

/// The streaming calls every handle type has, so one fuzz loop drives the
/// by-name handles and the four fixed-width UMAC handles.
trait Handle {
    /// # Safety
    /// As the C function: `data` valid for `len` bytes unless refused.
    unsafe fn update(&mut self, data: *const u8, len: usize) -> fastmac_status;
    /// # Safety
    /// As the C function.
    unsafe fn finalize(&mut self, nonce: *const u8, nonce_len: usize, tag: *mut u8, tag_len: usize) -> fastmac_status;
    /// # Safety
    /// As the C function.
    unsafe fn verify(&mut self, nonce: *const u8, nonce_len: usize, tag: *const u8, tag_len: usize) -> fastmac_status;
    /// `*_reset`, where the API has one.
    fn reset(&mut self) -> Option<fastmac_status>;
    /// `*_tag_len`, where the API has one.
    fn tag_len(&mut self, null_out: bool) -> Option<(fastmac_status, usize)>;
}

struct ByName(*mut MacHandle);

impl Handle for ByName {
    unsafe fn update(&mut self, data: *const u8, len: usize) -> fastmac_status {
        // SAFETY: a live handle; the caller's buffer.
        unsafe { fastmac_mac_update(self.0, data, len) }
    }
    unsafe fn finalize(&mut self, nonce: *const u8, nonce_len: usize, tag: *mut u8, tag_len: usize) -> fastmac_status {
        // SAFETY: a live handle; the caller's buffers.
        unsafe { fastmac_mac_finalize(self.0, nonce, nonce_len, tag, tag_len) }
    }
    unsafe fn verify(&mut self, nonce: *const u8, nonce_len: usize, tag: *const u8, tag_len: usize) -> fastmac_status {
        // SAFETY: a live handle; the caller's buffers.
        unsafe { fastmac_mac_verify(self.0, nonce, nonce_len, tag, tag_len) }
    }
    fn reset(&mut self) -> Option<fastmac_status> {
        None
    }
    fn tag_len(&mut self, null_out: bool) -> Option<(fastmac_status, usize)> {
        let mut len = usize::MAX;
        let out = if null_out { core::ptr::null_mut() } else { &raw mut len };
        // SAFETY: a live handle; `out` NULL or writable.
        Some((unsafe { fastmac_mac_tag_len(self.0, out) }, len))
    }
}

impl Drop for ByName {
    fn drop(&mut self) {
        // SAFETY: a live handle, not used afterwards.
        unsafe { fastmac_mac_free(self.0) }
    }
}

/// The C functions of one fixed-width UMAC handle type.
struct FixedApi<H> {
    alg: Algorithm,
    new: unsafe extern "C" fn(*const u8, usize, *mut *mut H) -> fastmac_status,
    update: unsafe extern "C" fn(*mut H, *const u8, usize) -> fastmac_status,
    finalize: unsafe extern "C" fn(*mut H, *const u8, usize, *mut u8, usize) -> fastmac_status,
    verify: unsafe extern "C" fn(*mut H, *const u8, usize, *const u8, usize) -> fastmac_status,
    reset: unsafe extern "C" fn(*mut H) -> fastmac_status,
    free: unsafe extern "C" fn(*mut H),
}

struct Fixed<H: 'static> {
    api: &'static FixedApi<H>,
    mac: *mut H,
}

impl<H> Handle for Fixed<H> {
    unsafe fn update(&mut self, data: *const u8, len: usize) -> fastmac_status {
        // SAFETY: a live handle; the caller's buffer.
        unsafe { (self.api.update)(self.mac, data, len) }
    }
    unsafe fn finalize(&mut self, nonce: *const u8, nonce_len: usize, tag: *mut u8, tag_len: usize) -> fastmac_status {
        // SAFETY: a live handle; the caller's buffers.
        unsafe { (self.api.finalize)(self.mac, nonce, nonce_len, tag, tag_len) }
    }
    unsafe fn verify(&mut self, nonce: *const u8, nonce_len: usize, tag: *const u8, tag_len: usize) -> fastmac_status {
        // SAFETY: a live handle; the caller's buffers.
        unsafe { (self.api.verify)(self.mac, nonce, nonce_len, tag, tag_len) }
    }
    fn reset(&mut self) -> Option<fastmac_status> {
        // SAFETY: a live handle.
        Some(unsafe { (self.api.reset)(self.mac) })
    }
    fn tag_len(&mut self, _: bool) -> Option<(fastmac_status, usize)> {
        None
    }
}

impl<H> Drop for Fixed<H> {
    fn drop(&mut self) {
        // SAFETY: a live handle, not used afterwards.
        unsafe { (self.api.free)(self.mac) }
    }
}

macro_rules! fixed_api {
    ($name:ident, $h:ty, $alg:expr, $new:ident, $update:ident, $finalize:ident, $verify:ident, $reset:ident, $free:ident) => {
        static $name: FixedApi<$h> = FixedApi {
            alg: $alg,
            new: $new,
            update: $update,
            finalize: $finalize,
            verify: $verify,
            reset: $reset,
            free: $free,
        };
    };
}
fixed_api!(
    U32,
    Umac32Handle,
    Algorithm::Umac32,
    fastmac_umac32_new,
    fastmac_umac32_update,
    fastmac_umac32_finalize,
    fastmac_umac32_verify,
    fastmac_umac32_reset,
    fastmac_umac32_free
);
fixed_api!(
    U64,
    Umac64Handle,
    Algorithm::Umac64,
    fastmac_umac64_new,
    fastmac_umac64_update,
    fastmac_umac64_finalize,
    fastmac_umac64_verify,
    fastmac_umac64_reset,
    fastmac_umac64_free
);
fixed_api!(
    U96,
    Umac96Handle,
    Algorithm::Umac96,
    fastmac_umac96_new,
    fastmac_umac96_update,
    fastmac_umac96_finalize,
    fastmac_umac96_verify,
    fastmac_umac96_reset,
    fastmac_umac96_free
);
fixed_api!(
    U128,
    Umac128Handle,
    Algorithm::Umac128,
    fastmac_umac128_new,
    fastmac_umac128_update,
    fastmac_umac128_finalize,
    fastmac_umac128_verify,
    fastmac_umac128_reset,
    fastmac_umac128_free
);

/// A fixed-width handle: the constructor's checks, the NULL-handle calls,
/// then the streaming loop.
fn fixed<H>(input: &mut Input, api: &'static FixedApi<H>) {
    let info = api.alg.info();
    let key = input.arg(40);
    let null_out = input.byte() & 7 == 0;
    let mut mac: *mut H = core::ptr::dangling_mut(); // must be overwritten with NULL on error
    let out = if null_out { core::ptr::null_mut() } else { &raw mut mac };
    // SAFETY: `key` valid for its length unless refused; `out` NULL or writable.
    let status = unsafe { (api.new)(key.ptr(), key.len(), out) };
    let mut allowed = Allowed::default();
    allowed.add_if(null_out, FASTMAC_ERR_NULL_POINTER);
    allowed.add(key.ffi_error());
    allowed.add_if(key_error(&info, key.len()), FASTMAC_ERR_KEY_LENGTH);
    allowed.check(status, "fastmac_umacN_new");
    if status != FASTMAC_OK {
        assert!(null_out || mac.is_null(), "*out not NULL after a failed new");
        return;
    }
    let key = key.slice().unwrap().to_vec();
    // NULL handles: refused by every call.
    let (nonce, mut tag) = ([1u8; 8], [0u8; 16]);
    let null: *mut H = core::ptr::null_mut();
    // SAFETY: NULL handles are refused before any use; the buffers are valid.
    unsafe {
        assert_eq!((api.update)(null, nonce.as_ptr(), 8), FASTMAC_ERR_NULL_POINTER);
        assert_eq!((api.finalize)(null, nonce.as_ptr(), 8, tag.as_mut_ptr(), info.tag_len), FASTMAC_ERR_NULL_POINTER);
        assert_eq!((api.verify)(null, nonce.as_ptr(), 8, tag.as_ptr(), info.tag_len), FASTMAC_ERR_NULL_POINTER);
        assert_eq!((api.reset)(null), FASTMAC_ERR_NULL_POINTER);
        (api.free)(null);
    }
    stream(input, &mut Fixed { api, mac }, api.alg, &key);
}

/// The by-name API: name, key, then the streaming loop.
fn by_name(input: &mut Input) {
    let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.info().name).collect();
    let name = name(input, &names);
    let key = input.arg(80);
    let null_out = input.byte() & 7 == 0;
    let mut mac: *mut MacHandle = core::ptr::dangling_mut();
    let out = if null_out { core::ptr::null_mut() } else { &raw mut mac };
    // SAFETY: `name` NULL or NUL-terminated; `key` valid for its length
    // unless refused; `out` NULL or writable.
    let status = unsafe { fastmac_mac_new(name_ptr(&name), key.ptr(), key.len(), out) };

    let text = name.as_ref().map(|n| n.to_str());
    let listed = match text {
        Some(Ok(text)) => Algorithm::ALL.iter().copied().find(|a| a.info().name.eq_ignore_ascii_case(text)),
        _ => None,
    };
    let mut allowed = Allowed::default();
    allowed.add_if(null_out || name.is_none(), FASTMAC_ERR_NULL_POINTER);
    allowed.add(key.ffi_error());
    allowed.add_if(name.is_some() && listed.is_none(), FASTMAC_ERR_UNKNOWN_ALGORITHM);
    if let Some(alg) = listed {
        allowed.add_if(key_error(&alg.info(), key.len()), FASTMAC_ERR_KEY_LENGTH);
    }
    allowed.check(status, "fastmac_mac_new");
    if status != FASTMAC_OK {
        assert!(null_out || mac.is_null(), "*out not NULL after a failed new");
        return;
    }
    let alg = listed.unwrap();
    assert_eq!(Algorithm::from_name(text.unwrap().unwrap()), Ok(alg), "C and Rust disagree on the name");
    // SAFETY: NULL handles are refused before any use.
    unsafe {
        let mut len = 0usize;
        let (nonce, mut tag) = ([1u8; 8], [0u8; 64]);
        assert_eq!(fastmac_mac_tag_len(core::ptr::null(), &raw mut len), FASTMAC_ERR_NULL_POINTER);
        assert_eq!(fastmac_mac_update(core::ptr::null_mut(), nonce.as_ptr(), 8), FASTMAC_ERR_NULL_POINTER);
        let null = core::ptr::null_mut();
        assert_eq!(fastmac_mac_finalize(null, nonce.as_ptr(), 8, tag.as_mut_ptr(), 8), FASTMAC_ERR_NULL_POINTER);
        assert_eq!(fastmac_mac_verify(null, nonce.as_ptr(), 8, tag.as_ptr(), 8), FASTMAC_ERR_NULL_POINTER);
        fastmac_mac_free(null);
    }
    stream(input, &mut ByName(mac), alg, key.slice().unwrap());
}

/// Fuzzer-chosen updates (the streaming splits), finalizes, verifies,
/// resets and tag-length queries on a live handle, against the Rust
/// library tagging the same message one-shot. `msg` is what the handle
/// has consumed since its last reset.
fn stream(input: &mut Input, mac: &mut dyn Handle, alg: Algorithm, key: &[u8]) {
    let info = alg.info();
    let mut msg = Vec::new();
    while !input.is_empty() {
        match input.byte() % 6 {
            0 | 1 => {
                let data = input.arg(300);
                // SAFETY: `data` valid for its length unless refused.
                let status = unsafe { mac.update(data.ptr(), data.len()) };
                let mut allowed = Allowed::default();
                allowed.add(data.ffi_error());
                allowed.check(status, "update");
                if status == FASTMAC_OK {
                    msg.extend_from_slice(data.slice().unwrap());
                }
            }
            2 => {
                let nonce = input.arg(24);
                let mut tag = Out(input.arg(80));
                // SAFETY: the buffers valid for their lengths unless refused.
                let status = unsafe { mac.finalize(nonce.ptr(), nonce.len(), tag.ptr(), tag.0.len()) };
                let mut allowed = Allowed::default();
                allowed.add(nonce.ffi_error());
                allowed.add(tag.0.ffi_error());
                allowed.add_if(nonce_error(&info, nonce.len()), FASTMAC_ERR_NONCE_LENGTH);
                allowed.add_if(tag.0.len() != info.tag_len, FASTMAC_ERR_TAG_LENGTH);
                if let (Some(n), Some(t)) = (nonce.slice(), tag.0.slice()) {
                    let (want, want_tag) = reference_tag(alg, key, n, &msg, t.len());
                    if allowed.0.is_empty() {
                        // Only Badger's all-zero nonce is left (FASTMAC_ERR_OTHER).
                        allowed.add_if(want != FASTMAC_OK, want);
                    } else {
                        assert_ne!(want, FASTMAC_OK, "the Rust library accepts what the C API must refuse");
                    }
                    allowed.check(status, "finalize");
                    assert_eq!(status, want, "finalize: C and Rust disagree");
                    if status == FASTMAC_OK {
                        assert_eq!(t, &want_tag[..], "finalize: C tag != Rust one-shot tag");
                    }
                } else {
                    allowed.check(status, "finalize");
                }
                if status == FASTMAC_OK {
                    msg.clear();
                }
            }
            3 => {
                let nonce = input.arg(24);
                let right = match nonce.slice() {
                    Some(n) => reference_tag(alg, key, n, &msg, info.tag_len).1,
                    None => vec![0; info.tag_len],
                };
                let tag = tag_to_verify(input, &right);
                // SAFETY: the buffers valid for their lengths unless refused.
                let status = unsafe { mac.verify(nonce.ptr(), nonce.len(), tag.ptr(), tag.len()) };
                let mut allowed = Allowed::default();
                allowed.add(nonce.ffi_error());
                allowed.add(tag.ffi_error());
                allowed.add_if(nonce_error(&info, nonce.len()), FASTMAC_ERR_NONCE_LENGTH);
                allowed.add_if(tag.len() != info.tag_len, FASTMAC_ERR_TAG_LENGTH);
                if let (Some(n), Some(t)) = (nonce.slice(), tag.slice()) {
                    let want = reference_verify(alg, key, n, &msg, t);
                    if allowed.0.is_empty() {
                        // A wrong tag, or Badger's all-zero nonce.
                        allowed.add_if(want != FASTMAC_OK, want);
                        allowed.add_if(t != &right[..], FASTMAC_ERR_INVALID_TAG);
                    } else {
                        assert_ne!(want, FASTMAC_OK, "the Rust library accepts what the C API must refuse");
                    }
                    allowed.check(status, "verify");
                    assert_eq!(status, want, "verify: C and Rust disagree");
                    if t != &right[..] {
                        assert_ne!(status, FASTMAC_OK, "verify accepted a wrong tag");
                    }
                } else {
                    allowed.check(status, "verify");
                }
                // Verify resets after a verdict; a refused call consumes nothing.
                if status == FASTMAC_OK || status == FASTMAC_ERR_INVALID_TAG {
                    msg.clear();
                }
            }
            4 => {
                if let Some(status) = mac.reset() {
                    assert_eq!(status, FASTMAC_OK, "reset");
                    msg.clear();
                }
            }
            _ => {
                let null_out = input.byte() & 1 == 0;
                if let Some((status, len)) = mac.tag_len(null_out) {
                    if null_out {
                        assert_eq!(status, FASTMAC_ERR_NULL_POINTER, "tag_len(NULL)");
                    } else {
                        assert_eq!((status, len), (FASTMAC_OK, info.tag_len), "tag_len");
                    }
                }
            }
        }
    }
}

/// The one-shot calls: `tag_len` selects the UMAC.
fn one_shot(input: &mut Input) {
    let key = input.arg(40);
    let nonce = input.arg(24);
    let msg = input.arg(600);
    let mut tag = Out(input.arg(24));
    let alg = match tag.0.len() {
        4 => Some(Algorithm::Umac32),
        8 => Some(Algorithm::Umac64),
        12 => Some(Algorithm::Umac96),
        16 => Some(Algorithm::Umac128),
        _ => None,
    };
    let mut allowed = Allowed::default();
    for arg in [&key, &nonce, &msg, &tag.0] {
        allowed.add(arg.ffi_error());
    }
    allowed.add_if(alg.is_none(), FASTMAC_ERR_TAG_LENGTH);
    allowed.add_if(key.len() != 16, FASTMAC_ERR_KEY_LENGTH);
    allowed.add_if(!(1..=16).contains(&nonce.len()), FASTMAC_ERR_NONCE_LENGTH);

    // SAFETY: each buffer valid for its length unless refused.
    let status = unsafe {
        fastmac_umac_compute(
            key.ptr(),
            key.len(),
            nonce.ptr(),
            nonce.len(),
            msg.ptr(),
            msg.len(),
            tag.ptr(),
            tag.0.len(),
        )
    };
    allowed.check(status, "fastmac_umac_compute");
    let (Some(alg), Some(k), Some(n), Some(m)) = (alg, key.slice(), nonce.slice(), msg.slice()) else { return };
    let (want, right) = reference_tag(alg, k, n, m, tag.0.len());
    if tag.0.slice().is_some() {
        assert_eq!(status, want, "fastmac_umac_compute: C and Rust disagree");
    }
    if status == FASTMAC_OK {
        assert_eq!(tag.0.slice().unwrap(), &right[..], "fastmac_umac_compute: C tag != Rust tag");
    }
    if want != FASTMAC_OK {
        return;
    }
    // Verify the right tag, or a corrupted one; its length picks the UMAC.
    // (A cut tag may verify as the shorter UMAC: with RFC 4418's PDF, a
    // UMAC-32 tag is a prefix of the UMAC-64 tag for some nonces.)
    let check = tag_to_verify(input, &right);
    // SAFETY: each buffer valid for its length unless refused.
    let status = unsafe {
        fastmac_umac_verify(k.as_ptr(), k.len(), n.as_ptr(), n.len(), m.as_ptr(), m.len(), check.ptr(), check.len())
    };
    let width = match check.len() {
        4 => Some(Algorithm::Umac32),
        8 => Some(Algorithm::Umac64),
        12 => Some(Algorithm::Umac96),
        16 => Some(Algorithm::Umac128),
        _ => None,
    };
    let mut allowed = Allowed::default();
    allowed.add(check.ffi_error());
    allowed.add_if(width.is_none(), FASTMAC_ERR_TAG_LENGTH);
    if let (Some(width), Some(t)) = (width, check.slice()) {
        let want = reference_verify(width, k, n, m, t);
        allowed.add_if(want != FASTMAC_OK, want);
        assert_eq!(status, want, "fastmac_umac_verify: C and Rust disagree");
        if width == alg {
            assert_eq!(status == FASTMAC_OK, t == &right[..], "fastmac_umac_verify: verdict");
        }
    }
    allowed.check(status, "fastmac_umac_verify");
}

/// The SSH MACs by SSH name.
fn ssh(input: &mut Input) {
    let names: Vec<&str> = fastmac::ssh::ALGORITHMS.iter().map(|a| a.name).collect();
    let name = name(input, &names);
    let nulls = input.byte();
    let listed = name.as_ref().and_then(|n| n.to_str().ok()).and_then(|n| SshAlgorithm::from_name(n).ok());

    let (mut key_len, mut tag_len, mut is_etm) = (0usize, 0usize, -1 as c_int);
    let null_if = |bit: u8, p: *mut u8| if nulls >> bit & 1 == 1 { core::ptr::null_mut() } else { p };
    // SAFETY: `name` NULL or NUL-terminated; the outs NULL or writable.
    let status = unsafe {
        fastmac_ssh_mac_lookup(
            name_ptr(&name),
            null_if(0, (&raw mut key_len).cast()).cast(),
            null_if(1, (&raw mut tag_len).cast()).cast(),
            null_if(2, (&raw mut is_etm).cast()).cast(),
        )
    };
    let mut allowed = Allowed::default();
    allowed.add_if(name.is_none() || nulls & 7 != 0, FASTMAC_ERR_NULL_POINTER);
    allowed.add_if(name.is_some() && listed.is_none(), FASTMAC_ERR_UNKNOWN_ALGORITHM);
    allowed.check(status, "fastmac_ssh_mac_lookup");
    if let (FASTMAC_OK, Some(alg)) = (status, listed) {
        assert_eq!((key_len, tag_len, is_etm), (alg.key_len, alg.tag_len, c_int::from(alg.etm)));
    }

    let key = match (listed, input.byte() % 4) {
        (Some(alg), 0 | 1) => Arg::Bytes(input.bytes(alg.key_len)),
        _ => input.arg(80),
    };
    let null_out = nulls >> 3 & 7 == 0;
    let mut mac: *mut SshMacHandle = core::ptr::dangling_mut();
    let out = if null_out { core::ptr::null_mut() } else { &raw mut mac };
    // SAFETY: as above; `key` valid for its length unless refused.
    let status = unsafe { fastmac_ssh_mac_new(name_ptr(&name), key.ptr(), key.len(), out) };
    let mut allowed = Allowed::default();
    allowed.add_if(name.is_none() || null_out, FASTMAC_ERR_NULL_POINTER);
    allowed.add(key.ffi_error());
    allowed.add_if(name.is_some() && listed.is_none(), FASTMAC_ERR_UNKNOWN_ALGORITHM);
    allowed.add_if(listed.is_some_and(|a| a.key_len != key.len()), FASTMAC_ERR_KEY_LENGTH);
    allowed.check(status, "fastmac_ssh_mac_new");
    if status != FASTMAC_OK {
        assert!(null_out || mac.is_null(), "*out not NULL after a failed new");
        return;
    }
    let alg = listed.unwrap();
    let mut reference = SshMac::new(alg.name, key.slice().unwrap()).unwrap();
    while !input.is_empty() {
        let seq = u32::from_le_bytes([input.byte(), input.byte(), input.byte(), input.byte()]);
        let packet = input.arg(300);
        let right = packet.slice().map_or_else(|| vec![0; alg.tag_len], |p| reference.compute(seq, p).to_vec());
        let (status, call) = if input.byte() & 1 == 0 {
            let mut tag = Out(input.arg(80));
            // SAFETY: a live handle; the buffers valid for their lengths unless refused.
            let status =
                unsafe { fastmac_ssh_mac_compute(mac, seq, packet.ptr(), packet.len(), tag.ptr(), tag.0.len()) };
            let mut allowed = Allowed::default();
            allowed.add(packet.ffi_error());
            allowed.add(tag.0.ffi_error());
            allowed.add_if(tag.0.len() != alg.tag_len, FASTMAC_ERR_TAG_LENGTH);
            allowed.check(status, "fastmac_ssh_mac_compute");
            if status == FASTMAC_OK {
                assert_eq!(tag.0.slice().unwrap(), &right[..], "SSH tag: C != Rust");
            }
            (status, "compute")
        } else {
            let tag = tag_to_verify(input, &right);
            // SAFETY: a live handle; the buffers valid for their lengths unless refused.
            let status = unsafe { fastmac_ssh_mac_verify(mac, seq, packet.ptr(), packet.len(), tag.ptr(), tag.len()) };
            let mut allowed = Allowed::default();
            allowed.add(packet.ffi_error());
            allowed.add(tag.ffi_error());
            allowed.add_if(tag.len() != alg.tag_len, FASTMAC_ERR_TAG_LENGTH);
            allowed.add_if(tag.slice().is_some_and(|t| t != &right[..]), FASTMAC_ERR_INVALID_TAG);
            allowed.check(status, "fastmac_ssh_mac_verify");
            (status, "verify")
        };
        assert_ne!(status, FASTMAC_ERR_PANIC, "{call}");
    }
    let mut len = 0;
    // SAFETY: a live handle; then NULL handles, refused; then freed once.
    unsafe {
        assert_eq!(fastmac_ssh_mac_tag_len(mac, &raw mut len), FASTMAC_OK);
        assert_eq!(len, alg.tag_len);
        assert_eq!(fastmac_ssh_mac_tag_len(mac, core::ptr::null_mut()), FASTMAC_ERR_NULL_POINTER);
        assert_eq!(fastmac_ssh_mac_tag_len(core::ptr::null(), &raw mut len), FASTMAC_ERR_NULL_POINTER);
        let mut tag = [0u8; 64];
        let null = core::ptr::null_mut();
        assert_eq!(
            fastmac_ssh_mac_compute(null, 0, tag.as_ptr(), 0, tag.as_mut_ptr(), alg.tag_len),
            FASTMAC_ERR_NULL_POINTER
        );
        assert_eq!(
            fastmac_ssh_mac_verify(null, 0, tag.as_ptr(), 0, tag.as_ptr(), alg.tag_len),
            FASTMAC_ERR_NULL_POINTER
        );
        fastmac_ssh_mac_free(null);
        fastmac_ssh_mac_free(mac);
    }
}

/// OpenSSH's umac.h: 1 on success, 0 (or NULL) where OpenSSH's code would
/// misbehave, the other width's calls refused, a failed call consuming
/// nothing; tags equal the Rust library's under the 8-byte nonce.
fn openssh(input: &mut Input) {
    let wide = input.byte() & 1 == 1;
    let null_key = input.byte() & 7 == 0;
    let key: [u8; 16] = input.bytes(16).try_into().unwrap();
    let key_ptr = if null_key { core::ptr::null() } else { key.as_ptr() };
    // SAFETY: `key` NULL or 16 readable bytes.
    let ctx = unsafe { if wide { umac128_new(key_ptr) } else { umac_new(key_ptr) } };
    assert_eq!(ctx.is_null(), null_key, "umac_new");
    if null_key {
        return;
    }
    let mut msg = Vec::new();
    while !input.is_empty() {
        let op = input.byte();
        let same_width = op & 0x80 == 0;
        let call_wide = wide == same_width;
        if op & 1 == 0 {
            let data = input.arg(300);
            // OpenSSH's `long len`: negative values too (refused). A length
            // above the buffer would be the caller's bug, so not tried.
            let len: c_long = if op & 2 == 0 { data.len() as c_long } else { -c_long::from(input.byte()) - 1 };
            // SAFETY: a live context; `data` valid for `len` bytes when len >= 0 (NULL refused).
            let got = unsafe {
                if call_wide { umac128_update(ctx, data.ptr(), len) } else { umac_update(ctx, data.ptr(), len) }
            };
            let ok = same_width && len >= 0 && !matches!(data, Arg::Null(n) if n > 0) && !matches!(data, Arg::Huge(_));
            assert_eq!(got, c_int::from(ok), "umac_update (same width {same_width}, len {len}, {data:?})");
            if ok {
                msg.extend_from_slice(data.slice().unwrap());
            }
        } else {
            let nonce: [u8; 8] = input.bytes(8).try_into().unwrap();
            let nulls = input.byte();
            let mut tag = [0u8; 16];
            let tag_ptr = if nulls & 3 == 0 { core::ptr::null_mut() } else { tag.as_mut_ptr() };
            let nonce_ptr = if nulls & 12 == 0 { core::ptr::null() } else { nonce.as_ptr() };
            // SAFETY: a live context; `tag` NULL or 16 writable bytes; `nonce` NULL or 8 readable bytes.
            let got = unsafe {
                if call_wide { umac128_final(ctx, tag_ptr, nonce_ptr) } else { umac_final(ctx, tag_ptr, nonce_ptr) }
            };
            let ok = same_width && !tag_ptr.is_null() && !nonce_ptr.is_null();
            assert_eq!(got, c_int::from(ok), "umac_final (same width {same_width})");
            if ok {
                let want: Vec<u8> = if wide {
                    Umac128::new(&key).mac(&nonce, &msg).unwrap().to_vec()
                } else {
                    Umac64::new(&key).mac(&nonce, &msg).unwrap().to_vec()
                };
                assert_eq!(&tag[..want.len()], &want[..], "umac_final: C != Rust");
                msg.clear();
            }
        }
    }
    // SAFETY: NULL contexts are refused; then the live one is freed once.
    unsafe {
        assert_eq!(umac_update(core::ptr::null_mut(), key.as_ptr(), 16), 0);
        assert_eq!(umac128_final(core::ptr::null_mut(), [0u8; 16].as_mut_ptr(), key.as_ptr()), 0);
        assert_eq!(umac_delete(core::ptr::null_mut()), 1);
        assert_eq!(if wide { umac128_delete(ctx) } else { umac_delete(ctx) }, 1);
    }
}

/// Every int has a static message; exactly FASTMAC_OK to the last status
/// (FASTMAC_ERR_NONCE_EXHAUSTED) are known codes.
fn strerror(input: &mut Input) {
    let code = i32::from_le_bytes([input.byte(), input.byte(), input.byte(), input.byte()]) >> (input.byte() % 32);
    let text = fastmac_strerror(code);
    assert!(!text.is_null());
    // SAFETY: fastmac_strerror returns a static NUL-terminated string.
    let text = unsafe { CStr::from_ptr(text) };
    let known = FASTMAC_OK as i32..=FASTMAC_ERR_NONCE_EXHAUSTED as i32;
    assert_eq!(text == c"unknown status code", !known.contains(&code), "strerror({code})");
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    match input.byte() % 9 {
        0 => fixed(&mut input, &U32),
        1 => fixed(&mut input, &U64),
        2 => fixed(&mut input, &U96),
        3 => fixed(&mut input, &U128),
        4 => by_name(&mut input),
        5 => one_shot(&mut input),
        6 => ssh(&mut input),
        7 => openssh(&mut input),
        _ => strerror(&mut input),
    }
});
