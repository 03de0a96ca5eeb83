//! Picks the NH backend: the fastest one the CPU has, detected at run time
//! without `std` (the `cpufeatures` crate, whose answer is cached in a
//! static, as RustCrypto's crates do), unless the application chose one:
//! per key with `Umac::with_backend`, or for the whole process with
//! [`Backend::set_default`] (how the `fastmac` tool applies its
//! `FASTMAC_BACKEND` variable).
//!
//! The library itself reads no environment variable. Only a build with
//! `--cfg fastmac_backend_env` (the test harness: the root Makefile runs the
//! suites once per backend that way) takes `FASTMAC_BACKEND` as the default.
//!
//! Under Miri only the portable backend exists: the interpreter runs no
//! SIMD intrinsics worth checking, and the portable code is the
//! specification the others are tested against.

use core::sync::atomic::{AtomicU8, Ordering};

use crate::error::{BackendError, Error, UnknownName};

/// An NH implementation, one per instruction set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// Plain Rust, any CPU: the specification.
    Portable,
    /// x86-64 SSE2 (128-bit), present on every x86-64 CPU.
    Sse2,
    /// x86-64 AVX2 (256-bit).
    Avx2,
    /// x86-64 AVX-512 F + BW + VL (512-bit, masked tails).
    Avx512,
    /// AArch64 NEON (128-bit).
    Neon,
}

// Run-time detection of the x86-64 extensions beyond the SSE2 baseline.
#[cfg(all(target_arch = "x86_64", not(miri)))]
cpufeatures::new!(has_avx2, "avx2");
#[cfg(all(target_arch = "x86_64", not(miri)))]
cpufeatures::new!(has_avx512, "avx512f", "avx512bw", "avx512vl");

/// The process-wide choice of [`Backend::set_default`]: 0 for none, else
/// the index in [`Backend::ALL`] plus one.
static DEFAULT: AtomicU8 = AtomicU8::new(0);

impl Backend {
    /// Every backend, slowest first.
    pub const ALL: [Backend; 5] = [Backend::Portable, Backend::Sse2, Backend::Avx2, Backend::Avx512, Backend::Neon];

    /// The backend's name: `portable`, `sse2`, `avx2`, `avx512` or `neon`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Sse2 => "sse2",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Neon => "neon",
        }
    }

    /// The backend of this name, whether or not this CPU has it.
    pub fn from_name(name: &str) -> Result<Backend, Error> {
        Backend::ALL
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or(Error::Backend(BackendError::Unknown(UnknownName::new(name))))
    }

    /// Whether this CPU (and this build's target) can run the backend.
    pub fn is_supported(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Backend::Sse2 => cfg!(target_feature = "sse2"),
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Backend::Avx2 => has_avx2::get(),
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Backend::Avx512 => has_avx512::get(),
            // NEON is part of every AArch64 target Rust builds for.
            #[cfg(all(target_arch = "aarch64", not(miri)))]
            Backend::Neon => cfg!(target_feature = "neon"),
            #[allow(unreachable_patterns)] // the other architecture's backends
            _ => false,
        }
    }

    /// `Ok` when this CPU can run the backend, else the typed error.
    pub(crate) fn check_supported(self) -> Result<Backend, Error> {
        if self.is_supported() { Ok(self) } else { Err(Error::Backend(BackendError::Unsupported(self))) }
    }

    /// The backends this CPU (and this build's target) runs, slowest first.
    pub fn supported() -> impl Iterator<Item = Backend> {
        Backend::ALL.into_iter().filter(|b| b.is_supported())
    }

    /// The fastest backend this CPU supports.
    pub fn best() -> Backend {
        [Backend::Avx512, Backend::Avx2, Backend::Sse2, Backend::Neon]
            .into_iter()
            .find(|b| b.is_supported())
            .unwrap_or(Backend::Portable)
    }

    /// Makes `backend` the one [`Backend::detect`] returns, for every MAC
    /// keyed afterwards in this process (`None`: the fastest again). For
    /// applications that let their user choose (benchmarks, diagnostics);
    /// a backend this CPU cannot run is refused.
    pub fn set_default(backend: Option<Backend>) -> Result<(), Error> {
        let code = match backend {
            None => 0,
            Some(backend) => backend.check_supported()?.code(),
        };
        DEFAULT.store(code, Ordering::Relaxed);
        Ok(())
    }

    /// The backend new MACs use: the one [`Backend::set_default`] chose, else
    /// [`Backend::best`].
    pub fn detect() -> Backend {
        match DEFAULT.load(Ordering::Relaxed) {
            0 => Backend::harness_choice().unwrap_or_else(Backend::best),
            code => Backend::ALL[usize::from(code) - 1],
        }
    }

    fn code(self) -> u8 {
        Backend::ALL.iter().position(|&b| b == self).expect("listed in ALL") as u8 + 1
    }

    /// Without `--cfg fastmac_backend_env`: none, the environment is not read.
    #[cfg(not(all(fastmac_backend_env, feature = "std")))]
    fn harness_choice() -> Option<Backend> {
        None
    }

    /// The test harness's `FASTMAC_BACKEND` (read on every key setup: test
    /// builds only). An unknown or unsupported value is ignored here; the
    /// suites check that the backend they were run for is the one used.
    #[cfg(all(fastmac_backend_env, feature = "std"))]
    fn harness_choice() -> Option<Backend> {
        let value = std::env::var("FASTMAC_BACKEND").ok()?;
        Backend::from_name(value.trim()).and_then(Backend::check_supported).ok()
    }
}

