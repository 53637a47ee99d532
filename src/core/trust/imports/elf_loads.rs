//! The shared libraries a program of the project loads as it starts:
//! an ELF file's `DT_NEEDED` names looked for where its `DT_RPATH` and
//! `DT_RUNPATH` folders inside the project say (`$ORIGIN` its own
//! folder), as the dynamic loader looks (recheck 27: a program linked
//! with `-Wl,-rpath,…/tools` ran an edited `tools/libhelp.so`
//! unreviewed). Read from the program headers, as the loader reads them
//! (a file stripped of its section headers still loads its libraries).

use super::places::first_of;
use super::{MAX_NAMES, Reached};
use object::elf::{FileHeader32, FileHeader64};
use object::read::elf::{Dyn, FileHeader, ProgramHeader};
use object::{Endianness, elf};
use std::path::{Path, PathBuf};

/// What an ELF file asks the loader for: the libraries it needs, and the
/// folders to look in first (`DT_RPATH`, then `DT_RUNPATH`), as written.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Asks {
    pub(super) needed: Vec<String>,
    pub(super) paths: Vec<String>,
    /// How many of `paths` are `DT_RPATH`'s.
    pub(super) rpath_len: usize,
}

/// What ELF file `data` asks the loader for; `None` when it is no ELF
/// file (or not one this reads).
pub(super) fn asks(data: &[u8]) -> Option<Asks> {
    // `e_ident[EI_CLASS]`: 32 or 64 bits.
    match *data.get(4)? {
        elf::ELFCLASS64 => asks_of::<FileHeader64<Endianness>>(data),
        elf::ELFCLASS32 => asks_of::<FileHeader32<Endianness>>(data),
        _ => None,
    }
}

fn asks_of<Elf: FileHeader<Endian = Endianness>>(data: &[u8]) -> Option<Asks> {
    let header = Elf::parse(data).ok()?;
    let endian = header.endian().ok()?;
    let segments = header.program_headers(endian, data).ok()?;
    let entries = segments
        .iter()
        .find_map(|s| s.dynamic(endian, data).ok().flatten())?;
    let value = |tag: i64| {
        entries
            .iter()
            .find(|d| d.tag(endian) == tag)
            .map(|d| d.val(endian))
    };
    let (address, size) = (value(elf::DT_STRTAB)?, value(elf::DT_STRSZ)?);
    let strings = segments
        .iter()
        .filter(|s| s.p_type(endian) == elf::PT_LOAD)
        .find_map(|s| s.data_range(endian, data, address, size).ok().flatten())?;
    let text = |offset: u64| -> Option<String> {
        let rest = strings.get(usize::try_from(offset).ok()?..)?;
        let end = rest.iter().position(|b| *b == 0)?;
        String::from_utf8(rest[..end].to_vec()).ok()
    };
    let mut asks = Asks::default();
    let mut runpath = Vec::new();
    for entry in entries.iter().take_while(|d| d.tag(endian) != 0) {
        let Some(found) = text(entry.val(endian)) else {
            continue;
        };
        match entry.tag(endian) {
            elf::DT_NEEDED => asks.needed.push(found),
            elf::DT_RPATH => asks.paths.extend(found.split(':').map(String::from)),
            elf::DT_RUNPATH => runpath.extend(found.split(':').map(String::from)),
            _ => {}
        }
    }
    asks.rpath_len = asks.paths.len();
    asks.paths.extend(runpath);
    asks.needed.truncate(MAX_NAMES);
    asks.paths.truncate(MAX_NAMES);
    Some(asks)
}

