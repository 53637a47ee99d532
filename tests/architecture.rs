//! The layering docs/ARCHITECTURE.md ("Invariants") asks for, checked on the source: the core knows
//! nothing of terminals or of the TUI.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .expect("readable source dir")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_core_imports_no_terminal_crate_and_no_tui() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut files = Vec::new();
    rust_files(&core, &mut files);
    assert!(files.len() > 10, "found the core's files");
    // The shared text rules (`src/text`) are used by the core: same bar.
    let text = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/text");
    let before = files.len();
    rust_files(&text, &mut files);
    assert!(files.len() > before, "found the text module's files");
    let forbidden = [
        "ratatui",
        "crossterm",
        "arboard",
        "tui_tree_widget",
        "crate::tui",
    ];
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for name in forbidden {
                if code.contains(&format!("{name}::")) || code.contains(&format!("use {name}")) {
                    offences.push(format!("{}:{}: {line}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "terminal code in the core:\n{}",
        offences.join("\n")
    );
}

/// Every line the CLI prints goes through `ctx.out` / `ctx.err`, which
/// `main` wraps in the terminal-safe writer (`text::terminal`): a direct
/// `println!` or a fresh `stdout()` would bypass the escaping.
#[test]
fn the_cli_prints_only_through_the_terminal_safe_writer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("cli"), &mut files);
    assert!(files.len() > 3, "found the CLI's files");
    files.push(src.join("main.rs"));
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let is_main = file.ends_with("main.rs");
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            let direct = ["println!", "eprintln!", "print!(", "eprint!(", "dbg!("]
                .iter()
                .any(|m| code.contains(m));
            // `main` opens the two streams once, to wrap them.
            let raw_stream = !is_main && (code.contains("stdout()") || code.contains("stderr()"));
            if direct || raw_stream {
                offences.push(format!("{}:{}: {line}", file.display(), n + 1));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "CLI output that bypasses the terminal-safe writer:\n{}",
        offences.join("\n")
    );
}
