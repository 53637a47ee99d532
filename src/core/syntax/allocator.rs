//! tree-sitter's memory from mimalloc instead of the C library's malloc: a
//! parse makes and frees hundreds of thousands of small nodes, and with
//! glibc's allocator that bookkeeping was about a tenth of a cold skeleton
//! build (measured on the Python stdlib: median 2.85 s → 2.65 s wall,
//! 5.3 s → 5.0 s CPU). Our own Rust allocations keep the system allocator,
//! which gives freed memory back (`core::memory::trim`).
//!
//! It also counts what tree-sitter holds, per thread and for the process,
//! so a parse has a memory bound as well as a deadline
//! (`lang::Budget`): malformed C++ (`X<X<X<…`, a megabyte of it) made
//! tree-sitter's error recovery take 1.7 GB for one file within its 3 s,
//! and each core parses one.

use std::cell::Cell;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

unsafe extern "C" {
    /// mimalloc's size of a block it gave (in the crate only with its
    /// `extended` feature, which adds a dependency for one declaration).
    fn mi_usable_size(p: *const c_void) -> usize;
}

thread_local! {
    /// Bytes tree-sitter allocated on this thread less those it freed
    /// here: a parse's growth is the change over the parse.
    static HERE: Cell<isize> = const { Cell::new(0) };
    /// This thread's change not yet added to [`LIVE`].
    static UNSHARED: Cell<isize> = const { Cell::new(0) };
}

/// What tree-sitter holds in the whole process, give or take a MiB per
/// thread (each thread adds its change in steps of [`SHARE_STEP`]).
static LIVE: AtomicIsize = AtomicIsize::new(0);
const SHARE_STEP: isize = 1 << 20;
static INSTALLED: AtomicBool = AtomicBool::new(false);

fn count(delta: isize) {
    HERE.set(HERE.get().wrapping_add(delta));
    let unshared = UNSHARED.get().wrapping_add(delta);
    if unshared.unsigned_abs() >= SHARE_STEP.unsigned_abs() {
        LIVE.fetch_add(unshared, Ordering::Relaxed);
        UNSHARED.set(0);
    } else {
        UNSHARED.set(unshared);
    }
}

/// The bytes tree-sitter holds for this thread's allocations (see
/// [`HERE`]); 0 until [`install`].
pub fn thread_bytes() -> isize {
    HERE.get()
}

/// The bytes tree-sitter holds in the whole process, within a MiB per
/// thread; 0 until [`install`].
pub fn process_bytes() -> isize {
    LIVE.load(Ordering::Relaxed)
}

/// Whether [`install`] ran: without it nothing is counted (the library's
/// own tests, the fuzz targets), and no parse stops for memory.
pub fn installed() -> bool {
    INSTALLED.load(Ordering::Relaxed)
}

fn size_of(p: *const c_void) -> isize {
    // SAFETY: `p` is a live block of mimalloc's (callers check null).
    isize::try_from(unsafe { mi_usable_size(p) }).unwrap_or(isize::MAX)
}

/// Route every tree-sitter allocation to mimalloc.
///
/// # Safety
///
/// Call once, before any other tree-sitter call and while no tree-sitter
/// object exists (at the start of `main`, before any thread starts).
pub unsafe fn install() {
    let allocator = tree_sitter::Allocator {
        malloc,
        calloc,
        realloc,
        free,
    };
    // SAFETY: the four functions are mimalloc's, counted (one family,
    // malloc's alignment, null only when out of memory); the caller
    // guarantees no tree-sitter object exists yet.
    unsafe { tree_sitter::set_allocator(Some(allocator)) };
    INSTALLED.store(true, Ordering::Relaxed);
}

unsafe extern "C" fn malloc(size: usize) -> *mut c_void {
    // SAFETY: a plain allocation call.
    let p = unsafe { libmimalloc_sys::mi_malloc(size) };
    if !p.is_null() {
        count(size_of(p));
    }
    p
}

unsafe extern "C" fn realloc(old: *mut c_void, size: usize) -> *mut c_void {
    let before = if old.is_null() { 0 } else { size_of(old) };
    // SAFETY: `old` is null or a live block of this family (tree-sitter's
    // contract with its allocator).
    let p = unsafe { libmimalloc_sys::mi_realloc(old, size) };
    // A failed reallocation leaves the old block as it was.
    if !p.is_null() {
        count(size_of(p).wrapping_sub(before));
    }
    p
}

unsafe extern "C" fn free(p: *mut c_void) {
    if !p.is_null() {
        count(size_of(p).wrapping_neg());
    }
    // SAFETY: `p` is null or a live block of this family.
    unsafe { libmimalloc_sys::mi_free(p) };
}

/// `calloc` over mimalloc's zeroed allocation (the crate's `mi_calloc`
/// needs its `extended` feature); an overflowing size is a failed
/// allocation, as in C.
unsafe extern "C" fn calloc(n: usize, size: usize) -> *mut c_void {
    match n.checked_mul(size) {
        Some(total) => {
            // SAFETY: a plain allocation call.
            let p = unsafe { libmimalloc_sys::mi_zalloc(total) };
            if !p.is_null() {
                count(size_of(p));
            }
            p
        }
        None => std::ptr::null_mut(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn calloc_zeroes_and_refuses_overflow() {
        // SAFETY: the memory is freed with the same family and not used after.
        unsafe {
            let p = super::calloc(16, 4).cast::<u8>();
            assert!(!p.is_null());
            assert!(std::slice::from_raw_parts(p, 64).iter().all(|&b| b == 0));
            super::free(p.cast());
            assert!(super::calloc(usize::MAX, 2).is_null());
        }
    }

    #[test]
    fn what_is_allocated_and_freed_is_counted_on_its_thread() {
        let start = super::thread_bytes();
        // SAFETY: each block is freed once, by the same family.
        unsafe {
            let a = super::malloc(1000);
            assert!(super::thread_bytes() - start >= 1000);
            let b = super::realloc(a, 100_000);
            assert!(super::thread_bytes() - start >= 100_000);
            let c = super::calloc(10, 10);
            super::free(b);
            super::free(c);
        }
        assert_eq!(super::thread_bytes(), start);
    }
}
