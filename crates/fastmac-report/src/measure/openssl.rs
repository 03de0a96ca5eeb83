//! OpenSSL's Poly1305 and AES-128-GMAC through libcrypto's `EVP_MAC` API
//! (OpenSSL 3), and GMAC through its lowest exported interface
//! (`CRYPTO_gcm128_*`), loaded at run time from `libcrypto.so.3` with
//! `libloading`, so that the benchmark runs (and says so) on a machine
//! without OpenSSL. OpenSSL's Poly1305 and GHASH are hand-written vector
//! assembly: the implementations a user weighing a fast MAC would pick.
//!
//! How each is keyed per message is what a protocol does, and each row
//! with a layer less shows what that layer costs (the report prints
//! [`POLY1305_KEYING`], [`POLY1305_GIVEN_KEY_KEYING`], [`GMAC_KEYING`] and
//! [`GMAC_GCM128_KEYING`]):
//! * Poly1305 is a one-time authenticator: each message gets a fresh key,
//!   the first 32 bytes of ChaCha20 block 0 under the message's nonce, as
//!   ChaCha20-Poly1305 derives it (RFC 8439 section 2.6), with OpenSSL's
//!   ChaCha20; both the derivation and Poly1305's key setup are timed. The
//!   given-key row takes the one-time key as given (an AEAD has it from
//!   its keystream already): Poly1305's key setup and hashing through
//!   `EVP_MAC`, without the derivation.
//! * GMAC keeps one AES-128 key and takes a fresh 96-bit IV per message
//!   (NIST SP 800-38D section 8.2.1): through `EVP_MAC` the context is
//!   re-initialized with the new IV only; through `CRYPTO_gcm128_*` the
//!   same GHASH runs with no provider layer in between.
#![allow(unsafe_code)] // the C boundary to libcrypto

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::fmt;
use std::ptr::{self, NonNull};
use std::sync::{Arc, OnceLock};

use libloading::Library;
use zeroize::Zeroize as _;

/// The shared library's file name (OpenSSL 3.x).
pub const SONAME: &str = "libcrypto.so.3";

/// How the Poly1305 row is keyed per message.
pub const POLY1305_KEYING: &str = "a fresh one-time key per message: the first 32 bytes of OpenSSL's ChaCha20 block 0 under the message's counter nonce, as ChaCha20-Poly1305 derives it (RFC 8439 section 2.6); the derivation and the key setup are timed with the MAC";
/// How the Poly1305 row with the key given is keyed per message.
pub const POLY1305_GIVEN_KEY_KEYING: &str = "a one-time key per message given to EVP_MAC_init (the message counter in its first 8 bytes), not derived: Poly1305's key setup and hashing through OpenSSL's EVP_MAC, without the ChaCha20 derivation of the other OpenSSL row";
/// How the GMAC row is keyed per message.
pub const GMAC_KEYING: &str = "one AES-128 key; a fresh 96-bit IV per message (the message counter), set by re-initializing the context with the IV only; the message is GCM's additional data, the tag 128 bits";
/// How the GMAC row through `CRYPTO_gcm128_*` is keyed per message.
pub const GMAC_GCM128_KEYING: &str = "one AES-128 key; per message CRYPTO_gcm128_setiv with the counter as the 96-bit IV, CRYPTO_gcm128_aad with the message, CRYPTO_gcm128_tag: OpenSSL's lowest exported GMAC path, the same GHASH as the EVP_MAC row without its provider layers; its one AES block per message goes through the exported AES_encrypt (OpenSSL's table-based AES: the AES-NI block function is not exported)";

/// Why OpenSSL's MACs cannot be used here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenSslError {
    /// The library did not load (not installed, or another soname).
    Absent { soname: String, why: String },
    /// The library lacks an entry point (OpenSSL before 3.0 has no EVP_MAC).
    NoSymbol { soname: String, name: &'static str },
    /// The library has no implementation of an algorithm (`EVP_*_fetch`).
    NoAlgorithm(&'static str),
    /// A call returned failure.
    Failed(&'static str),
}

impl fmt::Display for OpenSslError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenSslError::Absent { soname, why } => write!(f, "{soname} not loaded: {why}"),
            OpenSslError::NoSymbol { soname, name } => write!(f, "{soname} lacks {name} (OpenSSL 3 is needed)"),
            OpenSslError::NoAlgorithm(name) => write!(f, "OpenSSL has no {name} implementation here"),
            OpenSslError::Failed(call) => write!(f, "OpenSSL's {call} failed"),
        }
    }
}

