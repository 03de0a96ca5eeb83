//! The NH backends, one per instruction set, and which of them this CPU
//! (and this build's target) runs: detected at run time without `std` (the
//! `cpufeatures` crate, whose answer is cached in a static, as RustCrypto's
//! crates do). Which one a key uses is `nh/platform.rs`'s choice.
//!
//! Under Miri only the portable backend exists: the interpreter runs no
//! SIMD intrinsics worth checking, and the portable code is the
//! specification the others are tested against.

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

    /// The backends this CPU (and this build's target) runs, slowest first.
    pub fn supported() -> impl Iterator<Item = Backend> {
        Backend::ALL.into_iter().filter(|b| b.is_supported())
    }
}

impl core::fmt::Display for Backend {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
