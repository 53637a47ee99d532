//! A folder swapped for a symlink while a file in it is read (issue 22
//! §4): a racing process makes `d/` flip between a real folder and a link
//! to a folder outside the project that holds a secret, while the project
//! is read and built again and again. The check-then-open reading read
//! the outside file in about a quarter of the builds; reads now open
//! beneath the root and never follow the link.

#![cfg(target_os = "linux")]

use crate::common;

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use common::Project;
use ctxcurate::core::walk::{Content, read_content};

const MARKER: &str = "OUTSIDE-SECRET-MARKER";

/// Swaps `a` and `b` atomically (`renameat2(RENAME_EXCHANGE)`) until told
/// to stop; returns how many swaps it made.
struct Swapper {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<usize>,
}

impl Swapper {
    fn start(a: PathBuf, b: PathBuf) -> Swapper {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let a = CString::new(a.as_os_str().as_bytes()).unwrap();
            let b = CString::new(b.as_os_str().as_bytes()).unwrap();
            let mut swaps = 0;
            while !flag.load(Ordering::Relaxed) {
                // SAFETY: two valid NUL-terminated paths.
                let r = unsafe {
                    libc::renameat2(
                        libc::AT_FDCWD,
                        a.as_ptr(),
                        libc::AT_FDCWD,
                        b.as_ptr(),
                        libc::RENAME_EXCHANGE,
                    )
                };
                if r != 0 && !three_renames(&a, &b) {
                    // The project is gone (a failed test cleaned up).
                    break;
                }
                swaps += 1;
            }
            swaps
        });
        Swapper { stop, thread }
    }

    fn stop(self) -> usize {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("the swapper ran")
    }
}

/// Where `renameat2(RENAME_EXCHANGE)` is not supported (some overlay
/// file systems): the same swap in three renames (not atomic, still a race).
fn three_renames(a: &CString, b: &CString) -> bool {
    let mut tmp = a.as_bytes().to_vec();
    tmp.extend_from_slice(b".tmp");
    let tmp = CString::new(tmp).unwrap();
    // SAFETY: valid NUL-terminated paths.
    unsafe {
        libc::rename(a.as_ptr(), tmp.as_ptr()) == 0
            && libc::rename(b.as_ptr(), a.as_ptr()) == 0
            && libc::rename(tmp.as_ptr(), b.as_ptr()) == 0
    }
}

/// A project whose `d/a.txt` is harmless, with `d.swap`, a link to an
/// outside folder whose `a.txt` holds the marker, ready to trade places.
fn racing_project(outside: &Path) -> Project {
    let p = Project::empty();
    p.write("d/a.txt", "inside text\n");
    p.write(
        "ctxcurate.toml",
        "[presets.default]\nfiles = [\"d/a.txt\"]\n",
    );
    std::fs::write(outside.join("a.txt"), format!("{MARKER}\n")).unwrap();
    std::os::unix::fs::symlink(outside, p.path("d.swap")).unwrap();
    p
}

#[test]
fn a_folder_swapped_for_a_link_is_never_followed_by_reads() {
    let outside = tempfile::tempdir().unwrap();
    let p = racing_project(outside.path());
    let swapper = Swapper::start(p.path("d"), p.path("d.swap"));
    let (mut inside, mut refused) = (0, 0);
    for _ in 0..20_000 {
        match read_content(p.root(), "d/a.txt") {
            Content::Text { text, .. } => {
                assert!(!text.contains(MARKER), "read outside the root: {text}");
                inside += 1;
            }
            Content::Unreadable(_) => refused += 1,
        }
    }
    let swaps = swapper.stop();
    assert!(
        swaps > 0 && inside > 0,
        "{swaps} swaps, {inside} reads inside"
    );
    eprintln!("{swaps} swaps: {inside} read inside, {refused} refused");
}

#[test]
fn a_folder_swapped_for_a_link_is_never_followed_by_builds() {
    let outside = tempfile::tempdir().unwrap();
    let p = racing_project(outside.path());
    let swapper = Swapper::start(p.path("d"), p.path("d.swap"));
    let mut built = 0;
    for _ in 0..50 {
        let out = p.run(&["build", "-q"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains(MARKER), "built outside content:\n{text}");
        built += usize::from(out.status.success());
    }
    swapper.stop();
    assert!(built > 0, "some builds ran");
}
