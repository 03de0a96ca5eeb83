//! Every choice of NH backend, in one place: the fastest one this CPU runs
//! (`backend.rs` says which it runs), unless the application chose one: per
//! key with `Umac::with_backend`, or for the whole process with
//! [`Backend::set_default`] (how the `fastmac` tool applies its
//! `FASTMAC_BACKEND` variable); and, for a key, which backend's code hashes
//! an input of a given length and iteration count, and how a run of whole
//! chunks is hashed ([`KernelChoice`], with the run lengths from which a
//! backend takes a run in one call). `mod.rs` calls the code chosen: once
//! per input (`NhKey::sums`), once per run (`ChunkRun`).
//!
//! The library itself reads no environment variable. Only a build with
//! `--cfg fastmac_backend_env` (the test harness: the root Makefile runs the
//! suites once per backend that way) takes `FASTMAC_BACKEND` as the default.

use core::sync::atomic::{AtomicU8, Ordering};

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use super::block::CHUNK_BYTES;
use crate::badger::backend::{self as badger_backend, TreeKernels};
use crate::error::{BackendError, Error, UnknownName};
use crate::umac::backend::Backend;

/// The process-wide choice of [`Backend::set_default`]: 0 for none, else
/// the index in [`Backend::ALL`] plus one.
static DEFAULT: AtomicU8 = AtomicU8::new(0);

impl Backend {
    /// The backend of this name, whether or not this CPU has it.
    pub fn from_name(name: &str) -> Result<Backend, Error> {
        Backend::ALL
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or(Error::Backend(BackendError::Unknown(UnknownName::new(name))))
    }

    /// `Ok` when this CPU can run the backend, else the typed error.
    pub(crate) fn check_supported(self) -> Result<Backend, Error> {
        if self.is_supported() { Ok(self) } else { Err(Error::Backend(BackendError::Unsupported(self))) }
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

/// How an NH key's quads are stored (`key.rs`), which [`KernelChoice`]
/// decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Quad `q` at `q`: the words in order, as RFC 4418 writes them, read
    /// by the portable, SSE2, NEON and iteration-parallel kernels.
    Natural,
    /// The even quads `2i` at `i` and the odd quads `2i + 1` at
    /// `TABLE_QUADS + i`: the X/Y kernels load the keys of two or four
    /// blocks' low (or high) halves with one contiguous read.
    Split,
}

/// Which backend's NH code hashes an input under a key laid out for
/// `backend`, and so which [`Layout`] the key is stored in: that backend's
/// code, but for two measured cases (`docs/performance.md`, "NH: layouts
/// and what bounds them"), decided once, at key setup.
///
/// * One or two blocks do not fill a wide register, and the 128-bit code
///   has the shortest path for them: inputs up to 64 bytes under AVX-512
///   and up to 32 under AVX2 go to SSE2, whose code inlines into the
///   short-message path and reads either layout.
/// * On a core that executes 512-bit operations as two 256-bit halves
///   ([`splits_512_bit_ops`]), AVX-512's T = 4 layout loses to AVX2's,
///   which runs instead.
///
/// Each choice names a backend the CPU runs whenever it runs `backend`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct KernelChoice {
    backend: Backend,
    /// Inputs up to this many bytes go to SSE2 (a `u8`, so that the
    /// compiler knows a whole chunk never does): at least a block under
    /// AVX2 and AVX-512, since the AVX2 kernels read a partial last block
    /// from the 32 bytes that end the input.
    small_input: u8,
    /// The backend for four iterations.
    four_iterations: Backend,
    /// The layout the key is stored in: the one its whole-chunk kernel for
    /// the key's iteration count reads.
    layout: Layout,
}

impl KernelChoice {
    /// The choice for a key laid out for `backend` and `iters` iterations.
    pub(super) fn new(backend: Backend, iters: usize) -> Self {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
        let (small_input, four_iterations) = match backend {
            Backend::Avx512 if splits_512_bit_ops() => (64, Backend::Avx2),
            Backend::Avx512 => (64, Backend::Avx512),
            Backend::Avx2 => (32, Backend::Avx2),
            other => (0, other),
        };
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2", not(miri))))]
        let (small_input, four_iterations) = (0, backend);
        KernelChoice { backend, small_input, four_iterations, layout: layout_for(backend, four_iterations, iters) }
    }

    /// The backend the key was laid out for.
    pub(super) fn backend(self) -> Backend {
        self.backend
    }

    /// The layout the key is stored in.
    pub(super) fn layout(self) -> Layout {
        self.layout
    }

    /// Whether every kernel `iters` iterations run reads [`Self::layout`].
    pub(super) fn serves(self, iters: usize) -> bool {
        layout_for(self.backend, self.four_iterations, iters) == self.layout
    }

