//! GNU Nettle's UMAC (libnettle, from Debian's `nettle-dev`), the
//! independent implementation the differential tests compare against.
//!
//! Nettle's contexts are caller-allocated structs; their sizes (2392 to 2768
//! bytes on x86_64 with Nettle 3.8) fit in the 4 KiB aligned buffer below.
#![allow(unsafe_code)] // the C boundary to libnettle

use std::os::raw::c_void;

#[link(name = "nettle")]
unsafe extern "C" {
    fn nettle_umac32_set_key(ctx: *mut c_void, key: *const u8);
    fn nettle_umac64_set_key(ctx: *mut c_void, key: *const u8);
    fn nettle_umac96_set_key(ctx: *mut c_void, key: *const u8);
    fn nettle_umac128_set_key(ctx: *mut c_void, key: *const u8);
    fn nettle_umac32_set_nonce(ctx: *mut c_void, len: usize, nonce: *const u8);
    fn nettle_umac64_set_nonce(ctx: *mut c_void, len: usize, nonce: *const u8);
    fn nettle_umac96_set_nonce(ctx: *mut c_void, len: usize, nonce: *const u8);
    fn nettle_umac128_set_nonce(ctx: *mut c_void, len: usize, nonce: *const u8);
    fn nettle_umac32_update(ctx: *mut c_void, len: usize, data: *const u8);
    fn nettle_umac64_update(ctx: *mut c_void, len: usize, data: *const u8);
    fn nettle_umac96_update(ctx: *mut c_void, len: usize, data: *const u8);
    fn nettle_umac128_update(ctx: *mut c_void, len: usize, data: *const u8);
    fn nettle_umac32_digest(ctx: *mut c_void, len: usize, digest: *mut u8);
    fn nettle_umac64_digest(ctx: *mut c_void, len: usize, digest: *mut u8);
    fn nettle_umac96_digest(ctx: *mut c_void, len: usize, digest: *mut u8);
    fn nettle_umac128_digest(ctx: *mut c_void, len: usize, digest: *mut u8);
}

type SetKey = unsafe extern "C" fn(*mut c_void, *const u8);
type Feed = unsafe extern "C" fn(*mut c_void, usize, *const u8);
type Digest = unsafe extern "C" fn(*mut c_void, usize, *mut u8);

#[repr(C, align(16))]
struct Ctx([u8; 4096]);

/// A keyed Nettle UMAC context of one tag length.
pub struct NettleUmac {
    ctx: Box<Ctx>,
    tag_len: usize,
    set_nonce: Feed,
    update: Feed,
    digest: Digest,
}

impl NettleUmac {
    /// `tag_len` is 4, 8, 12 or 16.
    pub fn new(tag_len: usize, key: &[u8; 16]) -> Self {
        let (set_key, set_nonce, update, digest): (SetKey, Feed, Feed, Digest) = match tag_len {
            4 => (nettle_umac32_set_key, nettle_umac32_set_nonce, nettle_umac32_update, nettle_umac32_digest),
            8 => (nettle_umac64_set_key, nettle_umac64_set_nonce, nettle_umac64_update, nettle_umac64_digest),
            12 => (nettle_umac96_set_key, nettle_umac96_set_nonce, nettle_umac96_update, nettle_umac96_digest),
            16 => (nettle_umac128_set_key, nettle_umac128_set_nonce, nettle_umac128_update, nettle_umac128_digest),
            _ => panic!("no UMAC with {tag_len}-byte tags"),
        };
        let mut ctx = Box::new(Ctx([0; 4096]));
        // SAFETY: ctx is a zeroed, 16-byte aligned buffer larger than every
        // Nettle UMAC context; key points to 16 readable bytes.
        unsafe { set_key(ctx.0.as_mut_ptr().cast(), key.as_ptr()) };
        NettleUmac { ctx, tag_len, set_nonce, update, digest }
    }

    /// The tag of `msg` under `nonce` (1 to 16 bytes).
    pub fn mac(&mut self, nonce: &[u8], msg: &[u8]) -> Vec<u8> {
        let mut tag = vec![0u8; self.tag_len];
        let ctx = self.ctx.0.as_mut_ptr().cast();
        // SAFETY: ctx was keyed in new(); every pointer comes with its
        // slice's exact length.
        unsafe {
            (self.set_nonce)(ctx, nonce.len(), nonce.as_ptr());
            (self.update)(ctx, msg.len(), msg.as_ptr());
            (self.digest)(ctx, tag.len(), tag.as_mut_ptr());
        }
        tag
    }

    /// Streams more of a message (Nettle's `umacN_update`).
    pub fn update(&mut self, data: &[u8]) {
        // SAFETY: ctx was keyed in new(); data comes with its exact length.
        unsafe { (self.update)(self.ctx.0.as_mut_ptr().cast(), data.len(), data.as_ptr()) };
    }

    /// The tag of the streamed message under `nonce`; Nettle then starts
    /// the next message.
    pub fn digest(&mut self, nonce: &[u8]) -> Vec<u8> {
        let mut tag = vec![0u8; self.tag_len];
        let ctx = self.ctx.0.as_mut_ptr().cast();
        // SAFETY: as in mac().
        unsafe {
            (self.set_nonce)(ctx, nonce.len(), nonce.as_ptr());
            (self.digest)(ctx, tag.len(), tag.as_mut_ptr());
        }
        tag
    }
}