impl std::error::Error for OpenSslError {}

/// `OSSL_PARAM` (openssl/core.h): one typed parameter of a fetch or init.
#[repr(C)]
struct OsslParam {
    key: *const c_char,
    data_type: c_uint,
    data: *mut c_void,
    data_size: usize,
    return_size: usize,
}

/// `OSSL_PARAM_UTF8_STRING` and `OSSL_PARAM_OCTET_STRING` (openssl/core.h).
const UTF8_STRING: c_uint = 4;
const OCTET_STRING: c_uint = 5;
/// `OSSL_PARAM_UNMODIFIED`: the return size before a call sets it.
const UNMODIFIED: usize = usize::MAX;

impl OsslParam {
    /// An octet string parameter (`OSSL_PARAM_construct_octet_string`).
    fn octets(key: &'static CStr, data: &[u8]) -> OsslParam {
        OsslParam {
            key: key.as_ptr(),
            data_type: OCTET_STRING,
            data: data.as_ptr().cast_mut().cast(),
            data_size: data.len(),
            return_size: UNMODIFIED,
        }
    }

    /// A UTF-8 string parameter (`OSSL_PARAM_construct_utf8_string`): the
    /// size leaves the terminating NUL out, but OpenSSL reads some strings
    /// (a cipher's name) up to it, so it must be there.
    fn text(key: &'static CStr, text: &'static CStr) -> OsslParam {
        OsslParam {
            key: key.as_ptr(),
            data_type: UTF8_STRING,
            data: text.as_ptr().cast_mut().cast(),
            data_size: text.count_bytes(),
            return_size: UNMODIFIED,
        }
    }

    /// The terminator of a parameter array.
    fn end() -> OsslParam {
        OsslParam { key: ptr::null(), data_type: 0, data: ptr::null_mut(), data_size: 0, return_size: 0 }
    }
}

type MacFetch = unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char) -> *mut c_void;
type Free = unsafe extern "C" fn(*mut c_void);
type MacCtxNew = unsafe extern "C" fn(*mut c_void) -> *mut c_void;
type MacInit = unsafe extern "C" fn(*mut c_void, *const u8, usize, *const OsslParam) -> c_int;
type MacUpdate = unsafe extern "C" fn(*mut c_void, *const u8, usize) -> c_int;
type MacFinal = unsafe extern "C" fn(*mut c_void, *mut u8, *mut usize, usize) -> c_int;
type CipherCtxNew = unsafe extern "C" fn() -> *mut c_void;
type CipherInit = unsafe extern "C" fn(*mut c_void, *const c_void, *const u8, *const u8, *const OsslParam) -> c_int;
type CipherUpdate = unsafe extern "C" fn(*mut c_void, *mut u8, *mut c_int, *const u8, c_int) -> c_int;
type Version = unsafe extern "C" fn(c_int) -> *const c_char;
/// `block128_f` (openssl/modes.h): one block cipher call.
type Block128 = unsafe extern "C" fn(*const u8, *mut u8, *const c_void);
type AesSetEncryptKey = unsafe extern "C" fn(*const u8, c_int, *mut AesKey) -> c_int;
type Gcm128New = unsafe extern "C" fn(*mut c_void, Block128) -> *mut c_void;
type Gcm128SetIv = unsafe extern "C" fn(*mut c_void, *const u8, usize);
type Gcm128Aad = unsafe extern "C" fn(*mut c_void, *const u8, usize) -> c_int;
type Gcm128Tag = unsafe extern "C" fn(*mut c_void, *mut u8, usize);