/// The libraries program `real` (inside `real_root`, run in the root)
/// loads from the project: each needed name looked for in the folders its
/// paths name inside the project, in order (one added at an earlier
/// folder would be loaded instead); a name with a `/` where it says. The
/// files found go to `found` (read in turn: a library's own libraries).
pub(super) fn libraries(
    real_root: &Path,
    real: &Path,
    data: &[u8],
    out: &mut Reached,
    found: &mut Vec<(String, PathBuf)>,
) {
    let Some(asks) = asks(data) else {
        return;
    };
    let origin = real
        .parent()
        .unwrap_or(real_root)
        .to_string_lossy()
        .to_string();
    let mut folders: Vec<PathBuf> = Vec::new();
    for (at, path) in asks.paths.iter().enumerate() {
        let path = path
            .replace("${ORIGIN}", &origin)
            .replace("$ORIGIN", &origin);
        if path.contains('$') {
            // `$LIB`, `$PLATFORM`: what the loader makes of them.
            out.patterns.insert(format!(
                "{}runs a program whose library path `{path}` is known only as it runs ({})",
                super::super::unknown::MARK,
                super::places::rel_of(real_root, real)
            ));
            continue;
        }
        // An empty entry is the folder the program runs in, the root.
        let dir = real_root.join(path);
        if crate::core::paths::lexical(&dir).starts_with(real_root) {
            folders.push(dir.clone());
            // The program's own `DT_RPATH` serves its libraries too.
            if at < asks.rpath_len && !out.elf_rpath.contains(&dir) {
                out.elf_rpath.push(dir);
            }
        }
    }
    folders.extend(out.elf_rpath.iter().cloned());
    for name in &asks.needed {
        let candidates: Vec<PathBuf> = match name.contains('/') {
            true => vec![real_root.join(name)],
            false => folders
                .iter()
                .flat_map(|dir| {
                    CAPABILITY_FOLDERS
                        .iter()
                        .map(move |sub| dir.join(sub).join(name))
                })
                .collect(),
        };
        first_of(real_root, &candidates, out, found);
    }
}

/// The folders below each library folder the loader looks in first, by
/// what the processor can do (glibc's `glibc-hwcaps` and its older
/// ones), then the folder itself (recheck 28: one added in
/// `lib/glibc-hwcaps/x86-64-v2/` was loaded instead).
const CAPABILITY_FOLDERS: &[&str] = &[
    "glibc-hwcaps/x86-64-v4",
    "glibc-hwcaps/x86-64-v3",
    "glibc-hwcaps/x86-64-v2",
    "glibc-hwcaps/power10",
    "glibc-hwcaps/power9",
    "glibc-hwcaps/z16",
    "glibc-hwcaps/z15",
    "glibc-hwcaps/z14",
    "glibc-hwcaps/z13",
    "tls/haswell/avx512_1/x86_64",
    "tls/haswell/avx512_1",
    "tls/haswell/x86_64",
    "tls/haswell",
    "tls/avx512_1/x86_64",
    "tls/avx512_1",
    "tls/x86_64",
    "tls",
    "haswell/avx512_1/x86_64",
    "haswell/avx512_1",
    "haswell/x86_64",
    "haswell",
    "avx512_1/x86_64",
    "avx512_1",
    "x86_64",
    "",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A program the machine's compiler links against a library of its
    /// own with an rpath: what it asks for is read back.
    #[test]
    fn a_linked_program_names_its_libraries_and_paths() {
        let dir = tempfile::tempdir().unwrap();
        let at = |n: &str| dir.path().join(n);
        std::fs::write(at("help.c"), "void help(void) {}\n").unwrap();
        std::fs::write(
            at("main.c"),
            "void help(void);\nint main(void) { help(); }\n",
        )
        .unwrap();
        let cc = |args: &[&str]| {
            std::process::Command::new("cc")
                .args(args)
                .current_dir(dir.path())
                .status()
                .is_ok_and(|s| s.success())
        };
        if !cc(&["-shared", "-fPIC", "-o", "libhelp.so", "help.c"]) {
            eprintln!("skipped: no C compiler");
            return;
        }
        assert!(cc(&[
            "-o",
            "main",
            "main.c",
            "-L.",
            "-lhelp",
            "-Wl,-rpath,$ORIGIN/lib:/opt/x",
        ]));
        let got = asks(&std::fs::read(at("main")).unwrap()).unwrap();
        assert!(got.needed.contains(&"libhelp.so".to_string()), "{got:?}");
        assert_eq!(got.paths, ["$ORIGIN/lib", "/opt/x"]);
        assert_eq!(asks(b"#!/bin/sh\n"), None);
        assert_eq!(asks(b"\x7fELF\x02\x01\x01"), None);
    }
}
