//! Picks the NH backend: the fastest one the CPU has, detected once, unless
//! the `FASTMAC_BACKEND` environment variable forces one (so that tests and
//! benchmarks can run every backend on one machine).
//!
//! `FASTMAC_BACKEND` takes `portable`, `sse2`, `avx2`, `avx512` or `neon`.
//! [`Backend::from_env`] reports an unknown or unsupported value as an
//! [`Error::Backend`]; [`Backend::detect`], which the MAC constructors use and
//! which cannot fail, then falls back to the best supported backend (as if the
//! variable were unset). Tools that want the error shown call `from_env`.

use std::sync::OnceLock;

use crate::Error;

/// Environment variable that forces an NH backend.
pub const BACKEND_ENV: &str = "FASTMAC_BACKEND";

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

impl Backend {
    /// Every backend, slowest first.
    pub const ALL: [Backend; 5] = [Backend::Portable, Backend::Sse2, Backend::Avx2, Backend::Avx512, Backend::Neon];

    /// The name `FASTMAC_BACKEND` and the benchmarks use.
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
            .ok_or_else(|| Error::Backend(format!("unknown NH backend {name:?} (expected portable, sse2, avx2, avx512 or neon)")))
    }

    /// Whether this CPU (and this build's target) can run the backend.
    pub fn is_supported(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Sse2 => std::arch::is_x86_feature_detected!("sse2"),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512vl")
            }
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => std::arch::is_aarch64_feature_detected!("neon"),
            #[allow(unreachable_patterns)] // the other architecture's backends
            _ => false,
        }
    }

    /// Inputs up to this many bytes are hashed with the SSE2 kernel, which
    /// is faster for them than the backend's own (see `NhKey::hash`).
    #[cfg(target_arch = "x86_64")]
    pub(super) fn small_input(self) -> usize {
        match self {
            Backend::Avx512 => 64,
            Backend::Avx2 => 32,
            _ => 0,
        }
    }

    /// The fastest supported backend, ignoring the environment.
    pub fn best() -> Backend {
        [Backend::Avx512, Backend::Avx2, Backend::Sse2, Backend::Neon]
            .into_iter()
            .find(|b| b.is_supported())
            .unwrap_or(Backend::Portable)
    }

    /// The backend `FASTMAC_BACKEND` asks for: `Ok(None)` when it is unset
    /// or empty, an error when it names no backend or one this CPU lacks.
    pub fn from_env() -> Result<Option<Backend>, Error> {
        match std::env::var(BACKEND_ENV) {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => Err(Error::Backend(format!("{BACKEND_ENV} is not valid UTF-8"))),
            Ok(value) if value.trim().is_empty() => Ok(None),
            Ok(value) => {
                let backend = Backend::from_name(value.trim())?;
                if backend.is_supported() {
                    Ok(Some(backend))
                } else {
                    Err(Error::Backend(format!(
                        "{BACKEND_ENV}={} is not supported on this CPU or target",
                        backend.name()
                    )))
                }
            }
        }
    }

    /// The backend new MACs use: `FASTMAC_BACKEND` when it names a supported
    /// backend, else [`Backend::best`]. Decided once per process.
    pub fn detect() -> Backend {
        static CHOSEN: OnceLock<Backend> = OnceLock::new();
        *CHOSEN.get_or_init(|| Backend::from_env().ok().flatten().unwrap_or_else(Backend::best))
    }
}

impl core::fmt::Display for Backend {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