/// The entry points used, typed as openssl/evp.h and crypto.h declare them.
struct Functions {
    mac_fetch: MacFetch,
    mac_free: Free,
    mac_ctx_new: MacCtxNew,
    mac_ctx_free: Free,
    mac_init: MacInit,
    mac_update: MacUpdate,
    mac_final: MacFinal,
    cipher_fetch: MacFetch,
    cipher_free: Free,
    cipher_ctx_new: CipherCtxNew,
    cipher_ctx_free: Free,
    encrypt_init: CipherInit,
    encrypt_update: CipherUpdate,
}

/// The loaded library: kept alive as long as any context uses it.
pub struct OpenSsl {
    functions: Functions,
    /// "OpenSSL 3.0.19 27 Jan 2026" and the like.
    pub version: String,
    library: Library,
    soname: String,
}

impl OpenSsl {
    /// Loads [`SONAME`] once per process; the error says why it is absent.
    pub fn get() -> Result<Arc<OpenSsl>, OpenSslError> {
        static LOADED: OnceLock<Result<Arc<OpenSsl>, OpenSslError>> = OnceLock::new();
        LOADED.get_or_init(|| OpenSsl::load(SONAME).map(Arc::new)).clone()
    }

    /// Loads libcrypto under `soname`.
    pub fn load(soname: &str) -> Result<OpenSsl, OpenSslError> {
        // SAFETY: loading libcrypto runs its initialisers, which take no
        // arguments and depend on nothing the caller provides.
        let library = unsafe { Library::new(soname) }
            .map_err(|e| OpenSslError::Absent { soname: soname.to_owned(), why: e.to_string() })?;
        let lib = &library;
        // SAFETY: each entry point is typed as openssl/evp.h (OpenSSL 3.0)
        // declares it: EVP_MAC_fetch(libctx, name, props), EVP_MAC_free(mac),
        // EVP_MAC_CTX_new(mac), EVP_MAC_CTX_free(ctx), EVP_MAC_init(ctx,
        // key, keylen, params), EVP_MAC_update(ctx, data, len),
        // EVP_MAC_final(ctx, out, outl, outsize), EVP_CIPHER_fetch like
        // EVP_MAC_fetch, EVP_CIPHER_free, EVP_CIPHER_CTX_new(void),
        // EVP_CIPHER_CTX_free, EVP_EncryptInit_ex2(ctx, cipher, key, iv,
        // params), EVP_EncryptUpdate(ctx, out, outl, in, inl); and crypto.h
        // declares OpenSSL_version(type), which for OPENSSL_VERSION (0)
        // returns a static NUL-terminated string.
        let (functions, version) = unsafe {
            let functions = Functions {
                mac_fetch: symbol(lib, soname, "EVP_MAC_fetch")?,
                mac_free: symbol(lib, soname, "EVP_MAC_free")?,
                mac_ctx_new: symbol(lib, soname, "EVP_MAC_CTX_new")?,
                mac_ctx_free: symbol(lib, soname, "EVP_MAC_CTX_free")?,
                mac_init: symbol(lib, soname, "EVP_MAC_init")?,
                mac_update: symbol(lib, soname, "EVP_MAC_update")?,
                mac_final: symbol(lib, soname, "EVP_MAC_final")?,
                cipher_fetch: symbol(lib, soname, "EVP_CIPHER_fetch")?,
                cipher_free: symbol(lib, soname, "EVP_CIPHER_free")?,
                cipher_ctx_new: symbol(lib, soname, "EVP_CIPHER_CTX_new")?,
                cipher_ctx_free: symbol(lib, soname, "EVP_CIPHER_CTX_free")?,
                encrypt_init: symbol(lib, soname, "EVP_EncryptInit_ex2")?,
                encrypt_update: symbol(lib, soname, "EVP_EncryptUpdate")?,
            };
            let text = symbol::<Version>(lib, soname, "OpenSSL_version")?(0);
            let version =
                if text.is_null() { "unknown".to_owned() } else { CStr::from_ptr(text).to_string_lossy().into_owned() };
            (functions, version)
        };
        Ok(OpenSsl { functions, version, library, soname: soname.to_owned() })
    }
}