impl core::fmt::Display for Backend {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which backend's NH code hashes an input under a key laid out for
/// `backend`: that backend's, but for two measured cases
/// (`docs/performance.md` sections 3 and 7), decided once, at key setup.
///
/// * One or two blocks do not fill a wide register, and the 128-bit code
///   has the shortest path for them: inputs up to 64 bytes under AVX-512
///   and up to 32 under AVX2 go to SSE2, whose code inlines into the
///   short-message path.
/// * On a core that executes 512-bit operations as two 256-bit halves
///   ([`splits_512_bit_ops`]), AVX-512's T = 4 layout loses to AVX2's,
///   which runs instead.
///
/// Each choice names a backend the CPU runs whenever it runs `backend`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct KernelChoice {
    backend: Backend,
    /// Inputs up to this many bytes go to SSE2 (a `u8`, so that the
    /// compiler knows a whole chunk never does).
    small_input: u8,
    /// The backend for four iterations.
    four_iterations: Backend,
}

impl KernelChoice {
    pub(super) fn new(backend: Backend) -> Self {
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        let (small_input, four_iterations) = match backend {
            Backend::Avx512 if splits_512_bit_ops() => (64, Backend::Avx2),
            Backend::Avx512 => (64, Backend::Avx512),
            Backend::Avx2 => (32, Backend::Avx2),
            other => (0, other),
        };
        #[cfg(not(all(target_arch = "x86_64", not(miri))))]
        let (small_input, four_iterations) = (0, backend);
        KernelChoice { backend, small_input, four_iterations }
    }

    /// The backend the key was laid out for.
    pub(super) fn backend(self) -> Backend {
        self.backend
    }

    /// The backend whose code hashes `len` bytes for `T` iterations.
    #[inline(always)]
    pub(super) fn kernel<const T: usize>(self, len: usize) -> Backend {
        if len <= usize::from(self.small_input) {
            Backend::Sse2
        } else if T == 4 {
            self.four_iterations
        } else {
            self.backend
        }
    }
}

/// Whether this CPU executes a 512-bit vector operation as two 256-bit
/// halves, as AMD's Zen 4 does (family 19h; its Zen 3 siblings have no
/// AVX-512): the only x86-64 cores with AVX-512 but 256-bit datapaths.
/// Cores with full 512-bit datapaths (Zen 5, Intel) answer no. Asked once,
/// the answer kept in a static.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[allow(unsafe_code)] // CPUID
fn splits_512_bit_ops() -> bool {
    // 0: not asked yet; 1: no; 2: yes.
    static SPLITS: AtomicU8 = AtomicU8::new(0);
    match SPLITS.load(Ordering::Relaxed) {
        0 => {
            use core::arch::x86_64::__cpuid;
            #[allow(unused_unsafe)] // `__cpuid` is a safe function in newer Rust
            // SAFETY: CPUID and its leaves 0 and 1 exist on every x86-64 CPU.
            let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1)) };
            let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163); // "AuthenticAMD"
            // The base family field (bits 8-11) plus the extended one (bits 20-27).
            let family = ((signature.eax >> 8) & 0xf) + ((signature.eax >> 20) & 0xff);
            let splits = amd && family == 0x19;
            SPLITS.store(if splits { 2 } else { 1 }, Ordering::Relaxed);
            splits
        }
        answer => answer == 2,
    }
}
