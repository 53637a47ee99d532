//! Giving memory back to the kernel where a build would otherwise hold it
//! to its end: the program image's read-only pages once read, and the
//! allocator's free pages after a large release.
//!
//! The tokenizers are built from 15–32 MB of tables embedded in the
//! binary, read once at load and never again. Only mappings of our own executable that are read-only and hold no
//! anonymous (copied-on-write) page are touched; every resident page there
//! is a clean copy of the file, which `MADV_DONTNEED` unmaps without losing
//! anything (the page cache keeps it; a later read maps it again). The
//! relocated read-only data (RELRO) has anonymous pages and is left alone.

/// Unmap the clean, read-only pages of the executable's image. Best effort:
/// any failure (no `/proc`, an unexpected line) leaves everything mapped.
#[cfg(target_os = "linux")]
pub fn release_image() {
    let Ok(exe) = std::fs::read_link("/proc/self/exe") else {
        return;
    };
    let Ok(smaps) = std::fs::read_to_string("/proc/self/smaps") else {
        return;
    };
    for range in clean_read_only(&smaps, &exe.to_string_lossy()) {
        let Some(len) = range.end.checked_sub(range.start) else {
            continue;
        };
        // SAFETY: the range is a whole mapping of the executable, read-only
        // and without anonymous pages (see `clean_read_only`), so nothing in
        // it is process-private state: DONTNEED drops clean page-cache
        // mappings, and later reads fault the same bytes back in from the
        // file. No Rust reference is invalidated, as the contents stay the
        // same.
        unsafe {
            libc::madvise(range.start as *mut libc::c_void, len, libc::MADV_DONTNEED);
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub fn release_image() {}

/// Hand the allocator's free pages back to the kernel (glibc keeps what
/// its per-thread arenas freed, so dropping the files' texts after a
/// composition would not lower the resident set without this).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn trim() {
    // SAFETY: malloc_trim only returns free memory; it takes the
    // allocator's own locks and is safe to call from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn trim() {}

/// One allocator arena for the whole process: a one-shot command's
/// threads allocate in turns (a chunk is read and rendered on every core,
/// then written on one), and glibc's arena per thread kept each one's
/// freed pages apart — 9 MB more peak on a 100,000-file build, no faster.
/// And a fixed threshold (1 MB) for blocks of their own mapping: glibc
/// raises it to the size of each such block freed (up to 32 MB), after
/// which the build's large lists (the plan, the walk) live in the heap
/// and their pages stay resident once freed — 2.5 MB more peak at 100,000
/// files. At 256 KB, the cold build's many mid-sized blocks each got a
/// fresh zeroed mapping: 5% slower, for no less memory.
/// To be called before the command starts any thread.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn one_arena() {
    // SAFETY: mallopt only sets a tunable of the allocator; it is called
    // before the command's threads exist.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1024 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn one_arena() {}

/// The address ranges, from `/proc/self/smaps` text, of the mappings of
/// `exe` that are read-only (`r--p`) and have no anonymous page.
pub fn clean_read_only(smaps: &str, exe: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    // The mapping being read: its range when it is a candidate.
    let mut current: Option<std::ops::Range<usize>> = None;
    for line in smaps.lines() {
        if let Some(range) = mapping_header(line) {
            current = range
                .filter(|(_, perms, path)| *perms == "r--p" && *path == exe)
                .map(|(r, _, _)| r);
            continue;
        }
        if let Some(kb) = line.strip_prefix("Anonymous:") {
            let anonymous = kb.trim().trim_end_matches("kB").trim() != "0";
            if let Some(range) = current.take()
                && !anonymous
            {
                out.push(range);
            }
        }
    }
    out
}

/// A mapping's header line (`start-end perms offset dev inode path`):
/// `Some(None)` for a header not worth parsing further, `None` for any
/// other line.
#[allow(clippy::type_complexity)]
fn mapping_header(line: &str) -> Option<Option<(std::ops::Range<usize>, &str, &str)>> {
    let (range, rest) = field(line)?;
    let (start, end) = range.split_once('-')?;
    let (Ok(start), Ok(end)) = (
        usize::from_str_radix(start, 16),
        usize::from_str_radix(end, 16),
    ) else {
        return None;
    };
    let (perms, rest) = field(rest)?;
    // offset, device, inode, then the path (which may hold spaces).
    let (_, rest) = field(rest)?;
    let (_, rest) = field(rest)?;
    let (_, rest) = field(rest)?;
    let path = rest.trim();
    Some((start < end).then_some((start..end, perms, path)))
}

/// The first whitespace-separated field of `s` and what follows it.
fn field(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    (end > 0).then(|| s.split_at(end))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMAPS: &str = "\
55d0a0000000-55d0a0100000 r--p 00000000 08:01 42 /opt/my tools/ctx
Size:               1024 kB
Anonymous:             0 kB
55d0a0100000-55d0a0200000 r-xp 00100000 08:01 42 /opt/my tools/ctx
Anonymous:             0 kB
55d0a0200000-55d0a0300000 r--p 00200000 08:01 42 /opt/my tools/ctx
Anonymous:            12 kB
55d0a0300000-55d0a0400000 rw-p 00300000 08:01 42 /opt/my tools/ctx
Anonymous:             0 kB
7f0000000000-7f0000001000 r--p 00000000 08:01 43 /usr/lib/libc.so.6
Anonymous:             0 kB
7f0000002000-7f0000003000 r--p 00000000 00:00 0
Anonymous:             0 kB
";

    #[test]
    fn only_clean_read_only_mappings_of_the_executable() {
        let ranges = clean_read_only(SMAPS, "/opt/my tools/ctx");
        assert_eq!(ranges.len(), 1);
        assert_eq!(ranges[0], 0x55d0a0000000..0x55d0a0100000);
    }

    #[test]
    fn nothing_for_another_path_or_garbage() {
        assert!(clean_read_only(SMAPS, "/opt/my").is_empty());
        assert!(clean_read_only("zz-yy r--p\nAnonymous: 0 kB\n", "").is_empty());
        assert!(clean_read_only("", "/x").is_empty());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn release_keeps_the_image_readable() {
        // Whatever it unmaps comes back from the file on the next read.
        static TABLE: [u8; 3 << 20] = [7; 3 << 20];
        let before: u64 = TABLE.iter().map(|&b| u64::from(b)).sum();
        release_image();
        trim();
        let after: u64 = TABLE.iter().map(|&b| u64::from(b)).sum();
        assert_eq!(before, after);
    }

    /// Resident kB of the executable's read-only mappings.
    #[cfg(target_os = "linux")]
    fn image_read_only_kb() -> u64 {
        let exe = std::fs::read_link("/proc/self/exe").expect("exe");
        let exe = exe.to_string_lossy();
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("smaps");
        let mut ours = false;
        let mut kb = 0;
        for line in smaps.lines() {
            if let Some(header) = mapping_header(line) {
                ours = header.is_some_and(|(_, perms, path)| perms == "r--p" && path == exe);
            } else if let Some(rss) = line.strip_prefix("Rss:")
                && ours
            {
                kb += rss
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .unwrap_or(0);
            }
        }
        kb
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_tokenizer_tables_do_not_stay_resident() {
        use crate::core::model::TokenizerKind;
        // The o200k tables alone are 32 MB of the image.
        assert_eq!(
            crate::core::tokens::count(TokenizerKind::O200k, "hello world"),
            2
        );
        let kb = image_read_only_kb();
        assert!(kb < 16 * 1024, "{kb} kB of the image stay resident");
    }
}