/// The entry point `name` of `library`, as a function pointer of type `F`.
///
/// # Safety
/// `F` must be the signature the library declares for `name`.
unsafe fn symbol<F: Copy>(library: &Library, soname: &str, name: &'static str) -> Result<F, OpenSslError> {
    // SAFETY: the caller guarantees that F is the symbol's signature.
    unsafe { library.get::<F>(name.as_bytes()) }
        .map(|f| *f)
        .map_err(|_| OpenSslError::NoSymbol { soname: soname.to_owned(), name })
}

/// An owned libcrypto object, freed with its own free function on drop.
struct Owned {
    ptr: NonNull<c_void>,
    free: Free,
}

impl Owned {
    fn new(ptr: *mut c_void, free: Free, error: OpenSslError) -> Result<Owned, OpenSslError> {
        NonNull::new(ptr).map(|ptr| Owned { ptr, free }).ok_or(error)
    }
}

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: ptr came from the allocation function that `free` pairs
        // with, and is freed once, here.
        unsafe { (self.free)(self.ptr.as_ptr()) }
    }
}

// SAFETY: an EVP_MAC, EVP_MAC_CTX, EVP_CIPHER or EVP_CIPHER_CTX may be used
// from any thread as long as one thread at a time uses it; `Owned` is never
// shared (it is not Sync), only moved into the thread that times it.
unsafe impl Send for Owned {}

/// A fetched MAC algorithm and a context of it.
fn mac_ctx(lib: &OpenSsl, name: &'static CStr, what: &'static str) -> Result<Owned, OpenSslError> {
    let f = &lib.functions;
    // SAFETY: name is NUL-terminated; a null library context and property
    // query select the default provider.
    let mac = Owned::new(
        unsafe { (f.mac_fetch)(ptr::null_mut(), name.as_ptr(), ptr::null()) },
        f.mac_free,
        OpenSslError::NoAlgorithm(what),
    )?;
    // SAFETY: mac is a live EVP_MAC; the context holds its own reference,
    // so freeing `mac` when this returns is allowed.
    Owned::new(unsafe { (f.mac_ctx_new)(mac.ptr.as_ptr()) }, f.mac_ctx_free, OpenSslError::Failed("EVP_MAC_CTX_new"))
}

/// `EVP_MAC_update` and `EVP_MAC_final` of a 16-byte tag.
fn update_final(lib: &OpenSsl, ctx: &Owned, msg: &[u8], tag: &mut [u8; 16]) -> Result<(), OpenSslError> {
    let f = &lib.functions;
    let mut written = 0usize;
    // SAFETY: ctx is an initialized EVP_MAC_CTX; msg is readable for its
    // length; tag has room for the 16 bytes outsize allows.
    let ok = unsafe {
        (f.mac_update)(ctx.ptr.as_ptr(), msg.as_ptr(), msg.len()) == 1
            && (f.mac_final)(ctx.ptr.as_ptr(), tag.as_mut_ptr(), &mut written, tag.len()) == 1
    };
    if ok && written == tag.len() { Ok(()) } else { Err(OpenSslError::Failed("EVP_MAC_update/EVP_MAC_final")) }
}

/// OpenSSL's ChaCha20 under one key, giving block 0's first 32 bytes for a
/// 96-bit nonce: the Poly1305 key of ChaCha20-Poly1305 (RFC 8439 section
/// 2.6).
pub struct ChaChaKeys {
    // Fields drop in order: the context is freed before the library's
    // last reference can go.
    ctx: Owned,
    lib: Arc<OpenSsl>,
}

impl ChaChaKeys {
    /// Keys OpenSSL's ChaCha20 with `key`.
    pub fn new(lib: Arc<OpenSsl>, key: &[u8; 32]) -> Result<ChaChaKeys, OpenSslError> {
        let f = &lib.functions;
        // SAFETY: the name is NUL-terminated; null context and properties
        // select the default provider.
        let cipher = Owned::new(
            unsafe { (f.cipher_fetch)(ptr::null_mut(), c"ChaCha20".as_ptr(), ptr::null()) },
            f.cipher_free,
            OpenSslError::NoAlgorithm("ChaCha20"),
        )?;
        // SAFETY: EVP_CIPHER_CTX_new takes no arguments.
        let ctx =
            Owned::new(unsafe { (f.cipher_ctx_new)() }, f.cipher_ctx_free, OpenSslError::Failed("EVP_CIPHER_CTX_new"))?;
        // SAFETY: ctx and cipher are live (the context keeps its own
        // reference to the cipher); key is 32 readable bytes, ChaCha20's
        // key length; a null IV is set per message.
        let ok =
            unsafe { (f.encrypt_init)(ctx.ptr.as_ptr(), cipher.ptr.as_ptr(), key.as_ptr(), ptr::null(), ptr::null()) };
        if ok != 1 {
            return Err(OpenSslError::Failed("EVP_EncryptInit_ex2"));
        }
        Ok(ChaChaKeys { ctx, lib })
    }

