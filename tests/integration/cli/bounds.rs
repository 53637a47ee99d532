//! What a repository ships in `.ctxcurate/` cannot stop or swell a build
//! (issue 22 §3): planted cache packs are refused before their indexes are
//! parsed, and a shipped output file with the last number there is does
//! not stop `--save`; a project file may lower `memory_cache` but not
//! raise it past the default (only the user's global config may).

use crate::common;

use common::{Project, stderr};

/// A pack in the layout of format 1 (no sealed index): `count` records
/// under distinct keys, each pointing at an empty payload.
fn planted_pack(count: u32) -> Vec<u8> {
    let mut out = b"ctxcurate-pack 1\n".to_vec();
    out.extend_from_slice(&count.to_le_bytes());
    for i in 0..count {
        out.push(5);
        out.extend_from_slice(b"views");
        let mut key = [0u8; 32];
        key[..4].copy_from_slice(&i.to_le_bytes());
        out.extend_from_slice(&key);
        out.extend_from_slice(&0u64.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes());
    }
    out
}

#[test]
fn planted_cache_packs_do_not_change_or_stop_a_build() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py"]);
    p.ok(&["set", "src/app.py", "--mode", "skeleton"]);
    let clean = p.ok(&["build"]);
    std::fs::remove_dir_all(p.path(".ctxcurate/cache")).unwrap();
    let packs = p.path(".ctxcurate/cache/packs");
    std::fs::create_dir_all(&packs).unwrap();
    for n in 0..4u8 {
        std::fs::write(packs.join(format!("{n:032x}.pack")), planted_pack(100_000)).unwrap();
    }
    // The new format's header with a forged seal, on a sparse 4 GiB file.
    let mut head = b"ctxcurate-pack 2\n".to_vec();
    head.extend_from_slice(&u32::MAX.to_le_bytes());
    head.extend_from_slice(&(48u64 << 20).to_le_bytes());
    head.extend_from_slice(&[0; 32]);
    let sparse = packs.join(format!("{:032x}.pack", 9));
    std::fs::write(&sparse, &head).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&sparse)
        .unwrap()
        .set_len(1 << 32)
        .unwrap();
    let out = p.run(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), clean);
    // Nothing of the planted indexes is taken for an entry.
    let stats = p.ok(&["cache", "stats"]);
    for line in stats.lines() {
        let entries: u64 = line
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(entries < 1000, "planted entries counted: {stats}");
    }
}

#[test]
fn a_shipped_last_numbered_output_does_not_stop_saves() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py"]);
    let out = p.path(".ctxcurate/out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join(format!("context_{}.md", u64::MAX)), "shipped").unwrap();
    let run = p.run(&["build", "--save"]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(out.join("context_001.md").is_file());
    p.ok(&["build", "--save"]);
    assert!(out.join("context_002.md").is_file());
    assert_eq!(
        std::fs::read_to_string(out.join(format!("context_{}.md", u64::MAX))).unwrap(),
        "shipped"
    );
}

/// The memory line of `cache stats`.
fn memory_line(p: &Project) -> String {
    let stats = p.ok(&["cache", "stats"]);
    stats
        .lines()
        .find(|l| l.starts_with("memory"))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_project_file_cannot_raise_the_memory_bound() {
    let p = Project::fixture();
    p.ok(&["add", "src/app.py"]);
    let clean = p.ok(&["build"]);
    let file = p.read("ctxcurate.toml");
    p.write(
        "ctxcurate.toml",
        &format!("[project]\nmemory_cache = 1000000\n\n{file}"),
    );
    // Clamped to the default, with a note naming the setting.
    assert!(
        memory_line(&p).contains("at most 1024 MiB per process (memory_cache = 1024)"),
        "{}",
        memory_line(&p)
    );
    let run = p.run(&["build"]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(String::from_utf8_lossy(&run.stdout), clean);
    let note = stderr(&run);
    assert!(
        note.contains("memory_cache") && note.contains("1000000") && note.contains("1024"),
        "{note}"
    );
    // Lowering it is the project's to choose, and says nothing.
    p.write(
        "ctxcurate.toml",
        &format!("[project]\nmemory_cache = 64\n\n{file}"),
    );
    assert!(memory_line(&p).contains("(memory_cache = 64)"));
    let run = p.run(&["build"]);
    assert!(!stderr(&run).contains("memory_cache"), "{}", stderr(&run));
    // The user's global config may raise it; the project file then may
    // go up to that, not past it.
    std::fs::create_dir_all(p.global_config().parent().unwrap()).unwrap();
    std::fs::write(p.global_config(), "[project]\nmemory_cache = 4096\n").unwrap();
    assert!(memory_line(&p).contains("(memory_cache = 64)"));
    p.write(
        "ctxcurate.toml",
        &format!("[project]\nmemory_cache = 2048\n\n{file}"),
    );
    assert!(memory_line(&p).contains("(memory_cache = 2048)"));
    p.write(
        "ctxcurate.toml",
        &format!("[project]\nmemory_cache = 1000000\n\n{file}"),
    );
    assert!(
        memory_line(&p).contains("(memory_cache = 4096)"),
        "{}",
        memory_line(&p)
    );
}
