//! What `std` would provide to the lean library (built without the `std`
//! feature): the panic handler and the global allocator.
//!
//! A panic is a bug (every input is checked before it reaches fastmac); the
//! lean library is built with `panic = "abort"`, so it stops the process
//! rather than return from a call in an unknown state. The allocator is
//! libc's `malloc`/`free` (`posix_memalign` for alignments above what
//! `malloc` guarantees everywhere), the same calls Rust's std makes on Unix,
//! so a C program links nothing beyond libc.
#![allow(unsafe_code)] // the allocator and the libc declarations

use core::alloc::{GlobalAlloc, Layout};
use core::ffi::{c_int, c_void};

unsafe extern "C" {
    fn malloc(size: usize) -> *mut c_void;
    fn posix_memalign(out: *mut *mut c_void, align: usize, size: usize) -> c_int;
    fn free(ptr: *mut c_void);
    fn abort() -> !;
}

/// The alignment every `malloc` result has on the 64-bit and 32-bit
/// targets libfastmac builds for (C requires alignment for any scalar type;
/// glibc gives 16 on 64-bit targets, at least 8 everywhere).
const MALLOC_ALIGN: usize = 8;

/// libc's heap.
struct LibcAllocator;

// SAFETY: malloc and posix_memalign return NULL or a fresh block of at least
// `size` bytes with the requested alignment (posix_memalign needs a power of
// two multiple of the pointer size, which `max` with the pointer size keeps,
// as Layout's alignment is a power of two); free releases what they returned.
unsafe impl GlobalAlloc for LibcAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN {
            // SAFETY: any size may be passed; the result is checked by the caller.
            return unsafe { malloc(layout.size()) }.cast();
        }
        let align = layout.align().max(size_of::<usize>());
        let mut block = core::ptr::null_mut();
        // SAFETY: `block` is a writable pointer slot; align is a power of
        // two multiple of the pointer size.
        if unsafe { posix_memalign(&mut block, align, layout.size()) } == 0 {
            block.cast()
        } else {
            core::ptr::null_mut()
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above (GlobalAlloc's contract).
        unsafe { free(ptr.cast()) }
    }
}

#[global_allocator]
static ALLOCATOR: LibcAllocator = LibcAllocator;

/// A panic (a bug) stops the process; nothing unwinds into C.
#[panic_handler]
fn on_panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    // SAFETY: abort has no preconditions.
    unsafe { abort() }
}