    /// The first 32 bytes of ChaCha20 block 0 under `nonce`, into `out`.
    pub fn derive(&mut self, nonce: &[u8; 12], out: &mut [u8; 32]) -> Result<(), OpenSslError> {
        let f = &self.lib.functions;
        // OpenSSL's ChaCha20 IV: the 32-bit little-endian block counter (0),
        // then the 96-bit nonce.
        let mut iv = [0u8; 16];
        iv[4..].copy_from_slice(nonce);
        let zeros = [0u8; 32];
        let mut written: c_int = 0;
        // SAFETY: ctx was keyed in new(); a null cipher and key keep them
        // and set only the 16-byte IV; out has room for the 32 bytes
        // encrypted from `zeros`.
        let ok = unsafe {
            (f.encrypt_init)(self.ctx.ptr.as_ptr(), ptr::null(), ptr::null(), iv.as_ptr(), ptr::null()) == 1
                && (f.encrypt_update)(self.ctx.ptr.as_ptr(), out.as_mut_ptr(), &mut written, zeros.as_ptr(), 32) == 1
        };
        if ok && written == 32 { Ok(()) } else { Err(OpenSslError::Failed("ChaCha20 EVP_EncryptUpdate")) }
    }
}

/// OpenSSL's Poly1305 with a fresh key per message (see [`POLY1305_KEYING`]).
pub struct OpenSslPoly1305 {
    // Dropped before `keys`, which holds the library.
    ctx: Owned,
    keys: ChaChaKeys,
    one_time_key: [u8; 32],
}

impl OpenSslPoly1305 {
    /// Poly1305 keyed per message from ChaCha20 under `key`.
    pub fn new(lib: Arc<OpenSsl>, key: &[u8; 32]) -> Result<OpenSslPoly1305, OpenSslError> {
        let ctx = mac_ctx(&lib, c"POLY1305", "Poly1305")?;
        Ok(OpenSslPoly1305 { ctx, keys: ChaChaKeys::new(lib, key)?, one_time_key: [0; 32] })
    }

    /// Poly1305 of `msg` under the one-time key `key`.
    pub fn mac_with_key(&mut self, key: &[u8; 32], msg: &[u8], tag: &mut [u8; 16]) -> Result<(), OpenSslError> {
        let lib = &self.keys.lib;
        // SAFETY: ctx is a live Poly1305 context; key is its 32 bytes; no
        // parameters.
        if unsafe { (lib.functions.mac_init)(self.ctx.ptr.as_ptr(), key.as_ptr(), key.len(), ptr::null()) } != 1 {
            return Err(OpenSslError::Failed("EVP_MAC_init (Poly1305)"));
        }
        update_final(lib, &self.ctx, msg, tag)
    }

    /// Tags `msg` under the one-time key derived for `nonce`.
    pub fn mac(&mut self, nonce: &[u8; 12], msg: &[u8], tag: &mut [u8; 16]) -> Result<(), OpenSslError> {
        let mut key = std::mem::take(&mut self.one_time_key);
        let result = self.keys.derive(nonce, &mut key).and_then(|()| self.mac_with_key(&key, msg, tag));
        key.zeroize();
        self.one_time_key = key;
        result
    }
}

/// OpenSSL's AES-128-GMAC under one key, a fresh IV per message (see
/// [`GMAC_KEYING`]).
pub struct OpenSslGmac {
    // Dropped before the library's reference.
    ctx: Owned,
    lib: Arc<OpenSsl>,
}

