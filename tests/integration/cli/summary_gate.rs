//! The user's own `summary_command` never receives a credential: a
//! repository's preset may route `.env` or a file holding a key to the
//! summary view, and the summarizer (an LLM CLI, often remote) would read
//! the raw text before any scan. Through the real binary: the command is a
//! script in the user's global config that copies its stdin to a marker
//! file; the marker must never hold the secret, and the context shows the
//! built-in summary with a note naming file and line.

use crate::common;

use std::path::Path;

use common::{Project, stderr};

// Split so this file does not itself hold key-shaped strings.
fn aws_key() -> String {
    format!("AKIA{}", "IOSFODNN7EXAMPL3")
}

fn db_password() -> String {
    format!("{}{}", "Zq8#vT2!mW9pL4x", "Rk7nB3yH6sJ1")
}

/// A project whose global config names a summarizer that appends its stdin
/// to `marker.log` (outside the project) and prints `EXTERNAL SUMMARY`.
fn project(files: &[(&str, &str)], preset: &str) -> (Project, std::path::PathBuf) {
    let p = Project::empty();
    for (rel, text) in files {
        p.write(rel, text);
    }
    let marker = p.config_home.path().join("marker.log");
    let script = p.config_home.path().join("summarize.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat >> '{}'\necho EXTERNAL SUMMARY\n",
            marker.display()
        ),
    )
    .unwrap();
    make_executable(&script);
    let global = p.global_config();
    std::fs::create_dir_all(global.parent().unwrap()).unwrap();
    std::fs::write(
        &global,
        format!("[project]\nsummary_command = [\"{}\"]\n", script.display()),
    )
    .unwrap();
    p.write("ctxcurate.toml", preset);
    (p, marker)
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn marker_text(marker: &Path) -> String {
    std::fs::read_to_string(marker).unwrap_or_default()
}

/// A module with a key deep inside a function body, where the built-in
/// summary (an outline of the top-level symbols) does not show it.
fn settings_py() -> String {
    let mut text = "\"\"\"Deployment settings.\"\"\"\n\n".to_string();
    for i in 0..6 {
        text.push_str(&format!(
            "def helper{i}(x):\n    y = x + {i}\n    return y * 2\n\n"
        ));
    }
    text.push_str(&format!(
        "def credentials():\n    key = \"{}\"\n    return key\n",
        aws_key()
    ));
    text
}

#[test]
fn a_file_holding_a_key_is_summarized_in_house_not_sent_to_the_command() {
    let text = settings_py();
    let line = text.lines().position(|l| l.contains("AKIA")).unwrap() + 1;
    let (p, marker) = project(
        &[
            ("settings.py", &text),
            (
                "clean.py",
                "def ok():\n    return 1\n\n".repeat(20).as_str(),
            ),
        ],
        "[[presets.default.files]]\npath = \"settings.py\"\nview_mode = \"summary\"\n\n\
         [[presets.default.files]]\npath = \"clean.py\"\nview_mode = \"summary\"\n",
    );
    let out = p.run(&["build", "--allow-secrets"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let context = String::from_utf8(out.stdout.clone()).unwrap();
    let sent = marker_text(&marker);
    assert!(!sent.contains(&aws_key()), "the key reached the summarizer");
    // The command still runs for the clean file: the gate is per file.
    assert!(sent.contains("def ok()"), "{sent}");
    assert!(context.contains("EXTERNAL SUMMARY"), "{context}");
    // The built-in summary (its outline) and a note naming file and line.
    assert!(context.contains("- `def credentials()`"), "{context}");
    let note = format!(
        "> note: summary_command was not run on settings.py: a likely secret (AWS access key) \
         on line {line}; the built-in summary is shown"
    );
    assert!(context.contains(&note), "{note}\n---\n{context}");
    let all = format!("{context}{}", stderr(&out));
    assert!(!all.contains(&aws_key()), "the key is not in the output");
}

#[test]
fn a_credential_file_by_name_never_reaches_the_command() {
    let env = format!(
        "DATABASE_URL=postgres://app@db/app\nDB_PASSWORD={}\n",
        db_password()
    );
    let (p, marker) = project(
        &[(".env", &env)],
        "[[presets.default.files]]\npath = \".env\"\nview_mode = \"summary\"\n",
    );
    // Whatever else stops it (a secret in the built-in summary, a skipped
    // sensitive entry), the raw text never goes to the program.
    let out = p.run(&["build", "--allow-secrets"]);
    let sent = marker_text(&marker);
    assert!(
        !sent.contains(&db_password()),
        "the .env reached the summarizer"
    );
    assert!(
        !sent.contains("DATABASE_URL"),
        "the .env reached the summarizer: {sent}"
    );
    let context = String::from_utf8_lossy(&out.stdout);
    assert!(!context.contains("EXTERNAL SUMMARY"), "{context}");
    // Today the explicit entry is honoured; once project entries to
    // credential files need consent it may be skipped instead. Either way,
    // shown means shown with the built-in summary and the note.
    if context.contains("### .env [summary]") {
        assert!(
            context.contains(
                "> note: summary_command was not run on .env: its name marks a credential file; \
                 the built-in summary is shown"
            ),
            "{context}"
        );
    }
}
