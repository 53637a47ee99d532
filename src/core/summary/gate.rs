//! What may leave for an external `summary_command`. The command is the
//! user's own program (an LLM CLI, often a remote one), but *which* files it
//! reads is decided by the preset, and a repository ships presets: one can
//! route `.env` or a config holding a key to the summarizer. So before a
//! file goes out, the same two rules that guard a context guard it here —
//! the credential-file names of `core::walk::is_sensitive` and the secret
//! scanner of `core::secrets` on the raw text, with the rules for its kind
//! of file (by its name, else by its lines) — and a file either rule
//! stops gets the built-in summary instead (the caller's fallback), with a
//! note naming the file and the line, never the secret.

use crate::core::secret_scan::rules::RuleSet;
use crate::core::walk;

/// Why `text` (the content of `path`) must not go to an external program,
/// as a note for the reader; `None` when it may.
pub fn withheld(path: &str, text: &str) -> Option<String> {
    if walk::is_sensitive(path) {
        return Some(format!(
            "summary_command was not run on {path}: its name marks a credential file; \
             the built-in summary is shown"
        ));
    }
    // As a build scans the file: the rules for its kind of file too; a
    // name that says no kind (`deploy/db`, `settings.txt`) gives the text
    // the kind its lines show.
    let rules = RuleSet::builtin();
    let hits = if rules.file_kind(path).is_empty() {
        rules.scan_unnamed(text)
    } else {
        rules.scan_file(text, path)
    };
    let first = hits.first()?;
    // The kind and the line say where to look; the masked form is left out
    // too, since a note travels into the context itself.
    let more = match hits.len() {
        1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    Some(format!(
        "summary_command was not run on {path}: a likely secret ({}) on line {}{more}; \
         the built-in summary is shown",
        first.kind, first.line
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Split so this file does not itself hold a key-shaped string.
    fn aws_key() -> String {
        format!("AKIA{}", "IOSFODNN7EXAMPLQ")
    }

    #[test]
    fn credential_names_and_secrets_are_withheld_without_echoing_them() {
        let note = withheld(".env", "DEBUG=1\n").expect("a credential file by name");
        assert!(
            note.contains(".env") && note.contains("credential file"),
            "{note}"
        );
        let key = aws_key();
        let text = format!("import os\n\n\ndef f():\n    return '{key}'\n");
        let note = withheld("src/settings.py", &text).expect("a likely secret");
        assert!(
            note.contains("src/settings.py") && note.contains("line 5"),
            "{note}"
        );
        assert!(!note.contains(&key[4..]), "{note}");
        assert_eq!(withheld("src/app.py", "def f():\n    return 1\n"), None);
    }
}