impl OpenSslGmac {
    /// GMAC with AES-128 under `key`.
    pub fn new(lib: Arc<OpenSsl>, key: &[u8; 16]) -> Result<OpenSslGmac, OpenSslError> {
        let ctx = mac_ctx(&lib, c"GMAC", "GMAC")?;
        let params = [OsslParam::text(c"cipher", c"AES-128-GCM"), OsslParam::end()];
        // SAFETY: ctx is a live GMAC context; key is 16 bytes (AES-128);
        // params is terminated and its strings outlive the call. The IV
        // is given per message.
        if unsafe { (lib.functions.mac_init)(ctx.ptr.as_ptr(), key.as_ptr(), key.len(), params.as_ptr()) } != 1 {
            return Err(OpenSslError::Failed("EVP_MAC_init (GMAC, AES-128-GCM)"));
        }
        Ok(OpenSslGmac { ctx, lib })
    }

    /// Tags `msg` under the 96-bit IV `iv`.
    pub fn mac(&mut self, iv: &[u8; 12], msg: &[u8], tag: &mut [u8; 16]) -> Result<(), OpenSslError> {
        let params = [OsslParam::octets(c"iv", iv), OsslParam::end()];
        // SAFETY: ctx was keyed in new(); a null key keeps the key and
        // restarts GHASH under the new IV; params is terminated and `iv`
        // outlives the call.
        if unsafe { (self.lib.functions.mac_init)(self.ctx.ptr.as_ptr(), ptr::null(), 0, params.as_ptr()) } != 1 {
            return Err(OpenSslError::Failed("EVP_MAC_init (GMAC IV)"));
        }
        update_final(&self.lib, &self.ctx, msg, tag)
    }
}

/// `AES_KEY` (openssl/aes.h): the expanded key, `4 * (AES_MAXNR + 1)`
/// round-key words and the round count. Zeroized on drop: it is the key.
#[repr(C)]
pub struct AesKey {
    rd_key: [u32; 60],
    rounds: c_int,
}

impl Drop for AesKey {
    fn drop(&mut self) {
        self.rd_key.zeroize();
        self.rounds.zeroize();
    }
}

/// The entry points of OpenSSL's GCM below EVP, typed as openssl/aes.h
/// and openssl/modes.h declare them.
struct Gcm128Functions {
    set_iv: Gcm128SetIv,
    aad: Gcm128Aad,
    tag: Gcm128Tag,
}

/// OpenSSL's AES-128-GMAC through `CRYPTO_gcm128_*` (see
/// [`GMAC_GCM128_KEYING`]).
pub struct OpenSslGcm128 {
    // Fields drop in order: the context (which points at `key`) first,
    // then the key, then the library's reference.
    ctx: Owned,
    _key: Box<AesKey>,
    functions: Gcm128Functions,
    _lib: Arc<OpenSsl>,
}

impl OpenSslGcm128 {
    /// GMAC with AES-128 under `key`.
    pub fn new(lib: Arc<OpenSsl>, key: &[u8; 16]) -> Result<OpenSslGcm128, OpenSslError> {
        let (library, soname) = (&lib.library, lib.soname.as_str());
        // SAFETY: each entry point is typed as OpenSSL 3.0 declares it:
        // openssl/aes.h's AES_set_encrypt_key(userKey, bits, key) and
        // AES_encrypt(in, out, key) (a block128_f, its key a `const
        // AES_KEY *`); openssl/modes.h's CRYPTO_gcm128_new(key, block),
        // CRYPTO_gcm128_release(ctx), CRYPTO_gcm128_setiv(ctx, iv, len),
        // CRYPTO_gcm128_aad(ctx, aad, len) and CRYPTO_gcm128_tag(ctx, tag,
        // len).
        let (set_key, block, new, release, functions) = unsafe {
            (
                symbol::<AesSetEncryptKey>(library, soname, "AES_set_encrypt_key")?,
                symbol::<Block128>(library, soname, "AES_encrypt")?,
                symbol::<Gcm128New>(library, soname, "CRYPTO_gcm128_new")?,
                symbol::<Free>(library, soname, "CRYPTO_gcm128_release")?,
                Gcm128Functions {
                    set_iv: symbol(library, soname, "CRYPTO_gcm128_setiv")?,
                    aad: symbol(library, soname, "CRYPTO_gcm128_aad")?,
                    tag: symbol(library, soname, "CRYPTO_gcm128_tag")?,
                },
            )
        };
        let mut aes = Box::new(AesKey { rd_key: [0; 60], rounds: 0 });
        // SAFETY: key is 16 readable bytes (128 bits); aes is a writable
        // AES_KEY.
        if unsafe { set_key(key.as_ptr(), 128, &mut *aes) } != 0 {
            return Err(OpenSslError::Failed("AES_set_encrypt_key"));
        }
        // SAFETY: aes is an expanded AES_KEY that lives in its box, at a
        // fixed address, until after the context is released (field
        // order); AES_encrypt takes that key. The context computes GHASH's
        // key from it here and keeps the pointer for each message's block.
        let ctx = Owned::new(
            unsafe { new(ptr::from_mut(&mut *aes).cast(), block) },
            release,
            OpenSslError::Failed("CRYPTO_gcm128_new"),
        )?;
        Ok(OpenSslGcm128 { ctx, _key: aes, functions, _lib: lib })
    }

