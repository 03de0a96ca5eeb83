//! The pure read pass: the fastest way to touch every byte of a buffer
//! (docs/performance.md), the floor no MAC can beat. It XORs the
//! buffer into a few wide accumulators, with the widest vectors the CPU has.
#![allow(unsafe_code)] // SIMD intrinsics; each block states its safety

/// Which kernel runs.
#[derive(Clone, Copy, Debug)]
pub enum ReadKernel {
    /// `vpternlogq` 3-way XOR of 512-bit loads.
    #[cfg(target_arch = "x86_64")]
    Avx512,
    /// 256-bit XOR.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// 64-bit XOR, auto-vectorized as the target allows.
    Portable,
}

impl ReadKernel {
    /// The widest kernel this CPU runs.
    pub fn detect() -> ReadKernel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return ReadKernel::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return ReadKernel::Avx2;
            }
        }
        ReadKernel::Portable
    }

    /// The name used as the `impl` of the report rows.
    pub fn name(self) -> &'static str {
        match self {
            #[cfg(target_arch = "x86_64")]
            ReadKernel::Avx512 => "avx512",
            #[cfg(target_arch = "x86_64")]
            ReadKernel::Avx2 => "avx2",
            ReadKernel::Portable => "portable",
        }
    }

    /// Reads all of `data`; returns a byte that depends on every byte.
    #[inline]
    pub fn read(self, data: &[u8]) -> u8 {
        match self {
            // SAFETY: detect() chose this kernel because the CPU has it.
            #[cfg(target_arch = "x86_64")]
            ReadKernel::Avx512 => unsafe { avx512(data) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            ReadKernel::Avx2 => unsafe { avx2(data) },
            ReadKernel::Portable => portable(data),
        }
    }
}

fn portable(data: &[u8]) -> u8 {
    let mut acc = [0u64; 8];
    let mut chunks = data.chunks_exact(64);
    for chunk in &mut chunks {
        for (a, word) in acc.iter_mut().zip(chunk.chunks_exact(8)) {
            *a ^= u64::from_le_bytes(word.try_into().expect("8 bytes"));
        }
    }
    let tail = chunks.remainder().iter().fold(0u8, |x, &b| x ^ b);
    acc.iter().fold(tail, |x, &a| x ^ a.to_le_bytes().iter().fold(0, |y, &b| y ^ b))
}

/// # Safety
/// The CPU must support AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn avx512(data: &[u8]) -> u8 {
    use core::arch::x86_64::{_mm512_loadu_si512, _mm512_setzero_si512, _mm512_ternarylogic_epi64, _mm512_xor_si512};
    let mut acc = [_mm512_setzero_si512(); 4];
    let ptr = data.as_ptr();
    let rounds = data.len() / 512;
    for r in 0..rounds {
        for (i, a) in acc.iter_mut().enumerate() {
            // SAFETY: bytes 512 r + 128 i .. + 128 are inside `data`.
            let (x, y) = unsafe {
                let p = ptr.add(512 * r + 128 * i);
                (_mm512_loadu_si512(p.cast()), _mm512_loadu_si512(p.add(64).cast()))
            };
            *a = _mm512_ternarylogic_epi64::<0x96>(*a, x, y); // a ^ x ^ y
        }
    }
    let all = _mm512_xor_si512(_mm512_xor_si512(acc[0], acc[1]), _mm512_xor_si512(acc[2], acc[3]));
    let mut lanes = [0u8; 64];
    // SAFETY: 64 writable bytes.
    unsafe { core::arch::x86_64::_mm512_storeu_si512(lanes.as_mut_ptr().cast(), all) };
    lanes.iter().fold(portable(&data[512 * rounds..]), |x, &b| x ^ b)
}

/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn avx2(data: &[u8]) -> u8 {
    use core::arch::x86_64::{_mm256_loadu_si256, _mm256_setzero_si256, _mm256_storeu_si256, _mm256_xor_si256};
    let mut acc = [_mm256_setzero_si256(); 4];
    let ptr = data.as_ptr();
    let rounds = data.len() / 128;
    for r in 0..rounds {
        for (i, a) in acc.iter_mut().enumerate() {
            // SAFETY: bytes 128 r + 32 i .. + 32 are inside `data`.
            *a = _mm256_xor_si256(*a, unsafe { _mm256_loadu_si256(ptr.add(128 * r + 32 * i).cast()) });
        }
    }
    let all = _mm256_xor_si256(_mm256_xor_si256(acc[0], acc[1]), _mm256_xor_si256(acc[2], acc[3]));
    let mut lanes = [0u8; 32];
    // SAFETY: 32 writable bytes.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), all) };
    lanes.iter().fold(portable(&data[128 * rounds..]), |x, &b| x ^ b)
}