    /// The backend whose code hashes `len` bytes for `T` iterations.
    #[inline(always)]
    pub(super) fn kernel<const T: usize>(self, len: usize) -> Backend {
        // 1 to `small_input` bytes (none when it is 0, as off x86-64).
        if len.wrapping_sub(1) < usize::from(self.small_input) {
            Backend::Sse2
        } else if T == 4 {
            self.four_iterations
        } else {
            self.backend
        }
    }

    /// How a run of `chunks` whole chunks is hashed for `T` iterations:
    /// under AVX2, runs of [`AVX2_RUN_MIN`] chunks or more in one call, the
    /// chunk loop inside the backend; under AVX-512, runs of
    /// [`BATCHED_RUN_MIN`] or more in batches of [`batch_chunks`],
    /// pipelined; else one call per chunk.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    pub(super) fn run<const T: usize>(self, chunks: usize) -> RunKernel {
        match self.kernel::<T>(CHUNK_BYTES) {
            Backend::Avx2 if chunks >= AVX2_RUN_MIN => RunKernel::Avx2Loop,
            Backend::Avx512 if chunks >= BATCHED_RUN_MIN => RunKernel::Avx512Batches,
            _ => RunKernel::EachChunk,
        }
    }

    /// Off x86-64 every backend is called once per chunk.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    #[inline(always)]
    pub(super) fn run<const T: usize>(self, _chunks: usize) -> RunKernel {
        RunKernel::EachChunk
    }
}

/// How a run of whole chunks is hashed ([`KernelChoice::run`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RunKernel {
    /// In one call to AVX2, its chunk loop inside (`avx2::chunk_run`).
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    Avx2Loop,
    /// In AVX-512 batches of [`batch_chunks`] chunks, pipelined
    /// (`avx512::chunk_batches`).
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    Avx512Batches,
    /// One call per chunk.
    EachChunk,
}

/// Whole chunks per AVX-512 NH call for `t` (1 to 4) iterations in a long
/// run: as many as fill one 512-bit register with their sums, eight 64-bit
/// words: 8, 4, 2 and 2.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(super) const fn batch_chunks(t: usize) -> usize {
    8 / t
}

/// Chunks a run needs before AVX-512 batches pay: the last batch's outputs
/// are handed on after its NH is done, with no NH left to overlap them.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
const BATCHED_RUN_MIN: usize = 32;

/// Chunks a run needs before AVX2 takes it in one call, its chunk loop
/// inside the backend.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
const AVX2_RUN_MIN: usize = 2;

/// The layout of the kernel that hashes whole chunks for `iters`
/// iterations under a key for `backend` (`four_iterations`: the backend
/// that runs four): the X/Y kernels read the split tables (AVX2 for an odd
/// count, AVX-512 below four), every other one the natural words. The SSE2
/// kernel, which also takes the short inputs, reads both.
fn layout_for(backend: Backend, four_iterations: Backend, iters: usize) -> Layout {
    let chunk_kernel = if iters == 4 { four_iterations } else { backend };
    match chunk_kernel {
        Backend::Avx2 if iters % 2 == 1 => Layout::Split,
        Backend::Avx512 if iters < 4 => Layout::Split,
        _ => Layout::Natural,
    }
}

/// Whether this CPU executes a 512-bit vector operation as two 256-bit
/// halves, as AMD's Zen 4 does (family 19h; its Zen 3 siblings have no
/// AVX-512): the only x86-64 cores with AVX-512 but 256-bit datapaths.
/// Cores with full 512-bit datapaths (Zen 5, Intel) answer no. Asked once,
/// the answer kept in a static.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
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

/// Badger's tree kernels (`badger/backend.rs`), chosen here as NH's
/// backend is: a Badger key takes those of [`Backend::detect`] when it is
/// made, so that [`Backend::set_default`] and the harness's
/// `FASTMAC_BACKEND` choose Badger's code too.
impl Backend {
    /// The tree kernels of a Badger key made while this backend is the
    /// default: AVX-512's and AVX2's own where this CPU runs them, the
    /// portable code (built for the target's baseline) for every other.
    pub(crate) fn badger_tree_kernels(self) -> &'static TreeKernels {
        match self {
            // The AVX-512 kernels hash short levels with AVX2's.
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
            Backend::Avx512 if self.is_supported() && Backend::Avx2.is_supported() => &badger_backend::AVX512,
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
            Backend::Avx2 if self.is_supported() => &badger_backend::AVX2,
            _ => &badger_backend::PORTABLE,
        }
    }

    /// The backend whose tree code hashes the messages of a Badger key
    /// made while this backend is the default: AVX-512 and AVX2 where this
    /// CPU runs them, [`Backend::Portable`] for the others (Badger has no
    /// SSE2 or NEON code of its own).
    pub fn badger_trees(self) -> Backend {
        self.badger_tree_kernels().backend()
    }
}