    /// Tags `msg` under the 96-bit IV `iv`.
    pub fn mac(&mut self, iv: &[u8; 12], msg: &[u8], tag: &mut [u8; 16]) -> Result<(), OpenSslError> {
        let (f, ctx) = (&self.functions, self.ctx.ptr.as_ptr());
        // SAFETY: ctx is a live GCM128_CONTEXT keyed in new(); iv, msg and
        // tag are valid for the lengths passed. setiv restarts the
        // context, so aad is called before any encryption, as it must be.
        let ok = unsafe {
            (f.set_iv)(ctx, iv.as_ptr(), iv.len());
            (f.aad)(ctx, msg.as_ptr(), msg.len()) == 0
        };
        if !ok {
            return Err(OpenSslError::Failed("CRYPTO_gcm128_aad"));
        }
        // SAFETY: as above; tag has room for the 16 bytes asked for.
        unsafe { (f.tag)(ctx, tag.as_mut_ptr(), tag.len()) };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aes_gcm::aead::{Aead as _, Payload};
    use aes_gcm::{Aes128Gcm, KeyInit as _};
    use rand::{Rng as _, SeedableRng as _};

    fn lib() -> Arc<OpenSsl> {
        // libcrypto.so.3 is installed by `make deps`: its absence fails here.
        OpenSsl::get().unwrap_or_else(|e| panic!("{e}"))
    }

    fn hex<const N: usize>(text: &str) -> [u8; N] {
        hex::decode(text).unwrap().try_into().unwrap()
    }

    /// Random message lengths around the 16-byte blocks and the lengths the
    /// vector code paths switch at.
    fn messages() -> impl Iterator<Item = (u64, Vec<u8>)> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(8439);
        [0usize, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1023, 1500, 4096, 65_537]
            .into_iter()
            .map(move |len| (rng.random(), (0..len).map(|_| rng.random()).collect()))
    }

