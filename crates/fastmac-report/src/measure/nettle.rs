//! GNU Nettle's UMAC, loaded at run time from `libnettle.so.8` with
//! `libloading`, so that the benchmark runs (and says so) on a machine
//! without Nettle. Nettle's NH is hand-written SSE2 assembly: the fastest
//! UMAC there was.
#![allow(unsafe_code)] // the C boundary to libnettle

use std::os::raw::{c_int, c_void};
use std::sync::{Arc, OnceLock};

use libloading::Library;

/// The shared library's file name (Nettle 3.x, soname 8).
const SONAME: &str = "libnettle.so.8";

type SetKey = unsafe extern "C" fn(*mut c_void, *const u8);
type Feed = unsafe extern "C" fn(*mut c_void, usize, *const u8);
type Digest = unsafe extern "C" fn(*mut c_void, usize, *mut u8);
type Version = unsafe extern "C" fn() -> c_int;

/// The UMAC entry points of one tag length.
#[derive(Clone, Copy)]
struct Functions {
    set_key: SetKey,
    set_nonce: Feed,
    update: Feed,
    digest: Digest,
}

/// The loaded library: kept alive as long as any context uses it.
pub struct Nettle {
    _library: Library,
    /// Entry points for UMAC-32, -64, -96, -128.
    umac: [Functions; 4],
    /// "3.8" and the like.
    pub version: String,
}

impl Nettle {
    /// Loads Nettle once per process; the error says why it is absent.
    pub fn get() -> Result<Arc<Nettle>, String> {
        static LOADED: OnceLock<Result<Arc<Nettle>, String>> = OnceLock::new();
        LOADED.get_or_init(|| Nettle::load().map(Arc::new)).clone()
    }

    fn load() -> Result<Nettle, String> {
        // SAFETY: loading libnettle runs no initialisers with preconditions
        // (it has no constructors that depend on the caller).
        let library = unsafe { Library::new(SONAME) }.map_err(|e| format!("{SONAME} not loaded: {e}"))?;
        let symbol = |name: &str| -> Result<*const c_void, String> {
            // SAFETY: the symbol is read as an untyped address here and
            // cast below to the signature Nettle's umac.h declares for it.
            unsafe { library.get::<*const c_void>(name.as_bytes()) }
                .map(|s| *s)
                .map_err(|e| format!("{SONAME} lacks {name}: {e}"))
        };
        let mut umac = Vec::new();
        for bits in [32, 64, 96, 128] {
            let f = |op: &str| symbol(&format!("nettle_umac{bits}_{op}"));
            // SAFETY: these are umac.h's declarations: set_key(ctx, key),
            // set_nonce/update(ctx, length, data), digest(ctx, length, out).
            umac.push(unsafe {
                Functions {
                    set_key: std::mem::transmute::<*const c_void, SetKey>(f("set_key")?),
                    set_nonce: std::mem::transmute::<*const c_void, Feed>(f("set_nonce")?),
                    update: std::mem::transmute::<*const c_void, Feed>(f("update")?),
                    digest: std::mem::transmute::<*const c_void, Digest>(f("digest")?),
                }
            });
        }
        // SAFETY: `int nettle_version_major(void)` and `_minor` (version.h).
        let version = unsafe {
            match (symbol("nettle_version_major"), symbol("nettle_version_minor")) {
                (Ok(major), Ok(minor)) => format!(
                    "{}.{}",
                    std::mem::transmute::<*const c_void, Version>(major)(),
                    std::mem::transmute::<*const c_void, Version>(minor)()
                ),
                _ => "unknown".to_owned(),
            }
        };
        Ok(Nettle { umac: [umac[0], umac[1], umac[2], umac[3]], version, _library: library })
    }
}

/// Nettle's contexts are caller-allocated structs of 2392 to 2768 bytes on
/// x86_64 (Nettle 3.8); this aligned buffer holds any of them.
#[repr(C, align(64))]
struct Ctx([u8; 4096]);

/// A keyed Nettle UMAC context of one tag length.
pub struct NettleUmac {
    /// Keeps the library loaded while the function pointers are in use.
    _nettle: Arc<Nettle>,
    functions: Functions,
    ctx: Box<Ctx>,
    tag_len: usize,
}

impl NettleUmac {
    /// `tag_len` is 4, 8, 12 or 16.
    pub fn new(nettle: Arc<Nettle>, tag_len: usize, key: &[u8; 16]) -> Self {
        let functions = nettle.umac[tag_len / 4 - 1];
        let mut ctx = Box::new(Ctx([0; 4096]));
        // SAFETY: ctx is a zeroed, aligned buffer larger than every Nettle
        // UMAC context; key points to 16 readable bytes.
        unsafe { (functions.set_key)(ctx.0.as_mut_ptr().cast(), key.as_ptr()) };
        NettleUmac { _nettle: nettle, functions, ctx, tag_len }
    }

    /// Tags `msg` under `nonce` into `tag` (`tag_len` bytes).
    #[inline]
    pub fn mac(&mut self, nonce: &[u8], msg: &[u8], tag: &mut [u8; 16]) {
        let ctx = self.ctx.0.as_mut_ptr().cast();
        // SAFETY: ctx was keyed in new(); every pointer comes with its
        // slice's length, and `tag` has room for tag_len <= 16 bytes.
        unsafe {
            (self.functions.set_nonce)(ctx, nonce.len(), nonce.as_ptr());
            (self.functions.update)(ctx, msg.len(), msg.as_ptr());
            (self.functions.digest)(ctx, self.tag_len, tag.as_mut_ptr());
        }
    }
}