    #[test]
    fn poly1305_matches_rfc_8439_section_2_5_2() {
        let key = hex::<32>("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
        let mut mac = OpenSslPoly1305::new(lib(), &[0; 32]).unwrap();
        let mut tag = [0u8; 16];
        mac.mac_with_key(&key, b"Cryptographic Forum Research Group", &mut tag).unwrap();
        assert_eq!(tag, hex::<16>("a8061dc1305136c6c22b8baf0c0127a9"));
    }

    #[test]
    fn one_time_keys_match_rfc_8439_section_2_6_2() {
        let key: [u8; 32] = std::array::from_fn(|i| 0x80 + i as u8);
        let mut keys = ChaChaKeys::new(lib(), &key).unwrap();
        let mut out = [0u8; 32];
        keys.derive(&hex::<12>("000000000001020304050607"), &mut out).unwrap();
        assert_eq!(out, hex::<32>("8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646"));
        // The key is derived afresh for every nonce, not streamed on.
        keys.derive(&hex::<12>("000000000001020304050607"), &mut out).unwrap();
        assert_eq!(out[..4], hex::<4>("8ad5a08b"));
    }

    #[test]
    fn poly1305_with_derived_keys_equals_rustcrypto() {
        let key: [u8; 32] = std::array::from_fn(|i| 3 * i as u8 + 1);
        let mut mac = OpenSslPoly1305::new(lib(), &key).unwrap();
        let mut keys = ChaChaKeys::new(lib(), &key).unwrap();
        for (n, msg) in messages() {
            let nonce: [u8; 12] = std::array::from_fn(|i| (n >> (i % 8 * 8)) as u8);
            let mut one_time = [0u8; 32];
            keys.derive(&nonce, &mut one_time).unwrap();
            let expected: [u8; 16] = poly1305::Poly1305::new(&one_time.into()).compute_unpadded(&msg).into();
            let mut tag = [0u8; 16];
            mac.mac(&nonce, &msg, &mut tag).unwrap();
            assert_eq!(tag, expected, "{} bytes", msg.len());
        }
    }

    /// One GMAC row's code, keyed by `new`, tagging through `mac`, against
    /// a NIST CAVP vector (gcmEncryptExtIV128: Keylen 128, IVlen 96, PTlen
    /// 0, AADlen 128, Taglen 128, Count 0) and against RustCrypto's AES-GCM
    /// with the message as additional data.
    fn check_gmac<M>(
        new: impl Fn(&[u8; 16]) -> M,
        mac: impl Fn(&mut M, &[u8; 12], &[u8], &mut [u8; 16]) -> Result<(), OpenSslError>,
    ) {
        let mut nist = new(&hex::<16>("77be63708971c4e240d1cb79e8d77feb"));
        let mut tag = [0u8; 16];
        mac(
            &mut nist,
            &hex::<12>("e0e00f19fed7ba0136a797f3"),
            &hex::<16>("7a43ec1d9c0a5a78a0b16533a6213cab"),
            &mut tag,
        )
        .unwrap();
        assert_eq!(tag, hex::<16>("209fcc8d3675ed938e9c7166709dd946"));

        let key: [u8; 16] = std::array::from_fn(|i| 5 * i as u8 + 2);
        let mut keyed = new(&key);
        let gcm = Aes128Gcm::new(&key.into());
        for (n, msg) in messages() {
            let iv: [u8; 12] = std::array::from_fn(|i| (n >> (i % 8 * 8)) as u8 ^ i as u8);
            let expected = gcm.encrypt(&iv.into(), Payload { msg: b"", aad: &msg }).unwrap();
            mac(&mut keyed, &iv, &msg, &mut tag).unwrap();
            assert_eq!(tag[..], expected[..], "{} bytes", msg.len());
        }
    }

    #[test]
    fn evp_mac_gmac_matches_nist_and_rustcrypto_aes_gcm() {
        check_gmac(|key| OpenSslGmac::new(lib(), key).unwrap(), OpenSslGmac::mac);
    }

    #[test]
    fn gcm128_gmac_matches_nist_and_rustcrypto_aes_gcm() {
        check_gmac(|key| OpenSslGcm128::new(lib(), key).unwrap(), OpenSslGcm128::mac);
    }

    #[test]
    fn the_version_is_printed_from_the_library() {
        assert!(lib().version.starts_with("OpenSSL 3"), "{}", lib().version);
    }

    #[test]
    fn a_wrong_soname_is_a_clear_error_not_a_panic() {
        let Err(error) = OpenSsl::load("libcrypto.so.0-not-here") else {
            panic!("loaded a library that does not exist")
        };
        assert!(matches!(error, OpenSslError::Absent { .. }), "{error:?}");
        assert!(error.to_string().starts_with("libcrypto.so.0-not-here not loaded: "), "{error}");
    }

    #[test]
    fn a_library_without_evp_mac_is_a_clear_error() {
        // libnettle loads but has none of libcrypto's entry points.
        let Err(error) = OpenSsl::load("libnettle.so.8") else { panic!("libnettle taken for libcrypto") };
        assert_eq!(error.to_string(), "libnettle.so.8 lacks EVP_MAC_fetch (OpenSSL 3 is needed)");
    }
}
